/**
 * Identity through the provider doubles' renderer (test/support/providers/face-render.ts): does the
 * analyser still recognise a person once a "model" has redrawn them? Every fixture person is enrolled as a
 * profile (template: the embedding of their first photo's face, as a training of that photo leaves it)
 * with that face's 256 px reference crop. For each transform, each person's crop is rendered into a
 * 768×768 output (RENDERS_PER_PERSON seeds, OTHER_PHOTO_RENDERS for other_photo) and the output's faces are matched against every enrolled
 * template at MATCH_THRESHOLD:
 * - `identity.renders.<t>.recognised_rate`: renders whose best match is the right profile at ≥ threshold;
 * - `identity.renders.<t>.wrong_person_rate`: renders whose best match is another person at ≥ threshold;
 * and over all renders, the cosine of each render's face to its own template (same person) and to every
 * other template (strangers). `other_photo` counts only the people with another photo in the fixtures
 * (the others would be drawn from their crop). A render where no person face is found counts as not
 * recognised (and not wrong). About a minute on one core.
 */
import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { createOnnxFaceAnalyzer } from '../functions/adapters/faces/onnx-face-analyzer';
import { cosine, type DetectedFace, MATCH_THRESHOLD } from '../functions/domain/faces';
import {
  FACE_TRANSFORMS,
  type FaceTransform,
  FIXTURE_PEOPLE,
  renderOutput,
  requestSeed,
} from '../test/support/providers/face-render';
import { type BenchResult, percentile, progress, round } from './harness';

export const name = 'identity';

const FIXTURES_DIR = path.join(__dirname, '..', 'test', 'fixtures', 'faces');
const RENDERS_PER_PERSON = 1;
/** other_photo has three people to draw from: more seeds each, so its rate rests on more than three renders. */
const OTHER_PHOTO_RENDERS = 4;
const OUTPUT_PX = 768;
/** The reference crops' size training stores (test/support/faces.ts). */
const REFERENCE_CROP_PX = 256;

interface Enrolled {
  person: string;
  template: number[];
  crop: Buffer;
  hasOtherPhoto: boolean;
}

export interface RenderTrial {
  person: string;
  transform: FaceTransform;
  /** Cosine of the render's face to each enrolled person's template; empty when no person face was found. */
  similarities: { person: string; similarity: number }[];
}

/** The face of a render that was drawn: the person face nearest the drawn box's centre. */
const drawnFace = (faces: DetectedFace[], box: { x: number; y: number; width: number; height: number }) => {
  const [cx, cy] = [box.x + box.width / 2, box.y + box.height / 2];
  const distance = (face: DetectedFace) =>
    Math.hypot(face.box.x + face.box.width / 2 - cx, face.box.y + face.box.height / 2 - cy);
  return faces.filter((face) => face.kind === 'person').sort((a, b) => distance(a) - distance(b))[0];
};

export interface TransformRates {
  renders: number;
  recognised: number;
  wrongPerson: number;
}

/** Recognised and wrong-person rates of `trials` at `threshold` (best match over all templates). */
export const ratesOf = (trials: readonly RenderTrial[], threshold: number): TransformRates => {
  let recognised = 0;
  let wrongPerson = 0;
  for (const trial of trials) {
    const best = [...trial.similarities].sort((a, b) => b.similarity - a.similarity)[0];
    if (!best || best.similarity < threshold) continue;
    if (best.person === trial.person) recognised += 1;
    else wrongPerson += 1;
  }
  return { renders: trials.length, recognised, wrongPerson };
};

/** Same-person and stranger similarities over `trials`. */
export const distributionsOf = (trials: readonly RenderTrial[]) => ({
  same: trials.flatMap((trial) => trial.similarities.filter(({ person }) => person === trial.person)),
  stranger: trials.flatMap((trial) => trial.similarities.filter(({ person }) => person !== trial.person)),
});

export const run = async (): Promise<BenchResult[]> => {
  sharp.concurrency(1);
  const analyzer = createOnnxFaceAnalyzer();
  progress(name, 'enrolling the fixture people');
  const enrolled: Enrolled[] = [];
  const analysed = new Map<string, DetectedFace[]>();
  for (const [person, photos] of Object.entries(FIXTURE_PEOPLE)) {
    const first = photos[0];
    if (!first) continue;
    const photo = fs.readFileSync(path.join(FIXTURES_DIR, first.file));
    let faces = analysed.get(first.file);
    if (!faces) {
      faces = await analyzer.analyze(photo);
      analysed.set(first.file, faces);
    }
    const face = faces[first.face];
    if (!face) throw new Error(`${first.file} has no face ${first.face}`);
    enrolled.push({
      person,
      template: face.embedding,
      crop: await analyzer.crop(photo, face, REFERENCE_CROP_PX),
      hasOtherPhoto: photos.length > 1,
    });
  }

  const trials: RenderTrial[] = [];
  let missed = 0;
  const startedAt = performance.now();
  for (const transform of FACE_TRANSFORMS) {
    progress(name, `rendering: ${transform}`);
    for (const subject of enrolled) {
      if (transform === 'other_photo' && !subject.hasOtherPhoto) continue;
      const renders = transform === 'other_photo' ? OTHER_PHOTO_RENDERS : RENDERS_PER_PERSON;
      for (let index = 0; index < renders; index += 1) {
        const rendered = await renderOutput({
          width: OUTPUT_PX,
          height: OUTPUT_PX,
          format: 'png',
          seed: requestSeed('bench', transform, subject.person, index),
          prompt: 'a portrait',
          inputs: [subject.crop],
          transform,
        });
        const drawn = rendered.faces[0];
        const face = drawn ? drawnFace(await analyzer.analyze(rendered.data), drawn.box) : undefined;
        if (!face) missed += 1;
        trials.push({
          person: subject.person,
          transform,
          similarities: face
            ? enrolled.map(({ person, template }) => ({ person, similarity: cosine(face.embedding, template) }))
            : [],
        });
      }
    }
  }
  const seconds = (performance.now() - startedAt) / 1000;

  const results: BenchResult[] = [];
  for (const transform of FACE_TRANSFORMS) {
    const mine = trials.filter((trial) => trial.transform === transform);
    const rates = ratesOf(mine, MATCH_THRESHOLD);
    const notFound = mine.filter((trial) => trial.similarities.length === 0).length;
    const people = new Set(mine.map((trial) => trial.person)).size;
    const notes = `${rates.renders} renders of ${people} people at ${OUTPUT_PX} px, threshold ${MATCH_THRESHOLD}; no face found in ${notFound}`;
    results.push(
      {
        metric: `identity.renders.${transform}.recognised_rate`,
        value: round(rates.recognised / Math.max(1, rates.renders), 3),
        unit: 'ratio',
        notes,
      },
      {
        metric: `identity.renders.${transform}.wrong_person_rate`,
        value: round(rates.wrongPerson / Math.max(1, rates.renders), 3),
        unit: 'ratio',
      },
    );
  }
  const { same, stranger } = distributionsOf(trials);
  const sameValues = same.map(({ similarity }) => similarity);
  const strangerValues = stranger.map(({ similarity }) => similarity);
  const sameP05 = percentile(sameValues, 0.05);
  const strangerMax = Math.max(...strangerValues);
  results.push(
    {
      metric: 'identity.renders.same_person.p05',
      value: round(sameP05, 3),
      unit: 'cosine',
      notes: `${sameValues.length} renders with a face, every transform; ${missed} renders with none`,
    },
    { metric: 'identity.renders.same_person.p50', value: round(percentile(sameValues, 0.5), 3), unit: 'cosine' },
    {
      metric: 'identity.renders.stranger.p95',
      value: round(percentile(strangerValues, 0.95), 3),
      unit: 'cosine',
      notes: `${strangerValues.length} render × other-template pairs`,
    },
    { metric: 'identity.renders.stranger.max', value: round(strangerMax, 3), unit: 'cosine' },
    {
      metric: 'identity.renders.margin',
      value: round(sameP05 - strangerMax, 3),
      unit: 'cosine',
      notes: `same_person.p05 − stranger.max; ${trials.length} renders in ${round(seconds, 1)} s`,
    },
  );
  return results;
};
