/**
 * The time to decode a photo-like 12 MP HEIC: `bench/fixtures/photo-like-4032x3024.heic`, detail at
 * every scale (support/synthetic-photo.ts, grain 4 like a sensor at base ISO) encoded by x265 through
 * `heif-enc -q 50`: ~1.7 MB, like a phone's 12 MP HEIC. Made once when missing, if heif-enc is
 * installed (apt: libheif-examples); the encode takes ~20 s on two cores. Kept under 3 MB.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type BenchResult, megabytes, progress } from './harness';
import { measureHeicDecode, ROOT_DIR } from './support/heic';
import { syntheticPhotoJpeg } from './support/synthetic-photo';

export const name = 'heic-photo';

const FIXTURE = path.join(ROOT_DIR, 'bench/fixtures/photo-like-4032x3024.heic');
const QUALITY = 50;
const MAX_FIXTURE_BYTES = 3 * 1024 * 1024;

export const run = async (): Promise<BenchResult[]> => {
  const made = spawnFixtureIfMissing();
  if ('skipped' in made) return [{ metric: 'heic.photo.skipped', value: 0, unit: '', notes: made.skipped }];
  return measureHeicDecode({
    module: name,
    metricPrefix: 'heic.photo',
    file: FIXTURE,
    description: `photo-like detail, heif-enc -q ${QUALITY}${made.now ? ' (made this run)' : ''}`,
  });
};

/**
 * The fixture is made in a child process (this file with `--make-fixture`), so that making the
 * synthetic photo does not count in this process's memory peak.
 */
const spawnFixtureIfMissing = (): { now: boolean } | { skipped: string } => {
  if (fs.existsSync(FIXTURE)) return { now: false };
  if (spawnSync('heif-enc', ['--help']).error) {
    return {
      skipped: `${path.relative(ROOT_DIR, FIXTURE)} is missing and heif-enc is not installed (apt: libheif-examples)`,
    };
  }
  progress(name, `making ${path.relative(ROOT_DIR, FIXTURE)} with heif-enc (once, ~20 s)`);
  const child = spawnSync(process.execPath, [...process.execArgv, __filename, '--make-fixture'], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  if (child.status !== 0) return { skipped: `making the fixture failed: ${child.stderr || child.stdout}` };
  return { now: true };
};

const makeFixture = async (): Promise<void> => {
  const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-heic-'));
  try {
    const jpeg = path.join(workDir, 'photo.jpg');
    const heic = path.join(workDir, 'photo.heic');
    fs.writeFileSync(
      jpeg,
      await syntheticPhotoJpeg({ width: 4032, height: 3024, seed: 3, grainLevels: 4, quality: 95 }),
    );
    const encoded = spawnSync('heif-enc', ['-q', String(QUALITY), '-o', heic, jpeg], { encoding: 'utf8' });
    if (encoded.status !== 0) throw new Error(`heif-enc failed: ${encoded.stderr || encoded.stdout}`);
    const size = fs.statSync(heic).size;
    if (size > MAX_FIXTURE_BYTES)
      throw new Error(
        `heif-enc made ${megabytes(size)} MB, over the ${megabytes(MAX_FIXTURE_BYTES)} MB kept in the repository`,
      );
    fs.mkdirSync(path.dirname(FIXTURE), { recursive: true });
    fs.copyFileSync(heic, FIXTURE);
  } finally {
    fs.rmSync(workDir, { recursive: true, force: true });
  }
};

if (process.argv.includes('--make-fixture')) {
  makeFixture().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
