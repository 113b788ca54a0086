/**
 * @jest-environment ./test/faces/onnx-environment.js
 */
import sharp from 'sharp';
import { services } from '../../bin/local-aws/services';
import { createOnnxFaceAnalyzer } from '../../functions/adapters/faces/onnx-face-analyzer';
import { PINNED_PRICES } from '../../functions/domain/catalog/catalog';
import { TRAINING_PRICE_MICROS } from '../../functions/domain/catalog/pricing';
import { faceFixture, subjectPhoto, variedPhoto } from '../support/photos';
import { getJson } from '../support/runtime';
import { useTrainingWorld } from '../support/training';

// Training is seconds of real face work; the test-only delay keeps it IN_PROGRESS long enough to watch
// and to delete during.
const world = useTrainingWorld({
  count: 12,
  delayMs: 150,
  runtime: { timeScale: 0.01, env: { TRAINING_DELAY_SECONDS: '2' } },
  // Trainings some tests leave running end first: a function of start:assets started after close has no task root.
  beforeClose: async () => {
    for (const profileId of started) await world.runtime.stepFunctions.waitForExecution(profileId);
  },
});

type Status = { profile_id: string; status: string; message: string };

/** Profiles whose training was started, so that afterAll waits for their executions. */
const started: string[] = [];

const add = async (apiKey: string, body: Record<string, unknown>) => {
  const response = await world.runtime.call('POST', '/v2/service/profiles/add', { apiKey, body });
  if (response.status === 200) started.push(((await response.clone().json()) as { profile_id: string }).profile_id);
  return response;
};

const statusOf = async (apiKey: string, profileId: string) =>
  (await world.runtime.call('GET', `/v2/service/profiles/${profileId}/status`, { apiKey })).json() as Promise<Status>;

/** Polls the status endpoint until a terminal status, recording each distinct status seen, in order. */
const watch = async (apiKey: string, profileId: string): Promise<string[]> => {
  const seen: string[] = [];
  for (let i = 0; i < 400; i += 1) {
    const { status } = await statusOf(apiKey, profileId);
    if (seen.at(-1) !== status) seen.push(status);
    if (status === 'READY' || status === 'ERROR') return seen;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`profile ${profileId} did not finish: ${seen.join(' → ')}`);
};

const ORDER = ['VALIDATING', 'QUEUING', 'IN_PROGRESS', 'READY'];

describe('a profile, from photos to use to deletion', () => {
  it('trains through the statuses in order, is used in an edit, and is gone after deletion', async () => {
    const account = await world.runtime.newAccount(10_000_000);
    const created = await add(account.apiKey, {
      image_urls: world.photoUrls.slice(0, 5),
      training_tier: 'fast',
      tag: 'alice',
    });
    expect(created.status).toBe(200);
    const { profile_id: profileId } = (await created.json()) as { profile_id: string };
    expect(profileId).toMatch(/^prf_/);

    const seen = await watch(account.apiKey, profileId);
    expect(seen[0]).toBe('VALIDATING');
    expect(seen.at(-1)).toBe('READY');
    expect(seen).toContain('IN_PROGRESS');
    expect(seen.map((status) => ORDER.indexOf(status))).toEqual(
      [...seen.map((status) => ORDER.indexOf(status))].sort((a, b) => a - b),
    );
    expect(await services().ledger.balance(account.accountId)).toBe(10_000_000 - TRAINING_PRICE_MICROS.fast);

    const picture = await world.runtime.call('GET', `/v2/service/profiles/${profileId}/profile_picture`, {
      apiKey: account.apiKey,
    });
    expect(picture.status).toBe(200);
    expect(picture.headers.get('content-type')).toBe('image/jpeg');
    const pictureBytes = Buffer.from(await picture.arrayBuffer());
    expect((await sharp(pictureBytes).metadata()).format).toBe('jpeg');
    // The picture is her aligned face: analysed, it shows one face, filling it.
    const pictureFaces = await createOnnxFaceAnalyzer().analyze(pictureBytes);
    expect(pictureFaces).toHaveLength(1);
    expect(pictureFaces[0]!.kind).toBe('person');
    expect(pictureFaces[0]!.box.width).toBeGreaterThan(200);

    const before = await services().ledger.balance(account.accountId);
    const edit = await world.runtime.call('POST', '/v2/service/enhance', {
      apiKey: account.apiKey,
      body: { image: (await subjectPhoto(2)).toString('base64'), profile_ids: [profileId] },
    });
    expect(edit.status).toBe(200);
    expect(
      ((await edit.json()) as { known_subjects: { counts: Record<string, number> } }).known_subjects.counts,
    ).toEqual({ [profileId]: 1 });
    expect(await services().ledger.balance(account.accountId)).toBe(before - PINNED_PRICES.perImageWithProfileMicros);

    const deleted = await world.runtime.call('DELETE', `/v2/service/profiles/${profileId}`, { apiKey: account.apiKey });
    expect(await deleted.json()).toEqual({ profile_id: profileId, status: 'deleted' });
    for (const path of [
      `/v2/service/profiles/${profileId}/status`,
      `/v2/service/profiles/${profileId}/profile_picture`,
    ]) {
      const response = await world.runtime.call('GET', path, { apiKey: account.apiKey });
      expect(response.status).toBe(404);
      expect(await response.json()).toMatchObject({ code: 'NOT_FOUND' });
    }
    const reference = await world.runtime.call('POST', '/v2/service/enhance', {
      apiKey: account.apiKey,
      body: { image: (await subjectPhoto(2)).toString('base64'), profile_ids: [profileId] },
    });
    expect(reference.status).toBe(404);
    expect(
      (await getJson<{ profiles: unknown[] }>(world.runtime, '/v2/service/profiles/ids', account.apiKey)).profiles,
    ).toEqual([]);
    expect(
      (
        (await (
          await world.runtime.call('GET', '/v2/service/profiles/ids?tag=alice', { apiKey: account.apiKey })
        ).json()) as { profiles: unknown[] }
      ).profiles,
    ).toEqual([]);
  });

  it('ends in ERROR naming every unusable photo, and releases the reservation', async () => {
    const account = await world.runtime.newAccount(5_000_000);
    const tiny = world.photos.add(
      'tiny.png',
      await sharp({ create: { width: 100, height: 80, channels: 3, background: '#888' } })
        .png()
        .toBuffer(),
    );
    const notAnImage = world.photos.add('notes.txt', Buffer.from('these are not photos'), 'text/plain');
    const urls = [...world.photoUrls.slice(0, 3), tiny, notAnImage, world.photos.missing('gone.jpg')];
    const { profile_id: profileId } = (await (
      await add(account.apiKey, { image_urls: urls, training_tier: 'fast' })
    ).json()) as { profile_id: string };
    expect((await watch(account.apiKey, profileId)).at(-1)).toBe('ERROR');
    const { message } = await statusOf(account.apiKey, profileId);
    expect(message).toContain('image_urls[3]');
    expect(message).toContain('too small');
    expect(message).toContain('image_urls[4]');
    expect(message).toContain('image_urls[5]');
    expect(message).not.toContain('image_urls[0]');
    expect(await services().ledger.balance(account.accountId)).toBe(5_000_000);
  });

  it('refuses a set whose photos show no face: ERROR naming them, the reservation released', async () => {
    const account = await world.runtime.newAccount(5_000_000);
    const urls = [...world.photoUrls.slice(0, 2)];
    for (const seed of [1, 2, 3])
      urls.push(world.photos.add(`faceless${seed}.jpg`, await variedPhoto(seed), 'image/jpeg'));
    const { profile_id: profileId } = (await (
      await add(account.apiKey, { image_urls: urls, training_tier: 'fast' })
    ).json()) as { profile_id: string };
    expect((await watch(account.apiKey, profileId)).at(-1)).toBe('ERROR');
    const { message } = await statusOf(account.apiKey, profileId);
    expect(message).toContain('Only 2 of 5 photos');
    for (const index of [2, 3, 4]) expect(message).toContain(`image_urls[${index}] shows no face.`);
    expect(message).not.toContain('image_urls[0]');
    expect(await services().ledger.balance(account.accountId)).toBe(5_000_000);
  });

  it('drops and reports a photo of another person, and trains from the rest', async () => {
    const account = await world.runtime.newAccount(5_000_000);
    const stranger = world.photos.add('stranger.jpg', faceFixture('man-b.jpg'), 'image/jpeg');
    const urls = [...world.photoUrls.slice(0, 2), stranger, ...world.photoUrls.slice(2, 5)];
    const { profile_id: profileId } = (await (
      await add(account.apiKey, { image_urls: urls, training_tier: 'fast' })
    ).json()) as { profile_id: string };
    expect((await watch(account.apiKey, profileId)).at(-1)).toBe('READY');
    const { message } = await statusOf(account.apiKey, profileId);
    expect(message).toContain('image_urls[2] shows someone other than the rest of the set.');
    const profile = await services().profiles.get(account.accountId, profileId);
    expect(profile?.photoKeys).toHaveLength(5);
    expect(profile?.face?.referenceKeys.length).toBeGreaterThanOrEqual(3);
  });

  it("trains a pet's profile from photos of a cat: an animal face template", async () => {
    const account = await world.runtime.newAccount(5_000_000);
    const urls: string[] = [];
    for (let index = 0; index < 5; index += 1) {
      // Kept in proportion (a stretched cat makes the detector fire twice), mirrored, brighter, turned.
      let photo = sharp(faceFixture('cat-chelsea.jpg')).resize({ width: 480 + index * 24 });
      if (index % 2 === 1) photo = photo.flop();
      const bytes = await photo
        .modulate({ brightness: 0.9 + index * 0.05 })
        .rotate(((index % 3) - 1) * 3, { background: '#777' })
        .jpeg()
        .toBuffer();
      urls.push(world.photos.add(`cat${index}.jpg`, bytes, 'image/jpeg'));
    }
    const { profile_id: profileId } = (await (
      await add(account.apiKey, { image_urls: urls, training_tier: 'fast' })
    ).json()) as { profile_id: string };
    expect((await watch(account.apiKey, profileId)).at(-1)).toBe('READY');
    expect((await services().profiles.get(account.accountId, profileId))?.face?.kind).toBe('animal');
  });

  it('deleting a profile in training stops it and refunds the reservation', async () => {
    const account = await world.runtime.newAccount(5_000_000);
    const { profile_id: profileId } = (await (
      await add(account.apiKey, { image_urls: world.photoUrls.slice(0, 10) })
    ).json()) as { profile_id: string };
    for (let i = 0; i < 200 && (await statusOf(account.apiKey, profileId)).status !== 'IN_PROGRESS'; i += 1)
      await new Promise((r) => setTimeout(r, 20));
    expect(
      (await world.runtime.call('DELETE', `/v2/service/profiles/${profileId}`, { apiKey: account.apiKey })).status,
    ).toBe(200);
    const execution = await world.runtime.stepFunctions.waitForExecution(profileId);
    expect(execution.status).toBe('ABORTED');
    expect(await services().ledger.balance(account.accountId)).toBe(5_000_000);
    expect(
      (await world.runtime.call('GET', `/v2/service/profiles/${profileId}/status`, { apiKey: account.apiKey })).status,
    ).toBe(404);
  });
});

describe('creating a profile', () => {
  it.each([
    ['standard with 5 photos', { image_urls: Array(5).fill('https://example.com/a.jpg') }],
    ['standard with 51 photos', { image_urls: Array(51).fill('https://example.com/a.jpg') }],
    ['fast with 11 photos', { image_urls: Array(11).fill('https://example.com/a.jpg'), training_tier: 'fast' }],
    ['fast with 4 photos', { image_urls: Array(4).fill('https://example.com/a.jpg'), training_tier: 'fast' }],
  ])('refuses %s with 422 at image_urls', async (_name, body) => {
    const response = await add(world.runtime.devAccount!.apiKey, body);
    expect(response.status).toBe(422);
    expect(((await response.json()) as { detail: Array<{ loc: unknown[] }> }).detail[0]!.loc).toEqual([
      'body',
      'image_urls',
    ]);
  });

  it.each([
    ['an empty tag', { tag: '' }, ['body', 'tag']],
    ['a 129-character tag', { tag: 'x'.repeat(129) }, ['body', 'tag']],
    ['an unknown tier', { training_tier: 'turbo' }, ['body', 'training_tier']],
    ['an unknown model version', { model_version: 'v3' }, ['body', 'model_version']],
    [
      'a URL that is not http(s)',
      { image_urls: ['ftp://example.com/a.jpg', ...Array(9).fill('https://example.com/a.jpg')] },
      ['body', 'image_urls', 0],
    ],
  ])('refuses %s with 422', async (_name, override, loc) => {
    const response = await add(world.runtime.devAccount!.apiKey, {
      image_urls: Array(10).fill('https://example.com/a.jpg'),
      ...override,
    });
    expect(response.status).toBe(422);
    expect(((await response.json()) as { detail: Array<{ loc: unknown[] }> }).detail[0]!.loc).toEqual(loc);
  });

  it('answers 402 and creates nothing when the tier price does not fit', async () => {
    const account = await world.runtime.newAccount(TRAINING_PRICE_MICROS.fast - 1);
    const response = await add(account.apiKey, { image_urls: world.photoUrls.slice(0, 5), training_tier: 'fast' });
    expect(response.status).toBe(402);
    expect(await response.json()).toMatchObject({ code: 'INSUFFICIENT_BALANCE' });
    expect(
      (await getJson<{ profiles: unknown[] }>(world.runtime, '/v2/service/profiles/ids', account.apiKey)).profiles,
    ).toEqual([]);
  });

  it('uses the account default model version (v2) unless one is given', async () => {
    const account = await world.runtime.newAccount(10_000_000);
    const make = async (body: Record<string, unknown>) =>
      (
        (await (
          await add(account.apiKey, { image_urls: world.photoUrls.slice(0, 5), training_tier: 'fast', ...body })
        ).json()) as { profile_id: string }
      ).profile_id;
    const [defaulted, v1] = [await make({}), await make({ model_version: 'v1' })];
    expect((await services().profiles.get(account.accountId, defaulted))!.modelVersion).toBe('v2');
    expect((await services().profiles.get(account.accountId, v1))!.modelVersion).toBe('v1');
  });
});

describe('reading profiles', () => {
  it("answers 404 for another account's profile on every read and on delete", async () => {
    const [owner, stranger] = [await world.runtime.newAccount(), await world.runtime.newAccount()];
    const { profile_id: profileId } = (await (
      await add(owner.apiKey, { image_urls: world.photoUrls.slice(0, 5), training_tier: 'fast' })
    ).json()) as { profile_id: string };
    for (const [method, path] of [
      ['GET', `/v2/service/profiles/${profileId}/status`],
      ['GET', `/v2/service/profiles/${profileId}/profile_picture`],
      ['DELETE', `/v2/service/profiles/${profileId}`],
    ] as const) {
      expect((await world.runtime.call(method, path, { apiKey: stranger.apiKey })).status).toBe(404);
    }
    expect((await statusOf(owner.apiKey, profileId)).profile_id).toBe(profileId);
  });

  it('answers 404 for the picture before one exists', async () => {
    const account = await world.runtime.newAccount();
    const { profile_id: profileId } = (await (
      await add(account.apiKey, { image_urls: world.photoUrls.slice(0, 5), training_tier: 'fast' })
    ).json()) as { profile_id: string };
    const response = await world.runtime.call('GET', `/v2/service/profiles/${profileId}/profile_picture`, {
      apiKey: account.apiKey,
    });
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ code: 'NOT_FOUND' });
  });
});
