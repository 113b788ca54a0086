/**
 * `npm test`: the phases below, as many at once as the machine has cores (TEST_SLOTS overrides), each
 * starting once the phases it needs have passed (bin/test/schedule.ts). A phase's output goes to
 * test-output/logs/<phase>.log and is printed whole when it ends, so two phases' lines never interleave.
 * The first failure stops the run: nothing new starts, what is running is stopped, and the exit code is the
 * failed phase's. It ends with a table of the phases (seconds, tests) and the slowest test files across the
 * Jest phases, printed and kept in test-output/timings.md (with test-output/timings.json). Each Jest phase's
 * per-file durations come from test/support/summary-reporter.js, which writes them to TEST_TIMINGS_FILE.
 *
 * Two at once is where a 2-core machine gains: a Jest phase runs its files one at a time and spends a
 * quarter of it waiting (local servers, timers), and the artefact suites wait for the synthesis while the
 * source suites do not need it.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { checkPhases, type PhaseDefinition, type PhaseState, readyPhases } from './schedule';
import { type PhaseResult, type PhaseTimings, timingsReport } from './timings';

const ROOT_DIR = path.resolve(__dirname, '../..');
const OUTPUT_DIR = path.join(ROOT_DIR, 'test-output');
const TIMINGS_DIR = path.join(OUTPUT_DIR, 'timings');
const LOGS_DIR = path.join(OUTPUT_DIR, 'logs');

/**
 * Each phase is an npm script. The order is the priority among the phases ready at once: the synthesis
 * first (the artefact suites wait for it), then the longest suites.
 */
const FULL_RUN: PhaseDefinition[] = [
  { name: 'lint', needs: [] },
  { name: 'typecheck', needs: [] },
  // Converted once here, so the suites running side by side never both convert them (a no-op when current).
  { name: 'build:faces', needs: ['lint', 'typecheck'] },
  { name: 'synth:assets', needs: ['build:faces'] },
  { name: 'test:integration', needs: ['build:faces'] },
  { name: 'test:assets', needs: ['synth:assets'] },
  { name: 'test:artefacts', needs: ['synth:assets'] },
  { name: 'test:unit', needs: ['build:faces'] },
  { name: 'test:dynamodb-local', needs: ['build:faces'] },
];

/** Scripts named as arguments run instead, in their order, one at a time (`npm run test:quick`). */
const namedRun = (names: string[]): PhaseDefinition[] =>
  names.map((name, index) => ({ name, needs: names.slice(Math.max(0, index - 1), index) }));

const PHASES = process.argv.length > 2 ? namedRun(process.argv.slice(2)) : FULL_RUN;
const SLOTS = Number(process.env.TEST_SLOTS) > 0 ? Number(process.env.TEST_SLOTS) : os.availableParallelism();

const fileName = (phase: string) => phase.replace(/[^a-z0-9-]/gi, '-');
const timingsFile = (phase: string) => path.join(TIMINGS_DIR, `${fileName(phase)}.json`);
const logFile = (phase: string) => path.join(LOGS_DIR, `${fileName(phase)}.log`);

const readTimings = (phase: string): PhaseTimings | undefined => {
  const file = timingsFile(phase);
  return fs.existsSync(file) ? (JSON.parse(fs.readFileSync(file, 'utf8')) as PhaseTimings) : undefined;
};

interface Running {
  child: ChildProcess;
}

const main = async () => {
  checkPhases(PHASES);
  for (const dir of [TIMINGS_DIR, LOGS_DIR]) {
    fs.rmSync(dir, { recursive: true, force: true });
    fs.mkdirSync(dir, { recursive: true });
  }
  const runStartedMs = Date.now();
  const states = new Map<string, PhaseState>(PHASES.map((phase) => [phase.name, 'waiting']));
  const running = new Map<string, Running>();
  const results: PhaseResult[] = [];
  let exitCode = 0;

  await new Promise<void>((allDone) => {
    const startReady = () => {
      for (const phase of readyPhases(PHASES, states, SLOTS - running.size)) start(phase.name);
      if (running.size === 0) allDone();
    };
    const start = (phase: string) => {
      states.set(phase, 'running');
      const log = fs.openSync(logFile(phase), 'w');
      // Its own process group, so a failure elsewhere stops the phase's whole tree (Jest, its servers).
      const child = spawn('npm', ['run', phase], {
        cwd: ROOT_DIR,
        detached: true,
        stdio: ['ignore', log, log],
        env: { ...process.env, TEST_TIMINGS_FILE: timingsFile(phase) },
      });
      fs.closeSync(log);
      running.set(phase, { child });
      process.stdout.write(
        `▶ ${phase} (${SLOTS > 1 ? `${running.size} of ${SLOTS} running; ` : ''}log: ${path.relative(ROOT_DIR, logFile(phase))})\n`,
      );
      child.on('error', (error) => fs.appendFileSync(logFile(phase), `\n${String(error)}\n`));
      const startedMs = Date.now();
      child.on('close', (code, signal) => {
        running.delete(phase);
        const seconds = (Date.now() - startedMs) / 1000;
        const stopped = states.get(phase) === 'failed';
        const phaseCode = code ?? 1;
        states.set(phase, phaseCode === 0 && !stopped ? 'passed' : 'failed');
        results.push({
          phase,
          seconds,
          startedAtSeconds: (startedMs - runStartedMs) / 1000,
          exitCode: phaseCode,
          signal: stopped ? 'stopped' : (signal ?? undefined),
          jest: readTimings(phase),
        });
        const outcome = stopped ? 'stopped (another phase failed)' : phaseCode === 0 ? 'passed' : 'FAILED';
        process.stdout.write(`\n━━ ${phase}: ${outcome} in ${seconds.toFixed(1)} s ━━\n`);
        process.stdout.write(fs.readFileSync(logFile(phase), 'utf8'));
        if (phaseCode !== 0 && !stopped && exitCode === 0) {
          exitCode = phaseCode;
          for (const [other, { child: otherChild }] of running) {
            states.set(other, 'failed');
            stopGroup(otherChild);
          }
        }
        startReady();
      });
    };
    // Ctrl-C or a CI timeout: the detached phases go too.
    for (const signal of ['SIGINT', 'SIGTERM'] as const)
      process.once(signal, () => {
        for (const { child } of running.values()) stopGroup(child);
        process.exit(130);
      });
    startReady();
  });

  const report = timingsReport(results, PHASES.length, (Date.now() - runStartedMs) / 1000);
  fs.writeFileSync(path.join(OUTPUT_DIR, 'timings.md'), report);
  fs.writeFileSync(path.join(OUTPUT_DIR, 'timings.json'), `${JSON.stringify(results, null, 2)}\n`);
  process.stdout.write(`\n${report}\n(kept in test-output/timings.md; each phase's output in test-output/logs/)\n`);
  process.exitCode = exitCode;
};

const stopGroup = (child: ChildProcess) => {
  try {
    if (child.pid !== undefined) process.kill(-child.pid, 'SIGTERM');
  } catch {
    // Already gone.
  }
};

main();
