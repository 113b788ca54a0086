/**
 * `npm run bench [-- <module> ...]`: runs every `bench/*.bench.ts` (or the ones named), each in a
 * process of its own, one after the other; prints a table and writes `bench/results/latest.json` and
 * `bench/results/latest.md` (a run of named modules replaces only their entries). A module exports `name` and `run(): Promise<BenchResult[]>` (harness.ts);
 * adding one is adding a file. Missed targets are reported, not failed on: timings depend on the
 * machine (DESIGN §7). The exit code is 1 only when a module throws or times out.
 */
// Before any module loads: the AWS SDK warns on Node 20 once per client otherwise. Children inherit it.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';

import { execFileSync, fork } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ensureFaceModels } from '../bin/faces/build-models';
import type { BenchModule, BenchResult } from './harness';

const BENCH_DIR = __dirname;
const ROOT_DIR = path.resolve(BENCH_DIR, '..');
const RESULTS_DIR = path.join(BENCH_DIR, 'results');
const MODULE_SUFFIX = '.bench.ts';
const CHILD_FLAG = '--child';
const MODULE_TIMEOUT_SECONDS = Number(process.env.BENCH_MODULE_TIMEOUT_SECONDS ?? 300);

interface ModuleReport {
  name: string;
  file: string;
  durationSeconds: number;
  results: BenchResult[];
  error?: string;
}

type ChildMessage =
  | { kind: 'results'; name: string; results: BenchResult[] }
  | { kind: 'error'; name?: string; error: string };

// ---- child: run one module and send its results ----

const runChild = async (file: string): Promise<void> => {
  let message: ChildMessage;
  try {
    const loaded = (await import(file)) as Partial<BenchModule>;
    if (typeof loaded.name !== 'string' || typeof loaded.run !== 'function')
      throw new Error(`${file} must export name and run()`);
    message = { kind: 'results', name: loaded.name, results: await loaded.run() };
  } catch (error) {
    message = { kind: 'error', error: error instanceof Error ? (error.stack ?? error.message) : String(error) };
  }
  // A module that leaves a server or timer behind must not hold the bench: exit once the parent has it.
  const send = process.send?.bind(process);
  if (!send) throw new Error('a bench module runs as a child of bench/run.ts, with an IPC channel');
  send(message, () => process.exit(0));
};

// ---- parent: run the modules, report ----

const discoverModules = (only: string[]): string[] => {
  const files = fs
    .readdirSync(BENCH_DIR)
    .filter((file) => file.endsWith(MODULE_SUFFIX))
    .sort();
  const unknown = only.filter((wanted) => !files.includes(`${wanted}${MODULE_SUFFIX}`));
  if (unknown.length > 0)
    throw new Error(
      `no bench module ${unknown.join(', ')}; there are: ${files.map((file) => file.slice(0, -MODULE_SUFFIX.length)).join(', ')}`,
    );
  return files
    .filter((file) => only.length === 0 || only.includes(file.slice(0, -MODULE_SUFFIX.length)))
    .map((file) => path.join(BENCH_DIR, file));
};

const runModule = (file: string): Promise<ModuleReport> =>
  new Promise((resolve) => {
    const startedAt = performance.now();
    const fallbackName = path.basename(file, MODULE_SUFFIX);
    let message: ChildMessage | undefined;
    const child = fork(__filename, [CHILD_FLAG, file], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    const timer = setTimeout(() => {
      message = { kind: 'error', error: `timed out after ${MODULE_TIMEOUT_SECONDS} s` };
      child.kill('SIGKILL');
    }, MODULE_TIMEOUT_SECONDS * 1000);
    child.on('message', (received: ChildMessage) => {
      message ??= received;
    });
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      const durationSeconds = Math.round((performance.now() - startedAt) / 100) / 10;
      const outcome = message ?? { kind: 'error' as const, error: `exited (${signal ?? code}) without results` };
      resolve(
        outcome.kind === 'results'
          ? { name: outcome.name, file: path.relative(ROOT_DIR, file), durationSeconds, results: outcome.results }
          : {
              name: outcome.name ?? fallbackName,
              file: path.relative(ROOT_DIR, file),
              durationSeconds,
              results: [],
              error: outcome.error,
            },
      );
    });
  });

const gitCommit = (): string | null => {
  try {
    return execFileSync('git', ['rev-parse', 'HEAD'], {
      cwd: ROOT_DIR,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim();
  } catch {
    return null; // not a git checkout (e.g. an exported tarball): the results still stand
  }
};

const machine = async () => {
  const { default: sharp } = await import('sharp');
  const cpus = os.cpus();
  return {
    platform: `${os.platform()} ${os.release()} ${os.arch()}`,
    cpuModel: cpus[0]?.model ?? 'unknown',
    cpuCount: cpus.length,
    availableParallelism: os.availableParallelism(),
    totalMemoryMb: Math.round(os.totalmem() / (1024 * 1024)),
    loadAverage1mAtStart: Math.round(os.loadavg()[0] * 100) / 100,
    sharp: { sharp: sharp.versions.sharp, vips: sharp.versions.vips },
    /** libvips threads per pipeline; sharp defaults to 1 on glibc Linux without jemalloc. */
    sharpConcurrency: sharp.concurrency(),
  };
};

const cell = (result: BenchResult) => ({
  value: String(result.value),
  target: result.target ?? '',
  pass: result.pass === undefined ? '' : result.pass ? 'pass' : 'FAIL',
});

const printTable = (reports: ModuleReport[]): void => {
  const rows = reports.flatMap((report) =>
    report.error
      ? [[`${report.name} (error)`, '', '', '', '', report.error.split('\n')[0]]]
      : report.results.map((result) => {
          const { value, target, pass } = cell(result);
          return [result.metric, value, result.unit, target, pass, result.notes ?? ''];
        }),
  );
  const header = ['metric', 'value', 'unit', 'target', 'pass', 'notes'];
  const widths = header
    .slice(0, 5)
    .map((title, column) => Math.max(title.length, ...rows.map((row) => row[column].length)));
  const line = (row: string[]) =>
    row
      .map((text, column) => (column < 5 ? text.padEnd(widths[column]) : text))
      .join('  ')
      .trimEnd();
  process.stdout.write(
    `\n${[line(header), line(widths.map((width) => '-'.repeat(width))), ...rows.map(line)].join('\n')}\n`,
  );
};

const markdown = (report: Awaited<ReturnType<typeof buildReport>>): string => {
  const escapeCell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');
  const lines = [
    '# Benchmark results',
    '',
    `${report.date} · commit \`${report.gitCommit ?? 'unknown'}\` · Node ${report.node} · ${report.machine.cpuCount} × ${report.machine.cpuModel} · ` +
      `${report.machine.totalMemoryMb} MB · ${report.machine.platform} · load ${report.machine.loadAverage1mAtStart} at start`,
    '',
    `Targets: ${report.targets.met} of ${report.targets.total} met. Written by \`npm run bench\`; what each metric means: [bench/README.md](../README.md).`,
  ];
  for (const entry of report.modules) {
    lines.push('', `## ${entry.name} (${entry.file}, ${entry.durationSeconds} s)`, '');
    if (entry.error) {
      lines.push('```', entry.error, '```');
      continue;
    }
    lines.push('| metric | value | unit | target | pass | notes |', '|---|---:|---|---|---|---|');
    for (const result of entry.results) {
      const { value, target, pass } = cell(result);
      lines.push(
        `| ${escapeCell(result.metric)} | ${value} | ${escapeCell(result.unit)} | ${escapeCell(target)} | ${pass} | ${escapeCell(result.notes ?? '')} |`,
      );
    }
  }
  return `${lines.join('\n')}\n`;
};

const buildReport = async (modules: ModuleReport[], machineInfo: Awaited<ReturnType<typeof machine>>) => {
  const withTargets = modules.flatMap((entry) => entry.results).filter((result) => result.pass !== undefined);
  return {
    date: new Date().toISOString(),
    gitCommit: gitCommit(),
    node: process.version,
    machine: { ...machineInfo, loadAverage1mAtEnd: Math.round(os.loadavg()[0] * 100) / 100 },
    targets: { total: withTargets.length, met: withTargets.filter((result) => result.pass).length },
    modules,
  };
};

/** The modules of the last results file, if any (a run of some modules keeps the others' results). */
const previousModules = (): ModuleReport[] => {
  try {
    const previous = JSON.parse(fs.readFileSync(path.join(RESULTS_DIR, 'latest.json'), 'utf8')) as {
      modules?: ModuleReport[];
    };
    return previous.modules ?? [];
  } catch {
    return [];
  }
};

/** Write-then-rename, so an interrupted run never leaves half a results file. */
const writeAtomically = (file: string, text: string): void => {
  const temporary = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(temporary, text);
  fs.renameSync(temporary, file);
};

const main = async (): Promise<void> => {
  const childIndex = process.argv.indexOf(CHILD_FLAG);
  if (childIndex !== -1) return runChild(process.argv[childIndex + 1]);

  const files = discoverModules(process.argv.slice(2));
  // The face models every module that analyses faces reads, converted (when they changed) before any runs.
  ensureFaceModels({ log: (line) => process.stderr.write(`${line}\n`) });
  const machineInfo = await machine();
  const startedAt = performance.now();
  const modules: ModuleReport[] = [];
  for (const file of files) {
    process.stderr.write(`\n== ${path.relative(ROOT_DIR, file)}\n`);
    const report = await runModule(file);
    if (report.error) process.stderr.write(`${report.name} failed: ${report.error}\n`);
    modules.push(report);
  }
  // Modules named on the command line replace their own entries: the others' last results are kept.
  const named = process.argv.slice(2).length > 0;
  const kept = named ? previousModules().filter((entry) => !modules.some((run) => run.name === entry.name)) : [];
  const report = await buildReport([...kept, ...modules], machineInfo);
  printTable(modules);
  fs.mkdirSync(RESULTS_DIR, { recursive: true });
  writeAtomically(path.join(RESULTS_DIR, 'latest.json'), `${JSON.stringify(report, null, 2)}\n`);
  writeAtomically(path.join(RESULTS_DIR, 'latest.md'), markdown(report));
  const seconds = Math.round((performance.now() - startedAt) / 1000);
  const failing = modules.flatMap((entry) => entry.results).filter((result) => result.pass === false);
  if (failing.length > 0) {
    process.stdout.write(
      `\nTargets not met:\n${failing.map((result) => `  FAIL  ${result.metric} = ${result.value} ${result.unit} (target ${result.target ?? '?'})`).join('\n')}\n`,
    );
  }
  process.stdout.write(
    `\nTargets met: ${report.targets.met} of ${report.targets.total}. ${modules.length} module(s) in ${seconds} s. ` +
      `Written: ${path.relative(process.cwd(), RESULTS_DIR)}/latest.json, latest.md\n`,
  );
  process.exitCode = modules.some((entry) => entry.error) ? 1 : 0;
};

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
