/**
 * Decoding one 12 MP HEIC through the input guard (`decodeImageInput`): heic-decode (libheif in WASM)
 * to RGBA, then the intermediate JPEG (quality 95, 4:4:4) the engine reads. Measured in a fresh process
 * (the harness runs each module in its own), so the first call includes importing heic-decode and
 * instantiating its WASM, and the peak RSS (`resourceUsage().maxRSS`) is this file's alone.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { decodeImageInput, type ImageInputDeps } from '../../functions/adapters/images/image-input';
import { atMost, type BenchResult, median, megabytes, progress, round, timed, timingResults } from '../harness';

export const ROOT_DIR = path.resolve(__dirname, '../..');
const WARM_RUNS = 5;
const WASM_ONLY_RUNS = 3;
const NATIVE_RUNS = 3;
/** Issue 15: a 12 MP photo-like HEIC decoded within 1.1 × native heif-convert. */
const NATIVE_RATIO_TARGET = 1.1;

/** Inputs here are base64, never URLs: a fetch would be a bug in the bench. */
const deps: ImageInputDeps = {
  fetchBytes: async (url) => {
    throw new Error(`the HEIC bench fetched ${url}`);
  },
};

export const measureHeicDecode = async (options: {
  module: string;
  metricPrefix: string;
  file: string;
  description: string;
}): Promise<BenchResult[]> => {
  const { module, metricPrefix: prefix, file, description } = options;
  const baselineRss = process.memoryUsage().rss;
  const bytes = fs.readFileSync(file);
  const base64 = bytes.toString('base64');
  const decode = () => decodeImageInput(base64, 'image', deps);
  progress(
    module,
    `${path.relative(ROOT_DIR, file)} (${megabytes(bytes.length)} MB): first call, then ${WARM_RUNS} warm`,
  );

  const first = await timed(decode);
  const peakAfterFirst = peakRssBytes();
  const { width, height, format, sourceFormat } = first.value;
  if (sourceFormat !== 'heif' || format !== 'jpeg' || width !== 4032 || height !== 3024)
    throw new Error(`${file} decoded as ${format} ${width}x${height}`);
  const warm: number[] = [];
  for (let index = 0; index < WARM_RUNS; index += 1) warm.push((await timed(decode)).ms);

  // The WASM decode alone, without the guard's header read and the intermediate JPEG encode.
  const { default: heicDecode } = await import('heic-decode');
  const wasmOnly: number[] = [];
  for (let index = 0; index < WASM_ONLY_RUNS; index += 1)
    wasmOnly.push((await timed(() => heicDecode({ buffer: bytes }))).ms);

  const native = measureNative(file, bytes.length);
  const nativeResults: BenchResult[] =
    'skipped' in native
      ? [{ metric: `${prefix}.native.skipped`, value: 0, unit: '', notes: native.skipped }]
      : [
          {
            metric: `${prefix}.native.decode.median_ms`,
            value: round(median(native.decode)),
            unit: 'ms',
            notes: `heif-convert (libheif ${native.version}, libde265, native, one thread) to raw YUV (.y4m): the decode plus writing the raw frame and starting the process, so an upper bound of the native decode (and the ratio a lower bound); ${NATIVE_RUNS} runs; peak ${native.decodePeakMb ?? '?'} MB`,
          },
          atMost(
            {
              metric: `${prefix}.ratio_wasm_decode_to_native`,
              value: round(median(wasmOnly) / median(native.decode), 2),
              unit: 'x',
              notes:
                'heic-decode (libheif and libde265 in WASM, no SIMD) to RGBA / native heif-convert to YUV, medians of the same run',
            },
            NATIVE_RATIO_TARGET,
          ),
          {
            metric: `${prefix}.native.decode_and_jpeg.median_ms`,
            value: round(median(native.jpeg)),
            unit: 'ms',
            notes: `heif-convert -q 95 to JPEG: what the guard does (decode, intermediate JPEG); the guard's warm median is ${round(median(warm))} ms, ${round(median(warm) / median(native.jpeg), 2)}×`,
          },
        ];

  return [
    ...nativeResults,
    {
      metric: `${prefix}.file_mb`,
      value: round(bytes.length / 1e6, 2),
      unit: 'MB',
      notes: `4032x3024, ${description}`,
    },
    {
      metric: `${prefix}.first_call_ms`,
      value: round(first.ms),
      unit: 'ms',
      notes: 'fresh process: includes importing heic-decode and instantiating its WASM',
    },
    ...timingResults(
      `${prefix}.warm`,
      warm,
      'decodeImageInput: header, WASM decode to RGBA, JPEG q95 4:4:4 for the engine',
    ),
    {
      metric: `${prefix}.wasm_decode_only.median_ms`,
      value: round(median(wasmOnly)),
      unit: 'ms',
      notes: `heic-decode alone (${WASM_ONLY_RUNS} runs); the rest of a warm call is the header read and the intermediate JPEG`,
    },
    {
      metric: `${prefix}.baseline_rss_mb`,
      value: megabytes(baselineRss),
      unit: 'MB',
      notes: 'modules loaded, before the first decode',
    },
    {
      metric: `${prefix}.peak_rss_first_call_mb`,
      value: megabytes(peakAfterFirst),
      unit: 'MB',
      notes: 'process peak (maxRSS) when the first call returned: one request in a fresh function',
    },
    {
      metric: `${prefix}.peak_rss_mb`,
      value: megabytes(peakRssBytes()),
      unit: 'MB',
      notes: `process peak after ${1 + WARM_RUNS + WASM_ONLY_RUNS} decodes (the WASM heap never shrinks); resident at the end ${megabytes(process.memoryUsage().rss)} MB`,
    },
  ];
};

/** The kernel's high-water mark: it also sees the peak inside a synchronous WASM call, which no timer would. */
const peakRssBytes = (): number => process.resourceUsage().maxRSS * 1024;

/**
 * Debian's native decoder on the same file, in the same run (apt: libheif-examples). Peak memory from
 * GNU time when it is installed.
 */
const measureNative = (
  file: string,
  size: number,
): { decode: number[]; jpeg: number[]; version: string; decodePeakMb?: number } | { skipped: string } => {
  const help = spawnSync('heif-convert', ['--help'], { encoding: 'utf8' });
  if (help.error)
    return { skipped: 'heif-convert is not installed (apt: libheif-examples): no native figure to compare with' };
  const version = /libheif version: (\S+)/.exec(`${help.stdout}${help.stderr}`)?.[1] ?? 'unknown';
  const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-heif-convert-'));
  try {
    const run = (output: string, extra: string[] = []): number => {
      const start = performance.now();
      const child = spawnSync('heif-convert', ['--quiet', ...extra, file, path.join(workDir, output)], {
        encoding: 'utf8',
      });
      const ms = performance.now() - start;
      if (child.status !== 0)
        throw new Error(`heif-convert failed on ${file} (${size} bytes): ${child.stderr || child.stdout}`);
      return ms;
    };
    run('warm.y4m');
    const decode = Array.from({ length: NATIVE_RUNS }, () => run('out.y4m'));
    const jpeg = Array.from({ length: NATIVE_RUNS }, () => run('out.jpg', ['-q', '95']));
    const timedRun = spawnSync(
      '/usr/bin/time',
      ['-f', '%M', 'heif-convert', '--quiet', file, path.join(workDir, 'peak.y4m')],
      { encoding: 'utf8' },
    );
    const peakKb = timedRun.status === 0 ? Number(timedRun.stderr.trim().split('\n').pop()) : NaN;
    return { decode, jpeg, version, ...(Number.isFinite(peakKb) ? { decodePeakMb: round(peakKb / 1024, 1) } : {}) };
  } finally {
    fs.rmSync(workDir, { recursive: true, force: true });
  }
};
