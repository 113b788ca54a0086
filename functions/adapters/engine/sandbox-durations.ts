/**
 * How long the sandbox trainer takes, after the spec: Quick Train about 3 minutes, Full Train about
 * 8 minutes, growing with the photo count (the workflow scales them by configuration, locally and in
 * tests). Kept apart from the signature work so that StartTraining ships without sharp.
 */
import type { TrainingTier } from '../../domain/profiles/profile';

const QUICK_SECONDS = 180;
const FULL_BASE_SECONDS = 360;
const FULL_SECONDS_PER_PHOTO = 6;

export const sandboxTrainingSeconds = (tier: TrainingTier, photoCount: number): number =>
  tier === 'fast' ? QUICK_SECONDS : FULL_BASE_SECONDS + FULL_SECONDS_PER_PHOTO * photoCount;
