/**
 * The sandbox trainer: the identity artefact is the perceptual signature of the photos (signature.ts),
 * which the sandbox engine recognises the subject by; its durations are in sandbox-durations.ts.
 */
import { sandboxTrainingSeconds } from './sandbox-durations';
import { profileSignature } from './signature';

export const sandboxTrainer = {
  durationSeconds: sandboxTrainingSeconds,
  train: async (photos: Buffer[]) => ({ signature: await profileSignature(photos) }),
};
