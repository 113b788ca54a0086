/**
 * `npx tsx bench/faces/calibrate.ts`: the genuine and impostor similarity distributions of the face
 * analyser on the committed fixtures and their alterations (dataset.ts), the threshold at a false accept
 * rate of 0.1 %, and the TAR/FAR of the thresholds in functions/domain/faces/thresholds.ts: the figures
 * quoted there. About a minute on one core. `--json` prints the figures as JSON.
 */

import type { FaceAnalyzer } from '../../functions/domain/faces';
import {
  buildTemplate,
  cosine,
  MATCH_MARGIN,
  MATCH_THRESHOLD,
  SAME_PERSON_THRESHOLD,
} from '../../functions/domain/faces';
import {
  buildDataset,
  type EvaluatedFace,
  fixture,
  isProbableSame,
  pairsOf,
  rateAtLeast,
  thresholdAtFar,
} from './dataset';

const round = (value: number, digits = 3) => Math.round(value * 10 ** digits) / 10 ** digits;

const quantiles = (values: readonly number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (fraction: number) => round(sorted[Math.min(sorted.length - 1, Math.floor(fraction * sorted.length))]);
  return {
    count: values.length,
    min: round(sorted[0]),
    p10: at(0.1),
    median: at(0.5),
    p90: at(0.9),
    max: round(sorted[sorted.length - 1]),
  };
};

/**
 * Recognition as `recognise` does it, probe by probe: each person face against templates built from every
 * other photo of each identity (its own photo's versions left out); accepted when its own identity wins
 * above the threshold and by the margin; falsely accepted when another identity does. Only identities
 * with several photos (Yale, Messi, the man shown three times) give genuine trials.
 */
const templateTrials = (faces: readonly EvaluatedFace[], threshold: number, margin: number) => {
  const people = faces.filter(({ face }) => face.kind === 'person');
  const identities = [...new Set(people.map(({ identity }) => identity))];
  let genuineTrials = 0;
  let accepted = 0;
  let falseAccepts = 0;
  let impostorTrials = 0;
  const marginLosses: string[] = [];
  for (const probe of people) {
    const scores = identities.flatMap((identity) => {
      if (isProbableSame(identity, probe.identity)) return [];
      const others = people.filter((face) => face.identity === identity && face.photo !== probe.photo);
      if (others.length === 0) return [];
      return [
        {
          identity,
          similarity: cosine(
            probe.face.embedding,
            buildTemplate(
              'calibration',
              others.map(({ face }) => face),
            ).mean,
          ),
        },
      ];
    });
    scores.sort((a, b) => b.similarity - a.similarity);
    const [best, second] = scores;
    const hasOwn = scores.some(({ identity }) => identity === probe.identity);
    if (hasOwn) genuineTrials += 1;
    impostorTrials += scores.length - (hasOwn ? 1 : 0);
    if (!best || best.similarity < threshold) continue;
    const clear = best.similarity - (second?.similarity ?? Number.NEGATIVE_INFINITY) >= margin;
    if (best.identity === probe.identity) {
      if (clear) accepted += 1;
      else marginLosses.push(`${probe.photo} ${probe.version}`);
    } else if (clear) falseAccepts += 1;
  }
  return {
    genuineTrials,
    tar: round(accepted / Math.max(1, genuineTrials)),
    impostorTrials,
    falseAccepts,
    far: round(falseAccepts / Math.max(1, impostorTrials), 5),
    lostToMargin: marginLosses,
  };
};

export type AccuracyReport = Awaited<ReturnType<typeof measureAccuracy>>;

/** Every figure of the calibration, for this script and the bench module. */
export const measureAccuracy = async (analyzer: FaceAnalyzer) => {
  const { faces, missed } = await buildDataset(analyzer);
  const pairs = pairsOf(faces);
  const atFar = thresholdAtFar(pairs.impostor, 0.001);
  const byVersion = Object.fromEntries(
    [...new Set(faces.map(({ version }) => version))].map((version) => {
      const scores = faces
        .filter((face) => face.version === version && face.face.kind === 'person')
        .map((face) => {
          const original = faces.find((other) => other.photo === face.photo && other.version === 'original');
          return original ? cosine(face.face.embedding, original.face.embedding) : Number.NaN;
        });
      const sharpness = faces.filter((face) => face.version === version).map(({ face }) => face.sharpness);
      return [version, { toOriginal: quantiles(scores), sharpness: quantiles(sharpness) }];
    }),
  );
  const [cat] = await analyzer.analyze(fixture('cat-chelsea.jpg'));
  const catToPeople = faces
    .filter(({ face }) => face.kind === 'person')
    .map(({ face }) => cosine(cat.embedding, face.embedding));
  const report = {
    modelId: analyzer.modelId,
    faces: faces.length,
    identities: new Set(faces.map(({ identity }) => identity)).size,
    missed,
    notPerson: faces.filter(({ face }) => face.kind !== 'person').map(({ photo, version }) => `${photo} ${version}`),
    genuine: quantiles(pairs.genuine),
    impostor: quantiles(pairs.impostor),
    probableSame: pairs.probableSame.length > 0 ? quantiles(pairs.probableSame) : null,
    pairs: {
      thresholdAtFar0_1pct: round(atFar),
      tarAtFar0_1pct: round(rateAtLeast(pairs.genuine, atFar)),
      atMatchThreshold: {
        threshold: MATCH_THRESHOLD,
        tar: round(rateAtLeast(pairs.genuine, MATCH_THRESHOLD)),
        far: round(rateAtLeast(pairs.impostor, MATCH_THRESHOLD), 5),
      },
      atSamePersonThreshold: {
        threshold: SAME_PERSON_THRESHOLD,
        tar: round(rateAtLeast(pairs.genuine, SAME_PERSON_THRESHOLD)),
        far: round(rateAtLeast(pairs.impostor, SAME_PERSON_THRESHOLD), 5),
      },
    },
    templates: templateTrials(faces, MATCH_THRESHOLD, MATCH_MARGIN),
    sweep: [0.55, 0.6, 0.65, 0.7, 0.75].map((threshold) => ({
      threshold,
      pairTar: round(rateAtLeast(pairs.genuine, threshold)),
      pairFar: round(rateAtLeast(pairs.impostor, threshold), 5),
      template: templateTrials(faces, threshold, MATCH_MARGIN),
    })),
    byVersion,
    cat: { kind: cat.kind, faceConfidence: round(cat.faceConfidence), toPeople: quantiles(catToPeople) },
  };
  return report;
};

if (require.main === module) {
  // Required here, not imported above: the bench module times the adapter's first import itself.
  const { ensureFaceModels } = require('../../bin/faces/build-models') as typeof import('../../bin/faces/build-models');
  ensureFaceModels();
  const { createOnnxFaceAnalyzer } =
    require('../../functions/adapters/faces/onnx-face-analyzer') as typeof import('../../functions/adapters/faces/onnx-face-analyzer');
  void measureAccuracy(createOnnxFaceAnalyzer()).then((report) => {
    if (process.argv.includes('--json')) console.log(JSON.stringify(report, null, 2));
    else console.dir(report, { depth: 4 });
  });
}
