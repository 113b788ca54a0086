/**
 * `npm test`: the phases in order, each timed, stopping at the first failure with its exit code. It ends
 * with a table of the phases (seconds, tests) and the slowest test files across the Jest phases, printed
 * and kept in test-output/timings.md (with test-output/timings.json). Each Jest phase's per-file durations
 * come from test/support/summary-reporter.js, which writes them to the file TEST_TIMINGS_FILE names.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { type PhaseResult, type PhaseTimings, timingsReport } from './timings';

const ROOT_DIR = path.resolve(__dirname, '../..');
const OUTPUT_DIR = path.join(ROOT_DIR, 'test-output');
const TIMINGS_DIR = path.join(OUTPUT_DIR, 'timings');

/**
 * Each phase is an npm script, so `npm run <script>` alone reruns one. Scripts named as arguments run
 * instead of these (`npm run test:quick` names its own).
 */
const FULL_RUN = [
  'lint',
  'typecheck',
  'synth:assets',
  'test:unit-and-integration',
  'test:assets',
  'test:dynamodb-local',
];
const PHASES = process.argv.length > 2 ? process.argv.slice(2) : FULL_RUN;

const timingsFile = (phase: string) => path.join(TIMINGS_DIR, `${phase.replace(/[^a-z0-9-]/gi, '-')}.json`);

const readTimings = (phase: string): PhaseTimings | undefined => {
  const file = timingsFile(phase);
  return fs.existsSync(file) ? (JSON.parse(fs.readFileSync(file, 'utf8')) as PhaseTimings) : undefined;
};

const main = () => {
  fs.rmSync(TIMINGS_DIR, { recursive: true, force: true });
  fs.mkdirSync(TIMINGS_DIR, { recursive: true });
  const results: PhaseResult[] = [];
  let exitCode = 0;
  for (const phase of PHASES) {
    const startedMs = Date.now();
    const run = spawnSync('npm', ['run', phase], {
      cwd: ROOT_DIR,
      stdio: 'inherit',
      env: { ...process.env, TEST_TIMINGS_FILE: timingsFile(phase) },
    });
    exitCode = run.status ?? 1;
    const seconds = (Date.now() - startedMs) / 1000;
    results.push({ phase, seconds, exitCode, signal: run.signal ?? undefined, jest: readTimings(phase) });
    if (exitCode !== 0) break;
  }
  const report = timingsReport(results, PHASES.length);
  fs.writeFileSync(path.join(OUTPUT_DIR, 'timings.md'), report);
  fs.writeFileSync(path.join(OUTPUT_DIR, 'timings.json'), `${JSON.stringify(results, null, 2)}\n`);
  process.stdout.write(`\n${report}\n(kept in test-output/timings.md)\n`);
  process.exitCode = exitCode;
};

main();
