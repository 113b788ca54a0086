/**
 * @jest-environment ./test/faces/onnx-environment.js
 *
 * The provider double draws the people of its inputs with the real face analyser (face-render.ts), which
 * needs onnxruntime in the host's realm.
 */
import { createHash } from 'node:crypto';
import sharp from 'sharp';
import { HttpEngineError, type Wait } from '../../../../../../functions/adapters/engine/http-engine';
import { FalEngine } from '../../../../../../functions/adapters/engine/providers/fal/fal';
import { falPossibleCostMicros } from '../../../../../../functions/adapters/engine/providers/fal/families';
import type { ProviderTransport } from '../../../../../../functions/adapters/engine/providers/provider-http';
import type {
  CandidateProfile,
  EngineOutcome,
  EngineRequest,
  EngineTicket,
} from '../../../../../../functions/domain/engine/engine';
import { anEngineRequest, referencesIn } from '../../../../../support/builders/engine';
import { type FalDouble, startFalDouble } from '../../../../../support/providers/fal-double';
import { loraFile } from '../../../../../support/providers/fal-trainer-double';

let double: FalDouble;
let waits: number[];
let input: Buffer;
const crops = new Map<string, Buffer>();
const CROP_COLOURS = ['#ff0000', '#00ff00', '#0000ff', '#ffff00', '#ff00ff', '#00ffff'];

beforeAll(async () => {
  input = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#336699' } })
    .jpeg()
    .toBuffer();
  await Promise.all(
    CROP_COLOURS.map(async (background, index) => {
      crops.set(
        `profiles/acc_1/prf_${index < 3 ? 'a' : 'b'}/reference-${index % 3}.jpg`,
        await sharp({ create: { width: 96, height: 96, channels: 3, background } })
          .jpeg()
          .toBuffer(),
      );
    }),
  );
});

beforeEach(async () => {
  double = await startFalDouble();
  waits = [];
});

afterEach(async () => {
  expect(double.violations).toEqual([]);
  await double.close();
});

const recordWait: Wait = async (milliseconds) => {
  waits.push(milliseconds);
};

/** Our copies of LoRA files, by key, served at a loopback URL as a presigned GET of the bucket would. */
const loras = new Map<string, Buffer>();

const engine = (model = 'fal-ai/flux-2', transport: Partial<ProviderTransport> = {}) =>
  new FalEngine({
    model,
    baseUrl: double.baseUrl,
    apiKey: async () => 'fal-test-key',
    // The double serves its outputs from its own loopback host, as ALLOW_LOOPBACK_URLS admits locally.
    media: { hosts: ['fal.media', '*.fal.media'], allowLoopback: true },
    references: {
      ...referencesIn(crops),
      url: async (key) => {
        const lora = loras.get(key);
        return lora ? double.share(lora, 'application/octet-stream') : `${double.baseUrl}/unused/${key}`;
      },
      share: (data, contentType) => double.share(data, contentType),
    },
    transport: { wait: recordWait, random: () => 0.5, ...transport },
  });

const profile = (id: 'a' | 'b'): CandidateProfile => ({
  profileId: `prf_${id}`,
  face: {
    modelId: 'faces/1',
    kind: 'person',
    mean: [0.6, 0.8],
    referenceKeys: [0, 1, 2].map((index) => `profiles/acc_1/prf_${id}/reference-${index}.jpg`),
  },
});

const request = (overrides: Partial<EngineRequest> = {}): EngineRequest =>
  anEngineRequest({ workKey: 'job_fal', baseModel: 'base-a-2', ...overrides });

const withInput = (overrides: Partial<EngineRequest> = {}): EngineRequest =>
  request({ operation: 'edit', images: [{ data: input, format: 'jpeg', width: 64, height: 48 }], ...overrides });

const live = () => new AbortController().signal;

const imagesOf = (outcome: EngineOutcome): Buffer[] => {
  if (outcome.kind !== 'images') throw new Error(`expected images, got ${outcome.kind}: ${outcome.message}`);
  return outcome.images;
};

const sharedUrl = (data: Buffer) => `${double.baseUrl}/inputs/${createHash('sha256').update(data).digest('hex')}`;

const onlySubmission = () => {
  expect(double.submissions).toHaveLength(1);
  const [submission] = double.submissions;
  if (!submission) throw new Error('no submission');
  return submission;
};

describe('fal engine: sizes', () => {
  it.each([
    ['fal-ai/flux-2', 1024, 768],
    ['fal-ai/flux-2', 2048, 1152],
    ['fal-ai/flux-2', 1152, 2048],
    ['fal-ai/flux-2', 1024, 688],
    ['fal-ai/flux-2-pro', 2048, 1536],
    ['fal-ai/nano-banana-2', 1024, 576],
    ['fal-ai/nano-banana-2', 2048, 2048],
    ['fal-ai/nano-banana-2', 4096, 2304],
    ['fal-ai/nano-banana-2', 3072, 4096],
    ['fal-ai/qwen-image-2', 2048, 1536],
    ['fal-ai/qwen-image-2', 1024, 576],
    ['fal-ai/bytedance/seedream/v5/lite', 1024, 768],
  ])('%s answers exactly %i×%i', async (model, width, height) => {
    const [image] = imagesOf(await engine(model).run(request({ width, height }), live()));
    expect(await sharp(image).metadata()).toMatchObject({ width, height, format: 'png' });
  });

  it('asks flux-2 for the exact size when it takes it, scaled into 512–2048 a side when not', async () => {
    await engine().run(request({ width: 1024, height: 688 }), live());
    await engine().run(request({ width: 2560, height: 1440 }), live());
    expect(double.submissions.map((submission) => submission.input.image_size)).toEqual([
      { width: 1024, height: 688 },
      { width: 2048, height: 1152 },
    ]);
  });

  it('asks nano-banana-2 for the nearest aspect ratio and the tier that covers the long edge', async () => {
    await engine('fal-ai/nano-banana-2').run(request({ width: 4096, height: 2304 }), live());
    await engine('fal-ai/nano-banana-2').run(request({ width: 1024, height: 688 }), live());
    expect(double.submissions.map(({ input: { aspect_ratio, resolution } }) => ({ aspect_ratio, resolution }))).toEqual(
      [
        { aspect_ratio: '16:9', resolution: '4K' },
        { aspect_ratio: '3:2', resolution: '1K' },
      ],
    );
  });

  it('asks seedream for a size inside its pixel range', async () => {
    await engine('fal-ai/bytedance/seedream/v5/lite').run(request({ width: 2048, height: 1152 }), live());
    expect(onlySubmission().input.image_size).toEqual({ width: 2560, height: 1440 });
  });
});

describe('fal engine: counts', () => {
  it('one image is one submission of num_images 1', async () => {
    expect(imagesOf(await engine().run(request(), live()))).toHaveLength(1);
    expect(onlySubmission()).toMatchObject({ endpoint: 'fal-ai/flux-2', input: { num_images: 1 } });
  });

  it('six images on flux-2 are two submissions (4 and 2) of one ticket', async () => {
    const fal = engine();
    const ticket = await fal.queue.submit(request({ numOutputImages: 6 }), live());
    expect(ticket.requests.map((entry) => entry.images)).toEqual([4, 2]);
    const check = await fal.queue.check(ticket, request({ numOutputImages: 6 }), live());
    expect(check.state === 'done' && imagesOf(check.outcome)).toHaveLength(6);
    expect(double.submissions.map((submission) => submission.input.num_images)).toEqual([4, 2]);
  });

  it('flux-2-pro makes one image a call and is sent no num_images', async () => {
    const images = imagesOf(await engine('fal-ai/flux-2-pro').run(request({ numOutputImages: 3 }), live()));
    expect(images).toHaveLength(3);
    expect(double.submissions).toHaveLength(3);
    for (const { input } of double.submissions) expect(input).not.toHaveProperty('num_images');
  });

  it('five images on nano-banana-2 are submissions of 4 and 1', async () => {
    expect(imagesOf(await engine('fal-ai/nano-banana-2').run(request({ numOutputImages: 5 }), live()))).toHaveLength(5);
    expect(double.submissions.map((submission) => submission.input.num_images)).toEqual([4, 1]);
  });

  it('keeps the order of the calls: the first call’s images come first', async () => {
    const images = imagesOf(await engine().run(request({ numOutputImages: 5, width: 512, height: 512 }), live()));
    const colours = await Promise.all(
      images.map(async (image) => (await sharp(image).stats()).channels.map((channel) => Math.round(channel.mean))),
    );
    const [first, second] = double.submissions;
    const expected = await Promise.all(
      [first, first, first, first, second].map(async (submission, index) => {
        const file = await fetch(`${double.baseUrl}/files/${submission?.requestId}-${index % 4}.png`);
        const stats = await sharp(Buffer.from(await file.arrayBuffer())).stats();
        return stats.channels.slice(0, 3).map((channel) => Math.round(channel.mean));
      }),
    );
    expect(colours.map((channels) => channels.slice(0, 3))).toEqual(expected);
  });
});

describe('fal engine: formats', () => {
  it('asks for png and answers png', async () => {
    const [image] = imagesOf(await engine().run(request({ outputFormat: 'png' }), live()));
    expect(image?.subarray(0, 4)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47]));
    expect(onlySubmission().input.output_format).toBe('png');
  });

  it('asks for jpeg and answers jpg', async () => {
    const [image] = imagesOf(await engine('fal-ai/qwen-image-2').run(request({ outputFormat: 'jpg' }), live()));
    expect(image?.subarray(0, 3)).toEqual(Buffer.from([0xff, 0xd8, 0xff]));
    expect(onlySubmission().input.output_format).toBe('jpeg');
  });

  it('re-encodes where the endpoint has no output_format (seedream)', async () => {
    const [image] = imagesOf(
      await engine('fal-ai/bytedance/seedream/v5/lite').run(request({ outputFormat: 'jpg' }), live()),
    );
    expect(image?.subarray(0, 3)).toEqual(Buffer.from([0xff, 0xd8, 0xff]));
    expect(onlySubmission().input).not.toHaveProperty('output_format');
  });
});

describe('fal engine: inputs and references', () => {
  it('sends the caller’s images, then the crops, to the edit endpoint, with the prompt rewritten', async () => {
    await engine().run(
      withInput({ prompt: 'put [[prf_a]] on a boat', candidates: [profile('a')], namedInPrompt: ['prf_a'] }),
      live(),
    );
    const { endpoint, input: sent } = onlySubmission();
    expect(endpoint).toBe('fal-ai/flux-2/edit');
    expect(sent.image_urls).toEqual([
      sharedUrl(input),
      ...[0, 1, 2].map((index) =>
        sharedUrl(crops.get(`profiles/acc_1/prf_a/reference-${index}.jpg`) ?? Buffer.alloc(0)),
      ),
    ]);
    expect(sent.prompt).toBe('put the person in reference images 2, 3 and 4 on a boat');
    expect(sent.enable_safety_checker).toBe(true);
  });

  it('a generate that names a profile goes to the edit endpoint', async () => {
    await engine('fal-ai/nano-banana-2').run(
      request({ prompt: '[[prf_a]] skiing', candidates: [profile('a')], namedInPrompt: ['prf_a'] }),
      live(),
    );
    expect(onlySubmission()).toMatchObject({
      endpoint: 'fal-ai/nano-banana-2/edit',
      input: { prompt: 'the person in reference images 1, 2 and 3 skiing' },
    });
  });

  it('a generate without inputs goes to the generation endpoint', async () => {
    await engine('fal-ai/qwen-image-2').run(request(), live());
    expect(onlySubmission().endpoint).toBe('fal-ai/qwen-image-2/text-to-image');
    expect(onlySubmission().input).not.toHaveProperty('image_urls');
  });

  it('over the cap, each profile’s crops become one contact sheet', async () => {
    await engine('fal-ai/qwen-image-2').run(
      withInput({
        prompt: '[[prf_a]] and [[prf_b]] at a table',
        candidates: [profile('a'), profile('b')],
        namedInPrompt: ['prf_a', 'prf_b'],
      }),
      live(),
    );
    const urls = onlySubmission().input.image_urls;
    if (!Array.isArray(urls)) throw new Error('no image_urls');
    expect(urls).toHaveLength(3);
    const sheet = await fetch(String(urls[1]));
    expect(await sharp(Buffer.from(await sheet.arrayBuffer())).metadata()).toMatchObject({ width: 1536, height: 512 });
    expect(onlySubmission().input.prompt).toBe(
      'the person in reference image 2 (a sheet of several photos of them) and the person in reference image 3 (a sheet of several photos of them) at a table',
    );
  });

  it('refuses more caller images than the model takes, before any submission', async () => {
    const images = Array.from({ length: 4 }, () => ({ data: input, format: 'jpeg' as const, width: 64, height: 48 }));
    await expect(engine('fal-ai/qwen-image-2').run(withInput({ images }), live())).rejects.toMatchObject({
      retryable: false,
      message: expect.stringContaining('at most 3 input images'),
    });
    expect(double.counters.submits).toBe(0);
  });
});

describe('fal engine: refusals', () => {
  it('a 422 content_policy_violation on the result is moderated, with fal’s message', async () => {
    double.refuseNext('content_policy', { message: 'flagged: violence' });
    expect(await engine().run(request(), live())).toEqual({ kind: 'moderated', message: 'flagged: violence' });
  });

  it('a 422 content_policy_violation on submit is moderated without polling', async () => {
    double.refuseNext('content_policy', { on: 'submit' });
    expect(await engine().run(request(), live())).toEqual({
      kind: 'moderated',
      message: 'The content was flagged by a content checker.',
    });
    expect(double.counters.statusPolls).toBe(0);
  });

  it('has_nsfw_concepts true for the images is moderated', async () => {
    double.refuseNext('nsfw');
    expect(await engine().run(request({ numOutputImages: 2 }), live())).toMatchObject({
      kind: 'moderated',
      message: expect.stringContaining('has_nsfw_concepts'),
    });
  });

  it('a COMPLETED result without images is no_image', async () => {
    double.refuseNext('no_image');
    expect(await engine('fal-ai/nano-banana-2').run(request(), live())).toMatchObject({ kind: 'no_image' });
  });
});

describe('fal engine: retries', () => {
  it('a 429 on submit is retried after its Retry-After, through the injected wait', async () => {
    double.failNext(429, { retryAfter: '2' });
    expect(imagesOf(await engine().run(request(), live()))).toHaveLength(1);
    expect(waits[0]).toBe(2000);
    expect(double.counters.submits).toBe(1);
  });

  it('5xx on status, result and file are retried', async () => {
    double.failNext(503, { on: 'status' });
    double.failNext(502, { on: 'result' });
    double.failNext(500, { on: 'file' });
    expect(imagesOf(await engine().run(request(), live()))).toHaveLength(1);
    expect(double.counters).toMatchObject({ submits: 1, statusPolls: 2, results: 2, files: 2 });
  });

  it('a 400 on submit is not retried and fails for good with fal’s message', async () => {
    double.failNext(400, {
      detail: { detail: [{ loc: ['body', 'prompt'], msg: 'prompt too long', type: 'value_error' }] },
    });
    const failure = engine().run(request(), live());
    await expect(failure).rejects.toBeInstanceOf(HttpEngineError);
    await expect(failure).rejects.toMatchObject({
      retryable: false,
      status: 400,
      message: expect.stringContaining('prompt too long'),
    });
    expect(double.received.filter((received) => received.method === 'POST')).toHaveLength(1);
  });

  it('a 404 on the result is not retried', async () => {
    double.failNext(404, { on: 'result' });
    await expect(engine().run(request(), live())).rejects.toMatchObject({ retryable: false, status: 404 });
    expect(double.counters.results).toBe(1);
  });
});

describe('fal engine: usage and provider cost', () => {
  const usageOf = (outcome: EngineOutcome) => {
    if (outcome.kind !== 'images') throw new Error(outcome.kind);
    return outcome.usage;
  };

  it('flux-2 generate: $0.012 a megapixel of 1024×1024, rounded up per image', async () => {
    expect(usageOf(await engine().run(request({ numOutputImages: 2 }), live()))).toEqual({
      outputTokens: 0,
      megapixels: (1024 * 768 * 2) / 1_000_000,
      providerCostMicros: 24_000,
    });
  });

  it('flux-2 edit: input megapixels are paid too', async () => {
    const usage = usageOf(await engine().run(withInput({ width: 2048, height: 1536 }), live()));
    expect(usage.providerCostMicros).toBe(3 * 12_000 + 12_000);
  });

  it('flux-2-pro: $0.03 the first megapixel, $0.015 each further one, per call', async () => {
    const usage = usageOf(
      await engine('fal-ai/flux-2-pro').run(request({ width: 2048, height: 1152, numOutputImages: 2 }), live()),
    );
    expect(usage.providerCostMicros).toBe(2 * (30_000 + 2 * 15_000));
  });

  it('nano-banana-2: $0.08 an image, 4K twice that', async () => {
    const usage = usageOf(
      await engine('fal-ai/nano-banana-2').run(request({ width: 4096, height: 2304, numOutputImages: 2 }), live()),
    );
    expect(usage).toEqual({ outputTokens: 0, megapixels: (4096 * 2304 * 2) / 1_000_000, providerCostMicros: 320_000 });
  });

  it('qwen-image-2: $0.035 an image', async () => {
    expect(
      usageOf(await engine('fal-ai/qwen-image-2').run(request({ numOutputImages: 3 }), live())).providerCostMicros,
    ).toBe(105_000);
  });

  it('an endpoint without a published price records no cost', async () => {
    expect(usageOf(await engine('fal-ai/bytedance/seedream/v5/lite').run(request(), live()))).not.toHaveProperty(
      'providerCostMicros',
    );
  });
});

describe('fal engine: keys', () => {
  it('every queue call carries "Authorization: Key <key>" and no Idempotency-Key (fal’s queue takes none)', async () => {
    await engine().run(request(), live());
    const queueCalls = double.received.filter(
      (received) => !received.path.startsWith('/files/') && !received.path.startsWith('/inputs/'),
    );
    expect(queueCalls.map((call) => call.method)).toEqual(['POST', 'GET', 'GET']);
    for (const call of queueCalls) {
      expect(call.headers.authorization).toBe('Key fal-test-key');
      expect(call.headers['idempotency-key']).toBeUndefined();
    }
  });

  it('the output files are fetched without the key', async () => {
    await engine().run(request(), live());
    const files = double.received.filter((received) => received.path.startsWith('/files/'));
    expect(files).toHaveLength(1);
    expect(files[0]?.headers.authorization).toBeUndefined();
  });
});

describe('fal engine: the queue', () => {
  it('a queued job checked many times is submitted once', async () => {
    double.holdNext({ queuedPolls: 3, runningPolls: 2 });
    const fal = engine();
    const stored = JSON.stringify(await fal.queue.submit(request(), live()));
    const checks = [];
    for (let step = 0; step < 6; step += 1) {
      checks.push(await fal.queue.check(JSON.parse(stored), request(), live()));
    }
    expect(checks.map((check) => (check.state === 'waiting' ? check : check.state))).toEqual([
      { state: 'waiting', queuePosition: 2 },
      { state: 'waiting', queuePosition: 1 },
      { state: 'waiting', queuePosition: 0 },
      { state: 'waiting' },
      { state: 'waiting' },
      'done',
    ]);
    expect(double.counters.submits).toBe(1);
  });

  it('the ticket names fal and each request’s URLs as fal answered them', async () => {
    const ticket = await engine().queue.submit(request({ numOutputImages: 5 }), live());
    expect(ticket.engine).toBe('fal');
    expect(ticket.requests).toHaveLength(2);
    for (const [index, entry] of ticket.requests.entries()) {
      const submission = double.submissions[index];
      expect(entry).toEqual({
        id: submission?.requestId,
        status: `${double.baseUrl}/fal-ai/flux-2/requests/${submission?.requestId}/status`,
        response: `${double.baseUrl}/fal-ai/flux-2/requests/${submission?.requestId}`,
        cancel: `${double.baseUrl}/fal-ai/flux-2/requests/${submission?.requestId}/cancel`,
        images: index === 0 ? 4 : 1,
        inputMegapixels: 0,
      });
    }
  });

  it('an edit’s status URLs drop the endpoint’s sub-path, as fal’s do', async () => {
    const ticket = await engine('fal-ai/qwen-image-2').queue.submit(withInput(), live());
    expect(String(ticket.requests[0]?.status)).toMatch(/\/fal-ai\/qwen-image-2\/requests\/[^/]+\/status$/);
  });

  it('several requests per ticket: waiting reports the share completed', async () => {
    double.holdNext({});
    double.holdNext({ runningPolls: 1 });
    const fal = engine();
    const ticket = await fal.queue.submit(request({ numOutputImages: 6 }), live());
    expect(await fal.queue.check(ticket, request({ numOutputImages: 6 }), live())).toEqual({
      state: 'waiting',
      progress: 0.5,
    });
    const done = await fal.queue.check(ticket, request({ numOutputImages: 6 }), live());
    expect(done.state === 'done' && imagesOf(done.outcome)).toHaveLength(6);
  });

  it('cancel PUTs every cancel_url, and the cancelled work then fails', async () => {
    double.holdNext({ queuedPolls: 50 });
    double.holdNext({ queuedPolls: 50 });
    const fal = engine();
    const ticket = await fal.queue.submit(request({ numOutputImages: 8 }), live());
    await fal.queue.cancel(ticket, live());
    expect(double.received.filter((received) => received.method === 'PUT').map((received) => received.path)).toEqual(
      double.submissions.map((submission) => `/fal-ai/flux-2/requests/${submission.requestId}/cancel`),
    );
    await expect(fal.queue.check(ticket, request({ numOutputImages: 8 }), live())).rejects.toMatchObject({
      retryable: false,
      message: expect.stringContaining('Request was cancelled'),
    });
  });

  it('a submission failing after others of its ticket cancels those others', async () => {
    double.failNext(400, { after: 1 });
    await expect(engine().queue.submit(request({ numOutputImages: 9 }), live())).rejects.toMatchObject({ status: 400 });
    expect(double.received.filter((received) => received.method === 'PUT').map((received) => received.path)).toEqual([
      `/fal-ai/flux-2/requests/${double.submissions[0]?.requestId}/cancel`,
    ]);
  });

  it('a submission refused after others of its ticket cancels those others and is moderated', async () => {
    double.refuseNext('content_policy', { on: 'submit', after: 1 });
    const fal = engine();
    const ticket = await fal.queue.submit(request({ numOutputImages: 9 }), live());
    expect(double.counters).toMatchObject({ submits: 1, cancels: 1 });
    expect(await fal.queue.check(ticket, request({ numOutputImages: 9 }), live())).toEqual({
      state: 'done',
      outcome: { kind: 'moderated', message: 'The content was flagged by a content checker.' },
    });
  });

  it('cancel of finished work is not an error (ALREADY_COMPLETED)', async () => {
    const fal = engine();
    const ticket = await fal.queue.submit(request(), live());
    await fal.queue.check(ticket, request(), live());
    await expect(fal.queue.cancel(ticket, live())).resolves.toBeUndefined();
    expect(double.counters.cancels).toBe(1);
  });

  it('accepts every request, and its tickets say fal', () => {
    expect(engine().queue.accepts({ baseModel: 'base-a-2' })).toBe(true);
  });

  it('run polls after 1 s, then a second longer each time, up to 5 s', async () => {
    double.holdNext({ queuedPolls: 7 });
    expect(imagesOf(await engine().run(request(), live()))).toHaveLength(1);
    expect(waits).toEqual([1000, 2000, 3000, 4000, 5000, 5000, 5000]);
  });

  it('run reports the progress of several requests', async () => {
    double.holdNext({});
    double.holdNext({ runningPolls: 1 });
    const reports: number[] = [];
    await engine().run(request({ numOutputImages: 6 }), live(), (fraction) => reports.push(fraction));
    expect(reports).toEqual([0.5]);
  });
});

describe('fal engine: the ticket of a run', () => {
  it('is handed to keepTicket before its work is first checked', async () => {
    double.holdNext({ queuedPolls: 2 });
    const kept: { ticket: EngineTicket; statusPollsBefore: number }[] = [];
    const keepTicket = async (ticket: EngineTicket) => {
      kept.push({ ticket, statusPollsBefore: double.counters.statusPolls });
    };
    expect(imagesOf(await engine().run(request(), live(), undefined, keepTicket))).toHaveLength(1);
    expect(kept).toEqual([
      {
        ticket: expect.objectContaining({
          engine: 'fal',
          model: 'fal-ai/flux-2',
          requests: [expect.objectContaining({ id: double.submissions[0]?.requestId })],
        }),
        statusPollsBefore: 0,
      },
    ]);
    expect(double.counters.cancels).toBe(0);
  });

  it('that cannot be kept is canceled at fal, and the run fails', async () => {
    double.holdNext({ queuedPolls: 100 });
    const keepTicket = async () => {
      throw new Error('the table refused the ticket');
    };
    await expect(engine().run(request(), live(), undefined, keepTicket)).rejects.toThrow(
      'the table refused the ticket',
    );
    expect(double.counters).toMatchObject({ submits: 1, statusPolls: 0, cancels: 1 });
  });
});

describe('fal engine: abort', () => {
  it('an abort while waiting stops polling and cancels the fal request', async () => {
    double.holdNext({ queuedPolls: 100 });
    const controller = new AbortController();
    const abortingWait: Wait = async (milliseconds, signal) => {
      waits.push(milliseconds);
      if (waits.length === 2) controller.abort(new Error('client went away'));
      signal.throwIfAborted();
    };
    await expect(engine('fal-ai/flux-2', { wait: abortingWait }).run(request(), controller.signal)).rejects.toThrow(
      'client went away',
    );
    expect(double.counters.statusPolls).toBe(2);
    expect(double.counters.cancels).toBe(1);
  });

  it('a status failing for good ends the run and cancels the fal request', async () => {
    double.holdNext({ queuedPolls: 100 });
    double.failNext(404, { on: 'status', after: 1 });
    await expect(engine().run(request(), live())).rejects.toThrow();
    expect(double.counters.cancels).toBe(1);
  });

  it('an already aborted signal sends nothing', async () => {
    const controller = new AbortController();
    controller.abort(new Error('too late'));
    await expect(engine().run(request(), controller.signal)).rejects.toThrow('too late');
    expect(double.received).toHaveLength(0);
  });
});

describe('fal double', () => {
  it('rejects an input its endpoint does not take, in fal’s error shape, and records it', async () => {
    const response = await fetch(`${double.baseUrl}/fal-ai/flux-2`, {
      method: 'POST',
      headers: { authorization: 'Key k', 'content-type': 'application/json' },
      body: JSON.stringify({ prompt: 'x', num_images: 9, strength: 1 }),
    });
    expect(response.status).toBe(422);
    expect(((await response.json()) as { detail: { type: string }[] }).detail[0]?.type).toBe('value_error');
    expect(double.violations).toHaveLength(1);
    double.violations.length = 0;
  });

  it('rejects a result fetched before its status said COMPLETED', async () => {
    double.holdNext({ queuedPolls: 2 });
    const ticket = await engine().queue.submit(request(), live());
    const response = await fetch(String(ticket.requests[0]?.response), { headers: { authorization: 'Key k' } });
    expect(response.status).toBe(400);
    expect(double.violations).toEqual([expect.stringContaining('before its status said COMPLETED')]);
    double.violations.length = 0;
  });
});

describe('fal engine: a subject carried by its LoRA (flux-2)', () => {
  const KEY = 'profiles/shared/d1/d2/lora.safetensors';
  const withLora: CandidateProfile = { ...profile('a'), lora: { key: KEY, token: 'qwertyui' } };
  beforeAll(() => {
    loras.set(KEY, loraFile('unit'));
  });
  const named = (overrides: Partial<EngineRequest> = {}) =>
    request({ prompt: '[[prf_a]] on a boat', candidates: [withLora], namedInPrompt: ['prf_a'], ...overrides });

  it('a generate goes to fal-ai/flux-2/lora with the LoRA by URL, its token in the prompt, at the LoRA price', async () => {
    const outcome = await engine().run(named(), live());
    const submission = onlySubmission();
    expect(submission.endpoint).toBe('fal-ai/flux-2/lora');
    expect(submission.input).toMatchObject({ prompt: 'qwertyui person on a boat', loras: [{ scale: 1 }] });
    expect(submission.input).not.toHaveProperty('image_urls');
    expect(double.loraFetches).toEqual([{ path: expect.any(String), status: 200 }]);
    if (outcome.kind !== 'images') throw new Error(outcome.kind);
    expect(outcome.carriedByLora).toEqual(['prf_a']);
    expect(outcome.usage.providerCostMicros).toBe(21_000);
    expect(falPossibleCostMicros('fal-ai/flux-2', named())).toBe(21_000);
  });

  it('an edit goes to /lora/edit with the other subject’s crops; the LoRA subject sends none', async () => {
    const { images: _none, ...naming } = named();
    await engine().run(withInput({ ...naming, candidates: [withLora, profile('b')] }), live());
    const submission = onlySubmission();
    expect(submission.endpoint).toBe('fal-ai/flux-2/lora/edit');
    // Room for two more images beside the caller's: prf_b's three crops go as one sheet.
    expect(submission.input.image_urls).toEqual([sharedUrl(input), expect.any(String)]);
    expect(submission.input.prompt).toBe(
      'qwertyui person on a boat Keep the identity of the person in reference image 2 (a sheet of several photos of them).',
    );
  });

  it('more caller images than /lora/edit takes (3): references for everyone, at flux-2’s price', async () => {
    const image = { data: input, format: 'jpeg' as const, width: 64, height: 48 };
    const outcome = await engine().run(named({ operation: 'edit', images: [image, image, image, image] }), live());
    expect(onlySubmission().endpoint).toBe('fal-ai/flux-2/edit');
    expect(outcome).not.toHaveProperty('carriedByLora');
    expect(falPossibleCostMicros('fal-ai/flux-2', named({ images: [image, image, image, image] }))).toBe(12_000);
  });

  it('models without LoRA endpoints keep references', async () => {
    await engine('fal-ai/flux-2-pro').run(named(), live());
    expect(onlySubmission().endpoint).toBe('fal-ai/flux-2-pro/edit');
    expect(onlySubmission().input).not.toHaveProperty('loras');
  });
});
