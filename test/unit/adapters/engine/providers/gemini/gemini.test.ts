/**
 * @jest-environment ./test/faces/onnx-environment.js
 *
 * The provider double draws the people of its inputs with the real face analyser (face-render.ts), which
 * needs onnxruntime in the host's realm.
 */
import sharp from 'sharp';
import { HttpEngineError } from '../../../../../../functions/adapters/engine/http-engine';
import {
  GEMINI_IMAGE_PRICE_MICROS,
  GeminiEngine,
} from '../../../../../../functions/adapters/engine/providers/gemini/gemini';
import type { ProviderTransport } from '../../../../../../functions/adapters/engine/providers/provider-http';
import { ASPECT_RATIOS, RESOLUTIONS } from '../../../../../../functions/domain/catalog/catalog';
import { pinnedTwoK, resolveOutputSpec } from '../../../../../../functions/domain/catalog/output-spec';
import type { CandidateProfile, EngineOutcome, EngineRequest } from '../../../../../../functions/domain/engine/engine';
import { aNamedCandidate, anEngineRequest, referencesIn } from '../../../../../support/builders/engine';
import {
  type GeminiDouble,
  type GenerateContentRequest,
  IMAGE_TOKENS,
  REFUSAL_FORMS,
  type RefusalForm,
  startGeminiDouble,
  TEXT_TOKENS,
} from '../../../../../support/providers/gemini-double';

const MODEL = 'gemini-3.1-flash-image';
const API_KEY = 'gemini-test-key';

let double: GeminiDouble;
let waits: number[];
let input: Buffer;
/** Reference crops by key: solid colours, so the double's pasted input can be recognised. */
const crops = new Map<string, Buffer>();

const solid = (width: number, height: number, background: string) =>
  sharp({ create: { width, height, channels: 3, background } })
    .jpeg()
    .toBuffer();

beforeAll(async () => {
  input = await solid(64, 48, '#336699');
  for (const [key, colour] of [
    ['profiles/acc_1/prf_named/reference-0.jpg', '#ff0000'],
    ['profiles/acc_1/prf_named/reference-1.jpg', '#00ff00'],
    ['profiles/acc_1/prf_named/reference-2.jpg', '#0000ff'],
  ] as const) {
    crops.set(key, await solid(40, 40, colour));
  }
});

beforeEach(async () => {
  double = await startGeminiDouble({ apiKey: API_KEY });
  waits = [];
});

afterEach(async () => {
  // Every request the adapter sent must have met Gemini's published schema.
  expect(double.violations).toEqual([]);
  await double.close();
});

const engine = (transport: Partial<ProviderTransport> = {}) =>
  new GeminiEngine({
    model: MODEL,
    baseUrl: double.baseUrl,
    apiKey: async () => API_KEY,
    references: referencesIn(crops),
    transport: {
      wait: async (milliseconds) => {
        waits.push(milliseconds);
      },
      random: () => 0.5,
      ...transport,
    },
  });

const named: CandidateProfile = aNamedCandidate();

const request = (overrides: Partial<EngineRequest> = {}): EngineRequest =>
  anEngineRequest({ workKey: 'job_gemini', baseModel: 'base-c-2', ...overrides });

const live = () => new AbortController().signal;

const images = (outcome: EngineOutcome): Buffer[] => {
  if (outcome.kind !== 'images') throw new Error(`expected images, got ${outcome.kind}: ${outcome.message}`);
  return outcome.images;
};

const sent = (index = 0): GenerateContentRequest => double.received[index]?.body as GenerateContentRequest;
const parts = (index = 0) => sent(index).contents[0]?.parts ?? [];
const inlineImages = (index = 0) =>
  parts(index).flatMap((part) => ('inlineData' in part ? [Buffer.from(part.inlineData.data, 'base64')] : []));
const promptSent = (index = 0) => parts(index).find((part) => 'text' in part && part) as { text: string } | undefined;

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47]);
const JPEG = Buffer.from([0xff, 0xd8, 0xff]);

describe('Gemini engine: sizes', () => {
  it.each(RESOLUTIONS)('answers exactly the catalog size of every aspect ratio at %s', async (resolution) => {
    const ratios = ASPECT_RATIOS.filter((ratio) => ratio !== 'auto');
    for (const aspectRatio of ratios) {
      const { width, height } = resolveOutputSpec('generate', { baseModel: 'base-c-2', resolution, aspectRatio });
      const [image] = images(await engine().run(request({ width, height }), live()));
      expect(await sharp(image).metadata()).toMatchObject({ width, height, format: 'png' });
    }
    const imageSizes = double.received.map((_, index) => sent(index).generationConfig?.imageConfig);
    expect(imageSizes).toEqual(ratios.map((aspectRatio) => ({ aspectRatio, imageSize: resolution })));
  });

  it('fits odd sizes: an auto ratio from a 7:3 input and the pinned 2K of a 1000×333 enhance', async () => {
    const auto = resolveOutputSpec('edit', { baseModel: 'base-c-2', aspectRatio: 'auto', inputAspect: 7 / 3 });
    const pinned = pinnedTwoK(1000, 333);
    for (const { width, height } of [auto, pinned]) {
      const [image] = images(await engine().run(request({ width, height }), live()));
      expect(await sharp(image).metadata()).toMatchObject({ width, height });
    }
    expect(sent(0).generationConfig?.imageConfig).toEqual({ aspectRatio: '21:9', imageSize: '1K' });
    expect(sent(1).generationConfig?.imageConfig).toEqual({ aspectRatio: '21:9', imageSize: '2K' });
  });

  it('asks for the tier that covers the long edge', async () => {
    for (const [width, height] of [
      [1024, 1024],
      [1040, 1040],
      [2048, 1152],
      [2064, 1024],
    ]) {
      await engine().run(request({ width, height }), live());
    }
    expect(double.received.map((_, index) => sent(index).generationConfig?.imageConfig?.imageSize)).toEqual([
      '1K',
      '2K',
      '2K',
      '4K',
    ]);
  });
});

describe('Gemini engine: counts and formats', () => {
  it('makes one call for one image', async () => {
    expect(images(await engine().run(request(), live()))).toHaveLength(1);
    expect(double.counters.requests).toBe(1);
  });

  it('makes one call per image beyond four, never more than four at once', async () => {
    const outcome = await engine().run(request({ numOutputImages: 6 }), live());
    expect(images(outcome)).toHaveLength(6);
    expect(double.counters.requests).toBe(6);
    expect(double.counters.maxInFlight).toBeLessThanOrEqual(4);
  });

  it('answers PNG when asked for png', async () => {
    const [image] = images(await engine().run(request({ outputFormat: 'png' }), live()));
    expect(image?.subarray(0, 4)).toEqual(PNG);
  });

  it('answers JPEG when asked for jpg', async () => {
    const outcome = await engine().run(request({ outputFormat: 'jpg', numOutputImages: 2 }), live());
    for (const image of images(outcome)) expect(image.subarray(0, 3)).toEqual(JPEG);
  });
});

describe('Gemini engine: the request', () => {
  it('posts generateContent of the routed model with the API key and no idempotency key', async () => {
    await engine().run(request({ numOutputImages: 2 }), live());
    for (const received of double.received) {
      expect(received.path).toBe(`/v1beta/models/${MODEL}:generateContent`);
      expect(received.headers['x-goog-api-key']).toBe(API_KEY);
      // Gemini takes no idempotency key: none is invented.
      expect(received.headers['idempotency-key']).toBeUndefined();
    }
    expect(sent(0)).toEqual({
      contents: [{ role: 'user', parts: [{ text: 'a lighthouse at dusk' }] }],
      generationConfig: { responseModalities: ['TEXT', 'IMAGE'], imageConfig: { aspectRatio: '4:3', imageSize: '1K' } },
    });
  });

  it('sends the caller’s inputs inline, in order, with their MIME types', async () => {
    const png = await sharp(input).png().toBuffer();
    await engine().run(
      request({
        operation: 'edit',
        images: [
          { data: input, format: 'jpeg', width: 64, height: 48 },
          { data: png, format: 'png', width: 64, height: 48 },
        ],
      }),
      live(),
    );
    expect(parts(0).slice(1)).toEqual([
      { inlineData: { mimeType: 'image/jpeg', data: input.toString('base64') } },
      { inlineData: { mimeType: 'image/png', data: png.toString('base64') } },
    ]);
  });

  it('writes the enhance instruction before the caller’s prompt', async () => {
    await engine().run(
      request({
        operation: 'enhance',
        prompt: 'warmer',
        images: [{ data: input, format: 'jpeg', width: 64, height: 48 }],
      }),
      live(),
    );
    expect(promptSent()?.text).toBe(
      'Enhance this photo: sharpen, denoise, correct exposure; keep composition and identity. warmer',
    );
  });

  it('writes the remix instruction before the caller’s prompt', async () => {
    const style = await solid(32, 32, '#ffcc00');
    await engine().run(
      request({
        operation: 'remix',
        prompt: 'keep the sky',
        images: [
          { data: input, format: 'jpeg', width: 64, height: 48 },
          { data: style, format: 'jpeg', width: 32, height: 32 },
        ],
      }),
      live(),
    );
    expect(promptSent()?.text).toBe('Render image 1 in the style of image 2. keep the sky');
    expect(inlineImages()).toEqual([input, style]);
  });
});

describe('Gemini engine: references', () => {
  it('rewrites the prompt and appends the crops after the caller’s inputs', async () => {
    await engine().run(
      request({
        operation: 'edit',
        prompt: 'put [[prf_named]] on the beach',
        images: [{ data: input, format: 'jpeg', width: 64, height: 48 }],
        candidates: [named],
        namedInPrompt: ['prf_named'],
      }),
      live(),
    );
    expect(promptSent()?.text).toBe('put the person in reference images 2 and 3 on the beach');
    expect(inlineImages()).toEqual([
      input,
      crops.get('profiles/acc_1/prf_named/reference-0.jpg'),
      crops.get('profiles/acc_1/prf_named/reference-1.jpg'),
    ]);
  });

  it('sends a generate with references to generateContent with the crops inline', async () => {
    const outcome = await engine().run(
      request({ prompt: '[[prf_named]] as an astronaut', candidates: [named], namedInPrompt: ['prf_named'] }),
      live(),
    );
    expect(double.received[0]?.path).toBe(`/v1beta/models/${MODEL}:generateContent`);
    expect(promptSent()?.text).toBe('the person in reference images 1 and 2 as an astronaut');
    expect(inlineImages()).toHaveLength(2);
    // One image back at the asked size (the double redraws faces, never pastes: its crops here are flat).
    expect(images(outcome)).toHaveLength(1);
  });

  it('tiles a profile’s crops into one contact sheet when the 14 inputs are full', async () => {
    const callerImages = Array.from({ length: 13 }, () => ({
      data: input,
      format: 'jpeg' as const,
      width: 64,
      height: 48,
    }));
    const three: CandidateProfile = {
      profileId: 'prf_named',
      face: named.face && {
        ...named.face,
        referenceKeys: [...named.face.referenceKeys, 'profiles/acc_1/prf_named/reference-2.jpg'],
      },
    };
    await engine().run(
      request({
        operation: 'edit',
        prompt: 'add [[prf_named]]',
        images: callerImages,
        candidates: [three],
        namedInPrompt: ['prf_named'],
      }),
      live(),
    );
    const sentImages = inlineImages();
    expect(sentImages).toHaveLength(14);
    expect(await sharp(sentImages[13]).metadata()).toMatchObject({ width: 1536, height: 512, format: 'jpeg' });
    expect(promptSent()?.text).toBe('add the person in reference image 14 (a sheet of several photos of them)');
  });
});

const MODERATED: RefusalForm[] = [
  'blockReason',
  'SAFETY',
  'IMAGE_SAFETY',
  'PROHIBITED_CONTENT',
  'IMAGE_PROHIBITED_CONTENT',
  'BLOCKLIST',
  'SPII',
];

describe('Gemini engine: refusals', () => {
  it.each(REFUSAL_FORMS)('maps %s to its outcome with Google’s message', async (form) => {
    double.refuseNext(form, { message: `google says ${form}` });
    expect(await engine().run(request(), live())).toEqual({
      kind: MODERATED.includes(form) ? 'moderated' : 'no_image',
      message: `google says ${form}`,
    });
  });

  it('takes the message from a text part when there is no finish message', async () => {
    double.refuseNext('NO_IMAGE', { message: 'I cannot draw that.', where: 'text' });
    expect(await engine().run(request(), live())).toEqual({ kind: 'no_image', message: 'I cannot draw that.' });
  });

  it('names the reason when Google gives no message', async () => {
    double.refuseNext('IMAGE_SAFETY', { where: 'none' });
    expect(await engine().run(request(), live())).toEqual({
      kind: 'moderated',
      message: 'Gemini refused the image (IMAGE_SAFETY).',
    });
  });

  it('refuses the whole request when one of several calls is refused', async () => {
    double.refuseNext('SAFETY', { message: 'not this one' });
    const outcome = await engine().run(request({ numOutputImages: 3 }), live());
    expect(outcome).toEqual({ kind: 'moderated', message: 'not this one' });
  });
});

describe('Gemini engine: retries', () => {
  it('retries a 429 after the Retry-After it names', async () => {
    double.failNext(429, { retryAfter: '7' });
    expect(images(await engine().run(request(), live()))).toHaveLength(1);
    expect(waits).toEqual([7000]);
    expect(double.counters.requests).toBe(2);
  });

  it('retries a 503 and a 429, the answers Google documents as not processed, with backoff', async () => {
    double.failNext(503);
    double.failNext(429);
    expect(images(await engine().run(request(), live()))).toHaveLength(1);
    expect(waits).toEqual([750, 1500]);
    expect(double.counters.requests).toBe(3);
  });

  it.each([500, 504])('never sends again after a %i: the work may have been done', async (status) => {
    double.failNext(status);
    await expect(engine().run(request(), live())).rejects.toMatchObject({ retryable: false, status, mayHaveRun: true });
    expect(double.counters.requests).toBe(1);
    expect(waits).toEqual([]);
  });

  it('does not retry a 400 and carries Google’s message', async () => {
    double.failNext(400, { message: 'Unsupported aspect ratio for this model.' });
    const failure = engine().run(request(), live());
    await expect(failure).rejects.toThrow(HttpEngineError);
    await expect(failure).rejects.toMatchObject({
      retryable: false,
      status: 400,
      message: 'Gemini answered HTTP 400: Unsupported aspect ratio for this model.',
    });
    expect(double.counters.requests).toBe(1);
  });

  it('gives up, not retryable, when 5xx outlasts the attempts', async () => {
    for (let attempt = 0; attempt < 4; attempt += 1) double.failNext(503);
    await expect(engine().run(request(), live())).rejects.toMatchObject({ retryable: false, status: 503 });
    expect(double.counters.requests).toBe(4);
  });
});

describe('Gemini engine: usage and cost', () => {
  it.each([
    [1024, 768, '1K'],
    [2048, 1536, '2K'],
    [4096, 2304, '4K'],
  ] as const)('reports tokens, megapixels and Google’s price of %i×%i (%s)', async (width, height, tier) => {
    const outcome = await engine().run(request({ width, height, numOutputImages: 2 }), live());
    expect(outcome.kind === 'images' && outcome.usage).toEqual({
      outputTokens: 2 * (IMAGE_TOKENS[tier] + TEXT_TOKENS),
      megapixels: (2 * width * height) / 1_000_000,
      providerCostMicros: 2 * GEMINI_IMAGE_PRICE_MICROS[tier],
    });
  });

  it('prices an image from Google’s list: $0.067 at 1K, $0.101 at 2K, $0.151 at 4K (rounded)', () => {
    expect(GEMINI_IMAGE_PRICE_MICROS).toEqual({ '1K': 67_200, '2K': 100_800, '4K': 151_200 });
  });
});

describe('Gemini engine: abort', () => {
  it('does not call Gemini when already aborted', async () => {
    const controller = new AbortController();
    controller.abort(new Error('caller gone'));
    await expect(engine().run(request(), controller.signal)).rejects.toThrow('caller gone');
    expect(double.counters.requests).toBe(0);
  });

  it('stops waiting for Gemini when aborted mid-call', async () => {
    double.delayNext(10_000);
    const controller = new AbortController();
    const run = engine().run(request(), controller.signal);
    while (double.received.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    controller.abort(new Error('job canceled'));
    await expect(run).rejects.toThrow('job canceled');
  });
});

describe('Gemini double: the published schema', () => {
  it('rejects a request that breaks it, in Google’s error shape, and records it', async () => {
    const response = await fetch(`${double.baseUrl}/v1beta/models/${MODEL}:generateContent`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-goog-api-key': API_KEY },
      body: JSON.stringify({
        contents: [{ role: 'user', parts: [{ text: 'x' }] }],
        generationConfig: { imageConfig: { aspectRatio: '5:3', image_size: '1K' } },
      }),
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: { code: 400, status: 'INVALID_ARGUMENT' } });
    expect(double.violations).toHaveLength(1);
    double.violations.length = 0;
  });
});
