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
  exitCode: number;
  /** The signal that ended the phase's npm process, if one did (its children may still be running). */
  signal?: string;
  /** Absent for a phase that is not a Jest run (or one that did not get to report). */
  jest?: PhaseTimings;
}

export const SLOWEST_FILES = 15;

const seconds = (value: number) => value.toFixed(1);

export const timingsReport = (results: PhaseResult[], phaseCount: number): string => {
  const totalSeconds = results.reduce((sum, result) => sum + result.seconds, 0);
  const phaseRows = results.map(({ phase, seconds: s, exitCode, signal, jest }) => {
    const tests = jest ? `${jest.passed} passed, ${jest.failed} failed, ${jest.skipped} skipped` : '';
    const outcome = signal ? `killed (${signal})` : exitCode === 0 ? 'ok' : `failed (exit ${exitCode})`;
    return `| ${phase} | ${seconds(s)} | ${tests} | ${outcome} |`;
  });
  const notRun = phaseCount - results.length;
  const slowest = results
    .flatMap(({ phase, jest }) => (jest?.files ?? []).map((file) => ({ phase, ...file })))
    .sort((a, b) => b.seconds - a.seconds)
    .slice(0, SLOWEST_FILES)
    .map(({ phase, file, seconds: s, tests }) => `| ${seconds(s)} | ${phase} | ${file} | ${tests} |`);
  return [
    '## npm test: phases',
    '',
    '| Phase | Seconds | Tests | Result |',
    '| --- | ---: | --- | --- |',
    ...phaseRows,
    `| total | ${seconds(totalSeconds)} | | ${notRun > 0 ? `${notRun} phase(s) not run` : ''} |`,
    '',
    `## The ${SLOWEST_FILES} slowest test files`,
    '',
    '| Seconds | Phase | File | Tests |',
    '| ---: | --- | --- | ---: |',
    ...slowest,
    '',
  ].join('\n');
};
