/**
 * @jest-environment ./test/faces/onnx-environment.js
 *
 * The reference bank end to end (docs/identity.md, "The reference bank"): a Full Train profile trained
 * through `POST /profiles/add` from photos of one man in many poses keeps up to 8 crops with their poses,
 * and an edit of a photo of him with his head turned sends the Gemini double the crops closest to that
 * pose; a Quick Train profile of the same photos keeps today's set, without poses.
 */
import { services } from '../../bin/local-aws/services';
import { DynamoProfiles } from '../../functions/adapters/dynamo/profiles-repository';
import { CROPS_PER_PROFILE } from '../../functions/domain/engine/identity-prompt';
import { type FacePose, poseDistance } from '../../functions/domain/faces';
import type { Profile } from '../../functions/domain/profiles/profile';
import { MAX_BANK_REFERENCES } from '../../functions/domain/profiles/reference-bank';
import { facesIn } from '../support/faces';
import { FACEMATCH_TILES, facematchPhoto, type PhotoServer, startPhotoServer } from '../support/photos';
import { operationCaller, useProviderRuntime } from '../support/providers/e2e';
import { b64, expectOk } from './images/support';

jest.setTimeout(180_000);

const world = useProviderRuntime();
const call = operationCaller(world);
let photos: PhotoServer;
/** The training set: every photo of the man and its mirror but those of TURNED_TILE (the edit's input). */
let trainingUrls: string[];
/** His photo with the head turned furthest (yaw ≈ 44°, chin up), left out of training. */
const TURNED_TILE = 2;

beforeAll(async () => {
  photos = await startPhotoServer();
  trainingUrls = [];
  for (let tile = 0; tile < FACEMATCH_TILES; tile += 1)
    for (const mirrored of [false, true])
      if (tile !== TURNED_TILE)
        trainingUrls.push(
          photos.add(
            `man-${tile}${mirrored ? '-mirrored' : ''}.jpg`,
            await facematchPhoto(tile, mirrored),
            'image/jpeg',
          ),
        );
});
afterAll(() => photos?.close());

/** Trains a profile of the set at `tier` through the API, to its end, and reads its record. */
const trained = async (apiKey: string, accountId: string, tier: 'standard' | 'fast'): Promise<Profile> => {
  const urls = tier === 'standard' ? trainingUrls : trainingUrls.slice(0, 10);
  const response = await world.runtime.call('POST', '/v2/service/profiles/add', {
    apiKey,
    body: { image_urls: urls, training_tier: tier },
  });
  expect(response.status).toBe(200);
  const { profile_id: profileId } = (await response.json()) as { profile_id: string };
  await world.runtime.stepFunctions.waitForExecution(profileId);
  const status = (await (
    await world.runtime.call('GET', `/v2/service/profiles/${profileId}/status`, { apiKey })
  ).json()) as { status: string; message: string };
  expect(status).toMatchObject({ status: 'READY' });
  const profile = await new DynamoProfiles(services().table).get(accountId, profileId);
  if (!profile) throw new Error(`profile ${profileId} is not stored`);
  return profile;
};

/** The Gemini double's inline images of its `index`th request. */
const geminiImages = (index: number): Buffer[] => {
  const body = world.doubles.gemini.received[index]?.body as {
    contents: { parts: ({ text: string } | { inlineData: { data: string } })[] }[];
  };
  return body.contents.flatMap((content) =>
    content.parts.flatMap((part) => ('inlineData' in part ? [Buffer.from(part.inlineData.data, 'base64')] : [])),
  );
};

describe('the reference bank', () => {
  it('Full Train keeps 8 posed crops, and an edit of his turned face sends the crops closest to its pose', async () => {
    const account = await world.runtime.newAccount();
    const profile = await trained(account.apiKey, account.accountId, 'standard');
    const keys = profile.face?.referenceKeys ?? [];
    const poses = profile.face?.referencePoses ?? [];
    expect(keys).toHaveLength(MAX_BANK_REFERENCES);
    expect(poses).toHaveLength(MAX_BANK_REFERENCES);
    // The bank covers both ways he turns (the photos and their mirrors), not only his most frontal faces.
    expect(poses.some((pose) => pose.yawDegrees > 25)).toBe(true);
    expect(poses.some((pose) => pose.yawDegrees < -25)).toBe(true);

    const turned = await facematchPhoto(TURNED_TILE);
    const [face] = await facesIn(turned);
    if (!face) throw new Error('the turned photo shows his face');
    expect(face.yawDegrees).toBeGreaterThan(35);
    const byDistance = [...keys.keys()].sort(
      (a, b) => poseDistance(poses[a] as FacePose, face) - poseDistance(poses[b] as FacePose, face),
    );
    const closest = byDistance.slice(0, CROPS_PER_PROFILE);
    const before = world.doubles.gemini.received.length;

    await expectOk(
      await call('edit', account.apiKey, {
        images: [b64(turned)],
        prompt: `[[${profile.profileId}]] in a garden`,
        base_model: 'base-c-2',
      }),
    );

    const sent = geminiImages(before);
    expect(sent).toHaveLength(1 + CROPS_PER_PROFILE);
    expect(sent[0]?.equals(turned)).toBe(true);
    const stored = await Promise.all(keys.map(async (key) => (await services().objects.get(key))?.body as Buffer));
    const sentRanks = sent.slice(1).map((image) => stored.findIndex((crop) => crop.equals(image)));
    expect(sentRanks).toEqual(closest);
    // Each crop sent is turned his way, and closer to his pose than any crop left behind.
    for (const rank of sentRanks) expect(poses[rank]?.yawDegrees).toBeGreaterThan(15);
    const farthestSent = Math.max(...sentRanks.map((rank) => poseDistance(poses[rank] as FacePose, face)));
    for (const rank of byDistance.slice(CROPS_PER_PROFILE))
      expect(poseDistance(poses[rank] as FacePose, face)).toBeGreaterThanOrEqual(farthestSent);
  });

  it('Quick Train keeps today’s set: at most 6 crops, best first, no poses', async () => {
    const account = await world.runtime.newAccount();
    const profile = await trained(account.apiKey, account.accountId, 'fast');
    expect(profile.face?.referenceKeys.length).toBeGreaterThanOrEqual(3);
    expect(profile.face?.referenceKeys.length).toBeLessThanOrEqual(6);
    expect(profile.face?.referencePoses).toBeUndefined();
  });
});
