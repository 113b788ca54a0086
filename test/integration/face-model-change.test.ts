/**
 * @jest-environment ./test/faces/onnx-environment.js
 */
/**
 * A change of face model while the service keeps serving (docs/identity.md, "Face models side by side"),
 * over the wire. Two model ids of the same weights: MODEL_ID (the "old" functions) and TEST_MODEL_ID (the
 * "new" ones, FACE_MODEL_ID). Runtimes of either are started one after another on one data directory, as
 * two deploys share one table. No request naming a READY profile answers 400 for its template, whatever the
 * order of deploy and backfill.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { services } from '../../bin/local-aws/services';
import { reembedDeps, reembedStatusDeps } from '../../bin/reembed-profiles';
import { MODEL_ID, TEST_MODEL_ID } from '../../functions/adapters/faces/face-models';
import { createOnnxFaceAnalyzer } from '../../functions/adapters/faces/onnx-face-analyzer';
import { photoKey, profilePrefix, templateKey } from '../../functions/adapters/s3/photo-store';
import { DEVELOPMENT_ENV } from '../../functions/deployment/env-names';
import { faceOfModel, type Profile, type ProfileFace } from '../../functions/domain/profiles/profile';
import { reembedProfile, reembedProfiles, reembedStatus } from '../../functions/domain/profiles/reembed';
import { subjectPhoto, variedPhoto } from '../support/photos';
import { seedProfile } from '../support/profiles';
import { startTestRuntime, type TestRuntime } from '../support/runtime';
import { until } from '../support/wait';

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'face-model-change-'));
let runtime: TestRuntime | undefined;

/** Stops the running runtime and starts one whose functions run `modelId`, on the same data. */
const deploy = async (modelId: string): Promise<TestRuntime> => {
  await runtime?.close();
  runtime = await startTestRuntime({ dataDir, env: { [DEVELOPMENT_ENV.faceModelId]: modelId } });
  return runtime;
};
afterAll(async () => {
  await runtime?.close();
});

/** What training left under a profile's prefix for one subject's photos: the record's fields and the objects' bytes. */
interface Trained {
  prefix: string;
  photoKeys: string[];
  face: ProfileFace;
  pictureKey: string;
  objects: { key: string; body: Buffer; contentType: string }[];
}
const trainedBySubject = new Map<(index: number) => Promise<Buffer>, Trained>();

/** `trained`'s record fields and objects under the prefix of `accountId`'s `profileId`. */
const copyTrained = async (trained: Trained, accountId: string, profileId: string) => {
  const moved = (key: string) => `${profilePrefix(accountId, profileId)}${key.slice(trained.prefix.length)}`;
  for (const object of trained.objects)
    await services().objects.put(moved(object.key), object.body, object.contentType);
  const face = { ...trained.face, referenceKeys: trained.face.referenceKeys.map(moved) };
  await services().profiles.patch(
    accountId,
    profileId,
    { photoKeys: trained.photoKeys.map(moved), face, pictureKey: moved(trained.pictureKey) },
    Date.now(),
  );
};

/**
 * A READY profile with five stored photos of `photo`'s subject, given a template of MODEL_ID as training leaves it.
 * The old model's analyser runs once per subject (about two seconds of a 2-core machine); every later profile of
 * the subject gets a byte copy of what it left (photos, crops, picture, template.json) under its own prefix, which is
 * what the analyser would leave again: it gives the same photos the same template.
 */
const profileOfOldModel = async (accountId: string, photo: (index: number) => Promise<Buffer>): Promise<string> => {
  const seeded = await seedProfile(accountId, { trainingTier: 'fast' });
  const known = trainedBySubject.get(photo);
  if (known) {
    await copyTrained(known, accountId, seeded.profileId);
    return seeded.profileId;
  }
  const photoKeys: string[] = [];
  for (let index = 0; index < 5; index += 1) {
    const key = photoKey(accountId, seeded.profileId, index);
    await services().objects.put(key, await photo(index), 'image/jpeg');
    photoKeys.push(key);
  }
  await services().profiles.patch(accountId, seeded.profileId, { photoKeys }, Date.now());
  // Made by the old model's analyser: a template of MODEL_ID with its crops and picture, nothing else.
  await reembedProfile(reembedDeps(services().table, services().objects), seeded);
  const profile = await stored(accountId, seeded.profileId);
  if (profile.face?.modelId !== MODEL_ID || profile.pictureKey === null || profile.moreFaces.length > 0)
    throw new Error(`training left no template of ${MODEL_ID} alone on ${seeded.profileId}`);
  const keys = [
    ...photoKeys,
    ...profile.face.referenceKeys,
    profile.pictureKey,
    templateKey(accountId, seeded.profileId),
  ];
  const objects = await Promise.all(
    keys.map(async (key) => {
      const object = await services().objects.get(key);
      if (!object) throw new Error(`training left no ${key}`);
      return { key, body: object.body, contentType: object.contentType ?? 'application/octet-stream' };
    }),
  );
  const prefix = profilePrefix(accountId, seeded.profileId);
  trainedBySubject.set(photo, { prefix, photoKeys, face: profile.face, pictureKey: profile.pictureKey, objects });
  return seeded.profileId;
};

const astronaut = (index: number) => subjectPhoto(index, 'jpeg');

const stored = async (accountId: string, profileId: string): Promise<Profile> => {
  const profile = await services().profiles.get(accountId, profileId);
  if (!profile) throw new Error(`no profile ${profileId}`);
  return profile;
};

interface Answer {
  known_subjects: { counts: Record<string, number> };
  identity: { expected: string[]; not_checked?: string[] };
}

const generateNaming = async (apiKey: string, profileId: string): Promise<Answer> => {
  const response = await runtime!.call('POST', '/v2/service/generate', {
    apiKey,
    body: { prompt: `[[${profileId}]] at the lighthouse` },
  });
  const text = await response.text();
  expect({ status: response.status, body: text.slice(0, 300) }).toEqual({ status: 200, body: expect.any(String) });
  return JSON.parse(text) as Answer;
};

const balanceOf = (accountId: string) => services().ledger.balance(accountId);

describe('a change of face model while serving', () => {
  it('serves a profile of the old model from the new functions: made, recognised and billed in the request, stored once', async () => {
    await deploy(MODEL_ID);
    const account = await runtime!.newAccount();
    const profileId = await profileOfOldModel(account.accountId, astronaut);
    await deploy(TEST_MODEL_ID);
    // The start found it without a template of TEST_MODEL_ID and began the backfill: the request may race it.
    const before = await balanceOf(account.accountId);
    const answer = await generateNaming(account.apiKey, profileId);
    expect(answer.known_subjects.counts).toEqual({ [profileId]: 1 });
    expect(answer.identity.not_checked).toBeUndefined();
    expect(await balanceOf(account.accountId)).toBeLessThan(before);

    const profile = await stored(account.accountId, profileId);
    expect(profile.face?.modelId).toBe(MODEL_ID);
    expect(faceOfModel(profile, TEST_MODEL_ID)?.mean).toHaveLength(1024);
    expect(faceOfModel(profile, TEST_MODEL_ID)?.referenceKeys).toEqual(profile.face?.referenceKeys);
  }, 240_000);

  it('rolls back: the previous model serves the same profile with its old template, re-embedding nothing', async () => {
    await deploy(MODEL_ID);
    const account = await runtime!.newAccount();
    const profileId = await profileOfOldModel(account.accountId, astronaut);
    await deploy(TEST_MODEL_ID);
    await generateNaming(account.apiKey, profileId);
    const withBoth = await stored(account.accountId, profileId);
    expect(faceOfModel(withBoth, TEST_MODEL_ID)).toBeDefined();

    await deploy(MODEL_ID);
    const answer = await generateNaming(account.apiKey, profileId);
    expect(answer.known_subjects.counts).toEqual({ [profileId]: 1 });
    expect(await stored(account.accountId, profileId)).toEqual(withBoth);
  }, 240_000);

  it('backfills before the deploy: the old functions keep matching with their template, the new ones with theirs', async () => {
    await deploy(MODEL_ID);
    const account = await runtime!.newAccount();
    const profileId = await profileOfOldModel(account.accountId, astronaut);
    // The backfill for the next model, run while the old functions serve.
    const newModel = { ...reembedDeps(services().table, services().objects) };
    newModel.faces = createOnnxFaceAnalyzer({ modelId: TEST_MODEL_ID });
    await reembedProfiles(newModel);
    const backfilled = await stored(account.accountId, profileId);
    expect(backfilled.face?.modelId).toBe(MODEL_ID);
    expect(faceOfModel(backfilled, TEST_MODEL_ID)).toBeDefined();

    const old = await generateNaming(account.apiKey, profileId);
    expect(old.known_subjects.counts).toEqual({ [profileId]: 1 });
    await deploy(TEST_MODEL_ID);
    const fresh = await generateNaming(account.apiKey, profileId);
    expect(fresh.known_subjects.counts).toEqual({ [profileId]: 1 });
    expect(await stored(account.accountId, profileId)).toEqual(backfilled);
  }, 240_000);

  it('serves a profile whose photos no longer give a template: sent, reported not checked, not billed, listed for the operator', async () => {
    await deploy(MODEL_ID);
    const account = await runtime!.newAccount();
    const good = await profileOfOldModel(account.accountId, astronaut);
    const seeded = await stored(account.accountId, good);
    // The same template, over photos in which no face is found any more.
    const faceless = await seedProfile(account.accountId, {
      trainingTier: 'fast',
      face: seeded.face,
      photoKeys: seeded.photoKeys.slice(0, 1),
    });
    await services().objects.put(seeded.photoKeys[0] ?? '', await variedPhoto(3), 'image/jpeg');
    await deploy(TEST_MODEL_ID);

    const before = await balanceOf(account.accountId);
    const response = await runtime!.call('POST', '/v2/service/generate', {
      apiKey: account.apiKey,
      body: { prompt: `[[${faceless.profileId}]] at the lighthouse`, num_output_images: 1 },
    });
    expect(response.status).toBe(200);
    const answer = (await response.json()) as Answer;
    expect(answer.identity.not_checked).toEqual([faceless.profileId]);
    expect(answer.known_subjects.counts).toEqual({});
    const base = before - (await balanceOf(account.accountId));
    expect(base).toBeGreaterThan(0);

    await waitFor(
      async () => (await reembedStatus(reembedStatusDeps(services().table), TEST_MODEL_ID)).progress?.finishedAt,
    );
    const status = await reembedStatus(reembedStatusDeps(services().table), TEST_MODEL_ID);
    expect(status.progress?.failed).toEqual(
      expect.arrayContaining([expect.objectContaining({ profileId: faceless.profileId })]),
    );
    expect((await stored(account.accountId, faceless.profileId)).face).toEqual(seeded.face);
  }, 240_000);

  it('backfills by itself after the deploy, in parallel, with progress, and resumes after a kill', async () => {
    await deploy(MODEL_ID);
    const account = await runtime!.newAccount();
    const ids: string[] = [];
    for (let index = 0; index < 10; index += 1) ids.push(await profileOfOldModel(account.accountId, astronaut));

    await deploy(TEST_MODEL_ID);
    await waitFor(async () => ((await progressOf()).progress?.reembedded ?? 0) >= 1);
    // Killed mid-way (the local executions live in memory and are lost), then started again.
    await deploy(TEST_MODEL_ID);
    await waitFor(async () => (await progressOf()).progress?.finishedAt);
    const status = await progressOf();
    for (const id of ids) expect(faceOfModel(await stored(account.accountId, id), TEST_MODEL_ID)).toBeDefined();
    expect(status.progress?.runs).toBeGreaterThanOrEqual(2);
    expect(status.lacking).toBeLessThanOrEqual(status.progress?.failed.length ?? 0);
  }, 300_000);
});

const progressOf = () => reembedStatus(reembedStatusDeps(services().table), TEST_MODEL_ID);

const waitFor = (condition: () => Promise<unknown>) => until(async () => Boolean(await condition()), 120_000, 200);
