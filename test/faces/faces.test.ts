/**
 * @jest-environment ./test/faces/onnx-environment.js
 *
 * The face analyser on real photos (test/fixtures/faces/SOURCES.md) with the real models: detection,
 * the person/animal split, recognition at the calibrated thresholds, and crops.
 */
import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { createOnnxFaceAnalyzer } from '../../functions/adapters/faces/onnx-face-analyzer';
import {
  buildTemplate,
  consistency,
  cosine,
  type DetectedFace,
  MATCH_THRESHOLD,
  matchRules,
  recognise,
} from '../../functions/domain/faces';

const analyzer = createOnnxFaceAnalyzer();
const rules = matchRules(analyzer.modelId);
const photo = (name: string) => fs.readFileSync(path.join(__dirname, '..', 'fixtures', 'faces', name));
const facesOf = async (name: string) => analyzer.analyze(photo(name));
const profile = (profileId: string, faces: DetectedFace[]) => ({
  profileId,
  template: buildTemplate(analyzer.modelId, faces),
});

/** Two photos side by side on one canvas: one output with both people in it. */
const sideBySide = async (left: string, right: string): Promise<Buffer> => {
  const height = 512;
  const [a, b] = await Promise.all([left, right].map((name) => sharp(photo(name)).resize({ height }).toBuffer()));
  const widthOf = async (image: Buffer) => (await sharp(image).metadata()).width ?? 0;
  const [widthA, widthB] = await Promise.all([widthOf(a), widthOf(b)]);
  return sharp({ create: { width: widthA + widthB, height, channels: 3, background: '#000' } })
    .composite([
      { input: a, left: 0, top: 0 },
      { input: b, left: widthA, top: 0 },
    ])
    .jpeg()
    .toBuffer();
};

describe('the ONNX face analyser', () => {
  it('names its weights and pipeline', () => {
    expect(analyzer.modelId).toBe('human-faceres-3.3.6/b2');
  });

  it('finds the five people of a group photo', async () => {
    const faces = await facesOf('group-sample5.jpg');
    expect(faces.map((face) => face.kind)).toEqual(['person', 'person', 'person', 'person', 'person']);
    for (const face of faces) {
      expect(face.embedding).toHaveLength(1024);
      expect(Math.hypot(...face.embedding)).toBeCloseTo(1, 5);
      expect(face.landmarks).toHaveLength(6);
      expect(face.box.width).toBeGreaterThan(80);
    }
  });

  it('finds a frontal portrait looking ahead, sharp, in the right place', async () => {
    const [astronaut, ...others] = await facesOf('astronaut.jpg');
    expect(others).toEqual([]);
    expect(Math.abs(astronaut.yawDegrees)).toBeLessThan(15);
    // Her face lies in the upper middle of the 512×512 portrait.
    expect(astronaut.box.x).toBeGreaterThan(150);
    expect(astronaut.box.x + astronaut.box.width).toBeLessThan(300);
    expect(astronaut.box.y).toBeLessThan(150);
    const [blurred] = await analyzer.analyze(await sharp(photo('astronaut.jpg')).blur(4).jpeg().toBuffer());
    expect(blurred.sharpness).toBeLessThan(astronaut.sharpness / 4);
  });

  it('recognises the same man under another lighting, counted once', async () => {
    const [first, second, third] = await facesOf('yale-lightings.jpg');
    expect(cosine(first.embedding, second.embedding)).toBeGreaterThanOrEqual(MATCH_THRESHOLD);
    const candidates = [profile('yale', [first, second]), profile('astronaut', await facesOf('astronaut.jpg'))];
    expect(recognise([[third]], candidates, rules)).toEqual({ yale: 1 });
  });

  it('recognises the same man in two copies of a photo and Messi in a different photo', async () => {
    const [copyA, copyB] = await facesOf('man-three-times.jpg');
    expect(cosine(copyA.embedding, copyB.embedding)).toBeGreaterThanOrEqual(MATCH_THRESHOLD);
    const [messi] = await facesOf('messi5.jpg');
    const [messiElsewhere] = await facesOf('messi-face.jpg');
    expect(cosine(messi.embedding, messiElsewhere.embedding)).toBeGreaterThanOrEqual(MATCH_THRESHOLD);
  });

  it('embeds a face the same whatever its colours: a warm tint, a channel grade, grey', async () => {
    // Without the grey crop these read 0.926-0.976 on the same images; with it 0.971-0.989.
    for (const name of ['man-a.jpg', 'man-b.jpg']) {
      const [original] = await facesOf(name);
      const versions = [
        sharp(photo(name)).tint('#c08040'),
        sharp(photo(name)).linear([1.3, 1.0, 0.7], [0, 0, 20]),
        sharp(photo(name)).greyscale(),
      ];
      for (const version of versions) {
        const [face] = await analyzer.analyze(await version.jpeg({ quality: 95 }).toBuffer());
        expect(cosine(face.embedding, original.embedding)).toBeGreaterThan(0.965);
      }
    }
  });

  it('does not recognise different people', async () => {
    const [manA] = await facesOf('man-a.jpg');
    const [manB] = await facesOf('man-b.jpg');
    const [astronaut] = await facesOf('astronaut.jpg');
    const group = await facesOf('group-sample6.jpg');
    const candidates = [profile('man-a', [manA]), profile('astronaut', [astronaut])];
    expect(recognise([[manB], group], candidates, rules)).toEqual({});
  });

  it('counts two people in one output', async () => {
    const output = await analyzer.analyze(await sideBySide('astronaut.jpg', 'man-a.jpg'));
    expect(output).toHaveLength(2);
    const [astronaut] = await facesOf('astronaut.jpg');
    const [manA] = await facesOf('man-a.jpg');
    const [manB] = await facesOf('man-b.jpg');
    const candidates = [profile('astronaut', [astronaut]), profile('man-a', [manA]), profile('man-b', [manB])];
    expect(recognise([output], candidates, rules)).toEqual({ astronaut: 1, 'man-a': 1 });
  });

  it("sees a cat's face as an animal and never counts it for a person", async () => {
    const [cat, ...others] = await facesOf('cat-chelsea.jpg');
    expect(others).toEqual([]);
    expect(cat.kind).toBe('animal');
    const people = [
      profile('astronaut', await facesOf('astronaut.jpg')),
      profile('yale', await facesOf('yale-lightings.jpg')),
    ];
    expect(recognise([[cat]], people, { ...rules, threshold: 0, margin: 0 })).toEqual({});
    expect(recognise([[cat]], [...people, profile('chelsea', [cat])], rules)).toEqual({ chelsea: 1 });
  });

  it('sees people whose heads are tilted 40° as people, and a tilted cat as an animal', async () => {
    const tilt = (name: string, degrees: number) =>
      sharp(photo(name)).rotate(degrees, { background: '#888888' }).jpeg().toBuffer();
    const people = await analyzer.analyze(await tilt('group-sample4.jpg', -40));
    expect(people.length).toBeGreaterThanOrEqual(3);
    expect(people.map((face) => face.kind)).toEqual(people.map(() => 'person'));
    const cats = await analyzer.analyze(await tilt('cat-chelsea.jpg', 25));
    expect(cats.map((face) => face.kind)).toEqual(['animal']);
  });

  it('finds no person in a photo of a dog and cats', async () => {
    expect((await facesOf('dog-and-cats.jpg')).filter((face) => face.kind === 'person')).toEqual([]);
  });

  it('flags the photo of someone else in a training set', async () => {
    const yale = await facesOf('yale-lightings.jpg');
    const [manB] = await facesOf('man-b.jpg');
    expect(consistency([yale[0], yale[1], manB, yale[2]])).toMatchObject({ outliers: [2], hasMajority: true });
  });

  it('crops a face to an aligned JPEG of the size asked', async () => {
    const [astronaut] = await facesOf('astronaut.jpg');
    const crop = await analyzer.crop(photo('astronaut.jpg'), astronaut, 160);
    expect(await sharp(crop).metadata()).toMatchObject({ format: 'jpeg', width: 160, height: 160 });
    const [again] = await analyzer.analyze(crop);
    expect(cosine(again.embedding, astronaut.embedding)).toBeGreaterThanOrEqual(MATCH_THRESHOLD);
  });
});
