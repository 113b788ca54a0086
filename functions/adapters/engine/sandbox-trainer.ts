/**
 * The sandbox trainer: the identity artefact is the perceptual signature of the photos (signature.ts),
 * which the sandbox engine recognises the subject by. Its durations follow the spec: Quick Train about
 * 3 minutes, Full Train about 8 minutes, growing with the photo count (the workflow scales them by
 * configuration, locally and in tests).
 */
import type { TrainingTier } from '../../domain/profiles/profile';
import { profileSignature } from './signature';

const QUICK_SECONDS = 180;
const FULL_BASE_SECONDS = 360;
const FULL_SECONDS_PER_PHOTO = 6;

export const sandboxTrainer = {
  durationSeconds: (tier: TrainingTier, photoCount: number): number =>
    tier === 'fast' ? QUICK_SECONDS : FULL_BASE_SECONDS + FULL_SECONDS_PER_PHOTO * photoCount,
  train: async (photos: Buffer[]) => ({ signature: await profileSignature(photos) }),
};
