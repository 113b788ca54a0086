/**
 * Decoding one 12 MP HEIC through the input guard (`decodeImageInput`): heic-decode (libheif in WASM)
 * to RGBA, then the intermediate JPEG (quality 95, 4:4:4) the engine reads. Measured in a fresh process
 * (the harness runs each module in its own), so the first call includes importing heic-decode and
 * instantiating its WASM, and the peak RSS (`resourceUsage().maxRSS`) is this file's alone.
 */
import fs from 'node:fs';
import path from 'node:path';
import { decodeImageInput, type ImageInputDeps } from '../../functions/adapters/images/image-input';
import { median, megabytes, progress, round, timed, timingResults, type BenchResult } from '../harness';

export const ROOT_DIR = path.resolve(__dirname, '../..');
const WARM_RUNS = 5;
const WASM_ONLY_RUNS = 2;

/** Inputs here are base64, never URLs: a fetch would be a bug in the bench. */
const deps: ImageInputDeps = {
  fetchBytes: async (url) => {
    throw new Error(`the HEIC bench fetched ${url}`);
  },
};

export const measureHeicDecode = async (options: { module: string; metricPrefix: string; file: string; description: string }): Promise<BenchResult[]> => {
  const { module, metricPrefix: prefix, file, description } = options;
  const baselineRss = process.memoryUsage().rss;
  const bytes = fs.readFileSync(file);
  const base64 = bytes.toString('base64');
  const decode = () => decodeImageInput(base64, 'image', deps);
  progress(module, `${path.relative(ROOT_DIR, file)} (${megabytes(bytes.length)} MB): first call, then ${WARM_RUNS} warm`);

  const first = await timed(decode);
  const peakAfterFirst = peakRssBytes();
  const { width, height, format } = first.value;
  if (format !== 'heif' || width !== 4032 || height !== 3024) throw new Error(`${file} decoded as ${format} ${width}x${height}`);
  const warm: number[] = [];
  for (let index = 0; index < WARM_RUNS; index += 1) warm.push((await timed(decode)).ms);

  // The WASM decode alone, without the guard's header read and the intermediate JPEG encode.
  const { default: heicDecode } = await import('heic-decode');
  const wasmOnly: number[] = [];
  for (let index = 0; index < WASM_ONLY_RUNS; index += 1) wasmOnly.push((await timed(() => heicDecode({ buffer: bytes }))).ms);

  return [
    { metric: `${prefix}.file_mb`, value: round(bytes.length / 1e6, 2), unit: 'MB', notes: `4032x3024, ${description}` },
    { metric: `${prefix}.first_call_ms`, value: round(first.ms), unit: 'ms', notes: 'fresh process: includes importing heic-decode and instantiating its WASM' },
    ...timingResults(`${prefix}.warm`, warm, 'decodeImageInput: header, WASM decode to RGBA, JPEG q95 4:4:4 for the engine'),
    {
      metric: `${prefix}.wasm_decode_only.median_ms`,
      value: round(median(wasmOnly)),
      unit: 'ms',
      notes: `heic-decode alone (${WASM_ONLY_RUNS} runs); the rest of a warm call is the header read and the intermediate JPEG`,
    },
    { metric: `${prefix}.baseline_rss_mb`, value: megabytes(baselineRss), unit: 'MB', notes: 'modules loaded, before the first decode' },
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
