/**
 * The table `npm test` ends with (bin/test/run-phases.ts): each phase's seconds and test counts, then the
 * slowest test files across the Jest phases. The per-file seconds are Jest's own (a file's run in its
 * worker, its hooks included), so a file that starts a local runtime carries that start.
 */

/** What test/support/summary-reporter.js writes for one Jest run. */
export interface PhaseTimings {
  passed: number;
  failed: number;
  skipped: number;
  files: { file: string; seconds: number; tests: number }[];
}

export interface PhaseResult {
  phase: string;
  seconds: number;
  /** When it started, counted from the start of the run (phases run side by side). */
  startedAtSeconds?: number;
  exitCode: number;
  /**
   * The signal that ended the phase's npm process, if one did (its children may still be running), or
   * `stopped` when the runner stopped it because another phase failed.
   */
  signal?: string;
  /** Absent for a phase that is not a Jest run (or one that did not get to report). */
  jest?: PhaseTimings;
}

export const SLOWEST_FILES = 15;

const seconds = (value: number) => value.toFixed(1);

/**
 * `wallSeconds` is the run's own duration; without it (phases run one after another) the total is the
 * phases' sum. The rows are in the order the phases started.
 */
export const timingsReport = (results: PhaseResult[], phaseCount: number, wallSeconds?: number): string => {
  const phaseSeconds = results.reduce((sum, result) => sum + result.seconds, 0);
  const totalSeconds = wallSeconds ?? phaseSeconds;
  const phaseRows = [...results]
    .sort((a, b) => (a.startedAtSeconds ?? 0) - (b.startedAtSeconds ?? 0))
    .map(({ phase, seconds: s, startedAtSeconds, exitCode, signal, jest }) => {
      const tests = jest ? `${jest.passed} passed, ${jest.failed} failed, ${jest.skipped} skipped` : '';
      const outcome =
        signal === 'stopped'
          ? 'stopped (another phase failed)'
          : signal
            ? `killed (${signal})`
            : exitCode === 0
              ? 'ok'
              : `failed (exit ${exitCode})`;
      return `| ${phase} | ${seconds(startedAtSeconds ?? 0)} | ${seconds(s)} | ${tests} | ${outcome} |`;
    });
  const sideBySide = wallSeconds !== undefined && phaseSeconds > wallSeconds + 1;
  const notRun = phaseCount - results.length;
  const slowest = results
    .flatMap(({ phase, jest }) => (jest?.files ?? []).map((file) => ({ phase, ...file })))
    .sort((a, b) => b.seconds - a.seconds)
    .slice(0, SLOWEST_FILES)
    .map(({ phase, file, seconds: s, tests }) => `| ${seconds(s)} | ${phase} | ${file} | ${tests} |`);
  return [
    '## npm test: phases',
    '',
    '| Phase | Started at | Seconds | Tests | Result |',
    '| --- | ---: | ---: | --- | --- |',
    ...phaseRows,
    `| total | | ${seconds(totalSeconds)} | ${sideBySide ? `phases side by side: ${seconds(phaseSeconds)} s of phases` : ''} | ${notRun > 0 ? `${notRun} phase(s) not run` : ''} |`,
    '',
    `## The ${SLOWEST_FILES} slowest test files`,
    '',
    '| Seconds | Phase | File | Tests |',
    '| ---: | --- | --- | ---: |',
    ...slowest,
    '',
  ].join('\n');
};
