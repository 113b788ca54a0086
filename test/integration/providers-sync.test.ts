/**
 * @jest-environment ./test/faces/onnx-environment.js
 *
 * Real image models behind MODEL_ROUTES, synchronous calls (issue 24), black box: base-b-2 routed to a
 * double of OpenAI's Images API, base-c-2 to a double of Gemini's generateContent, base-a-2 to a double of
 * fal's queue (test/support/providers). Each test asserts what the client sees (status, decoded images,
 * what it paid) and what the provider received; every double checks each request against its provider's
 * published format, and none may have found a violation after any test.
 */
import { services } from '../../bin/local-aws/services';
import { PINNED_PRICES } from '../../functions/domain/catalog/catalog';
import { facePhoto, seedFaceProfile } from '../support/faces';
import {
  download,
  expectCost,
  newestJob,
  ROUTES,
  tokenPriceMicros,
  useProviderRuntime,
} from '../support/providers/e2e';
import { REFUSAL_FORMS } from '../support/providers/gemini-double';
import { b64, balanceOf, COLOURS, decode, expectError, expectOk, flatImage } from './images/support';

const OPENING_MICROS = 10_000_000;
const SURCHARGE_MICROS = 30_000;

// The doubles draw every output's faces with the face analyser: a call takes seconds, not milliseconds.
jest.setTimeout(120_000);

const world = useProviderRuntime();

const call = (operation: string, apiKey: string, body: unknown) =>
  world.runtime.call('POST', `/v2/service/${operation}`, { apiKey, body });

/** What the account has paid since it opened. */
const spent = async (accountId: string) => OPENING_MICROS - (await balanceOf(accountId));

/** What base-b-2 charged for the OpenAI double's answers from index `from` on: their tokens, at least the floor. */
const openAiPrice = (from: number, images = 1) =>
  Math.max(images * 20_000, tokenPriceMicros('base-b-2', world.doubles.openai, from));

interface GeminiBody {
  contents: { parts: ({ text: string } | { inlineData: { mimeType: string; data: string } })[] }[];
  generationConfig: { imageConfig: { aspectRatio: string; imageSize: string } };
}
const geminiBody = (index: number) => world.doubles.gemini.received[index]?.body as GeminiBody;
const geminiImages = (body: GeminiBody) =>
  body.contents.flatMap((content) =>
    content.parts.flatMap((part) => ('inlineData' in part ? [Buffer.from(part.inlineData.data, 'base64')] : [])),
  );
const geminiText = (body: GeminiBody) =>
  body.contents.flatMap((content) => content.parts.flatMap((part) => ('text' in part ? [part.text] : []))).join(' ');

describe('GET /v2/service/models', () => {
  it('lists the three routed models as hosted, the others as sandbox, with the aliases, and no key', async () => {
    const account = await world.runtime.newAccount();
    const response = await world.runtime.call('GET', '/v2/service/models', { apiKey: account.apiKey });
    expect(response.status).toBe(200);
    const text = await response.text();
    const body = JSON.parse(text) as {
      models: { id: string; served_by: string; aliases: string[] }[];
      pinned: { base_model: string; served_by: string };
    };
    const served = Object.fromEntries(body.models.map((model) => [model.id, model.served_by]));
    for (const id of Object.keys(served)) expect([id, served[id]]).toEqual([id, id in ROUTES ? 'hosted' : 'sandbox']);
    expect(Object.keys(served)).toEqual(expect.arrayContaining(Object.keys(ROUTES)));
    const aliases = Object.fromEntries(body.models.map((model) => [model.id, model.aliases]));
    expect(aliases).toMatchObject({ 'base-c-2': ['nb2'], 'base-b-2': ['gpt-image-2'], 'base-a-2': [] });
    expect(body.pinned).toMatchObject({ base_model: 'base-c-2', served_by: 'hosted' });
    for (const secret of [
      ...world.doubles.keys,
      world.doubles.openai.baseUrl,
      world.doubles.gemini.baseUrl,
      world.doubles.fal.baseUrl,
    ])
      expect(text).not.toContain(secret);
    expect(text).not.toMatch(/openai|gemini|fal-ai/i);
  });
});

describe('base-b-2 on OpenAI', () => {
  it('generates two PNGs in one call, priced from the output tokens OpenAI reports, keyed by the job', async () => {
    const account = await world.runtime.newAccount(OPENING_MICROS);
    const [requestsBefore, answersBefore] = [world.doubles.openai.received.length, world.doubles.openai.answers.length];
    const body = { prompt: 'a lighthouse', base_model: 'base-b-2', num_output_images: 2, output_format: 'png' };
    const answer = await expectOk(await call('generate', account.apiKey, { ...body, quality: 'high' }));

    expect(answer.images).toHaveLength(2);
    for (const image of answer.images)
      expect(await decode(image)).toEqual({ format: 'png', width: 1024, height: 1024 });
    const received = world.doubles.openai.received.slice(requestsBefore);
    expect(received.map(({ path, body: sent }) => ({ path, sent }))).toEqual([
      {
        path: '/v1/images/generations',
        sent: {
          model: 'gpt-image-2',
          prompt: 'a lighthouse',
          n: 2,
          size: '1024x1024',
          output_format: 'png',
          quality: 'high',
        },
      },
    ]);
    const job = await newestJob(world.runtime, account.apiKey);
    expect(received[0]?.headers['idempotency-key']).toBe(job.job_id);
    const priceMicros = tokenPriceMicros('base-b-2', world.doubles.openai, answersBefore);
    expect(priceMicros).toBeGreaterThan(2 * 20_000);
    expectCost(job.cost, priceMicros);
    expect(await spent(account.accountId)).toBe(priceMicros);
  });

  it('gives exactly an uncommon size asked with `size`, as JPEG download links, at the floor price', async () => {
    const account = await world.runtime.newAccount(OPENING_MICROS);
    const before = world.doubles.openai.received.length;
    const answer = await expectOk(
      await call('generate', account.apiKey, {
        prompt: 'a lighthouse',
        base_model: 'gpt-image-2',
        size: '1344x576',
        response_mode: 'urls',
      }),
    );
    expect(answer.images).toEqual([]);
    expect(await decode(await download(answer.download_urls[0] ?? ''))).toEqual({
      format: 'jpeg',
      width: 1344,
      height: 576,
    });
    expect(world.doubles.openai.received.slice(before).map((request) => request.body)).toEqual([
      expect.objectContaining({ model: 'gpt-image-2', size: '1344x576', output_format: 'jpeg', n: 1 }),
    ]);
    // 1344x576 makes fewer output tokens than the per-image floor pays for.
    expect(await spent(account.accountId)).toBe(20_000);
  });

  it('retries a 429 after its Retry-After with the same Idempotency-Key, and charges once', async () => {
    const account = await world.runtime.newAccount(OPENING_MICROS);
    const [before, answersBefore] = [world.doubles.openai.received.length, world.doubles.openai.answers.length];
    world.doubles.openai.failNext(429, { retryAfter: '1' });
    const answer = await expectOk(await call('generate', account.apiKey, { prompt: 'a kite', base_model: 'base-b-2' }));
    expect(await decode(answer.images[0] ?? '')).toEqual({ format: 'jpeg', width: 1024, height: 1024 });
    const job = await newestJob(world.runtime, account.apiKey);
    const keys = world.doubles.openai.received.slice(before).map((request) => request.headers['idempotency-key']);
    expect(keys).toEqual([job.job_id, job.job_id]);
    expect(world.doubles.openai.answers.length - answersBefore).toBe(1);
    expect(await spent(account.accountId)).toBe(openAiPrice(answersBefore));
  });

  it('answers 400 CONTENT_MODERATION with OpenAI’s message for moderation_blocked, and charges nothing', async () => {
    const account = await world.runtime.newAccount(OPENING_MICROS);
    world.doubles.openai.refuseNext('moderation_blocked', 'Your request was rejected by the safety system.');
    const error = await expectError(
      await call('generate', account.apiKey, { prompt: 'something refused', base_model: 'base-b-2' }),
      400,
      'CONTENT_MODERATION',
    );
    expect(error.detail).toContain('rejected by the safety system');
    expect(await spent(account.accountId)).toBe(0);
  });

  it('answers 500 INTERNAL_ERROR for a 400 from OpenAI, sent once, and charges nothing', async () => {
    const account = await world.runtime.newAccount(OPENING_MICROS);
    const before = world.doubles.openai.received.length;
    world.doubles.openai.script.push({ kind: 'reject', status: 400, message: 'Invalid value for quality.' });
    await expectError(
      await call('generate', account.apiKey, { prompt: 'a kite', base_model: 'base-b-2' }),
      500,
      'INTERNAL_ERROR',
    );
    expect(world.doubles.openai.received.length - before).toBe(1);
    expect(await spent(account.accountId)).toBe(0);
  });
});

describe('base-c-2 on Gemini', () => {
  it('edits with the inputs inline, one call per image: three images, three calls, exact size', async () => {
    const account = await world.runtime.newAccount(OPENING_MICROS);
    const before = world.doubles.gemini.received.length;
    const [red, blue] = await Promise.all([
      flatImage(64, 48, 'png', COLOURS.red),
      flatImage(40, 30, 'jpeg', COLOURS.blue),
    ]);
    const answer = await expectOk(
      await call('edit', account.apiKey, {
        prompt: 'make it dusk',
        images: [b64(red), b64(blue)],
        base_model: 'base-c-2',
        aspect_ratio: '3:4',
        num_output_images: 3,
      }),
    );
    expect(answer.images).toHaveLength(3);
    for (const image of answer.images)
      expect(await decode(image)).toEqual({ format: 'jpeg', width: 768, height: 1024 });
    const calls = world.doubles.gemini.received.slice(before);
    expect(calls.map((request) => request.model)).toEqual(Array(3).fill('gemini-3.1-flash-image'));
    for (const [index] of calls.entries()) {
      const sent = geminiBody(before + index);
      expect(geminiText(sent)).toBe('make it dusk');
      expect(await Promise.all(geminiImages(sent).map(decode))).toEqual([
        { format: 'png', width: 64, height: 48 },
        { format: 'jpeg', width: 40, height: 30 },
      ]);
      expect(sent.generationConfig.imageConfig).toEqual({ aspectRatio: '3:4', imageSize: '1K' });
    }
    expect(await spent(account.accountId)).toBe(3 * 80_000);
  });

  it('runs enhance and remix (pinned to base-c-2) at Gemini, at the pinned 2K size', async () => {
    const account = await world.runtime.newAccount(OPENING_MICROS);
    const before = world.doubles.gemini.received.length;
    const [photo, style] = await Promise.all([
      flatImage(64, 48, 'png', COLOURS.green),
      flatImage(32, 32, 'png', COLOURS.white),
    ]);
    const enhanced = await expectOk(await call('enhance', account.apiKey, { image: b64(photo) }));
    expect(await decode(enhanced.images[0] ?? '')).toEqual({ format: 'jpeg', width: 2048, height: 1536 });
    const remixed = await expectOk(
      await call('remix', account.apiKey, {
        input_image: b64(photo),
        reference_image: b64(style),
        output_format: 'png',
        response_mode: 'urls',
      }),
    );
    expect(await decode(await download(remixed.download_urls[0] ?? ''))).toEqual({
      format: 'png',
      width: 2048,
      height: 1536,
    });
    const [enhanceCall, remixCall] = [geminiBody(before), geminiBody(before + 1)];
    expect(world.doubles.gemini.received.length - before).toBe(2);
    expect(await Promise.all(geminiImages(enhanceCall).map(decode))).toEqual([
      { format: 'png', width: 64, height: 48 },
    ]);
    expect(await Promise.all(geminiImages(remixCall).map(decode))).toEqual([
      { format: 'png', width: 64, height: 48 },
      { format: 'png', width: 32, height: 32 },
    ]);
    expect(enhanceCall.generationConfig.imageConfig).toEqual({ aspectRatio: '4:3', imageSize: '2K' });
    expect(await spent(account.accountId)).toBe(2 * PINNED_PRICES.perImageMicros);
  });

  it('takes the alias nb2 for base-c-2; an unknown model name stays a 400 and reaches no provider', async () => {
    const account = await world.runtime.newAccount(OPENING_MICROS);
    const before = world.doubles.gemini.received.length;
    const answer = await expectOk(await call('generate', account.apiKey, { prompt: 'a fox', base_model: 'nb2' }));
    expect(await decode(answer.images[0] ?? '')).toEqual({ format: 'jpeg', width: 1024, height: 1024 });
    expect(world.doubles.gemini.received.length - before).toBe(1);
    const sent = [
      world.doubles.openai.received.length,
      world.doubles.gemini.received.length,
      world.doubles.fal.received.length,
    ];
    const error = await expectError(
      await call('generate', account.apiKey, { prompt: 'a fox', base_model: 'nano-banana-2' }),
      400,
      'INVALID_REQUEST',
    );
    expect(error.detail).toContain('nano-banana-2');
    expect([
      world.doubles.openai.received.length,
      world.doubles.gemini.received.length,
      world.doubles.fal.received.length,
    ]).toEqual(sent);
    expect(await spent(account.accountId)).toBe(80_000);
  });

  const moderated = ['blockReason', 'SAFETY', 'IMAGE_SAFETY', 'PROHIBITED_CONTENT', 'IMAGE_PROHIBITED_CONTENT'];
  it.each(REFUSAL_FORMS.map((form) => [form, [...moderated, 'BLOCKLIST', 'SPII'].includes(form)] as const))(
    'maps Gemini’s %s answer to the spec’s refusal (moderated: %s), and charges nothing',
    async (form, isModerated) => {
      const account = await world.runtime.newAccount(OPENING_MICROS);
      world.doubles.gemini.refuseNext(form, { message: `refused as ${form}` });
      const response = await call('generate', account.apiKey, { prompt: 'something', base_model: 'base-c-2' });
      const error = isModerated
        ? await expectError(response, 400, 'CONTENT_MODERATION')
        : await expectError(response, 422, 'NO_IMAGE_GENERATED');
      expect(error.detail).toContain(`refused as ${form}`);
      expect(await spent(account.accountId)).toBe(0);
    },
  );
});

describe('base-a-2 on fal, synchronously', () => {
  it('generates through the queue: one submission, the result downloaded, exact size and format', async () => {
    const account = await world.runtime.newAccount(OPENING_MICROS);
    const before = { submits: world.doubles.fal.counters.submits, results: world.doubles.fal.counters.results };
    const answer = await expectOk(
      await call('generate', account.apiKey, {
        prompt: 'a harbour',
        base_model: 'base-a-2',
        aspect_ratio: '16:9',
        output_format: 'png',
        num_output_images: 2,
      }),
    );
    expect(answer.images).toHaveLength(2);
    for (const image of answer.images) expect(await decode(image)).toEqual({ format: 'png', width: 1024, height: 576 });
    expect(world.doubles.fal.submissions.slice(-1)).toEqual([
      {
        requestId: expect.any(String),
        endpoint: 'fal-ai/flux-2',
        input: expect.objectContaining({
          prompt: 'a harbour',
          num_images: 2,
          image_size: { width: 1024, height: 576 },
          output_format: 'png',
        }),
      },
    ]);
    expect(world.doubles.fal.counters.submits - before.submits).toBe(1);
    expect(world.doubles.fal.counters.results - before.results).toBe(1);
    expect(await spent(account.accountId)).toBe(2 * 40_000);
  });
});

describe('profiles: [[id]] on any model', () => {
  /** A READY profile of a real face, and the reference crop training left in the bucket. */
  const trainedProfile = async (accountId: string) => {
    const profile = await seedFaceProfile(accountId, facePhoto('astronaut.jpg'));
    const key = profile.face?.referenceKeys[0] ?? '';
    const crop = (await services().objects.get(key))?.body;
    if (!crop) throw new Error(`no reference crop at ${key}`);
    return { profileId: profile.profileId, crop };
  };

  /** What the provider received for the last call: its prompt and its input images, in order. */
  const lastSent = async (model: keyof typeof ROUTES): Promise<{ prompt: string; images: Buffer[] }> => {
    if (model === 'base-b-2') {
      const request = world.doubles.openai.received.at(-1);
      expect(request?.path).toBe('/v1/images/edits');
      return { prompt: String(request?.body.prompt), images: (request?.files ?? []).map((file) => file.data) };
    }
    if (model === 'base-c-2') {
      const body = geminiBody(world.doubles.gemini.received.length - 1);
      return { prompt: geminiText(body), images: geminiImages(body) };
    }
    const submission = world.doubles.fal.submissions.at(-1);
    expect(submission?.endpoint).toBe('fal-ai/flux-2/edit');
    const urls = (submission?.input.image_urls ?? []) as string[];
    const images = await Promise.all(urls.map(async (url) => Buffer.from(await (await fetch(url)).arrayBuffer())));
    return { prompt: String(submission?.input.prompt), images };
  };

  const flatPrice: Record<string, number> = { 'base-c-2': 80_000, 'base-a-2': 40_000 };

  it.each(Object.keys(ROUTES) as (keyof typeof ROUTES)[])(
    'a generate on %s sends the reference crop and no [[id]], recognises the subject, and adds the surcharge',
    async (model) => {
      const account = await world.runtime.newAccount(OPENING_MICROS);
      const { profileId, crop } = await trainedProfile(account.accountId);
      const answersBefore = world.doubles.openai.answers.length;
      const answer = await expectOk(
        await call('generate', account.apiKey, { prompt: `[[${profileId}]] on a boat`, base_model: model }),
      );
      expect(answer.known_subjects.counts).toEqual({ [profileId]: 1 });
      const sent = await lastSent(model);
      expect(sent.images).toEqual([crop]);
      expect(sent.prompt).not.toContain('[[');
      expect(sent.prompt).not.toContain(profileId);
      expect(sent.prompt).toContain('reference image 1');
      const base = model === 'base-b-2' ? openAiPrice(answersBefore) : (flatPrice[model] ?? Number.NaN);
      expect(await spent(account.accountId)).toBe(base + SURCHARGE_MICROS);
    },
  );

  it('an edit sends the caller’s image first and the crop after it', async () => {
    const account = await world.runtime.newAccount(OPENING_MICROS);
    const { profileId, crop } = await trainedProfile(account.accountId);
    const input = await flatImage(64, 48, 'png', COLOURS.blue);
    const answer = await expectOk(
      await call('edit', account.apiKey, {
        prompt: `put [[${profileId}]] in the picture`,
        images: [b64(input)],
        base_model: 'base-b-2',
      }),
    );
    expect(answer.known_subjects.counts).toEqual({ [profileId]: 1 });
    const sent = await lastSent('base-b-2');
    expect(sent.images).toEqual([input, crop]);
    expect(sent.prompt).toContain('reference image 2');
  });

  it('an enhance with profile_ids whose face is not in the photo sends nothing of the profile and bills the plain rate', async () => {
    const account = await world.runtime.newAccount(OPENING_MICROS);
    const { profileId, crop } = await trainedProfile(account.accountId);
    const photo = await flatImage(64, 48, 'png', COLOURS.green);
    const before = world.doubles.gemini.received.length;
    const answer = await expectOk(
      await call('enhance', account.apiKey, { image: b64(photo), profile_ids: [profileId] }),
    );
    expect(answer.known_subjects.counts).toEqual({});
    expect((answer as typeof answer & { identity: { expected: string[] } }).identity.expected).toEqual([]);
    // Absent from the photo, the profile is not a candidate: the provider gets the photo alone, no crop, no words.
    expect(world.doubles.gemini.received.length - before).toBe(1);
    const sent = await lastSent('base-c-2');
    expect(sent.images).toEqual([photo]);
    expect(sent.images).not.toContainEqual(crop);
    expect(sent.prompt).not.toContain(profileId);
    expect(sent.prompt).not.toContain('[[');
    expect(sent.prompt).not.toContain('reference image');
    expect(sent.prompt).not.toContain('Keep the identity');
    expect(await spent(account.accountId)).toBe(PINNED_PRICES.perImageMicros);
  });
});
