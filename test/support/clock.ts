/**
 * A wall clock a test file can move: hand `now` to the runtime (`startTestRuntime({ clock })`) and `setTo`
 * a moment the test needs; it is back at the real time after each test.
 */
export const useMovableClock = () => {
  let offsetMs = 0;
  afterEach(() => {
    offsetMs = 0;
  });
  return {
    now: (): number => Date.now() + offsetMs,
    /** From now on the clock reads `at` (a time in ms), and runs on from there. */
    setTo: (at: number): void => {
      offsetMs = at - Date.now();
    },
  };
};
