/**
 * The synthesised artefacts, as `cdk synth` makes them: bin/app.ts run with the CDK CLI's own contract
 * (CDK_OUTDIR, CDK_CONTEXT_JSON = cdk.json's context plus the architecture), so every function is
 * bundled exactly as `cdk deploy` would upload it. Kept under `.build/assets/<architecture>/` and made
 * again only when a source it depends on changes (a hash of them is stored beside the output). A lock
 * directory keeps two processes (Jest workers, a test and `npm run start:assets`) from building at once.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { type ArchitectureName, hostArchitecture } from '../../lib/constructs/function-defaults';
import { ensureFaceModels } from '../faces/build-models';

export const ROOT_DIR = path.resolve(__dirname, '../..');
export const STACK_NAME = 'IdentityImageService';
const SOURCES = ['bin/app.ts', 'bin/faces', 'lib', 'functions', 'statemachines', 'cdk.json', 'package-lock.json'];
const LOCK_STALE_MS = 10 * 60_000;

export interface BuiltAssets {
  /** The cloud assembly directory (asset.* folders and the template). */
  outdir: string;
  templateFile: string;
  architecture: ArchitectureName;
  /** Whether this call synthesised (false: the cached artefacts were current). */
  built: boolean;
  /** How long the synthesis that made these artefacts took. */
  synthMs: number;
}

const filesUnder = (entry: string): string[] => {
  const full = path.join(ROOT_DIR, entry);
  if (!fs.statSync(full).isDirectory()) return [entry];
  return fs
    .readdirSync(full, { withFileTypes: true })
    .flatMap((child) => filesUnder(path.join(entry, child.name)))
    .sort();
};

/** What the artefacts depend on: every source file's path and bytes, the architecture and the Node version. */
export const sourceHash = (architecture: ArchitectureName): string => {
  const hash = createHash('sha256').update(`${architecture}\n${process.version}\n`);
  for (const file of SOURCES.flatMap(filesUnder))
    hash.update(`${file}\n`).update(fs.readFileSync(path.join(ROOT_DIR, file)));
  return hash.digest('hex');
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const withLock = async <T>(lockDir: string, fn: () => T): Promise<T> => {
  for (;;) {
    try {
      fs.mkdirSync(lockDir);
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const lock = fs.statSync(lockDir, { throwIfNoEntry: false });
      if (lock && Date.now() - lock.mtimeMs > LOCK_STALE_MS) fs.rmSync(lockDir, { recursive: true, force: true });
      else await sleep(500);
    }
  }
  try {
    return fn();
  } finally {
    fs.rmSync(lockDir, { recursive: true, force: true });
  }
};

/** Synthesises the stack for `architecture` (default: this machine's) unless the cached artefacts are current. */
export const ensureAssets = async (
  options: { architecture?: ArchitectureName; log?: (line: string) => void } = {},
): Promise<BuiltAssets> => {
  const architecture = options.architecture ?? hostArchitecture();
  const base = path.join(ROOT_DIR, '.build', 'assets', architecture);
  const outdir = path.join(base, 'cdk.out');
  const stampFile = path.join(base, 'source-hash');
  const synthTimeFile = path.join(base, 'synth-ms');
  const templateFile = path.join(outdir, `${STACK_NAME}.template.json`);
  fs.mkdirSync(base, { recursive: true });
  return withLock(`${base}.lock`, () => {
    const hash = sourceHash(architecture);
    if (fs.existsSync(templateFile) && fs.existsSync(stampFile) && fs.readFileSync(stampFile, 'utf8') === hash) {
      return {
        outdir,
        templateFile,
        architecture,
        built: false,
        synthMs: Number(fs.readFileSync(synthTimeFile, { encoding: 'utf8', flag: 'a+' }) || 0),
      };
    }
    options.log?.(`Synthesising the stack for ${architecture} (bundling every function as cdk deploy would)…`);
    const started = performance.now();
    // Once here: each image function's bundling then copies them (lib/constructs/function-defaults.ts).
    ensureFaceModels({ log: options.log });
    fs.rmSync(outdir, { recursive: true, force: true });
    fs.rmSync(stampFile, { force: true });
    const context = { ...JSON.parse(fs.readFileSync(path.join(ROOT_DIR, 'cdk.json'), 'utf8')).context, architecture };
    execFileSync(
      process.execPath,
      [path.join(ROOT_DIR, 'node_modules/tsx/dist/cli.mjs'), path.join(ROOT_DIR, 'bin/app.ts')],
      {
        cwd: ROOT_DIR,
        env: { ...process.env, CDK_OUTDIR: outdir, CDK_CONTEXT_JSON: JSON.stringify(context) },
        stdio: ['ignore', 'ignore', 'pipe'],
        maxBuffer: 64 * 1024 * 1024,
      },
    );
    const synthMs = Math.round(performance.now() - started);
    fs.writeFileSync(stampFile, hash);
    fs.writeFileSync(synthTimeFile, String(synthMs));
    return { outdir, templateFile, architecture, built: true, synthMs };
  });
};

// `npm run synth:assets [-- --architecture x86_64]`: make (or confirm) the artefacts, and say where they are.
if (require.main === module) {
  const at = process.argv.indexOf('--architecture');
  const architecture = at > 0 ? process.argv[at + 1] : undefined;
  if (architecture !== undefined && architecture !== 'arm64' && architecture !== 'x86_64') {
    process.stderr.write('usage: npm run synth:assets [-- --architecture arm64|x86_64]\n');
    process.exit(2);
  }
  ensureAssets({ architecture, log: (line) => process.stdout.write(`${line}\n`) }).then(
    (assets) =>
      process.stdout.write(
        `${assets.built ? `Synthesised in ${assets.synthMs} ms` : 'Up to date'}: ${assets.outdir}\n`,
      ),
    (error: { stderr?: Buffer; message?: string }) => {
      process.stderr.write(`synthesis failed: ${error.stderr?.toString() || error.message}\n`);
      process.exit(1);
    },
  );
}
