/**
 * What ships is what we test, end to end: one local runtime serves the synthesised stack
 * (`startTestRuntime({ assets: true })`), so every request below goes through a bundled function in its
 * own worker process, every job and training through the template's state machines, and every callback
 * through the template's queue and event source mapping. The tests only look at what a client sees:
 * statuses, bodies, headers, downloaded bytes, the signed callback, and the account's balance.
 */

import {
  b64,
  balanceOf,
  COLOURS,
  decode,
  type ErrorBody,
  expectOk,
  flatImage,
  type ImageAnswer,
} from '../integration/images/support';
import { entriesOfJob } from '../support/ledger';
import { octokitVerify } from '../support/octokit-verify';
import { startPhotoServer, subjectPhoto } from '../support/photos';
import { seedProfile } from '../support/profiles';
import { startReceiver } from '../support/receiver';
import { startTestRuntime, type TestRuntime } from '../support/runtime';

const START_TIMEOUT_MS = 300_000;
const TEST_TIMEOUT_MS = 60_000;
const OPENING_CREDIT_MICROS = 1_000_000_000;

let runtime: TestRuntime;
let account: { accountId: string; apiKey: string };
let input: Buffer;
let reference: Buffer;

beforeAll(async () => {
  runtime = await startTestRuntime({ assets: true });
  account = await runtime.newAccount(OPENING_CREDIT_MICROS);
  input = await flatImage(64, 48, 'png', COLOURS.red);
  reference = await flatImage(48, 64, 'png', COLOURS.blue);
}, START_TIMEOUT_MS);
afterAll(() => runtime?.close());
jest.setTimeout(TEST_TIMEOUT_MS);

/** One valid synchronous request per image operation. */
const OPERATIONS: Record<string, () => Record<string, unknown>> = {
  edit: () => ({ prompt: 'make it brighter', images: [b64(input)] }),
  generate: () => ({ prompt: 'a lighthouse at dusk' }),
  enhance: () => ({ image: b64(input) }),
  remix: () => ({ input_image: b64(input), reference_image: b64(reference) }),
};

const operate = (operation: string, overrides: Record<string, unknown>, apiKey = account.apiKey) =>
  runtime.call('POST', `/v2/service/${operation}`, { apiKey, body: { ...OPERATIONS[operation](), ...overrides } });

/** Asks `read` again until `done` holds, or fails after the deadline. */
const pollUntil = async <T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 30_000): Promise<T> => {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline)
      throw new Error(`still not done after ${timeoutMs} ms: ${JSON.stringify(value).slice(0, 300)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
};

interface JobStatus {
  job_id: string;
  status: string;
  result: ImageAnswer | null;
  error: { code: string; message: string } | null;
}

/** Polls a job like a client until it is terminal; returns the last answer and its exact text. */
const pollJob = (apiKey: string, pollUrl: string) =>
  pollUntil(
    async () => {
      const text = await (await runtime.call('GET', pollUrl, { apiKey })).text();
      return { text, body: JSON.parse(text) as JobStatus };
    },
    ({ body }) => body.status === 'succeeded' || body.status === 'failed',
  );

const submitAsync = async (apiKey: string, body: Record<string, unknown>) => {
  const response = await operate('enhance', { async: true, response_mode: 'urls', ...body }, apiKey);
  expect(response.status).toBe(202);
  return (await response.json()) as { job_id: string; status: string; poll_url: string };
};

const webhookSecret = async (apiKey: string) =>
  (
    (await (await runtime.call('GET', '/v2/service/webhook-secret', { apiKey })).json()) as {
      webhook_signing_secret: string;
    }
  ).webhook_signing_secret;

describe('image operations through the bundled functions', () => {
  it.each(Object.keys(OPERATIONS))('%s answers PNG bytes when asked for bytes', async (operation) => {
    const answer = await expectOk(await operate(operation, { response_mode: 'bytes', output_format: 'png' }));
    expect(answer).toEqual({
      known_subjects: { counts: {} },
      recognized_faces: [],
      identity: {
        expected: [],
        outputs: [{ output_index: 0, kept: [], missing: [], attempts: 1 }],
        retried_outputs: 0,
      },
      images: [expect.any(String)],
      download_urls: [],
    });
    expect((await decode(answer.images[0])).format).toBe('png');
  });

  it.each(Object.keys(OPERATIONS))('%s answers download links when asked for urls', async (operation) => {
    const answer = await expectOk(await operate(operation, { response_mode: 'urls' }));
    expect(answer).toEqual({
      known_subjects: { counts: {} },
      recognized_faces: [],
      identity: {
        expected: [],
        outputs: [{ output_index: 0, kept: [], missing: [], attempts: 1 }],
        retried_outputs: 0,
      },
      images: [],
      download_urls: [expect.any(String)],
    });
    expect(answer.download_urls[0].startsWith(`${runtime.url}/v2/service/downloads/`)).toBe(true);
  });

  it('a download link redirects, without an API key, to the image bytes', async () => {
    const answer = await expectOk(await operate('edit', { response_mode: 'urls', output_format: 'png' }));
    const redirect = await fetch(answer.download_urls[0], { redirect: 'manual' });
    expect(redirect.status).toBe(302);
    const target = await fetch(redirect.headers.get('location')!);
    expect(target.status).toBe(200);
    expect((await decode(Buffer.from(await target.arrayBuffer()))).format).toBe('png');
  });
});

describe('async jobs through the template state machine and callback queue', () => {
  it('runs to succeeded and delivers a callback signed with the webhook secret', async () => {
    const receiver = await startReceiver([200]);
    try {
      const handle = await submitAsync(account.apiKey, { callback_url: receiver.url });
      expect(handle).toEqual({
        job_id: expect.stringMatching(/^job_/),
        status: 'pending',
        poll_url: `/v2/service/jobs/${handle.job_id}`,
      });
      const { body, text } = await pollJob(account.apiKey, handle.poll_url);
      expect(body).toMatchObject({
        status: 'succeeded',
        error: null,
        result: { images: [], download_urls: [expect.any(String)] },
      });
      await receiver.waitFor(1);
      const [callback] = receiver.received;
      expect(callback!.body).toBe(text);
      const signature = String(callback!.headers['x-service-signature']);
      const secret = await webhookSecret(account.apiKey);
      expect(
        octokitVerify([
          { secret, payload: callback!.body, signature },
          { secret: `${secret}x`, payload: callback!.body, signature },
        ]),
      ).toEqual([true, false]);
    } finally {
      await receiver.close();
    }
  });

  it('ends a refused job failed NO_IMAGE_GENERATED and releases its reservation', async () => {
    const refused = await runtime.newAccount(1_000_000);
    const handle = await submitAsync(refused.apiKey, { prompt: 'sandbox:no-image' });
    const { body } = await pollJob(refused.apiKey, handle.poll_url);
    expect(body).toMatchObject({
      status: 'failed',
      result: null,
      error: { code: 'NO_IMAGE_GENERATED', message: expect.any(String) },
    });
    await runtime.stepFunctions.waitForExecution(handle.job_id);
    expect((await entriesOfJob(refused.accountId, handle.job_id)).map((entry) => entry.kind)).toEqual([
      'reserve',
      'release',
    ]);
    expect(await balanceOf(refused.accountId)).toBe(1_000_000);
  });
});

describe('webhook secret', () => {
  it('is issued once and the same on the next call', async () => {
    const fresh = await runtime.newAccount();
    const first = await runtime.call('GET', '/v2/service/webhook-secret', { apiKey: fresh.apiKey });
    expect(first.status).toBe(200);
    const { webhook_signing_secret: secret } = (await first.json()) as { webhook_signing_secret: string };
    expect(secret).toMatch(/^whsec_/);
    expect(await webhookSecret(fresh.apiKey)).toBe(secret);
  });
});

describe('profiles through the training state machine', () => {
  it('trains from five photos to READY, shows its picture and listing, and is gone after deletion', async () => {
    const photos = await startPhotoServer();
    try {
      const owner = await runtime.newAccount();
      const imageUrls = await Promise.all(
        Array.from({ length: 5 }, async (_, i) => photos.add(`p${i}.png`, await subjectPhoto(i))),
      );
      const created = await runtime.call('POST', '/v2/service/profiles/add', {
        apiKey: owner.apiKey,
        body: { image_urls: imageUrls, training_tier: 'fast', tag: 'e2e' },
      });
      expect(created.status).toBe(200);
      const { profile_id: profileId } = (await created.json()) as { profile_id: string };
      const statusPath = `/v2/service/profiles/${profileId}/status`;

      const final = await pollUntil(
        async () =>
          (await runtime.call('GET', statusPath, { apiKey: owner.apiKey })).json() as Promise<{
            profile_id: string;
            status: string;
            message: string;
          }>,
        ({ status }) => status === 'READY' || status === 'ERROR',
      );
      expect(final).toMatchObject({ profile_id: profileId, status: 'READY' });

      const picture = await runtime.call('GET', `/v2/service/profiles/${profileId}/profile_picture`, {
        apiKey: owner.apiKey,
      });
      expect(picture.status).toBe(200);
      expect(picture.headers.get('content-type')).toBe('image/jpeg');
      expect((await decode(Buffer.from(await picture.arrayBuffer()))).format).toBe('jpeg');

      const listed = await runtime.call('GET', '/v2/service/profiles/ids', { apiKey: owner.apiKey });
      expect(await listed.json()).toEqual({ profiles: [{ profile_id: profileId, status: 'READY', tag: 'e2e' }] });

      const deleted = await runtime.call('DELETE', `/v2/service/profiles/${profileId}`, { apiKey: owner.apiKey });
      expect(deleted.status).toBe(200);
      expect(await deleted.json()).toEqual({ profile_id: profileId, status: 'deleted' });
      const gone = await runtime.call('GET', statusPath, { apiKey: owner.apiKey });
      expect(gone.status).toBe(404);
      expect(((await gone.json()) as ErrorBody).code).toBe('NOT_FOUND');
    } finally {
      await photos.close();
    }
  });

  it('backfills a tag onto an untagged profile and reports an unknown one as not found', async () => {
    const owner = await runtime.newAccount();
    const { profileId } = await seedProfile(owner.accountId);
    const tags = [
      { profile_id: profileId, tag: 'vip' },
      { profile_id: 'prf_unknown', tag: 'vip' },
    ];
    const response = await runtime.call('POST', '/v2/service/profiles/tags', { apiKey: owner.apiKey, body: { tags } });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      updated: 1,
      already_tagged: [],
      conflicts: [],
      not_found: ['prf_unknown'],
    });
    const listed = await runtime.call('GET', '/v2/service/profiles/ids?tag=vip', { apiKey: owner.apiKey });
    expect(await listed.json()).toEqual({ profiles: [{ profile_id: profileId, status: 'READY', tag: 'vip' }] });
  });
});

describe('authentication and versions in the shipped bundles', () => {
  it.each([
    ['GET', '/v2/service/webhook-secret'],
    ['POST', '/v2/service/edit'],
  ])('%s %s answers 403 MISSING_API_KEY without a key and 401 INVALID_API_KEY with a bad one', async (method, path) => {
    const body = method === 'POST' ? OPERATIONS.edit() : undefined;
    for (const [apiKey, status, code] of [
      [undefined, 403, 'MISSING_API_KEY'],
      ['isk_not-a-key', 401, 'INVALID_API_KEY'],
    ] as const) {
      const response = await runtime.call(method, path, { apiKey, body });
      expect(response.status).toBe(status);
      expect(await response.json()).toEqual({
        detail: expect.any(String),
        code,
        request_id: response.headers.get('x-request-id'),
      });
    }
  });

  it('answers under /v1 as well, marked deprecated', async () => {
    const response = await runtime.call('GET', '/v1/service/webhook-secret', { apiKey: account.apiKey });
    expect(response.status).toBe(200);
    expect(response.headers.get('deprecation')).toBe('true');
    expect(response.headers.get('link')).toBe('</v2/service/webhook-secret>; rel="successor-version"');
    expect(await response.json()).toEqual({ webhook_signing_secret: await webhookSecret(account.apiKey) });
  });
});
