/**
 * @jest-environment ./test/faces/onnx-environment.js
 */
/**
 * Training callbacks, black box: a profile created with a callback_url gets a signed POST of its status
 * body when training ends, READY or ERROR, through the deliverer job callbacks use (both signatures).
 */
import { Webhook } from 'standardwebhooks';
import { octokitVerify } from '../support/octokit-verify';
import { startReceiver } from '../support/receiver';
import { getJson } from '../support/runtime';
import { useTrainingWorld } from '../support/training';

const world = useTrainingWorld({ count: 5, runtime: { timeScale: 0.001, env: { CALLBACK_RETRY_SCALE: '0' } } });

const secretOf = async (apiKey: string) =>
  (await getJson<{ webhook_signing_secret: string }>(world.runtime, '/v2/service/webhook-secret', apiKey))
    .webhook_signing_secret;

const trainWithCallback = async (imageUrls: string[]) => {
  const account = await world.runtime.newAccount(10_000_000);
  const receiver = await startReceiver([204]);
  const created = await world.runtime.call('POST', '/v2/service/profiles/add', {
    apiKey: account.apiKey,
    body: { image_urls: imageUrls, training_tier: 'fast', callback_url: receiver.url },
  });
  expect(created.status).toBe(200);
  const { profile_id: profileId } = (await created.json()) as { profile_id: string };
  await receiver.waitFor(1);
  await receiver.close();
  return {
    account,
    profileId,
    callback: receiver.received[0]!,
    secret: await secretOf(account.apiKey),
    received: receiver.received,
  };
};

describe('training callbacks', () => {
  it('POST the READY status, signed both ways, once', async () => {
    const { profileId, callback, secret, received, account } = await trainWithCallback(world.photoUrls);
    expect(JSON.parse(callback.body)).toEqual({
      profile_id: profileId,
      status: 'READY',
      message: expect.any(String),
      progress: 1,
      eta_seconds: 0,
    });
    const status = await (
      await world.runtime.call('GET', `/v2/service/profiles/${profileId}/status`, { apiKey: account.apiKey })
    ).text();
    expect(callback.body).toBe(status);
    expect(() => new Webhook(secret).verify(callback.body, callback.headers as Record<string, string>)).not.toThrow();
    expect(
      octokitVerify([{ secret, payload: callback.body, signature: String(callback.headers['x-service-signature']) }]),
    ).toEqual([true]);
    expect(received).toHaveLength(1);
  });

  it('POST the ERROR status with the reason when training fails', async () => {
    const urls = [...world.photoUrls.slice(0, 4), world.photos.missing('gone.jpg')];
    const { profileId, callback, secret } = await trainWithCallback(urls);
    expect(JSON.parse(callback.body)).toEqual({
      profile_id: profileId,
      status: 'ERROR',
      message: expect.stringContaining('image_urls[4]'),
      progress: 0,
      eta_seconds: null,
    });
    expect(() => new Webhook(secret).verify(callback.body, callback.headers as Record<string, string>)).not.toThrow();
  });

  it('refuse a callback_url that is not https, or not public, at creation (422)', async () => {
    const account = await world.runtime.newAccount(10_000_000);
    for (const callbackUrl of ['http://example.com/hook', 'https://10.0.0.8/hook']) {
      const response = await world.runtime.call('POST', '/v2/service/profiles/add', {
        apiKey: account.apiKey,
        body: { image_urls: world.photoUrls, training_tier: 'fast', callback_url: callbackUrl },
      });
      expect(response.status).toBe(422);
      expect(((await response.json()) as { detail: Array<{ loc: unknown }> }).detail.map((entry) => entry.loc)).toEqual(
        [['body', 'callback_url']],
      );
    }
  });
});
