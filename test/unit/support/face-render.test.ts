/**
 * @jest-environment ./test/faces/onnx-environment.js
 *
 * The provider doubles' face renderer (test/support/providers/face-render.ts) and the identity bench's
 * arithmetic: a render never carries the reference crop's pixels, the same seed draws the same bytes, the
 * drift trigger draws someone else and the no-face trigger no one, all judged by the real analyser.
 */
import sharp from 'sharp';
import { ratesOf } from '../../../bench/identity.bench';
import { cosine, MATCH_THRESHOLD } from '../../../functions/domain/faces';
import { analyzer, facePhoto, facesIn } from '../../support/faces';
import {
  DOUBLE_TRIGGERS,
  FACE_TRANSFORMS,
  internalIdsIn,
  type RenderRequest,
  renderOutput,
  requestSeed,
} from '../../support/providers/face-render';

jest.setTimeout(120_000);

/** A reference crop as training stores it, and the template face it came from. */
const referenceOf = async (file: string, index = 0) => {
  const photo = facePhoto(file);
  const face = (await facesIn(photo))[index];
  if (!face) throw new Error(`no face ${index} in ${file}`);
  return { face, crop: await analyzer.crop(photo, face, 256) };
};

const render = (crop: Buffer, overrides: Partial<RenderRequest> = {}) =>
  renderOutput({
    width: 640,
    height: 480,
    format: 'png',
    seed: requestSeed('test', overrides.prompt ?? 'a portrait'),
    prompt: 'a portrait',
    inputs: [crop],
    ...overrides,
  });

/** Whether the crop's pixels appear unchanged anywhere in `image` (at its own size, aligned to any spot). */
const containsCrop = async (image: Buffer, crop: Buffer): Promise<boolean> => {
  const { data: big, info } = await sharp(image).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const { data: small, info: cropInfo } = await sharp(crop).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  // A 16 px patch from the crop's centre, searched exactly.
  const patch = 16;
  const [cx, cy] = [Math.floor(cropInfo.width / 2), Math.floor(cropInfo.height / 2)];
  const row = (buffer: Buffer, width: number, x: number, y: number) =>
    buffer.subarray((y * width + x) * 3, (y * width + x + patch) * 3);
  const first = row(small, cropInfo.width, cx, cy);
  const [r, g, b] = [first[0], first[1], first[2]];
  for (let y = 0; y + patch <= info.height; y += 1) {
    for (let x = 0; x + patch <= info.width; x += 1) {
      const at = (y * info.width + x) * 3;
      if (big[at] !== r || big[at + 1] !== g || big[at + 2] !== b) continue;
      if (!row(big, info.width, x, y).equals(first)) continue;
      let all = true;
      for (let dy = 1; dy < patch && all; dy += 1) {
        all = row(big, info.width, x, y + dy).equals(row(small, cropInfo.width, cx, cy + dy));
      }
      if (all) return true;
    }
  }
  return false;
};

describe('face renderer', () => {
  it('never returns the crop’s pixels, under any transform, and the face it draws is still the person', async () => {
    const { face, crop } = await referenceOf('astronaut.jpg');
    for (const transform of [...FACE_TRANSFORMS, undefined]) {
      const output = await render(crop, { transform, seed: requestSeed('never', transform) });
      expect([transform, await containsCrop(output.data, crop)]).toEqual([transform, false]);
      expect(output.faces).toHaveLength(1);
      if (transform === 'combined' || transform === 'small_64') continue; // measured by bench/identity.bench.ts
      const [found] = (await facesIn(output.data)).filter((detected) => detected.kind === 'person');
      expect(found && cosine(found.embedding, face.embedding)).toBeGreaterThan(MATCH_THRESHOLD);
    }
  });

  it('draws another photo of a person the fixtures have several of', async () => {
    const { crop } = await referenceOf('yale-lightings.jpg', 0);
    const output = await render(crop);
    expect(output.faces).toEqual([expect.objectContaining({ person: 'yale', drift: false })]);
    expect(output.faces[0]?.transforms[0]).toBe('other_photo');
  });

  it('draws the same bytes for the same seed, and others for another', async () => {
    const { crop } = await referenceOf('man-a.jpg');
    const [first, again, other] = await Promise.all([
      render(crop, { seed: 'seed-1' }),
      render(crop, { seed: 'seed-1' }),
      render(crop, { seed: 'seed-2' }),
    ]);
    expect(first.data.equals(again.data)).toBe(true);
    expect(first.data.equals(other.data)).toBe(false);
    expect(await sharp(first.data).metadata()).toMatchObject({ width: 640, height: 480, format: 'png' });
  });

  it('draws someone else on the drift trigger: a face that is not the reference’s person', async () => {
    const { face, crop } = await referenceOf('astronaut.jpg');
    const output = await render(crop, { prompt: `a portrait ${DOUBLE_TRIGGERS.drift}` });
    expect(output.faces).toEqual([expect.objectContaining({ drift: true })]);
    expect(output.faces[0]?.person).not.toBe('astronaut');
    const people = (await facesIn(output.data)).filter((detected) => detected.kind === 'person');
    expect(people.length).toBeGreaterThan(0);
    for (const found of people) expect(cosine(found.embedding, face.embedding)).toBeLessThan(MATCH_THRESHOLD);
  });

  it('drifts at driftRate: never at 0, always at 1', async () => {
    const { crop } = await referenceOf('man-b.jpg');
    const never = await render(crop, { driftRate: 0, seed: 'rate' });
    const always = await render(crop, { driftRate: 1, seed: 'rate' });
    expect(never.faces[0]?.drift).toBe(false);
    expect(always.faces[0]?.drift).toBe(true);
  });

  it('draws no detectable face on the no-face trigger', async () => {
    const { crop } = await referenceOf('astronaut.jpg');
    const output = await render(crop, { prompt: `an empty room ${DOUBLE_TRIGGERS.noFace}` });
    expect(output.faces).toEqual([]);
    expect(await facesIn(output.data)).toEqual([]);
  });

  it('draws the scene alone when no input shows a face', async () => {
    const flat = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#2244aa' } })
      .png()
      .toBuffer();
    const output = await render(flat);
    expect(output.faces).toEqual([]);
    expect(await facesIn(output.data)).toEqual([]);
  });
});

describe('internal ids in what a provider is sent', () => {
  it('finds [[ and prf_ in any string, not in image data', () => {
    expect(
      internalIdsIn({
        prompt: 'the person in reference image 1',
        image: ['binary:image/png:12:input-1.png'],
        contents: [{ parts: [{ text: 'fine' }, { inlineData: { mimeType: 'image/png', data: 'cHJmXw==' } }] }],
        image_urls: ['data:image/png;base64,AAAA'],
      }),
    ).toEqual([]);
    expect(internalIdsIn({ prompt: '[[prf_abc]] on a boat' })).toEqual(['/prompt: "[[prf_abc]] on a boat"']);
    expect(internalIdsIn({ image: ['binary:image/jpeg:9:prf_abc-0.jpg'] })).toHaveLength(1);
  });
});

describe('identity bench arithmetic', () => {
  it('counts a render recognised only when its best match is its own person at the threshold', () => {
    const trial = (person: string, scores: Record<string, number>) => ({
      person,
      transform: 'warp' as const,
      similarities: Object.entries(scores).map(([who, similarity]) => ({ person: who, similarity })),
    });
    expect(
      ratesOf(
        [
          trial('a', { a: 0.9, b: 0.3 }),
          trial('a', { a: 0.6, b: 0.3 }),
          trial('a', { a: 0.72, b: 0.8 }),
          trial('b', {}),
        ],
        0.7,
      ),
    ).toEqual({ renders: 4, recognised: 1, wrongPerson: 1 });
  });
});
