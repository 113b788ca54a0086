/**
 * fal's webhook signature, checked as fal documents it (fal/webhook.ts): ED25519 over request id, user id,
 * timestamp and the body's hex SHA-256, keys from a JWKS, ±300 s. The deliveries are built here the way
 * fal builds them, with keys made for the test.
 */
import { createHash, generateKeyPairSync, sign } from 'node:crypto';
import {
  checkFalWebhook,
  ed25519Keys,
  FAL_WEBHOOK_TOLERANCE_SECONDS,
  falWebhookVerifier,
} from '../../../../../../functions/adapters/engine/providers/fal/webhook';

const NOW = 1_800_000_000_000;
const signer = generateKeyPairSync('ed25519');
const stranger = generateKeyPairSync('ed25519');
const jwks = (...keys: (typeof signer)[]) => ({ keys: keys.map((pair) => pair.publicKey.export({ format: 'jwk' })) });

const delivery = (
  body: string,
  {
    key = signer,
    timestamp = NOW / 1000,
    requestId = 'req-1',
  }: { key?: typeof signer; timestamp?: number; requestId?: string } = {},
) => {
  const digest = createHash('sha256').update(body).digest('hex');
  const message = Buffer.from([requestId, 'user-1', String(timestamp), digest].join('\n'));
  return {
    'x-fal-webhook-request-id': requestId,
    'x-fal-webhook-user-id': 'user-1',
    'x-fal-webhook-timestamp': String(timestamp),
    'x-fal-webhook-signature': sign(null, message, key.privateKey).toString('hex'),
  };
};

const BODY = JSON.stringify({ request_id: 'req-1', gateway_request_id: 'req-1', status: 'OK', payload: {} });
const keys = ed25519Keys(jwks(signer));

describe('checkFalWebhook', () => {
  it('accepts a delivery signed by a key of the set, naming its request', () => {
    expect(checkFalWebhook(delivery(BODY), Buffer.from(BODY), keys, NOW)).toEqual({
      ok: true,
      requestId: 'req-1',
      userId: 'user-1',
    });
  });

  it('refuses a changed body, a changed request id and a signature by a key not in the set', () => {
    expect(checkFalWebhook(delivery(BODY), Buffer.from(`${BODY} `), keys, NOW)).toEqual({
      ok: false,
      reason: 'no-key-verifies',
    });
    const headers = { ...delivery(BODY), 'x-fal-webhook-request-id': 'req-2' };
    expect(checkFalWebhook(headers, Buffer.from(BODY), keys, NOW)).toMatchObject({ ok: false });
    expect(checkFalWebhook(delivery(BODY, { key: stranger }), Buffer.from(BODY), keys, NOW)).toEqual({
      ok: false,
      reason: 'no-key-verifies',
    });
  });

  it.each(['x-fal-webhook-request-id', 'x-fal-webhook-user-id', 'x-fal-webhook-timestamp', 'x-fal-webhook-signature'])(
    'refuses a delivery without %s',
    (name) => {
      const headers: Record<string, string | undefined> = { ...delivery(BODY), [name]: undefined };
      expect(checkFalWebhook(headers, Buffer.from(BODY), keys, NOW)).toEqual({ ok: false, reason: 'missing-header' });
    },
  );

  it('refuses a timestamp further than 300 s from now either way, and replays of a captured delivery once it is old', () => {
    const edge = delivery(BODY, { timestamp: NOW / 1000 - FAL_WEBHOOK_TOLERANCE_SECONDS });
    expect(checkFalWebhook(edge, Buffer.from(BODY), keys, NOW)).toMatchObject({ ok: true });
    const old = delivery(BODY, { timestamp: NOW / 1000 - FAL_WEBHOOK_TOLERANCE_SECONDS - 1 });
    expect(checkFalWebhook(old, Buffer.from(BODY), keys, NOW)).toEqual({ ok: false, reason: 'old-timestamp' });
    const future = delivery(BODY, { timestamp: NOW / 1000 + FAL_WEBHOOK_TOLERANCE_SECONDS + 1 });
    expect(checkFalWebhook(future, Buffer.from(BODY), keys, NOW)).toEqual({ ok: false, reason: 'old-timestamp' });
    // The same captured delivery, replayed 301 s after it was signed.
    const captured = delivery(BODY);
    expect(checkFalWebhook(captured, Buffer.from(BODY), keys, NOW + 301_000)).toEqual({
      ok: false,
      reason: 'old-timestamp',
    });
  });

  it('refuses a signature that is not 64 bytes of hex, and a timestamp that is not a number', () => {
    expect(
      checkFalWebhook({ ...delivery(BODY), 'x-fal-webhook-signature': 'zz' }, Buffer.from(BODY), keys, NOW),
    ).toEqual({ ok: false, reason: 'bad-signature' });
    expect(
      checkFalWebhook({ ...delivery(BODY), 'x-fal-webhook-timestamp': '1e9' }, Buffer.from(BODY), keys, NOW),
    ).toEqual({ ok: false, reason: 'bad-timestamp' });
  });
});

describe('ed25519Keys', () => {
  it('keeps the Ed25519 keys of a set and skips others', () => {
    const rsa = generateKeyPairSync('rsa', { modulusLength: 1024 }).publicKey.export({ format: 'jwk' });
    expect(ed25519Keys({ keys: [rsa, ...jwks(signer).keys, { kty: 'OKP', crv: 'Ed25519' }] })).toHaveLength(1);
    expect(() => ed25519Keys({ nokeys: [] })).toThrow('no `keys`');
  });
});

describe('falWebhookVerifier', () => {
  it('fetches the set once and caches it; an unknown signer fetches it again, at most once a minute', async () => {
    let now = NOW;
    const served = [jwks(signer)];
    const fetches: string[] = [];
    const verify = falWebhookVerifier({
      jwksUrl: 'https://keys.example/jwks.json',
      allowLoopback: false,
      clock: () => now,
      fetchJwks: async (url) => {
        fetches.push(url);
        return served[0];
      },
    });
    expect(await verify(delivery(BODY), Buffer.from(BODY))).toMatchObject({ ok: true });
    expect(await verify(delivery(BODY), Buffer.from(BODY))).toMatchObject({ ok: true });
    expect(fetches).toHaveLength(1);
    // fal rotates to a new key: within the minute the set is not fetched again, after it it is.
    served[0] = jwks(signer, stranger);
    expect(await verify(delivery(BODY, { key: stranger }), Buffer.from(BODY))).toMatchObject({ ok: false });
    expect(fetches).toHaveLength(1);
    now += 61_000;
    const rotated = delivery(BODY, { key: stranger, timestamp: now / 1000 });
    expect(await verify(rotated, Buffer.from(BODY))).toMatchObject({ ok: true });
    expect(fetches).toHaveLength(2);
  });
});
