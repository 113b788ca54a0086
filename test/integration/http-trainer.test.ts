/**
 * @jest-environment ./test/faces/onnx-environment.js
 */
/**
 * Profile training with TRAINER=http: the service asks a training backend to train and waits on a task
 * token; the backend (a fake on loopback) fetches the photos, reports heartbeats and the outcome to the
 * trainer callback. Runtime timeScale 0.001 makes HeartbeatSeconds (300) 300 ms, so the backend keeps
 * its heartbeats well inside that.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { services } from '../../bin/local-aws/services';
import { TRAINING_PRICE_MICROS } from '../../functions/domain/catalog/pricing';
import { startPhotoServer, subjectPhoto } from '../support/photos';
import { startTestRuntime, type TestRuntime } from '../support/runtime';

const TRAINER_TOKEN = 'trainer-token-for-tests-0123456789';
const CALLBACK_PATH = '/v2/service/internal/trainer-callback';

interface TrainingRequest {
  authorization: string | undefined;
  body: {
    training_id: string;
    task_token: string;
    photos: { url: string }[];
    tier: string;
    model_version: string;
    callback_url: string;
  };
  photoFormats: string[];
}

/** What the fake backend does after it accepts a training. */
type Script =
  | { outcome: 'succeeded'; signature: string }
  | { outcome: 'failed'; message: string }
  | { outcome: 'silent' };

const magicOf = (bytes: Buffer) =>
  bytes.subarray(0, 3).equals(Buffer.from([0xff, 0xd8, 0xff]))
    ? 'jpeg'
    : bytes.subarray(1, 4).toString('latin1') === 'PNG'
      ? 'png'
      : 'other';

/** The fake training backend: accepts at once, then works through the script of the current test. */
const startFakeTrainer = async () => {
  const requests: TrainingRequest[] = [];
  let script: Script = { outcome: 'silent' };
  const report = (callbackUrl: string, body: Record<string, unknown>) =>
    fetch(callbackUrl, {
      method: 'POST',
      headers: { authorization: `Bearer ${TRAINER_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  const work = async (request: TrainingRequest, current: Script) => {
    const { task_token, callback_url } = request.body;
    await report(callback_url, { task_token, event: 'heartbeat' });
    for (const photo of request.body.photos)
      request.photoFormats.push(magicOf(Buffer.from(await (await fetch(photo.url)).arrayBuffer())));
    await report(callback_url, { task_token, event: 'heartbeat' });
    if (current.outcome === 'succeeded')
      await report(callback_url, { task_token, event: 'succeeded', signature: current.signature });
    if (current.outcome === 'failed')
      await report(callback_url, { task_token, event: 'failed', message: current.message });
  };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      if (req.method !== 'POST' || req.url !== '/v1/trainings') return void res.writeHead(404).end();
      const request: TrainingRequest = {
        authorization: req.headers.authorization,
        body: JSON.parse(Buffer.concat(chunks).toString('utf8')),
        photoFormats: [],
      };
      requests.push(request);
      res.writeHead(202, { 'content-type': 'application/json' }).end('{"accepted":true}');
      if (script.outcome !== 'silent') void work(request, script);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    follow: (next: Script) => {
      script = next;
    },
    close: async () => {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await closed;
    },
  };
};

/** A port nobody listens on now, for the runtime, so that the callback URL can be configured before it starts. */
const freePort = async (): Promise<number> => {
  const probe = http.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
};

let trainer: Awaited<ReturnType<typeof startFakeTrainer>>;
let photos: Awaited<ReturnType<typeof startPhotoServer>>;
let runtime: TestRuntime;
const photoUrls: string[] = [];

beforeAll(async () => {
  trainer = await startFakeTrainer();
  photos = await startPhotoServer();
  for (let i = 0; i < 5; i += 1)
    photoUrls.push(
      photos.add(
        `p${i}.${i % 2 ? 'jpg' : 'png'}`,
        await subjectPhoto(i, i % 2 ? 'jpeg' : 'png'),
        i % 2 ? 'image/jpeg' : 'image/png',
      ),
    );
  const port = await freePort();
  runtime = await startTestRuntime({
    port,
    // HeartbeatSeconds (300) × timeScale is the window for the trainer's heartbeats; against the assets
    // it must also hold the trainer-callback function's cold start.
    timeScale: process.env.TEST_RUNTIME === 'assets' ? 0.01 : 0.001,
    env: {
      TRAINER: 'http',
      TRAINER_URL: trainer.url,
      TRAINER_TOKEN,
      TRAINER_CALLBACK_URL: `http://127.0.0.1:${port}${CALLBACK_PATH}`,
    },
  });
});
afterAll(async () => {
  await runtime.close();
  await photos.close();
  await trainer.close();
});

type Status = { status: string; message: string };

/** Adds a profile and waits for its training to end; returns the profile id and its final status. */
const train = async (apiKey: string) => {
  const created = await runtime.call('POST', '/v2/service/profiles/add', {
    apiKey,
    body: { image_urls: photoUrls, training_tier: 'fast' },
  });
  expect(created.status).toBe(200);
  const { profile_id: profileId } = (await created.json()) as { profile_id: string };
  await runtime.stepFunctions.waitForExecution(profileId);
  const final = (await (
    await runtime.call('GET', `/v2/service/profiles/${profileId}/status`, { apiKey })
  ).json()) as Status;
  return { profileId, final };
};

const callback = (body: unknown, authorization = `Bearer ${TRAINER_TOKEN}`) =>
  runtime.call('POST', CALLBACK_PATH, { body, headers: { authorization } });

describe('training with an HTTP trainer', () => {
  it('is READY with the reported signature and settled after heartbeats and success', async () => {
    const account = await runtime.newAccount(5_000_000);
    trainer.follow({ outcome: 'succeeded', signature: 'remote-signature-1' });
    const { profileId, final } = await train(account.apiKey);

    expect(final.status).toBe('READY');
    expect((await services().profiles.get(account.accountId, profileId))?.signature).toBe('remote-signature-1');
    expect(await services().ledger.balance(account.accountId)).toBe(5_000_000 - TRAINING_PRICE_MICROS.fast);

    const request = trainer.requests.find((r) => r.body.training_id === profileId)!;
    expect(request.authorization).toBe(`Bearer ${TRAINER_TOKEN}`);
    expect(request.body).toMatchObject({
      tier: 'fast',
      model_version: 'v2',
      callback_url: `${runtime.url}${CALLBACK_PATH}`,
      task_token: expect.any(String),
    });
    // The photos as the service prepared them (stored as JPEG), through URLs the backend could fetch.
    expect(request.photoFormats).toEqual(['jpeg', 'jpeg', 'jpeg', 'jpeg', 'jpeg']);
  });

  it("ends in ERROR with the backend's message and releases the charge when training fails", async () => {
    const account = await runtime.newAccount(5_000_000);
    trainer.follow({
      outcome: 'failed',
      message: 'Only 2 of 5 photos show a face clearly; use photos where the face fills more of the frame',
    });
    const { final } = await train(account.apiKey);

    expect(final.status).toBe('ERROR');
    expect(final.message).toContain(
      'Only 2 of 5 photos show a face clearly; use photos where the face fills more of the frame',
    );
    expect(final.message).toContain('Nothing was charged');
    expect(await services().ledger.balance(account.accountId)).toBe(5_000_000);
  });

  it('ends in ERROR with a helpful message and releases the charge when the backend stops reporting', async () => {
    const account = await runtime.newAccount(5_000_000);
    trainer.follow({ outcome: 'silent' });
    const { profileId, final } = await train(account.apiKey);

    expect(trainer.requests.some((r) => r.body.training_id === profileId)).toBe(true);
    expect(final).toEqual({
      profile_id: profileId,
      status: 'ERROR',
      message:
        'Training stopped: the trainer stopped reporting progress. Nothing was charged; please create the profile again.',
      progress: 0,
      eta_seconds: null,
    });
    expect(await services().ledger.balance(account.accountId)).toBe(5_000_000);
  });
});

describe('the trainer callback', () => {
  it.each([
    ['a wrong bearer token', 'Bearer not-the-trainer-token'],
    ['an API key instead of the trainer token', 'Bearer sk_live_whatever'],
  ])('answers 401 in the error shape for %s', async (_name, authorization) => {
    const response = await callback({ task_token: 'anything', event: 'heartbeat' }, authorization);
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({
      detail: 'The trainer token is missing or not valid.',
      code: 'INVALID_API_KEY',
      request_id: expect.any(String),
    });
  });

  it('answers 404 for a task token no training waits for', async () => {
    const response = await callback({ task_token: 'no-training-waits-for-this', event: 'succeeded', signature: 'sig' });
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({
      code: 'NOT_FOUND',
      detail: expect.stringContaining('No training is waiting for this task token'),
    });
  });

  it('answers 422 for a success without a signature', async () => {
    const response = await callback({ task_token: 'anything', event: 'succeeded' });
    expect(response.status).toBe(422);
    expect(((await response.json()) as { detail: Array<{ loc: unknown[] }> }).detail[0]!.loc).toEqual([
      'body',
      'signature',
    ]);
  });
});
