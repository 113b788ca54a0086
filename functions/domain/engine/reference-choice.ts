/**
 * Read first: which of a subject's reference crops a request sends, and in which order. Every engine
 * takes them from here (identity-prompt.ts for the hosted models, the HTTP engine, the sandbox), so the
 * number a provider gets per subject stays what its limits were (CROPS_PER_PROFILE one by one, at most
 * MAX_REFERENCES_PER_SUBJECT in a contact sheet or to a backend); only which crops fill them changes.
 * - A profile whose crops have recorded poses (a Full Train bank: profiles/reference-bank.ts):
 *   - the subject's face was found in the input (edit, enhance, remix: `inputPose`, identity.ts): the
 *     crops closest in pose to it first (faces/pose.ts, poseDistance), the bank's order breaking ties;
 *   - otherwise (generate, or not found): a frontal crop first (the one closest to looking straight at the
 *     camera), then a three-quarter one (closest to THREE_QUARTER_YAW_DEGREES either side), then the rest
 *     in the bank's order (which covers the remaining poses first).
 * - A profile without poses (Quick Train, or trained before the bank): its crops best first, as before.
 */
import { type FacePose, type HeadPose, poseDistance } from '../faces';
import type { CandidateProfile } from './engine';

/** At most this many crops of one subject go into one contact sheet or to a backend: Quick Train's whole set. */
export const MAX_REFERENCES_PER_SUBJECT = 6;

/** The yaw of a three-quarter view: half-way between frontal and profile, turned to either side. */
export const THREE_QUARTER_YAW_DEGREES = 30;

const FRONTAL: HeadPose = { yawDegrees: 0, pitchDegrees: 0 };

const recordedPoses = (face: NonNullable<CandidateProfile['face']>): FacePose[] | undefined =>
  face.referencePoses && face.referencePoses.length === face.referenceKeys.length && face.referenceKeys.length > 0
    ? face.referencePoses
    : undefined;

/** Positions of `poses` by distance to `target`, closest first (stable: the bank's order breaks ties). */
const byDistanceTo = (poses: readonly HeadPose[], target: HeadPose): number[] =>
  [...poses.keys()].sort((a, b) => poseDistance(poses[a], target) - poseDistance(poses[b], target) || a - b);

/** The candidate's reference keys in the order to send them (all of them: callers take what their limit allows). */
export const referencesInOrder = (candidate: Pick<CandidateProfile, 'face' | 'inputPose'>): string[] => {
  const face = candidate.face;
  if (!face) return [];
  const poses = recordedPoses(face);
  if (!poses) return [...face.referenceKeys];
  if (candidate.inputPose) return byDistanceTo(poses, candidate.inputPose).map((index) => face.referenceKeys[index]);
  const [frontal] = byDistanceTo(poses, FRONTAL);
  const threeQuarterDistance = (pose: HeadPose) =>
    Math.min(
      poseDistance(pose, { yawDegrees: THREE_QUARTER_YAW_DEGREES, pitchDegrees: 0 }),
      poseDistance(pose, { yawDegrees: -THREE_QUARTER_YAW_DEGREES, pitchDegrees: 0 }),
    );
  const threeQuarter = [...poses.keys()]
    .filter((index) => index !== frontal)
    .sort((a, b) => threeQuarterDistance(poses[a]) - threeQuarterDistance(poses[b]) || a - b)[0];
  const first = threeQuarter === undefined ? [frontal] : [frontal, threeQuarter];
  const rest = [...poses.keys()].filter((index) => !first.includes(index));
  return [...first, ...rest].map((index) => face.referenceKeys[index]);
};
