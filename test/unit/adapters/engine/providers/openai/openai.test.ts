/**
 * @jest-environment ./test/faces/onnx-environment.js
 *
 * The provider double draws the people of its inputs with the real face analyser (face-render.ts), which
 * needs onnxruntime in the host's realm.
 */
import sharp from 'sharp';
import type { Wait } from '../../../../../../functions/adapters/engine/http-engine';
import {
  OPENAI_MAX_IMAGES_PER_CALL,
  OPENAI_PRICES_MICROS_PER_TOKEN,
  OPENAI_SIZE_LIMITS,
  OpenAiEngine,
  openAiSize,
} from '../../../../../../functions/adapters/engine/providers/openai/openai';
import type { ProviderEngineOptions } from '../../../../../../functions/adapters/engine/providers/provider';
import { PROVIDER_RETRY_DEFAULTS } from '../../../../../../functions/adapters/engine/providers/provider-http';
import { BASE_MODELS } from '../../../../../../functions/domain/catalog/catalog';
import { resolveOutputSpec } from '../../../../../../functions/domain/catalog/output-spec';
import type { CandidateProfile, DecodedImage, EngineRequest } from '../../../../../../functions/domain/engine/engine';
import { anEngineRequest, referencesIn } from '../../../../../support/builders/engine';
import {
  OPENAI_DOUBLE_REFUSAL,
  type OpenAiDouble,
  startOpenAiDouble,
  validateErrorResponse,
  validateImagesResponse,
} from '../../../../../support/providers/openai-double';

let double: OpenAiDouble;
let waits: number[];
let crops: Map<string, Buffer>;
let photo: DecodedImage;
let style: DecodedImage;

const solid = (width: number, height: number, background: string) =>
  sharp({ create: { width, height, channels: 3, background } })
    .jpeg()
    .toBuffer();

beforeAll(async () => {
  photo = { data: await solid(64, 48, '#336699'), format: 'jpeg', width: 64, height: 48 };
  style = {
    data: await sharp({ create: { width: 40, height: 40, channels: 4, background: '#aa3300ff' } })
      .png()
      .toBuffer(),
    format: 'png',
    width: 40,
    height: 40,
  };
  crops = new Map();
  for (const profile of ['prf_anna', 'prf_ben']) {
    for (let index = 0; index < 3; index += 1) {
      crops.set(`profiles/acc_1/${profile}/reference-${index}.jpg`, await solid(96, 96, `#${index}0${index}0ee`));
    }
  }
});

beforeEach(async () => {
  double = await startOpenAiDouble();
  waits = [];
});

afterEach(async () => {
  expect(double.violations).toEqual([]);
  for (const answer of double.answers) expect(validateImagesResponse(answer)).toEqual([]);
  await double.close();
});

const recordWait: Wait = async (milliseconds) => {
  waits.push(milliseconds);
};

const engine = (overrides: Partial<ProviderEngineOptions> = {}) =>
  new OpenAiEngine({
    model: 'gpt-image-2',
    baseUrl: double.baseUrl,
    apiKey: async () => double.apiKey,
    references: referencesIn(crops),
    transport: { wait: recordWait, random: () => 0.5, policy: { ...PROVIDER_RETRY_DEFAULTS, maxAttempts: 3 } },
    ...overrides,
  });

const profile = (id: string): CandidateProfile => ({
  profileId: id,
  face: {
    modelId: 'faces/1',
    kind: 'person',
    mean: [1, 0],
    referenceKeys: [0, 1, 2].map((index) => `profiles/acc_1/${id}/reference-${index}.jpg`),
  },
});

const request = (overrides: Partial<EngineRequest> = {}): EngineRequest =>
  anEngineRequest({ workKey: 'job_1', baseModel: 'base-b-2', quality: 'medium', ...overrides });

const live = () => new AbortController().signal;

const imagesOf = async (outcome: Awaited<ReturnType<OpenAiEngine['run']>>) => {
  if (outcome.kind !== 'images') throw new Error(`expected images, got ${outcome.kind}`);
  return outcome;
};

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47]);
const JPG = Buffer.from([0xff, 0xd8, 0xff]);

describe('OpenAI sizes: the nearest allowed size is asked for', () => {
  const fits = (size: { width: number; height: number }) => {
    const { edgeMultiplePx, maxEdgePx, maxRatio, minPixels, maxPixels } = OPENAI_SIZE_LIMITS;
    return (
      size.width % edgeMultiplePx === 0 &&
      size.height % edgeMultiplePx === 0 &&
      Math.max(size.width, size.height) <= maxEdgePx &&
      Math.max(size.width, size.height) <= maxRatio * Math.min(size.width, size.height) &&
      size.width * size.height >= minPixels &&
      size.width * size.height <= maxPixels
    );
  };

  it('asks for an allowed size exactly', () => {
    expect(openAiSize(1024, 768)).toEqual({ width: 1024, height: 768 });
    expect(openAiSize(2048, 1152)).toEqual({ width: 2048, height: 1152 });
  });

  it('grows a size below the pixel floor, keeping its shape', () => {
    expect(openAiSize(1024, 576)).toEqual({ width: 1088, height: 608 });
  });

  it('shrinks a 4K size to the pixel and edge limits', () => {
    expect(openAiSize(4096, 4096)).toEqual({ width: 2880, height: 2880 });
    expect(openAiSize(4096, 2304)).toEqual({ width: 3840, height: 2160 });
  });

  it('clamps a ratio beyond 3:1 and rounds odd edges to multiples of 16', () => {
    expect(openAiSize(1024, 208)).toEqual({ width: 1408, height: 480 });
    expect(fits(openAiSize(1001, 999))).toBe(true);
  });
});

describe('OpenAI: exact output size for every catalog resolution and aspect ratio', () => {
  const models = BASE_MODELS.filter((model) => model.id.startsWith('base-b-'));
  const cases = models.flatMap((model) =>
    model.resolutions.flatMap((resolution) =>
      (['1:1', '3:4', '4:3', '9:16', '16:9'] as const).map((aspectRatio) => ({
        model: model.id,
        resolution,
        aspectRatio,
      })),
    ),
  );
  // The first model at every tier and ratio; the others at one tier (the same size rules apply to all three).
  const chosen = cases.filter((c) => c.model === 'base-b-2' || c.aspectRatio === '16:9');
  it.each(chosen)('$model $resolution $aspectRatio', async ({ model, resolution, aspectRatio }) => {
    const spec = resolveOutputSpec('generate', { baseModel: model, resolution, aspectRatio });
    const outcome = await imagesOf(
      await engine().run(request({ width: spec.width, height: spec.height, outputFormat: 'jpg' }), live()),
    );
    const meta = await sharp(outcome.images[0]).metadata();
    expect([meta.width, meta.height]).toEqual([spec.width, spec.height]);
    const asked = openAiSize(spec.width, spec.height);
    expect(double.received[0]?.body.size).toBe(`${asked.width}x${asked.height}`);
  });

  it.each([
    ['odd edges', 1001, 667],
    ['an auto ratio of a very wide input', 1024, 208],
    ['the largest exact size', 3840, 960],
  ])('%s', async (_, width, height) => {
    const outcome = await imagesOf(await engine().run(request({ width, height }), live()));
    const meta = await sharp(outcome.images[0]).metadata();
    expect([meta.width, meta.height]).toEqual([width, height]);
  });
});

describe('OpenAI: counts and formats', () => {
  it('makes one image in one call with the work key as Idempotency-Key', async () => {
    const outcome = await imagesOf(await engine().run(request(), live()));
    expect(outcome.images).toHaveLength(1);
    expect(double.received).toHaveLength(1);
    expect(double.received[0]?.headers['idempotency-key']).toBe('job_1');
    expect(double.received[0]?.body).toMatchObject({ n: 1, model: 'gpt-image-2' });
  });

  it('makes several images in one call up to the per-call maximum', async () => {
    const outcome = await imagesOf(
      await engine().run(request({ numOutputImages: 4, width: 1024, height: 1024 }), live()),
    );
    expect(outcome.images).toHaveLength(4);
    expect(double.received.map((received) => received.body.n)).toEqual([4]);
  });

  it('splits a count beyond the per-call maximum into calls with keys per call', async () => {
    const count = OPENAI_MAX_IMAGES_PER_CALL + 2;
    const outcome = await imagesOf(
      await engine().run(request({ numOutputImages: count, width: 1024, height: 1024, quality: 'low' }), live()),
    );
    expect(outcome.images).toHaveLength(count);
    expect(double.received.map((received) => received.body.n)).toEqual([OPENAI_MAX_IMAGES_PER_CALL, 2]);
    expect(double.received.map((received) => received.headers['idempotency-key'])).toEqual(['job_1:0', 'job_1:1']);
  });

  it('answers png when png is asked', async () => {
    const outcome = await imagesOf(await engine().run(request({ outputFormat: 'png' }), live()));
    expect(double.received[0]?.body.output_format).toBe('png');
    expect(outcome.images[0]?.subarray(0, 4).equals(PNG)).toBe(true);
  });

  it('answers jpg when jpg is asked, asking OpenAI for jpeg', async () => {
    const outcome = await imagesOf(await engine().run(request({ outputFormat: 'jpg' }), live()));
    expect(double.received[0]?.body.output_format).toBe('jpeg');
    expect(outcome.images[0]?.subarray(0, 3).equals(JPG)).toBe(true);
  });

  it('leaves quality out when none is given, and passes xhigh to a 2.5 model', async () => {
    await engine().run(request({ quality: undefined }), live());
    expect(double.received[0]?.body).not.toHaveProperty('quality');
    await engine({ model: 'gpt-image-2.5-sunburst' }).run(
      request({ quality: 'xhigh', baseModel: 'base-b-2.5-sunburst' }),
      live(),
    );
    expect(double.received[1]?.body).toMatchObject({ quality: 'xhigh', model: 'gpt-image-2.5-sunburst' });
  });
});

describe('OpenAI: inputs and references', () => {
  it('sends a generate without inputs or references to images/generations as JSON', async () => {
    await engine().run(request(), live());
    expect(double.received[0]?.path).toBe('/v1/images/generations');
    expect(double.received[0]?.headers['content-type']).toBe('application/json');
    expect(double.received[0]?.headers.authorization).toBe(`Bearer ${double.apiKey}`);
  });

  it('sends an edit to images/edits with each input as an image[] part with filename and type', async () => {
    await engine().run(request({ operation: 'edit', images: [photo, style], prompt: 'make it snow' }), live());
    const [received] = double.received;
    expect(received?.path).toBe('/v1/images/edits');
    expect(received?.files.map(({ field, filename, contentType }) => ({ field, filename, contentType }))).toEqual([
      { field: 'image[]', filename: 'input-1.jpg', contentType: 'image/jpeg' },
      { field: 'image[]', filename: 'input-2.png', contentType: 'image/png' },
    ]);
    expect(received?.files[0]?.data.equals(photo.data)).toBe(true);
    expect(received?.body.prompt).toBe('make it snow');
  });

  it('sends a generate naming a profile to images/edits with its crops and the prompt rewritten', async () => {
    await engine().run(
      request({ prompt: '[[prf_anna]] on a beach', candidates: [profile('prf_anna')], namedInPrompt: ['prf_anna'] }),
      live(),
    );
    const [received] = double.received;
    expect(received?.path).toBe('/v1/images/edits');
    expect(received?.body.prompt).toBe('the person in reference images 1, 2 and 3 on a beach');
    expect(received?.files.map((file) => file.filename)).toEqual([
      'reference-1.jpg',
      'reference-2.jpg',
      'reference-3.jpg',
    ]);
    expect(received?.files[0]?.data.equals(crops.get('profiles/acc_1/prf_anna/reference-0.jpg') as Buffer)).toBe(true);
  });

  it('appends the crops after the caller’s inputs', async () => {
    await engine().run(
      request({
        operation: 'edit',
        images: [photo],
        prompt: 'put [[prf_anna]] in it',
        candidates: [profile('prf_anna'), profile('prf_ben')],
        namedInPrompt: ['prf_anna'],
      }),
      live(),
    );
    const [received] = double.received;
    expect(received?.files.map((file) => file.filename)).toEqual([
      'input-1.jpg',
      ...[1, 2, 3, 4, 5, 6].map((index) => `reference-${index}.jpg`),
    ]);
    expect(received?.body.prompt).toBe(
      'put the person in reference images 2, 3 and 4 in it Keep the identity of the person in reference images 5, 6 and 7.',
    );
  });

  it('tiles a profile’s crops into a contact sheet when the 16-image cap is reached', async () => {
    const inputs = Array.from({ length: 14 }, () => photo);
    await engine().run(
      request({
        operation: 'edit',
        images: inputs,
        prompt: 'add [[prf_anna]]',
        candidates: [profile('prf_anna')],
        namedInPrompt: ['prf_anna'],
      }),
      live(),
    );
    const [received] = double.received;
    expect(received?.files).toHaveLength(15);
    const sheet = await sharp(received?.files[14]?.data).metadata();
    expect([sheet.width, sheet.height]).toEqual([3 * 512, 512]);
    expect(received?.body.prompt).toBe('add the person in reference image 15 (a sheet of several photos of them)');
  });

  it('tells the model what enhance does, before the caller’s words', async () => {
    await engine().run(request({ operation: 'enhance', images: [photo], prompt: 'warmer tones' }), live());
    expect(double.received[0]?.body.prompt).toBe(
      'Enhance this photo: sharpen, denoise, correct exposure; keep composition and identity. warmer tones',
    );
  });

  it('tells the model what remix does, with the input then the style image', async () => {
    await engine().run(request({ operation: 'remix', images: [photo, style], prompt: '' }), live());
    expect(double.received[0]?.body.prompt).toBe('Render image 1 in the style of image 2.');
    expect(double.received[0]?.files.map((file) => file.filename)).toEqual(['input-1.jpg', 'input-2.png']);
  });
});

describe('OpenAI: refusals and failures', () => {
  it('turns a 400 moderation_blocked into a moderated outcome with OpenAI’s message', async () => {
    double.refuseNext();
    expect(await engine().run(request(), live())).toEqual({ kind: 'moderated', message: OPENAI_DOUBLE_REFUSAL });
    expect(double.received).toHaveLength(1);
  });

  it('turns a 400 content_policy_violation into a moderated outcome too', async () => {
    double.refuseNext('content_policy_violation', 'Your prompt may contain text that is not allowed.');
    expect(await engine().run(request(), live())).toEqual({
      kind: 'moderated',
      message: 'Your prompt may contain text that is not allowed.',
    });
  });

  it('stops at a refusal in the second of several calls', async () => {
    double.script.push({ kind: 'images' });
    double.refuseNext('moderation_blocked', 'blocked in call 2');
    const outcome = await engine().run(
      request({ numOutputImages: OPENAI_MAX_IMAGES_PER_CALL + 1, width: 1024, height: 1024, quality: 'low' }),
      live(),
    );
    expect(outcome).toEqual({ kind: 'moderated', message: 'blocked in call 2' });
    expect(double.received).toHaveLength(2);
  });

  it('throws a 400 that is not a refusal as a non-retryable failure with OpenAI’s message', async () => {
    double.script.push({ kind: 'reject', message: "Invalid value for 'size'." });
    await expect(engine().run(request(), live())).rejects.toMatchObject({
      name: 'HttpEngineError',
      retryable: false,
      status: 400,
      message: "OpenAI answered HTTP 400: Invalid value for 'size'.",
    });
    expect(double.received).toHaveLength(1);
  });

  it('does not retry a 401', async () => {
    await expect(engine({ apiKey: async () => 'sk-wrong' }).run(request(), live())).rejects.toMatchObject({
      retryable: false,
      status: 401,
    });
    double.violations.length = 0; // the double records the wrong key as what it is
  });

  it('fails when OpenAI answers fewer images than asked', async () => {
    double.script.push({ kind: 'fewer' });
    await expect(engine().run(request({ numOutputImages: 2 }), live())).rejects.toThrow(
      /does not match its API: 1 images for 2 asked/,
    );
  });

  it('fails on an answer that breaks ImagesResponse', async () => {
    double.script.push({ kind: 'raw', status: 200, text: '{"data":[]}' });
    await expect(engine().run(request(), live())).rejects.toThrow(/does not match its API/);
  });

  it('fails on b64_json that is not an image', async () => {
    const text = JSON.stringify({ created: 1, data: [{ b64_json: Buffer.from('not an image').toString('base64') }] });
    double.script.push({ kind: 'raw', status: 200, text });
    await expect(engine().run(request(), live())).rejects.toThrow(/does not match its API: b64_json is not an image/);
  });

  it('the double’s error answers match the published ErrorResponse', () => {
    expect(
      validateErrorResponse({
        error: {
          message: OPENAI_DOUBLE_REFUSAL,
          type: 'image_generation_user_error',
          param: null,
          code: 'moderation_blocked',
        },
      }),
    ).toEqual([]);
  });
});

describe('OpenAI: retries', () => {
  it('honours Retry-After on a 429 and repeats the same Idempotency-Key', async () => {
    double.failNext(429, { retryAfter: '3' });
    const outcome = await engine().run(request(), live());
    expect(outcome.kind).toBe('images');
    expect(waits).toEqual([3000]);
    expect(double.received.map((received) => received.headers['idempotency-key'])).toEqual(['job_1', 'job_1']);
  });

  it('retries a 503 and a 429, the answers OpenAI documents as not processed, with backoff', async () => {
    double.failNext(503);
    double.failNext(429);
    const outcome = await engine().run(request(), live());
    expect(outcome.kind).toBe('images');
    expect(waits).toEqual([750, 1500]);
    expect(double.received).toHaveLength(3);
  });

  it('gives up after the last attempt', async () => {
    for (let attempt = 0; attempt < 3; attempt += 1) double.failNext(503);
    await expect(engine().run(request(), live())).rejects.toMatchObject({ retryable: false, status: 503 });
    expect(double.received).toHaveLength(3);
  });

  it.each([500, 502, 504])('never sends again after a %i: the work may have been done', async (status) => {
    double.failNext(status);
    await expect(engine().run(request(), live())).rejects.toMatchObject({ retryable: false, status, mayHaveRun: true });
    expect(double.received).toHaveLength(1);
    expect(waits).toEqual([]);
  });
});

describe('OpenAI: usage and cost', () => {
  it('sums output tokens over calls and prices the tokens at OpenAI’s list price', async () => {
    const count = OPENAI_MAX_IMAGES_PER_CALL + 1;
    const outcome = await imagesOf(
      await engine().run(
        request({
          numOutputImages: count,
          width: 1024,
          height: 1024,
          quality: 'low',
          operation: 'edit',
          images: [photo],
        }),
        live(),
      ),
    );
    const price = OPENAI_PRICES_MICROS_PER_TOKEN['gpt-image-2'];
    const usages = double.answers.map(
      (answer) =>
        answer.usage as {
          output_tokens: number;
          input_tokens_details: { text_tokens: number; image_tokens: number };
        },
    );
    const outputTokens = usages.reduce((sum, usage) => sum + usage.output_tokens, 0);
    const cost = usages.reduce(
      (sum, usage) =>
        sum +
        usage.input_tokens_details.text_tokens * (price?.textInput ?? 0) +
        usage.input_tokens_details.image_tokens * (price?.imageInput ?? 0) +
        usage.output_tokens * (price?.imageOutput ?? 0),
      0,
    );
    expect(outputTokens).toBeGreaterThan(0);
    expect(outcome.usage).toEqual({
      outputTokens,
      inputTextTokens: usages.reduce((sum, usage) => sum + usage.input_tokens_details.text_tokens, 0),
      inputImageTokens: usages.reduce((sum, usage) => sum + usage.input_tokens_details.image_tokens, 0),
      megapixels: (1024 * 1024 * count) / 1_000_000,
      providerCostMicros: cost,
    });
  });

  it('says the tokens are missing when an answer carries no usage (the job then settles at its reservation)', async () => {
    double.reportUsage = false;
    try {
      const outcome = await imagesOf(await engine().run(request({ numOutputImages: 2 }), live()));
      expect(outcome.usage).toMatchObject({ tokensMissing: true, outputTokens: 0 });
      expect(outcome.usage.providerCostMicros).toBeUndefined();
    } finally {
      double.reportUsage = true;
    }
  });

  it('reports no provider cost for a model not in the price table', async () => {
    const outcome = await imagesOf(await engine({ model: 'gpt-image-9' }).run(request(), live()));
    expect(outcome.usage.providerCostMicros).toBeUndefined();
    expect(outcome.usage.outputTokens).toBeGreaterThan(0);
  });
});

describe('OpenAI: abort', () => {
  it('an abort during a call ends the run at once', async () => {
    double.delayMs = 5000;
    const controller = new AbortController();
    const running = engine().run(request(), controller.signal);
    while (double.received.length === 0) await new Promise((resolve) => setImmediate(resolve));
    controller.abort();
    await expect(running).rejects.toMatchObject({ name: 'AbortError' });
    expect(double.received).toHaveLength(1);
  });

  it('an aborted signal sends nothing', async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(engine().run(request(), controller.signal)).rejects.toMatchObject({ name: 'AbortError' });
    expect(double.received).toHaveLength(0);
  });
});

describe('the OpenAI double refuses what breaks the published schema', () => {
  const post = (path: string, body: string | FormData, headers: Record<string, string> = {}) =>
    fetch(`${double.baseUrl}/${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${double.apiKey}`, ...headers },
      body,
    });
  const json = { 'content-type': 'application/json' };
  const valid = { model: 'gpt-image-2', prompt: 'a cat', size: '1024x1024', n: 1 };

  const rejected = async (response: Response, pattern: RegExp) => {
    expect(response.status).toBe(400);
    const answer = await response.json();
    expect(validateErrorResponse(answer)).toEqual([]);
    expect(double.violations.flatMap((violation) => violation.errors).join('\n')).toMatch(pattern);
    double.violations.length = 0;
  };

  it.each([
    ['an unknown parameter', { ...valid, seed: 7 }, /unevaluated properties/],
    ['n above 10', { ...valid, n: 11 }, /\/n must be <= 10/],
    ['no prompt', { model: 'gpt-image-2' }, /must have required property 'prompt'/],
    ['an output format it does not know', { ...valid, output_format: 'gif' }, /output_format must be equal to one of/],
    ['a size off the 16 px grid', { ...valid, size: '1000x1000' }, /edges must divide by 16/],
    ['a size beyond the pixel limit', { ...valid, size: '3840x3840' }, /pixels out of range/],
    ['xhigh on gpt-image-2', { ...valid, quality: 'xhigh' }, /only for the gpt-image-2.5 models/],
  ])('a generation with %s', async (_, body, pattern) => {
    await rejected(await post('images/generations', JSON.stringify(body), json), pattern);
  });

  it('accepts a valid generation, and its answer matches ImagesResponse', async () => {
    const response = await post('images/generations', JSON.stringify(valid), json);
    expect(response.status).toBe(200);
    expect(validateImagesResponse(await response.json())).toEqual([]);
  });

  it('an edit whose image[] is text, not a file', async () => {
    const form = new FormData();
    form.append('prompt', 'a cat');
    form.append('image[]', 'not a file');
    await rejected(await post('images/edits', form), /image\/0 must match format "binary"/);
  });

  it('an edit with more than 16 images', async () => {
    const form = new FormData();
    form.append('prompt', 'a cat');
    for (let index = 0; index < 17; index += 1) {
      form.append('image[]', new Blob([new Uint8Array(photo.data)], { type: 'image/jpeg' }), `${index}.jpg`);
    }
    await rejected(await post('images/edits', form), /image must NOT have more than 16 items/);
  });

  it('an edit whose image is a gif', async () => {
    const form = new FormData();
    form.append('prompt', 'a cat');
    form.append('image[]', new Blob([Buffer.from('GIF89a')], { type: 'image/gif' }), 'cat.gif');
    await rejected(await post('images/edits', form), /not png, webp or jpeg/);
  });

  it('an edit sent as JSON', async () => {
    await rejected(await post('images/edits', JSON.stringify({ prompt: 'a cat' }), json), /not multipart/);
  });
});
