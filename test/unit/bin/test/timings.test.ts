import { type PhaseResult, timingsReport } from '../../../../bin/test/timings';

const jestPhase = (files: [string, number][]): PhaseResult['jest'] => ({
  passed: files.length,
  failed: 0,
  skipped: 0,
  files: files.map(([file, seconds]) => ({ file, seconds, tests: 1 })),
});

describe('the timings table npm test ends with', () => {
  it('lists every phase run with its seconds and the total', () => {
    const report = timingsReport(
      [
        { phase: 'lint', seconds: 2, exitCode: 0 },
        { phase: 'test:unit-and-integration', seconds: 100.04, exitCode: 0, jest: jestPhase([['a.test.ts', 1]]) },
      ],
      2,
    );
    expect(report).toContain('| lint | 0.0 | 2.0 |  | ok |');
    expect(report).toContain('| test:unit-and-integration | 0.0 | 100.0 | 1 passed, 0 failed, 0 skipped | ok |');
    expect(report).toContain('| total | | 102.0 |  |  |');
  });

  it('counts the run by the clock when phases ran side by side, in the order they started', () => {
    const report = timingsReport(
      [
        { phase: 'test:assets', seconds: 300, startedAtSeconds: 60, exitCode: 0 },
        { phase: 'synth:assets', seconds: 50, startedAtSeconds: 10, exitCode: 0 },
        { phase: 'test:integration', seconds: 400, startedAtSeconds: 10, exitCode: 0 },
      ],
      3,
      410,
    );
    const rows = report.split('\n').filter((line) => /^\| (test|synth)/.test(line));
    expect(rows.map((row) => row.split(' | ')[0])).toEqual(['| synth:assets', '| test:integration', '| test:assets']);
    expect(report).toContain('| test:assets | 60.0 | 300.0 |  | ok |');
    expect(report).toContain('| total | | 410.0 | phases side by side: 750.0 s of phases |  |');
  });

  it('says which phase failed and how many were not run', () => {
    const report = timingsReport([{ phase: 'lint', seconds: 1, exitCode: 3 }], 6);
    expect(report).toContain('| lint | 0.0 | 1.0 |  | failed (exit 3) |');
    expect(report).toContain('5 phase(s) not run');
  });

  it('says when a signal, not a failure, ended a phase', () => {
    const report = timingsReport([{ phase: 'test:assets', seconds: 28.7, exitCode: 1, signal: 'SIGTERM' }], 6);
    expect(report).toContain('| test:assets | 0.0 | 28.7 |  | killed (SIGTERM) |');
  });

  it('says when the runner stopped a phase because another failed', () => {
    const report = timingsReport([{ phase: 'test:unit', seconds: 3, exitCode: 1, signal: 'stopped' }], 6);
    expect(report).toContain('| test:unit | 0.0 | 3.0 |  | stopped (another phase failed) |');
  });

  it('ranks the fifteen slowest files across the Jest phases', () => {
    const many = Array.from({ length: 20 }, (_, i): [string, number] => [`f${i}.test.ts`, i]);
    const report = timingsReport(
      [
        { phase: 'one', seconds: 1, exitCode: 0, jest: jestPhase(many) },
        { phase: 'two', seconds: 1, exitCode: 0, jest: jestPhase([['slowest.test.ts', 99]]) },
      ],
      2,
    );
    const rows = report
      .split('## The 15 slowest test files')[1]!
      .split('\n')
      .filter((line) => /^\| \d/.test(line));
    expect(rows).toHaveLength(15);
    expect(rows[0]).toBe('| 99.0 | two | slowest.test.ts | 1 |');
    expect(rows[1]).toBe('| 19.0 | one | f19.test.ts | 1 |');
  });
});
