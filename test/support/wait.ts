/** Waits, checking every `everyMs`, until `check` holds; fails after `timeoutMs`. */
export const until = async (check: () => Promise<boolean>, timeoutMs: number, everyMs = 100): Promise<void> => {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
};
