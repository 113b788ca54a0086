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
import { DeleteCommand } from '@aws-sdk/lib-dynamodb';
import { services } from '../../bin/local-aws/services';
import { TRAINING_PRICE_MICROS } from '../../functions/domain/catalog/pricing';
import { serveSubjectPhotos, startPhotoServer } from '../support/photos';
import { pollJob, useProviderRuntime } from '../support/providers/e2e';
import { expectOk } from './images/support';

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

type Status = { status: string; message: string; queue_position?: number; eta_seconds: number | null };

const statusOf = async (apiKey: string, profileId: string): Promise<Status> =>
  (await (await world.runtime.call('GET', `/v2/service/profiles/${profileId}/status`, { apiKey })).json()) as Status;

const startTraining = async (apiKey: string, tier: 'standard' | 'fast'): Promise<string> => {
  const created = await world.runtime.call('POST', '/v2/service/profiles/add', {
    apiKey,
    body: { image_urls: tier === 'fast' ? photoUrls.slice(0, 6) : photoUrls, training_tier: tier },
  });
  expect(created.status).toBe(200);
  return ((await created.json()) as { profile_id: string }).profile_id;
};

const train = async (apiKey: string, tier: 'standard' | 'fast') => {
  const profileId = await startTraining(apiKey, tier);
  await world.runtime.stepFunctions.waitForExecution(profileId);
  return { profileId, final: await statusOf(apiKey, profileId) };
};

/** Reads the profile's status as a client polls it (every 20 ms) until `wanted`, or fails after 60 s. */
const statusUntil = async (apiKey: string, profileId: string, wanted: (status: Status) => boolean) => {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const status = await statusOf(apiKey, profileId);
    if (wanted(status)) return status;
    if (Date.now() > deadline) throw new Error(`profile ${profileId} is still ${JSON.stringify(status)}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
};

type Identity = {
  expected: string[];
  outputs: { output_index: number; kept: string[]; carried_by?: Record<string, string> }[];
};
const identityOf = (answer: unknown): Identity => (answer as { identity: Identity }).identity;

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

  it('never asks fal twice when the answer to its submit is lost: one training at fal, ERROR, released', async () => {
    const account = await world.runtime.newAccount(OPENING_MICROS);
    const since = world.doubles.fal.trainings.length;
    // fal queues the training, then answers 500: we never learn its request id.
    world.doubles.fal.failNext(500, { afterWork: true });
    const { final } = await train(account.apiKey, 'standard');
    expect(world.doubles.fal.trainings.length - since).toBe(1);
    expect(final.status).toBe('ERROR');
    expect(final.message).toContain('not asked twice');
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

describe('the LoRA at request time', () => {
  // One account with a READY Full Train profile (its LoRA trained) and a READY Quick Train profile.
  let account: Awaited<ReturnType<typeof world.runtime.newAccount>>;
  let full: { profileId: string; token: string; trainingId: string };
  let quick: string;
  beforeAll(async () => {
    account = await world.runtime.newAccount(OPENING_MICROS);
    const next = world.doubles.fal.nextTraining();
    const trained = await train(account.apiKey, 'standard');
    expect(trained.final.status).toBe('READY');
    const profile = await services().profiles.get(account.accountId, trained.profileId);
    full = { profileId: trained.profileId, token: profile?.loraToken ?? '', trainingId: (await next).requestId };
    const fast = await train(account.apiKey, 'fast');
    expect(fast.final.status).toBe('READY');
    quick = fast.profileId;
  });

  const generate = (body: Record<string, unknown>) =>
    world.runtime.call('POST', '/v2/service/generate', { apiKey: account.apiKey, body });

  it('a base-a-2 generate naming the Full Train profile calls fal-ai/flux-2/lora with its LoRA and its token, and says so', async () => {
    const balance = await services().ledger.balance(account.accountId);
    const answer = await expectOk(
      await generate({ prompt: `[[${full.profileId}]] on a boat`, base_model: 'base-a-2' }),
    );

    const submission = world.doubles.fal.submissions.at(-1);
    expect(submission?.endpoint).toBe('fal-ai/flux-2/lora');
    expect(submission?.input).not.toHaveProperty('image_urls');
    expect(submission?.input.loras).toEqual([{ path: expect.stringMatching(/^http:\/\/127\.0\.0\.1:/), scale: 1 }]);
    expect(submission?.input.prompt).toBe(`${full.token} person on a boat`);
    // fal fetched our copy of the LoRA by its presigned URL: the file its trainer made for this profile.
    const [use] = world.doubles.fal.loraUses.filter((entry) => entry.requestId === submission?.requestId);
    expect(use).toMatchObject({ trainingId: full.trainingId, triggered: true });
    expect(world.doubles.fal.loraFetches.find((entry) => entry.path === use?.path)?.status).toBe(200);
    expect(use?.path).not.toContain(full.profileId);

    expect(identityOf(answer).outputs).toEqual([
      expect.objectContaining({ output_index: 0, kept: [full.profileId], carried_by: { [full.profileId]: 'lora' } }),
    ]);
    // The subject drawn and recognised: base-a-2's 1K price and the identity surcharge, nothing else.
    expect(answer.known_subjects.counts).toEqual({ [full.profileId]: 1 });
    expect(balance - (await services().ledger.balance(account.accountId))).toBe(40_000 + 30_000);
  });

  it('an asynchronous base-a-2 job uses the LoRA too: its ticket remembers it, and its result says so', async () => {
    const response = await generate({
      prompt: `[[${full.profileId}]] in the snow`,
      base_model: 'base-a-2',
      async: true,
    });
    expect(response.status).toBe(202);
    const { job_id: jobId } = (await response.json()) as { job_id: string };
    const job = await pollJob(world.runtime, account.apiKey, jobId);
    expect(job.status).toBe('succeeded');
    const submission = world.doubles.fal.submissions.at(-1);
    expect(submission?.endpoint).toBe('fal-ai/flux-2/lora');
    expect(submission?.input.prompt).toBe(`${full.token} person in the snow`);
    expect(identityOf(job.result).outputs).toEqual([
      expect.objectContaining({ carried_by: { [full.profileId]: 'lora' } }),
    ]);
  });

  it('a Gemini-routed model does not use the LoRA: the profile is carried by its references', async () => {
    const [fal, gemini] = [world.doubles.fal.submissions.length, world.doubles.gemini.received.length];
    const answer = await expectOk(
      await generate({ prompt: `[[${full.profileId}]] on a boat`, base_model: 'base-c-2' }),
    );
    expect(world.doubles.fal.submissions.length).toBe(fal);
    expect(world.doubles.gemini.received.length).toBe(gemini + 1);
    expect(JSON.stringify(world.doubles.gemini.received.at(-1)?.body)).not.toContain(full.token);
    expect(identityOf(answer).outputs).toEqual([
      expect.objectContaining({ carried_by: { [full.profileId]: 'references' } }),
    ]);
  });

  it('a Quick Train profile on base-a-2 is carried by its references (fal-ai/flux-2/edit, no LoRA)', async () => {
    const answer = await expectOk(await generate({ prompt: `[[${quick}]] on a boat`, base_model: 'base-a-2' }));
    const submission = world.doubles.fal.submissions.at(-1);
    expect(submission?.endpoint).toBe('fal-ai/flux-2/edit');
    expect(submission?.input).not.toHaveProperty('loras');
    expect(identityOf(answer).outputs).toEqual([expect.objectContaining({ carried_by: { [quick]: 'references' } })]);
  });

  it('with two profiles one LoRA at most: the Full Train one by its LoRA, the other by its references', async () => {
    const answer = await expectOk(
      await generate({ prompt: `[[${quick}]] and [[${full.profileId}]] at a table`, base_model: 'base-a-2' }),
    );
    const submission = world.doubles.fal.submissions.at(-1);
    expect(submission?.endpoint).toBe('fal-ai/flux-2/lora/edit');
    expect(submission?.input.loras).toHaveLength(1);
    expect(submission?.input.image_urls).toEqual([expect.any(String), expect.any(String), expect.any(String)]);
    expect(submission?.input.prompt).toMatch(
      new RegExp(`^the person in reference images? [0-9, and]+ and ${full.token} person at a table$`),
    );
    expect(identityOf(answer).outputs).toEqual([
      expect.objectContaining({ carried_by: { [quick]: 'references', [full.profileId]: 'lora' } }),
    ]);
  });
});

describe('the ETA of a training in progress', () => {
  /** Holds the next training at fal until told, starts a Full Train and answers its status once IN_PROGRESS. */
  const inProgress = async (apiKey: string) => {
    world.doubles.fal.holdNext({ untilTold: { queuePosition: 1 } });
    const next = world.doubles.fal.nextTraining();
    const profileId = await startTraining(apiKey, 'standard');
    const training = await next;
    await statusUntil(apiKey, profileId, (status) => status.status === 'QUEUING');
    world.doubles.fal.advance(training.requestId, 'IN_PROGRESS');
    const running = await statusUntil(apiKey, profileId, (status) => status.status === 'IN_PROGRESS');
    return { profileId, training, running };
  };

  it('is the published estimate before any training was measured, then the pace trainings measured', async () => {
    // No measured training of fal's trainer yet (others in this file went from the queue straight to done).
    await services().table.doc.send(
      new DeleteCommand({ TableName: services().table.name, Key: { pk: 'TRAINER#fal-ai/flux-2-trainer', sk: 'PACE' } }),
    );
    const account = await world.runtime.newAccount(OPENING_MICROS);
    const first = await inProgress(account.apiKey);
    // 60 s to start and 1.2 s a step at the default 300 steps: 420 s, less the moment it has run.
    expect(first.running.eta_seconds).toBeGreaterThan(400);
    expect(first.running.eta_seconds).toBeLessThanOrEqual(420);
    world.doubles.fal.advance(first.training.requestId, 'COMPLETED');
    await world.runtime.stepFunctions.waitForExecution(first.profileId);
    expect((await statusOf(account.apiKey, first.profileId)).status).toBe('READY');

    // The first took seconds here (the double trains at once when told): the next is expected to as well.
    const second = await inProgress(account.apiKey);
    expect(second.running.eta_seconds).toBeLessThan(60);
    world.doubles.fal.advance(second.training.requestId, 'COMPLETED');
    await world.runtime.stepFunctions.waitForExecution(second.profileId);
    expect((await statusOf(account.apiKey, second.profileId)).status).toBe('READY');
  });
});

describe('a profile deleted while fal trains it', () => {
  it.each(['IN_QUEUE', 'IN_PROGRESS'] as const)(
    'cancels the fal request (%s) and deletes fal’s copies; while queued its status shows the queue position',
    async (stage) => {
      const account = await world.runtime.newAccount(OPENING_MICROS);
      world.doubles.fal.holdNext({ untilTold: { queuePosition: 4 } });
      const next = world.doubles.fal.nextTraining();
      const profileId = await startTraining(account.apiKey, 'standard');
      const training = await next;
      const queued = await statusUntil(account.apiKey, profileId, (status) => status.queue_position !== undefined);
      expect(queued).toMatchObject({ status: 'QUEUING', queue_position: 4 });
      if (stage === 'IN_PROGRESS') {
        world.doubles.fal.advance(training.requestId, 'IN_PROGRESS');
        const running = await statusUntil(account.apiKey, profileId, (status) => status.status === 'IN_PROGRESS');
        expect(running).not.toHaveProperty('queue_position');
      }
      expect(world.doubles.fal.running()).toContain(training.requestId);

      const deleted = await world.runtime.call('DELETE', `/v2/service/profiles/${profileId}`, {
        apiKey: account.apiKey,
      });
      expect(deleted.status).toBe(200);
      expect(world.doubles.fal.cancelled()).toContain(training.requestId);
      expect(world.doubles.fal.running()).not.toContain(training.requestId);
      expect(world.doubles.fal.deletedPayloads).toContain(training.requestId);
      await world.runtime.stepFunctions.waitForExecution(profileId);
      // Nothing charged for a training that never ended.
      expect(await services().ledger.balance(account.accountId)).toBe(OPENING_MICROS);
    },
  );
});
