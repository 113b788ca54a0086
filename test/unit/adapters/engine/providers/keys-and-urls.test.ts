/**
 * @jest-environment ./test/faces/onnx-environment.js
 *
 * Issue 31, items 6 and 7. Keys refreshed: a provider's key is cached for PROVIDER_KEY_CACHE_SECONDS and read
 * again once when the provider refuses it, so a key revoked and replaced is taken without a restart. fal's
 * URLs: the key goes only to the configured queue's origin, and outputs are downloaded only from fal's
 * media hosts (loopback and the queue's host with ALLOW_LOOPBACK_URLS), through the guarded client.
 */
import sharp from 'sharp';
import { startLocalSecretsManager } from '../../../../../bin/local-aws/secrets-manager';
import { FalEngine } from '../../../../../functions/adapters/engine/providers/fal/fal';
import { allowedMediaUrl } from '../../../../../functions/adapters/engine/providers/fal/media';
import { cancelFalTicket } from '../../../../../functions/adapters/engine/providers/fal/queue';
import { OpenAiEngine } from '../../../../../functions/adapters/engine/providers/openai/openai';
import type { ApiKey, ProviderEngineOptions } from '../../../../../functions/adapters/engine/providers/provider';
import { lazySecret } from '../../../../../functions/adapters/secrets';
import type { EngineRequest } from '../../../../../functions/domain/engine/engine';
import { anEngineRequest } from '../../../../support/builders/engine';
import { type FalDouble, startFalDouble } from '../../../../support/providers/fal-double';
import { startOpenAiDouble } from '../../../../support/providers/openai-double';

const references: ProviderEngineOptions['references'] = {
  load: async () => {
    throw new Error('no references here');
  },
  url: async () => 'unused',
  share: async () => 'unused',
};
const transport = { wait: async () => undefined, random: () => 0.5 };
const live = () => new AbortController().signal;

const request = (overrides: Partial<EngineRequest> = {}): EngineRequest =>
  anEngineRequest({ workKey: 'job_keys', height: 1024, baseModel: 'base-b-2', ...overrides });

describe('lazySecret: a key cached for a while, read again on demand', () => {
  it('keeps a value for maxAgeMs, then reads it again; refresh reads it at once, once for concurrent callers', async () => {
    let value = 'first';
    let reads = 0;
    let now = 0;
    const key = lazySecret({
      value: () => {
        reads += 1;
        return value;
      },
      region: 'us-east-1',
      name: 'the test key',
      maxAgeMs: 300_000,
      now: () => now,
    });
    expect(await key()).toBe('first');
    value = 'second';
    now = 299_999;
    expect(await key()).toBe('first');
    now = 300_000;
    expect(await key()).toBe('second');
    value = 'third';
    const [a, b] = await Promise.all([key.refresh(), key.refresh()]);
    expect([a, b, await key()]).toEqual(['third', 'third', 'third']);
    expect(reads).toBe(3);
  });
});

describe('a revoked key, then a new one', () => {
  it('OpenAI answers 401 for the old key: the key is read again once and the call made with the new one', async () => {
    const double = await startOpenAiDouble({ apiKey: 'sk-old' });
    try {
      let configured = 'sk-old';
      const apiKey = lazySecret({
        value: () => configured,
        region: 'us-east-1',
        name: 'the OpenAI key',
        maxAgeMs: 300_000,
      });
      const engine = new OpenAiEngine({ model: 'gpt-image-2', baseUrl: double.baseUrl, apiKey, references, transport });
      expect((await engine.run(request(), live())).kind).toBe('images');

      double.revokeKey('sk-new');
      configured = 'sk-new'; // the operator puts the new key in (the secret, or the setting locally)
      expect((await engine.run(request(), live())).kind).toBe('images');
      // The refused call (recorded only as refused), then the same call again with the new key.
      expect(double.counters.refusedKeys).toBe(1);
      expect(double.received.map((received) => received.headers.authorization)).toEqual([
        'Bearer sk-old',
        'Bearer sk-new',
      ]);
      expect(double.violations).toEqual([]);
    } finally {
      await double.close();
    }
  });

  it('a key kept in Secrets Manager (as on AWS): put-secret-value, then the refused call reads the secret again over the wire', async () => {
    const arn = 'arn:aws:secretsmanager:us-east-1:000000000000:secret:openai-key';
    const secrets = new Map([[arn, 'sk-old']]);
    const secretsManager = await startLocalSecretsManager({ secrets });
    const double = await startOpenAiDouble({ apiKey: 'sk-old' });
    try {
      const apiKey = lazySecret({
        arn,
        endpoint: secretsManager.endpoint,
        region: 'us-east-1',
        name: 'the OpenAI key',
        maxAgeMs: 300_000,
      });
      const engine = new OpenAiEngine({ model: 'gpt-image-2', baseUrl: double.baseUrl, apiKey, references, transport });
      expect((await engine.run(request(), live())).kind).toBe('images');

      double.revokeKey('sk-rotated');
      secrets.set(arn, 'sk-rotated'); // aws secretsmanager put-secret-value
      expect((await engine.run(request(), live())).kind).toBe('images');
      expect(double.counters.refusedKeys).toBe(1);
      expect(double.received.map((received) => received.headers.authorization)).toEqual([
        'Bearer sk-old',
        'Bearer sk-rotated',
      ]);
    } finally {
      await double.close();
      await secretsManager.close();
    }
  });

  it('a key refused and not replaced fails the call after one more read, without a second call', async () => {
    const double = await startOpenAiDouble({ apiKey: 'sk-old' });
    try {
      double.revokeKey('sk-new');
      let reads = 0;
      const apiKey: ApiKey = Object.assign(async () => 'sk-old', {
        refresh: async () => {
          reads += 1;
          return 'sk-old';
        },
      });
      const engine = new OpenAiEngine({ model: 'gpt-image-2', baseUrl: double.baseUrl, apiKey, references, transport });
      await expect(engine.run(request(), live())).rejects.toThrow(/HTTP 401/);
      expect(reads).toBe(1);
      expect(double.counters.refusedKeys).toBe(1);
    } finally {
      await double.close();
    }
  });
});

describe('fal: the key only to the queue, outputs only from its media hosts', () => {
  let double: FalDouble | undefined;
  afterEach(async () => {
    await double?.close();
    double = undefined;
  });

  const falEngine = (baseUrl: string, media = { hosts: ['fal.media', '*.fal.media'], allowLoopback: true }) =>
    new FalEngine({
      model: 'fal-ai/flux-2',
      baseUrl,
      apiKey: async () => 'fal-key',
      media,
      references,
      transport,
    });

  it('refuses a submit answer whose status, result or cancel URL is on another origin, before any key goes there', async () => {
    double = await startFalDouble({ queueAt: 'http://127.0.0.2:9' });
    await expect(falEngine(double.baseUrl).run(request({ baseModel: 'base-a-2' }), live())).rejects.toThrow(
      /fal answered a status URL outside its queue \(http:\/\/127\.0\.0\.2:9/,
    );
    expect(double.counters.statusPolls).toBe(0);
  });

  it('a stored ticket pointing elsewhere is not cancelled with the key', async () => {
    const sent: string[] = [];
    const ticket = {
      engine: 'fal',
      submittedAt: 0,
      requests: [
        {
          id: 'r1',
          status: 'https://evil.test/s',
          response: 'https://evil.test/r',
          cancel: 'https://evil.test/c',
          images: 1,
          inputMegapixels: 0,
        },
      ],
    };
    await expect(
      cancelFalTicket(
        ticket,
        {
          apiKey: async () => 'fal-key',
          queueUrl: 'https://queue.fal.run',
          transport: {
            ...transport,
            fetch: async (url) => {
              sent.push(String(url));
              return new Response('{}');
            },
            clock: Date.now,
            policy: {
              maxAttempts: 1,
              attemptTimeoutSeconds: 1,
              deadlineSeconds: 1,
              retryBaseDelaySeconds: 0,
              maxRetryAfterSeconds: 0,
            },
          },
        },
        live(),
      ),
    ).rejects.toThrow(/outside its queue/);
    expect(sent).toEqual([]);
  });

  it('fails (not downloading) a result whose image URL is not on a media host', async () => {
    double = await startFalDouble({ filesAt: 'http://169.254.169.254/latest' });
    await expect(falEngine(double.baseUrl).run(request({ baseModel: 'base-a-2' }), live())).rejects.toThrow(
      /outside its media hosts \(169\.254\.169\.254/,
    );
    expect(double.counters.files).toBe(0);
  });

  it('without ALLOW_LOOPBACK_URLS even the queue host serving files is refused', async () => {
    double = await startFalDouble();
    await expect(
      falEngine(double.baseUrl, { hosts: ['fal.media'], allowLoopback: false }).run(
        request({ baseModel: 'base-a-2' }),
        live(),
      ),
    ).rejects.toThrow(/outside its media hosts/);
  });

  it('downloads from the double (loopback allowed) and fits the output', async () => {
    double = await startFalDouble();
    const outcome = await falEngine(double.baseUrl).run(request({ baseModel: 'base-a-2' }), live());
    if (outcome.kind !== 'images') throw new Error(outcome.kind);
    expect(await sharp(outcome.images[0]).metadata()).toMatchObject({ width: 1024, height: 1024 });
  });

  it.each([
    ['https://v3.fal.media/files/a.png', true],
    ['https://fal.media/files/a.png', true],
    ['http://v3.fal.media/files/a.png', false],
    ['https://fal.media.evil.test/a.png', false],
    ['https://evilfal.media/a.png', false],
    ['https://storage.example/a.png', false],
  ])('the allow-list: %s → %s', (url, allowed) => {
    const check = () =>
      allowedMediaUrl(url, { hosts: ['fal.media', '*.fal.media'], allowLoopback: false }, 'https://queue.fal.run');
    if (allowed) expect(check()).toBe(url);
    else expect(check).toThrow(/outside its media hosts/);
  });
});
