/**
 * How the face analyser treats pets, on the committed animal fixtures: whether each cat or dog face is found
 * and kind `animal`, how Chelsea's altered copies score against her original, and how other animals score
 * against her. Run: `npx tsx bench/faces/pets.ts`. The README's "Pets" paragraph quotes its output.
 */
import sharp from 'sharp';
import { ensureFaceModels } from '../../bin/faces/build-models';
import { createOnnxFaceAnalyzer } from '../../functions/adapters/faces/onnx-face-analyzer';
import { cosine } from '../../functions/domain/faces';
import { fixture } from './dataset';

const ALTERATIONS: Record<string, (image: Buffer) => Promise<Buffer>> = {
  original: async (image) => image,
  flip: (image) => sharp(image).flop().jpeg().toBuffer(),
  blur: (image) => sharp(image).blur(1.5).jpeg().toBuffer(),
  small: (image) => sharp(image).resize({ width: 300 }).jpeg({ quality: 40 }).toBuffer(),
  greyscale: (image) => sharp(image).greyscale().jpeg().toBuffer(),
  rotate12: (image) => sharp(image).rotate(12, { background: '#888888' }).jpeg().toBuffer(),
};

/** Heads tilted further than the photos above: FaceMesh reads the crop upright first (thresholds.ts). */
const TILTS: Record<string, (image: Buffer) => Promise<Buffer>> = {
  rotate25: (image) => sharp(image).rotate(25, { background: '#888888' }).jpeg().toBuffer(),
  rotate40: (image) => sharp(image).rotate(-40, { background: '#888888' }).jpeg().toBuffer(),
};

const PEOPLE_PHOTOS = ['astronaut.jpg', 'man-a.jpg', 'man-b.jpg', 'messi5.jpg', 'three-men.jpg', 'yale-lightings.jpg']
  .concat([1, 2, 3, 4, 5, 6].map((n) => `group-sample${n}.jpg`))
  .concat(['facematch-man.jpg', 'man-three-times.jpg']);

const main = async () => {
  ensureFaceModels();
  const analyzer = createOnnxFaceAnalyzer();
  const found: Array<{ file: string; alteration: string; kind: string; embedding: number[] }> = [];
  for (const file of ['cat-chelsea.jpg', 'kittens.jpg', 'dog-and-cats.jpg']) {
    for (const [alteration, alter] of Object.entries(ALTERATIONS)) {
      const faces = await analyzer.analyze(await alter(fixture(file)));
      const described = faces.map(
        (f) => `${f.kind} ${Math.round(f.box.width)} px (mesh ${f.faceConfidence.toFixed(3)})`,
      );
      console.log(`${file} ${alteration}: ${described.join(', ') || 'no face'}`);
      for (const face of faces) found.push({ file, alteration, kind: face.kind, embedding: face.embedding });
    }
  }
  const chelsea = found.filter((face) => face.file === 'cat-chelsea.jpg');
  const original = chelsea.find((face) => face.alteration === 'original');
  if (!original) throw new Error('Chelsea was not found');
  const score = (face: (typeof found)[number]) => cosine(original.embedding, face.embedding).toFixed(2);
  console.log(
    `Chelsea's copies against her original: ${chelsea
      .filter((f) => f !== original)
      .map((f) => `${f.alteration} ${score(f)}`)
      .join(', ')}`,
  );
  const others = found.filter((face) => face.file !== 'cat-chelsea.jpg');
  console.log(
    `Other animals against Chelsea: ${others.map((f) => `${f.file} ${f.alteration} ${score(f)}`).join(', ') || 'none found'}`,
  );
  console.log(`Person faces among the animal detections: ${found.filter((f) => f.kind === 'person').length}`);

  const kinds = (faces: readonly { kind: string }[]) =>
    ['person', 'animal'].map((kind) => `${faces.filter((f) => f.kind === kind).length} ${kind}`).join(', ');
  const tiltedAnimals = [];
  for (const file of ['cat-chelsea.jpg', 'kittens.jpg', 'dog-and-cats.jpg'])
    for (const tilt of Object.values(TILTS)) tiltedAnimals.push(...(await analyzer.analyze(await tilt(fixture(file)))));
  console.log(`Animal photos tilted 25° and 40°: ${kinds(tiltedAnimals)}`);
  const tiltedPeople = [];
  for (const file of PEOPLE_PHOTOS)
    for (const tilt of Object.values(TILTS)) tiltedPeople.push(...(await analyzer.analyze(await tilt(fixture(file)))));
  console.log(`People photos tilted 25° and 40°: ${kinds(tiltedPeople)}`);
};

void main();
