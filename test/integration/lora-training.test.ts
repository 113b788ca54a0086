/**
 * @jest-environment ./test/faces/onnx-environment.js
 */
/**
 * Full Train that trains (issue 42): with TRAINER=fal a Full Train profile is trained as a LoRA on fal's
 * trainer (the fal double's trainer app), through fal's queue and its webhook to our generic provider route,
 * and ends READY with the LoRA in our bucket and fal's copies deleted; a training fal fails ends in ERROR with
 * the charge released; Quick Train never calls the trainer. The state machines run at 1/20 of their seconds
 * (the status check every 60 s is 3 s).
 */
import { services } from '../../bin/local-aws/services';
import { TRAINING_PRICE_MICROS } from '../../functions/domain/catalog/pricing';
import { serveSubjectPhotos, startPhotoServer } from '../support/photos';
import { useProviderRuntime } from '../support/providers/e2e';

jest.setTimeout(240_000);

const OPENING_MICROS = 10_000_000;
const world = useProviderRuntime({ TRAINER: 'fal', CALLBACK_RETRY_SCALE: '0' }, {}, 0.05);

let photos: Awaited<ReturnType<typeof startPhotoServer>>;
let photoUrls: string[] = [];
beforeAll(async () => {
  photos = await startPhotoServer();
  photoUrls = await serveSubjectPhotos(photos, 10);
});
afterAll(async () => {
  await photos?.close();
});

type Status = { status: string; message: string; queue_position?: number };

const train = async (apiKey: string, tier: 'standard' | 'fast') => {
  const created = await world.runtime.call('POST', '/v2/service/profiles/add', {
    apiKey,
    body: { image_urls: tier === 'fast' ? photoUrls.slice(0, 6) : photoUrls, training_tier: tier },
  });
  expect(created.status).toBe(200);
  const { profile_id: profileId } = (await created.json()) as { profile_id: string };
  await world.runtime.stepFunctions.waitForExecution(profileId);
  const final = (await (
    await world.runtime.call('GET', `/v2/service/profiles/${profileId}/status`, { apiKey })
  ).json()) as Status;
  return { profileId, final };
};

describe('Full Train on fal’s LoRA trainer', () => {
  it('trains a LoRA from the captioned photos, through fal’s webhook, to READY with the LoRA kept and fal’s copies deleted', async () => {
    const account = await world.runtime.newAccount(OPENING_MICROS);
    const since = world.doubles.fal.trainings.length;
    const { profileId, final } = await train(account.apiKey, 'standard');
    expect(final.status).toBe('READY');
    expect(await services().ledger.balance(account.accountId)).toBe(OPENING_MICROS - TRAINING_PRICE_MICROS.standard);

    const [training] = world.doubles.fal.trainings.slice(since);
    const profile = await services().profiles.get(account.accountId, profileId);
    // The photos training kept, each captioned with the class and the profile's token, never its id.
    expect(training?.set?.images).toHaveLength(profile?.photoKeys.length ?? -1);
    expect(profile?.loraToken).toMatch(/^[a-z]{8}$/);
    for (const caption of Object.values(training?.set?.captions ?? {}))
      expect(caption).toBe(`a photo of ${profile?.loraToken} person`);
    expect(training?.steps).toBe(300);
    expect(training?.zipUrl).not.toContain(profileId);
    // Reported by fal's webhook on the generic route, naming the profile.
    const submission = world.doubles.fal.submissions.find((entry) => entry.requestId === training?.requestId);
    expect(new URL(submission?.webhook ?? 'http://x').searchParams.get('profile')).toBe(profileId);
    const deliveries = world.doubles.fal.webhookDeliveries.filter((entry) => entry.requestId === training?.requestId);
    expect(deliveries.map((entry) => entry.status)).toEqual([200]);
    // The LoRA in our bucket, fal's copy deleted.
    const key = profile?.lora?.key ?? '';
    expect(key).toMatch(/^profiles\/shared\/.+\/lora\.safetensors$/);
    expect((await services().objects.get(key))?.body.subarray(8, 40).toString()).toContain('__metadata__');
    expect(world.doubles.fal.deletedPayloads).toContain(training?.requestId);

    // Deleting the profile deletes our LoRA.
    const deleted = await world.runtime.call('DELETE', `/v2/service/profiles/${profileId}`, { apiKey: account.apiKey });
    expect(deleted.status).toBe(200);
    expect(await services().objects.get(key)).toBeUndefined();
  });

  it('ends in ERROR with fal’s reason and the charge released when the training fails after its work', async () => {
    const account = await world.runtime.newAccount(OPENING_MICROS);
    world.doubles.fal.failNextTraining('The images could not be decoded for training');
    const { final } = await train(account.apiKey, 'standard');
    expect(final.status).toBe('ERROR');
    expect(final.message).toContain('The images could not be decoded for training');
    expect(final.message).toContain('Nothing was charged');
    expect(await services().ledger.balance(account.accountId)).toBe(OPENING_MICROS);
  });

  it('never calls the trainer for Quick Train', async () => {
    const account = await world.runtime.newAccount(OPENING_MICROS);
    const since = world.doubles.fal.trainings.length;
    const { final } = await train(account.apiKey, 'fast');
    expect(final.status).toBe('READY');
    expect(world.doubles.fal.trainings.length).toBe(since);
  });
});
