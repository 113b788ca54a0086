import type { DetectedFace, FaceAnalyzer } from '../../../../functions/domain/faces';
import type { Profile, ProfileFace } from '../../../../functions/domain/profiles/profile';
import { validatePhotos } from '../../../../functions/domain/profiles/training';
import { aProfile } from '../../../support/builders/profiles';

/** A face of a subject: `subject` picks the direction of its embedding, `variant` moves it a little. */
const aFace = (subject: number, variant: number, changes: Partial<DetectedFace> = {}): DetectedFace => {
  const embedding = Array.from(
    { length: 8 },
    (_, index) => (index === subject ? 1 : 0) + (index === 7 ? variant * 0.05 : 0),
  );
  const norm = Math.hypot(...embedding);
  return {
    box: { x: 10, y: 10, width: 200, height: 200 },
    landmarks: [],
    detectorScore: 0.9,
    kind: 'person',
    faceConfidence: 0.99,
    embedding: embedding.map((value) => value / norm),
    sharpness: 0.05,
    yawDegrees: 0,
    pitchDegrees: 0,
    luminance: 0.5,
    ...changes,
  };
};

/** Each photo's bytes name it; the fake analyser answers the faces set for that name. */
const fakeAnalyzer = (facesByPhoto: Record<string, DetectedFace[]>): FaceAnalyzer => ({
  modelId: 'test-model/1',
  analyze: async (image) => facesByPhoto[image.toString()] ?? [],
  crop: async (image) => Buffer.from(`crop of ${image.toString()}`),
});

const setup = (
  facesByPhoto: Record<string, DetectedFace[]>,
  options: { stillThere?: boolean; tier?: Profile['trainingTier'] } = {},
) => {
  const profile = aProfile('acc_1', { profileId: 'prf_1', status: 'VALIDATING', trainingTier: options.tier ?? 'fast' });
  const calls: string[] = [];
  let patched: Partial<Profile> | undefined;
  const deps: Parameters<typeof validatePhotos>[0] = {
    clock: () => 0,
    profiles: {
      get: async () => profile,
      patch: async (_a, _p, changes) => {
        patched = changes;
        return options.stillThere ?? true;
      },
    },
    decodePhoto: async (url) => ({ data: Buffer.from(url), format: 'jpeg', width: 600, height: 600 }),
    faces: fakeAnalyzer(facesByPhoto),
    photos: {
      savePhoto: async (_a, _p, index, photo) => {
        calls.push(`photo ${index}: ${photo.data.toString()}`);
        return `photos/${index}`;
      },
      saveReference: async (_a, _p, rank, jpeg) => {
        calls.push(`reference ${rank}: ${jpeg.toString()}`);
        return `references/${rank}`;
      },
      savePicture: async (_a, _p, jpeg) => {
        calls.push(`picture: ${jpeg.toString()}`);
        return 'picture';
      },
      saveTemplate: async (_a, _p, template) => {
        calls.push(`template of ${template.embeddings.length}`);
        return 'template.json';
      },
      load: async () => [],
      deleteAll: async () => {
        calls.push('deleteAll');
      },
    },
    settings: { trainingDelaySeconds: 0, photoConcurrency: 2 },
  };
  return { deps, calls, patched: () => patched };
};

const urls = (count: number) => Array.from({ length: count }, (_, index) => `p${index}`);
const step = (count: number) => ({ accountId: 'acc_1', profileId: 'prf_1', imageUrls: urls(count) });
/** Five photos of subject 0, each slightly different. */
const goodSet = () => Object.fromEntries(urls(5).map((url, index) => [url, [aFace(0, index)]]));

describe('training a face template', () => {
  it('builds the template from a good set and moves the profile to QUEUING with its face', async () => {
    const { deps, calls, patched } = setup(goodSet());
    expect(await validatePhotos(deps, step(5))).toEqual({ ok: true, photoCount: 5 });
    const face = patched()?.face as ProfileFace;
    expect(face.modelId).toBe('test-model/1');
    expect(face.kind).toBe('person');
    expect(face.referenceKeys).toHaveLength(5);
    expect(Math.hypot(...face.mean)).toBeCloseTo(1, 6);
    expect(patched()).toMatchObject({ status: 'QUEUING', pictureKey: 'picture', photoNotes: [] });
    expect(calls).toContain('template of 5');
    expect(calls.filter((call) => call.startsWith('photo '))).toHaveLength(5);
    expect(calls).not.toContain('deleteAll');
  });

  it('keeps at most six reference faces, the sharpest frontal one also the picture', async () => {
    const faces = Object.fromEntries(urls(8).map((url, index) => [url, [aFace(0, index, { sharpness: 0.01 })]]));
    faces.p5 = [aFace(0, 5, { sharpness: 0.09 })];
    const { deps, calls, patched } = setup(faces);
    await validatePhotos(deps, step(8));
    expect(patched()?.face?.referenceKeys).toHaveLength(6);
    expect(calls).toContain('picture: crop of p5');
    expect(calls).toContain('reference 0: crop of p5');
  });

  it('Full Train keeps a bank of eight that covers the poses, each crop’s pose stored beside its key', async () => {
    // Twelve sharp frontal photos, and four of the subject turned or tilted, less sharp.
    const faces = Object.fromEntries(urls(16).map((url, index) => [url, [aFace(0, index % 4, { sharpness: 0.09 })]]));
    const turns = [
      { yawDegrees: 35, pitchDegrees: 0 },
      { yawDegrees: -35, pitchDegrees: 0 },
      { yawDegrees: 0, pitchDegrees: 20 },
      { yawDegrees: 0, pitchDegrees: -20, luminance: 0.2 },
    ];
    turns.forEach((turn, offset) => {
      faces[`p${12 + offset}`] = [aFace(0, offset, { sharpness: 0.02, ...turn })];
    });
    const { deps, calls, patched } = setup(faces, { tier: 'standard' });
    await validatePhotos(deps, step(16));
    const face = patched()?.face as ProfileFace;
    expect(face.referenceKeys).toHaveLength(8);
    expect(face.referencePoses).toHaveLength(8);
    for (const turn of turns) expect(face.referencePoses).toContainEqual(expect.objectContaining(turn));
    // Each pose is the one of the crop stored under its key.
    const rank = face.referencePoses?.findIndex((pose) => pose.yawDegrees === 35) ?? -1;
    expect(calls).toContain(`reference ${rank}: crop of p12`);
    expect(calls).toContain('picture: crop of p0');
  });

  it('Quick Train keeps today’s best faces and records no poses', async () => {
    const { deps, patched } = setup(goodSet());
    await validatePhotos(deps, step(5));
    expect(patched()?.face?.referencePoses).toBeUndefined();
  });

  it('drops and reports a photo of someone else', async () => {
    const faces = goodSet();
    faces.p2 = [aFace(3, 0)];
    const { deps, calls, patched } = setup(faces);
    expect(await validatePhotos(deps, step(5))).toEqual({ ok: true, photoCount: 5 });
    expect(patched()?.photoNotes).toEqual(['image_urls[2] shows someone other than the rest of the set.']);
    expect(calls).toContain('template of 4');
    expect(calls).not.toContain('photo 0: p2');
    expect(calls.some((call) => call.endsWith(': p2'))).toBe(false);
  });

  it.each([
    ['no face', [], 'shows no face'],
    ['two faces', [aFace(0, 9), aFace(4, 0)], 'shows 2 faces'],
    ['a small face', [aFace(0, 9, { box: { x: 0, y: 0, width: 60, height: 60 } })], 'too small (60 px'],
    ['a blurred face', [aFace(0, 9, { sharpness: 0.001 })], 'too blurry'],
    ['a face turned away', [aFace(0, 9, { yawDegrees: -70 })], 'turned away (70°'],
  ])('reports a photo with %s and trains from the rest', async (_case, photoFaces, reason) => {
    const faces = { ...goodSet(), p5: photoFaces };
    const { deps, patched } = setup(faces);
    expect(await validatePhotos(deps, step(6))).toEqual({ ok: true, photoCount: 6 });
    expect(patched()?.photoNotes).toEqual([expect.stringContaining(reason)]);
    expect(patched()?.photoNotes?.[0]).toMatch(/^image_urls\[5\]/);
  });

  it('ends in ERROR naming each photo when too few are usable for the tier', async () => {
    const faces = { p0: [aFace(0, 0)], p1: [aFace(0, 1)], p2: [aFace(0, 2)] };
    const { deps, calls, patched } = setup(faces);
    const outcome = await validatePhotos(deps, step(5));
    expect(outcome.ok).toBe(false);
    const message = outcome.ok ? '' : outcome.message;
    expect(message).toContain('Only 3 of 5 photos');
    expect(message).toContain('needs 4');
    expect(message).toContain('image_urls[3] shows no face.');
    expect(message).toContain('image_urls[4] shows no face.');
    expect(patched()).toBeUndefined();
    expect(calls.at(-1)).toBe('deleteAll');
  });

  it('removes what it stored when the profile was deleted meanwhile', async () => {
    const { deps, calls } = setup(goodSet(), { stillThere: false });
    expect(await validatePhotos(deps, step(5))).toEqual({ ok: false, message: 'The profile was deleted.' });
    expect(calls.at(-1)).toBe('deleteAll');
  });
});
