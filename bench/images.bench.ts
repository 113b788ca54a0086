/**
 * Enhance and remix at 2K: the service path against a bare sharp pipeline doing the same image work
 * (issue target: service / bare ≤ 1.10, answering the image as bytes and as a link).
 *
 * - service: the use case `runSync` with the real adapters of the local runtime (input guard, ledger
 *   reserve and settle on the local DynamoDB store, output put to the local S3, base64 answer), called in process.
 * - http: the same request POSTed to the local API gateway (auth, JSON body, validation, logging).
 * - bare: what a hand-written sharp script needs for the same output: base64 to bytes, the statistics on
 *   a 128 px copy, one decode-resize-(sharpen)-linear pipeline, one JPEG encode. The outputs are checked
 *   to be the same size and (expected) the same bytes as the service's, so the comparison is like for like.
 *
 * The input is a 12 MP photo-like JPEG (4032x3024, ~4 MB at quality 90, like a phone's), the remix
 * reference 1.2 MP: both as base64 in one body stay under the 6 MB request cap of Lambda (the gateway
 * answers 413 above it), so the HTTP variant sends exactly what the in-process one is given.
 * Each service variant runs back to back with a bare run, the order alternating round by round, and the
 * ratio reported is the median of the pairs' ratios (harness.ts, comparePaired): the machine's load moves
 * slower than a pair, so it cancels within one.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import * as v from 'valibot';
import { type LocalRuntime, startLocalRuntime } from '../bin/local-aws/runtime';
import { services } from '../bin/local-aws/services';
import { MAX_INPUT_BYTES } from '../functions/adapters/images/image-input';
import { readImageSource } from '../functions/adapters/images/image-source';
import { enhanceCommand, remixCommand } from '../functions/api/images/image-commands';
import { EnhanceRequestSchema, RemixRequestSchema } from '../functions/api/schemas/images';
import type { Caller } from '../functions/domain/accounts/accounts';
import type { ImageCommand } from '../functions/domain/images/command';
import type { ImageDeps } from '../functions/domain/images/deps';
import { runSync } from '../functions/domain/images/run-sync';
import { type ImageResultBody, imageResultBody } from '../functions/domain/jobs/result';
import { atMost, type BenchResult, comparePaired, median, progress, round, timed, timingResults } from './harness';
import { syntheticPhotoJpeg } from './support/synthetic-photo';

export const name = 'images';

const WARMUPS = 2;
const RUNS = 14;
const BREAKDOWN_RUNS = 5;
const RATIO_TARGET = 1.1;
const TWO_K_EDGE_PX = 2048;
const STATS_EDGE_PX = 128;
const DEV_CREDIT_MICROS = 1_000_000_000;

type Operation = 'enhance' | 'remix';

interface Inputs {
  imageBase64: string;
  referenceBase64: string;
}

export const run = async (): Promise<BenchResult[]> => {
  progress(name, 'making a 12 MP photo-like JPEG and a 1.2 MP reference');
  const [image, reference] = await Promise.all([
    syntheticPhotoJpeg({ width: 4032, height: 3024, seed: 1, grainLevels: 6 }),
    syntheticPhotoJpeg({ width: 1280, height: 960, seed: 7, tint: [30, -10, -40] }),
  ]);
  const inputs: Inputs = { imageBase64: image.toString('base64'), referenceBase64: reference.toString('base64') };
  const results: BenchResult[] = [
    {
      metric: 'images.input.bytes_mb',
      value: round(image.length / 1e6, 2),
      unit: 'MB',
      notes: '4032x3024 JPEG q90, photo-like noise and edges',
    },
    {
      metric: 'images.reference.bytes_mb',
      value: round(reference.length / 1e6, 2),
      unit: 'MB',
      notes: '1280x960 JPEG q90, other colours (remix)',
    },
  ];

  results.push(await readSourceCost(inputs.imageBase64));

  const bareMedians = new Map<Operation, number>();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-images-'));
  const runtime = await startLocalRuntime({ dataDir, logLevel: 'silent', devAccountCreditMicros: DEV_CREDIT_MICROS });
  try {
    for (const operation of ['enhance', 'remix'] as const) {
      const compared = await compareOperation(operation, runtime, inputs);
      const bare = compared.find((result) => result.metric === `images.${operation}.bare.median_ms`);
      if (!bare) throw new Error(`the ${operation} comparison measured no bare median`);
      bareMedians.set(operation, bare.value);
      results.push(...compared);
    }
  } finally {
    await runtime.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
  results.push(...(await httpOnArtefacts(inputs, bareMedians)));
  return results;
};

/**
 * What ships: the same HTTP request against `npm run start:assets` (every function from its bundled
 * asset in a Lambda-like worker process), after the in-process comparisons, against the bare median of
 * this run. Information, not a target: the body crosses to the worker and back as a Lambda event would.
 */
const httpOnArtefacts = async (inputs: Inputs, bareMedians: Map<Operation, number>): Promise<BenchResult[]> => {
  progress(name, 'the same requests against the synthesised artefacts (start:assets)');
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-images-assets-'));
  const runtime = await startLocalRuntime({
    dataDir,
    logLevel: 'silent',
    devAccountCreditMicros: DEV_CREDIT_MICROS,
    assets: true,
  });
  try {
    const devAccount = runtime.devAccount;
    if (!devAccount) throw new Error('the local runtime made no development account');
    const apiKey = devAccount.apiKey;
    const results: BenchResult[] = [];
    for (const operation of ['enhance', 'remix'] as const) {
      const body = JSON.stringify(requestBody(operation, inputs));
      const call = async () => {
        const response = await fetch(`${runtime.url}/v2/service/${operation}`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', 'X-API-Key': apiKey },
          body,
        });
        if (response.status !== 200)
          throw new Error(
            `start:assets POST /v2/service/${operation} answered ${response.status}: ${await response.text()}`,
          );
        await response.json();
      };
      const samples: number[] = [];
      for (let attempt = 0; attempt < WARMUPS + RUNS; attempt += 1) {
        const { ms } = await timed(call);
        if (attempt >= WARMUPS) samples.push(ms);
      }
      const bare = bareMedians.get(operation);
      if (bare === undefined) throw new Error(`no bare median for ${operation}`);
      results.push(
        ...timingResults(
          `images.${operation}.http_assets`,
          samples,
          'POST to start:assets: the bundled function in its Lambda-like worker, answer read and parsed',
        ),
        {
          metric: `images.${operation}.ratio_http_assets_to_bare`,
          value: round(median(samples) / bare, 3),
          unit: 'x',
          notes: `median http (artefacts) / this run's bare median ${round(bare)} ms (information)`,
        },
      );
    }
    return results;
  } finally {
    await runtime.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
};

const compareOperation = async (
  operation: Operation,
  runtime: LocalRuntime,
  inputs: Inputs,
): Promise<BenchResult[]> => {
  const devAccount = runtime.devAccount;
  if (!devAccount) throw new Error('the local runtime made no development account');
  const caller: Caller = { accountId: devAccount.accountId, keyId: devAccount.keyId };
  const body = requestBody(operation, inputs);
  const bodyJson = JSON.stringify(body);
  const urlsBody = { ...body, response_mode: 'urls' };

  // The answer's body is built too (base64), as before the use case handed its result to the API edge.
  const viaService = async (deps: ImageDeps = services().images) =>
    imageResultBody(await runSync(deps, caller, commandOf(operation, body), { baseUrl: runtime.url }));
  const viaServiceUrls = async () =>
    imageResultBody(await runSync(services().images, caller, commandOf(operation, urlsBody), { baseUrl: runtime.url }));
  const viaHttp = async (): Promise<ImageResultBody> => {
    const response = await fetch(`${runtime.url}/v2/service/${operation}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-API-Key': devAccount.apiKey },
      body: bodyJson,
    });
    if (response.status !== 200)
      throw new Error(`POST /v2/service/${operation} answered ${response.status}: ${await response.text()}`);
    return (await response.json()) as ImageResultBody;
  };
  const viaBare = () =>
    operation === 'enhance' ? bareEnhance(inputs.imageBase64) : bareRemix(inputs.imageBase64, inputs.referenceBase64);

  const equivalence = await checkEquivalent(operation, (await viaService()).images[0], await viaBare());
  progress(name, `${operation}: ${equivalence}; timing ${WARMUPS} warm-ups + ${RUNS} interleaved rounds`);

  const linked = await viaServiceUrls();
  if (!linked.download_urls[0]) throw new Error(`${operation}: response_mode urls answered no link`);
  const paired = await comparePaired(
    viaBare,
    { service: () => viaService(), service_urls: viaServiceUrls },
    { warmups: WARMUPS, runs: RUNS, unpaired: { http: viaHttp } },
  );
  const samples = {
    bare: paired.base,
    service: paired.variants.service.samples,
    service_urls: paired.variants.service_urls.samples,
    http: paired.unpaired.http,
  };
  const ratio = median(paired.variants.service.ratios);
  const urlsRatio = median(paired.variants.service_urls.ratios);
  const httpRatio = median(samples.http) / median(samples.bare);
  const ratioOfMedians = median(samples.service) / median(samples.bare);
  const fastestRatio = Math.min(...samples.service) / Math.min(...samples.bare);
  const spread = (ratios: number[]) =>
    `${ratios.length} pairs, ratios ${Math.min(...ratios).toFixed(3)}–${Math.max(...ratios).toFixed(3)}`;
  progress(
    name,
    `${operation}: service/bare ${ratio.toFixed(3)} (bytes), ${urlsRatio.toFixed(3)} (urls), http/bare ${httpRatio.toFixed(3)}; timing the service's stages`,
  );
  const breakdown = await stageBreakdown(operation, (spans) => viaService(instrumented(services().images, spans)));

  const prefix = `images.${operation}`;
  return [
    ...timingResults(`${prefix}.bare`, samples.bare, `bare sharp pipeline; ${equivalence}`),
    ...timingResults(
      `${prefix}.service`,
      samples.service,
      'runSync in process with the local adapters, response_mode bytes',
    ),
    ...timingResults(
      `${prefix}.service_urls`,
      samples.service_urls,
      'runSync in process with the local adapters, response_mode urls (the output stored, a download link answered)',
    ),
    ...timingResults(`${prefix}.http`, samples.http, 'POST through the local API gateway, answer read and parsed'),
    atMost(
      {
        metric: `${prefix}.ratio_service_to_bare`,
        value: round(ratio, 3),
        unit: 'x',
        notes: `median of the paired ratios service / bare (each pair back to back); ${spread(paired.variants.service.ratios)}; median / median ${ratioOfMedians.toFixed(3)}, fastest / fastest ${fastestRatio.toFixed(3)}`,
      },
      RATIO_TARGET,
    ),
    atMost(
      {
        metric: `${prefix}.ratio_service_urls_to_bare`,
        value: round(urlsRatio, 3),
        unit: 'x',
        notes: `median of the paired ratios service (response_mode urls) / bare; ${spread(paired.variants.service_urls.ratios)}`,
      },
      RATIO_TARGET,
    ),
    {
      metric: `${prefix}.ratio_http_to_bare`,
      value: round(httpRatio, 3),
      unit: 'x',
      notes: 'median http / median bare, unpaired (information: the target is on the service path)',
    },
    ...breakdown,
  ];
};

/** The first step of the decode stage on its own: from the base64 string to bytes, through the guard's checks. */
const readSourceCost = async (imageBase64: string): Promise<BenchResult> => {
  const noFetch = async (): Promise<Buffer> => {
    throw new Error('the images bench sends no URL');
  };
  const samples: number[] = [];
  for (let round = 0; round < 2 + RUNS; round += 1) {
    const { ms } = await timed(() => readImageSource(imageBase64, 'image', { fetchBytes: noFetch }, MAX_INPUT_BYTES));
    if (round >= 2) samples.push(ms);
  }
  const bare = median(
    Array.from({ length: 5 }, () => {
      const start = performance.now();
      Buffer.from(imageBase64, 'base64');
      return performance.now() - start;
    }),
  );
  return {
    metric: 'images.input_guard.read_base64_ms',
    value: round(median(samples)),
    unit: 'ms',
    notes: `readImageSource on the ${round(imageBase64.length / 1e6, 2)} MB base64 input (part of the decode stage); Buffer.from alone ${round(bare)} ms`,
  };
};

// ---- the service's request, as a client sends it ----

const requestBody = (operation: Operation, inputs: Inputs): Record<string, unknown> =>
  operation === 'enhance'
    ? { image: inputs.imageBase64, response_mode: 'bytes', output_format: 'jpg' }
    : {
        input_image: inputs.imageBase64,
        reference_image: inputs.referenceBase64,
        response_mode: 'bytes',
        output_format: 'jpg',
      };

/** What the handler does before the use case: validate the body against its schema, map it to a command. */
const commandOf = (operation: Operation, body: Record<string, unknown>): ImageCommand =>
  operation === 'enhance'
    ? enhanceCommand(v.parse(EnhanceRequestSchema, body))
    : remixCommand(v.parse(RemixRequestSchema, body));

// ---- the bare sharp pipelines ----

const JPEG_OPTIONS = { quality: 90 } as const;

/** The long edge at 2K, the other edge at the input's aspect, both multiples of 16 (the service's pinned 2K). */
const twoKSize = async (bytes: Buffer): Promise<{ width: number; height: number }> => {
  const { width, height } = await sharp(bytes).metadata();
  const ratio = width / height;
  const multipleOf16 = (px: number) => Math.max(16, Math.round(px / 16) * 16);
  return ratio >= 1
    ? { width: TWO_K_EDGE_PX, height: multipleOf16(TWO_K_EDGE_PX / ratio) }
    : { width: multipleOf16(TWO_K_EDGE_PX * ratio), height: TWO_K_EDGE_PX };
};

/** RGB pixels of a copy at most 128 px a side (JPEG shrink-on-load makes this cheap). */
const smallCopy = (bytes: Buffer): Promise<Buffer> =>
  sharp(bytes)
    .resize(STATS_EDGE_PX, STATS_EDGE_PX, { fit: 'inside', withoutEnlargement: true })
    .removeAlpha()
    .raw()
    .toBuffer();

const bareEnhance = async (imageBase64: string): Promise<Buffer> => {
  const bytes = Buffer.from(imageBase64, 'base64');
  const [size, pixels] = await Promise.all([twoKSize(bytes), smallCopy(bytes)]);
  const { gain, offset } = luminanceStretch(pixels);
  const pipeline = sharp(bytes).resize(size.width, size.height, { fit: 'cover' }).sharpen();
  return (gain === 1 && offset === 0 ? pipeline : pipeline.linear(gain, offset)).jpeg(JPEG_OPTIONS).toBuffer();
};

const bareRemix = async (imageBase64: string, referenceBase64: string): Promise<Buffer> => {
  const bytes = Buffer.from(imageBase64, 'base64');
  const referenceBytes = Buffer.from(referenceBase64, 'base64');
  const [size, inputPixels, referencePixels] = await Promise.all([
    twoKSize(bytes),
    smallCopy(bytes),
    smallCopy(referenceBytes),
  ]);
  const input = meanAndDeviation(inputPixels);
  const target = meanAndDeviation(referencePixels);
  const gains = [0, 1, 2].map((channel) =>
    Math.min(4, Math.max(0.25, target.deviation[channel] / Math.max(input.deviation[channel], 1))),
  );
  const offsets = gains.map((gain, channel) => target.mean[channel] - gain * input.mean[channel]);
  return sharp(bytes)
    .resize(size.width, size.height, { fit: 'cover' })
    .linear(gains, offsets)
    .jpeg(JPEG_OPTIONS)
    .toBuffer();
};

/** Luminance 0.5th-99.5th percentiles stretched to the full range, gain at most 2.5 (as the sandbox engine). */
const luminanceStretch = (pixels: Buffer): { gain: number; offset: number } => {
  const histogram = new Uint32Array(256);
  for (let index = 0; index + 2 < pixels.length; index += 3) {
    histogram[Math.round(0.299 * pixels[index] + 0.587 * pixels[index + 1] + 0.114 * pixels[index + 2])] += 1;
  }
  const count = pixels.length / 3;
  const level = (fraction: number): number => {
    let seen = 0;
    for (let value = 0; value < 256; value += 1) {
      seen += histogram[value];
      if (seen >= fraction * count) return value;
    }
    return 255;
  };
  const low = level(0.005);
  const high = level(0.995);
  if (high - low < 16 || (low <= 2 && high >= 253)) return { gain: 1, offset: 0 };
  const gain = Math.min(255 / (high - low), 2.5);
  return { gain, offset: 127.5 - ((low + high) / 2) * gain };
};

const meanAndDeviation = (pixels: Buffer): { mean: number[]; deviation: number[] } => {
  const count = pixels.length / 3;
  const sums = [0, 0, 0];
  const squares = [0, 0, 0];
  for (let index = 0; index < pixels.length; index += 1) {
    sums[index % 3] += pixels[index];
    squares[index % 3] += pixels[index] * pixels[index];
  }
  const mean = sums.map((sum) => sum / count);
  return {
    mean,
    deviation: squares.map((square, channel) => Math.sqrt(Math.max(0, square / count - mean[channel] ** 2))),
  };
};

/** Same size is required; same bytes is what an equivalent pipeline should give, said in the notes. */
const checkEquivalent = async (
  operation: Operation,
  serviceBase64: string | undefined,
  bare: Buffer,
): Promise<string> => {
  if (!serviceBase64) throw new Error(`${operation}: the service answered no image`);
  const service = Buffer.from(serviceBase64, 'base64');
  const [serviceMeta, bareMeta] = await Promise.all([sharp(service).metadata(), sharp(bare).metadata()]);
  if (serviceMeta.width !== bareMeta.width || serviceMeta.height !== bareMeta.height) {
    throw new Error(
      `${operation}: the bare pipeline made ${bareMeta.width}x${bareMeta.height}, the service ${serviceMeta.width}x${serviceMeta.height}`,
    );
  }
  const sizeText = `both ${bareMeta.width}x${bareMeta.height} JPEG`;
  if (service.equals(bare)) return `${sizeText}, byte-identical outputs`;
  const [a, b] = await Promise.all([sharp(service).raw().toBuffer(), sharp(bare).raw().toBuffer()]);
  let total = 0;
  for (let index = 0; index < a.length; index += 1) total += Math.abs(a[index] - b[index]);
  return `${sizeText}, mean abs difference ${(total / a.length).toFixed(2)} levels`;
};

// ---- where the service's time goes ----

interface Span {
  start: number;
  end: number;
}

type Spans = Map<string, Span[]>;

const track =
  <A extends unknown[], R>(spans: Spans, stage: string, call: (...args: A) => Promise<R>) =>
  async (...args: A): Promise<R> => {
    const start = performance.now();
    try {
      return await call(...args);
    } finally {
      spans.set(stage, [...(spans.get(stage) ?? []), { start, end: performance.now() }]);
    }
  };

const STAGES = [
  { key: 'decode', label: 'decode inputs' },
  { key: 'ledger_reserve', label: 'ledger reserve' },
  { key: 'engine', label: 'engine' },
  { key: 'output_put', label: 'output put (S3)' },
  { key: 'ledger_settle', label: 'ledger settle' },
] as const;

const TIMED_LEDGER_CALLS = new Set<PropertyKey>(['reserve', 'settle', 'release']);

/** The same dependencies with every port call that does work timed into `spans`. */
const instrumented = (deps: ImageDeps, spans: Spans): ImageDeps => {
  const { engine, ledger, outputs } = deps;
  const timedLedger = new Proxy(ledger, {
    get: (target, property) => {
      const value: unknown = Reflect.get(target, property, target);
      if (typeof value !== 'function') return value;
      const bound = (...args: unknown[]): unknown => value.apply(target, args);
      return TIMED_LEDGER_CALLS.has(property)
        ? track(spans, `ledger_${String(property)}`, async (...args: unknown[]) => bound(...args))
        : bound;
    },
  });
  return {
    ...deps,
    decodeInput: track(spans, 'decode', deps.decodeInput),
    engine: { run: track(spans, 'engine', (request, signal) => engine.run(request, signal)) },
    ledger: timedLedger,
    outputs: { ...outputs, save: track(spans, 'output_put', outputs.save) },
  };
};

/** Median wall time of each stage (parallel calls of one stage count once) and of everything else. */
const stageBreakdown = async (
  operation: Operation,
  call: (spans: Spans) => Promise<unknown>,
): Promise<BenchResult[]> => {
  const perStage = new Map<string, number[]>();
  const record = (key: string, ms: number) => perStage.set(key, [...(perStage.get(key) ?? []), ms]);
  const totals: number[] = [];
  for (let round = 0; round < BREAKDOWN_RUNS; round += 1) {
    const spans: Spans = new Map();
    const start = performance.now();
    await call(spans);
    const total = performance.now() - start;
    totals.push(total);
    let accounted = 0;
    for (const { key } of STAGES) {
      const list = spans.get(key) ?? [];
      const wall =
        list.length === 0 ? 0 : Math.max(...list.map((span) => span.end)) - Math.min(...list.map((span) => span.start));
      accounted += wall;
      record(key, wall);
    }
    record('other', total - accounted);
  }
  const total = median(totals);
  return [...STAGES, { key: 'other', label: 'everything else (checks, ids, base64 answer)' }].map(({ key, label }) => {
    const ms = median(perStage.get(key) ?? [0]);
    return {
      metric: `images.${operation}.service_stage.${key}_ms`,
      value: round(ms),
      unit: 'ms',
      notes: `${label}: ${Math.round((100 * ms) / total)}% of ${round(total)} ms (median of ${BREAKDOWN_RUNS} instrumented runs)`,
    };
  });
};
