import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { Webhook } from 'standardwebhooks';
import { services } from '../../bin/local-aws/services';
import { ITEM_TYPE, keys } from '../../functions/adapters/dynamo/table';
import { base64Jpeg } from '../support/images';
import { octokitVerify } from '../support/octokit-verify';
import { type ReceivedCallback, startReceiver } from '../support/receiver';
import { getJson, startTestRuntime, type TestRuntime } from '../support/runtime';

let runtime: TestRuntime;

beforeAll(async () => {
  runtime = await startTestRuntime({ env: { CALLBACK_RETRY_SCALE: '0' } });
});
afterAll(() => runtime.close());

interface SecretAnswer {
  webhook_signing_secret: string;
  previous_secret_expires_at?: string;
}

const readSecret = (apiKey: string) => getJson<SecretAnswer>(runtime, '/v2/service/webhook-secret', apiKey);

const rotate = async (apiKey: string, body?: unknown) => {
  const response = await runtime.call('POST', '/v2/service/webhook-secret/rotate', { apiKey, body });
  return { status: response.status, body: (await response.json()) as SecretAnswer };
};

/** A real asynchronous job with a callback; resolves with the callback the receiver got. */
const callbackOfAJob = async (apiKey: string): Promise<ReceivedCallback> => {
  const receiver = await startReceiver([204]);
  try {
    const submitted = await runtime.call('POST', '/v2/service/enhance', {
      apiKey,
      body: { image: await base64Jpeg(), async: true, callback_url: receiver.url },
    });
    expect(submitted.status).toBe(202);
    await receiver.waitFor(1);
    return receiver.received[0]!;
  } finally {
    await receiver.close();
  }
};

/** What a Standard Webhooks receiver does with the callback, given one secret. */
const standardVerifies = (secret: string, callback: ReceivedCallback): boolean => {
  try {
    new Webhook(secret).verify(callback.body, callback.headers as Record<string, string>);
    return true;
  } catch {
    return false;
  }
};

const serviceSignature = (callback: ReceivedCallback) => String(callback.headers['x-service-signature']);

describe('signed callbacks of a real job', () => {
  it('verify with the standardwebhooks package and with the spec’s X-Service-Signature', async () => {
    const account = await runtime.newAccount();
    const callback = await callbackOfAJob(account.apiKey);
    const { webhook_signing_secret: secret } = await readSecret(account.apiKey);
    expect(callback.headers['webhook-id']).toBe(callback.headers['x-service-delivery-id']);
    expect(standardVerifies(secret, callback)).toBe(true);
    expect(octokitVerify([{ secret, payload: callback.body, signature: serviceSignature(callback) }])).toEqual([true]);
  });

  it('a secret issued as base64url before Standard Webhooks support still signs both verifiably', async () => {
    const account = await runtime.newAccount();
    const legacy = 'whsec_gAzwL_gkQRt43y6pBdqRyh2Cx-B0_caWDE6J20A7kik';
    await services().table.doc.send(
      new PutCommand({
        TableName: services().table.name,
        Item: {
          ...keys.webhookSecret(account.accountId),
          type: ITEM_TYPE.webhookSecret,
          accountId: account.accountId,
          secret: legacy,
          createdAt: Date.now(),
        },
      }),
    );
    const callback = await callbackOfAJob(account.apiKey);
    const standardAlphabet = `${legacy
      .replace(/^whsec_/, '')
      .replace(/-/g, '+')
      .replace(/_/g, '/')}=`;
    expect(standardVerifies(`whsec_${standardAlphabet}`, callback)).toBe(true);
    expect(octokitVerify([{ secret: legacy, payload: callback.body, signature: serviceSignature(callback) }])).toEqual([
      true,
    ]);
  });
});

describe('rotating the webhook secret', () => {
  it('answers a new secret and the end of the window; the secret read afterwards is the new one', async () => {
    const account = await runtime.newAccount();
    const { webhook_signing_secret: old } = await readSecret(account.apiKey);
    const rotated = await rotate(account.apiKey);
    expect(rotated.status).toBe(200);
    expect(rotated.body.webhook_signing_secret).not.toBe(old);
    expect(Date.parse(rotated.body.previous_secret_expires_at!) - Date.now()).toBeGreaterThan(23.9 * 3600 * 1000);
    expect(await readSecret(account.apiKey)).toEqual(rotated.body);
  });

  it('takes an empty JSON body too', async () => {
    const account = await runtime.newAccount();
    expect((await rotate(account.apiKey, {})).status).toBe(200);
  });

  it('signs a callback in the window with both secrets; X-Service-Signature with the new one', async () => {
    const account = await runtime.newAccount();
    const { webhook_signing_secret: old } = await readSecret(account.apiKey);
    const { webhook_signing_secret: next } = (await rotate(account.apiKey)).body;
    const callback = await callbackOfAJob(account.apiKey);
    expect(String(callback.headers['webhook-signature']).split(' ')).toHaveLength(2);
    expect([standardVerifies(next, callback), standardVerifies(old, callback)]).toEqual([true, true]);
    expect(
      octokitVerify([
        { secret: next, payload: callback.body, signature: serviceSignature(callback) },
        { secret: old, payload: callback.body, signature: serviceSignature(callback) },
      ]),
    ).toEqual([true, false]);
  });

  it('two concurrent rotations are both kept: each answered secret verifies the next callback', async () => {
    const account = await runtime.newAccount();
    await readSecret(account.apiKey);
    const answers = await Promise.all([rotate(account.apiKey), rotate(account.apiKey)]);
    expect(answers.map((a) => a.status)).toEqual([200, 200]);
    const secrets = answers.map((a) => a.body.webhook_signing_secret);
    expect(secrets).toContain((await readSecret(account.apiKey)).webhook_signing_secret);
    const callback = await callbackOfAJob(account.apiKey);
    expect(secrets.map((secret) => standardVerifies(secret, callback))).toEqual([true, true]);
  });

  it.each([
    ['without an API key', undefined, 403, 'MISSING_API_KEY'],
    ['with an unknown API key', 'isk_not-a-key', 401, 'INVALID_API_KEY'],
  ])('%s answers %i %s, in the error shape of every route', async (_case, apiKey, status, code) => {
    const response = await runtime.call('POST', '/v2/service/webhook-secret/rotate', { apiKey });
    expect(response.status).toBe(status);
    expect(await response.json()).toEqual({ detail: expect.any(String), code, request_id: expect.any(String) });
  });
});
