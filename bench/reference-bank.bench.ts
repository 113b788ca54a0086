/**
 * The pose-matched reference bank (docs/identity.md, "The reference bank"): are the references a request
 * sends closer in pose to the subject's face in the input than today's? On the fixture photos of the
 * one person photographed in many poses (the facematch man's nine photos and their mirrors: 18 photos,
 * yaw −34° to 44°), leave one photo out at a time (with its mirror, the same picture turned the other
 * way): the other 16 train the bank as Full Train does (photo-faces.ts judges them, reference-bank.ts
 * chooses up to 8), and the photo left out and its mirror are the inputs of two edits. For each input:
 * - chosen: the CROPS_PER_PROFILE references reference-choice.ts sends (closest to the input's pose);
 * - today: the CROPS_PER_PROFILE best by referenceScore (what every profile sent before the bank);
 * and the mean pose distance (faces/pose.ts: the angle in yaw and pitch) between each sent reference and
 * the input's face. Also, how close the nearest kept reference is (the bank of 8 against today's 6 best),
 * and the generate order's first two (a frontal and a three-quarter crop). About 10 s (18 analyses).
 */
import { createOnnxFaceAnalyzer } from '../functions/adapters/faces/onnx-face-analyzer';
import { CROPS_PER_PROFILE } from '../functions/domain/engine/identity-prompt';
import { referencesInOrder } from '../functions/domain/engine/reference-choice';
import { type DetectedFace, type FacePose, poseDistance, poseOf } from '../functions/domain/faces';
import { judgePhotoFaces, referenceScore } from '../functions/domain/profiles/photo-faces';
import { chooseReferenceBank } from '../functions/domain/profiles/reference-bank';
import { MAX_REFERENCE_IMAGES } from '../functions/domain/profiles/training';
import { FACEMATCH_TILES, facematchPhoto } from '../test/support/photos';
import { type BenchResult, progress, round } from './harness';

export const name = 'reference-bank';

interface Photo {
  tile: number;
  mirrored: boolean;
  face: DetectedFace;
}

const mean = (values: readonly number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;
const meanDistance = (poses: readonly FacePose[], to: FacePose) => mean(poses.map((pose) => poseDistance(pose, to)));

export const run = async (): Promise<BenchResult[]> => {
  const analyzer = createOnnxFaceAnalyzer();
  progress(name, `analysing ${2 * FACEMATCH_TILES} photos`);
  const photos: Photo[] = [];
  for (let tile = 0; tile < FACEMATCH_TILES; tile += 1)
    for (const mirrored of [false, true]) {
      const faces = await analyzer.analyze(await facematchPhoto(tile, mirrored));
      const [face] = faces;
      if (faces.length !== 1 || !face)
        throw new Error(`tile ${tile}${mirrored ? ' mirrored' : ''}: ${faces.length} faces`);
      photos.push({ tile, mirrored, face });
    }

  const chosenDistances: number[] = [];
  const todayDistances: number[] = [];
  const nearestBank: number[] = [];
  const nearestToday: number[] = [];
  const closer: boolean[] = [];
  const generateFirst: number[] = [];
  const generateSecond: number[] = [];
  for (let left = 0; left < FACEMATCH_TILES; left += 1) {
    const training = photos.filter((photo) => photo.tile !== left);
    const judged = judgePhotoFaces(training.map((photo) => [photo.face]));
    const usable = training.filter((_, index) => judged[index]?.problem === null);
    const bank = chooseReferenceBank(
      usable.map((photo) => ({ pose: poseOf(photo.face), quality: referenceScore(photo.face) })),
    ).map((index) => usable[index] as Photo);
    const best = [...usable].sort((a, b) => referenceScore(b.face) - referenceScore(a.face));
    const today = best.slice(0, CROPS_PER_PROFILE).map((photo) => poseOf(photo.face));
    const todaySet = best.slice(0, MAX_REFERENCE_IMAGES).map((photo) => poseOf(photo.face));
    const keys = bank.map((_, index) => String(index));
    const face = { modelId: 'bench', kind: 'person' as const, mean: [], referenceKeys: keys };
    const bankPoses = bank.map((photo) => poseOf(photo.face));
    const generate = referencesInOrder({ face: { ...face, referencePoses: bankPoses } }).map(
      (key) => bankPoses[Number(key)] as FacePose,
    );
    generateFirst.push(Math.abs(generate[0]?.yawDegrees ?? Number.NaN));
    generateSecond.push(Math.abs(generate[1]?.yawDegrees ?? Number.NaN));
    for (const input of photos.filter((photo) => photo.tile === left)) {
      const inputPose = poseOf(input.face);
      const sent = referencesInOrder({ face: { ...face, referencePoses: bankPoses }, inputPose })
        .slice(0, CROPS_PER_PROFILE)
        .map((key) => bankPoses[Number(key)] as FacePose);
      const chosen = meanDistance(sent, inputPose);
      const before = meanDistance(today, inputPose);
      chosenDistances.push(chosen);
      todayDistances.push(before);
      closer.push(chosen <= before);
      nearestBank.push(Math.min(...bankPoses.map((pose) => poseDistance(pose, inputPose))));
      nearestToday.push(Math.min(...todaySet.map((pose) => poseDistance(pose, inputPose))));
    }
  }

  const inputs = chosenDistances.length;
  const notes = `${inputs} inputs: each of the facematch man's 9 photos and its mirror, left out of a Full Train set of the other 16`;
  return [
    {
      metric: 'reference_bank.sent_pose_distance.chosen_mean_deg',
      value: round(mean(chosenDistances), 1),
      unit: '°',
      target: '< today',
      pass: mean(chosenDistances) < mean(todayDistances),
      notes: `mean angle (yaw, pitch) between each of the ${CROPS_PER_PROFILE} references sent and the input's face; ${notes}`,
    },
    {
      metric: 'reference_bank.sent_pose_distance.today_mean_deg',
      value: round(mean(todayDistances), 1),
      unit: '°',
      notes: `the ${CROPS_PER_PROFILE} best by referenceScore, as sent before the bank`,
    },
    {
      metric: 'reference_bank.sent_pose_distance.inputs_not_worse',
      value: closer.filter(Boolean).length,
      unit: `of ${inputs}`,
      notes: 'inputs whose chosen references are on average no further than today’s',
    },
    {
      metric: 'reference_bank.nearest_reference.bank_mean_deg',
      value: round(mean(nearestBank), 1),
      unit: '°',
      notes: 'the closest crop the bank of 8 holds to each input',
    },
    {
      metric: 'reference_bank.nearest_reference.today_mean_deg',
      value: round(mean(nearestToday), 1),
      unit: '°',
      notes: `the closest crop of today's ${MAX_REFERENCE_IMAGES} best to each input`,
    },
    {
      metric: 'reference_bank.generate.first_abs_yaw_deg',
      value: round(mean(generateFirst), 1),
      unit: '°',
      notes: 'generate (no input face): |yaw| of the first reference sent (the frontal one), mean over the 9 banks',
    },
    {
      metric: 'reference_bank.generate.second_abs_yaw_deg',
      value: round(mean(generateSecond), 1),
      unit: '°',
      notes: 'generate: |yaw| of the second reference sent (the three-quarter one, aimed at 30°)',
    },
  ];
};
