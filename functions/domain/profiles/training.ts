/**
 * Read first: the steps of the profile-training workflow (statemachines/profile-training.asl.json).
 *
 * VALIDATING: every photo is fetched through the SSRF guard and decoded (HEIC included, over 4096 px
 * resized); unreadable or too-small photos end the training in ERROR with a message naming each of
 * them. Good photos are stored as JPEG (PNG and the rest transcoded at quality 95) under the account's
 * prefix and the picture is chosen → QUEUING → IN_PROGRESS while the trainer works (the sandbox trainer
 * takes the spec's durations, scaled by configuration) → READY with the identity signature, settled in
 * the same transaction; or ERROR, released in the same transaction. Steps are safe to retry: status
 * writes are conditional on the profile existing, money moves through the ledger's guarded transitions.
 */
import type { LedgerPort } from '../billing/ledger';
import { DomainError } from '../errors';
import type { DecodedImage } from '../images/engine';
import { TRAINING_PRICE_MICROS } from '../images/pricing';
import type { Clock } from '../shared/clock';
import type { TrainingTier } from './profile';
import { defaultMessage, type ProfilesRepository } from './profiles';

export interface TrainingStep {
  accountId: string;
  profileId: string;
}

export interface TrainingDeps {
  clock: Clock;
  profiles: ProfilesRepository;
  ledger: LedgerPort;
  /** Fetches (SSRF-guarded) and decodes one photo; a DomainError says what is wrong with it. */
  decodePhoto(url: string, label: string): Promise<DecodedImage>;
  photos: {
    /** Stores a prepared photo as JPEG (transcoding when needed); returns its key. */
    savePhoto(accountId: string, profileId: string, index: number, photo: DecodedImage): Promise<string>;
    /** Makes and stores the profile picture from a photo; returns its key. */
    savePicture(accountId: string, profileId: string, photo: DecodedImage): Promise<string>;
    load(keys: string[]): Promise<Buffer[]>;
  };
  trainer: {
    /** How long training takes for the tier and photo count (spec: Quick ~3 min, Full ~8 min and more with more photos). */
    durationSeconds(tier: TrainingTier, photoCount: number): number;
    /** The identity artefact: a signature the engine recognises the subject by. */
    train(photos: Buffer[]): Promise<{ signature: string }>;
  };
  settings: { trainingTimeScale: number; photoConcurrency: number };
}

/** Photos smaller than this on their short side cannot teach a face. */
export const MIN_PHOTO_EDGE_PX = 256;

export type ValidationOutcome = { ok: true; photoCount: number } | { ok: false; message: string };

const mapLimited = async <T, R>(items: readonly T[], limit: number, fn: (item: T, index: number) => Promise<R>): Promise<R[]> => {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await fn(items[index]!, index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
};

export const validatePhotos = async (deps: TrainingDeps, step: TrainingStep & { imageUrls: string[] }): Promise<ValidationOutcome> => {
  const checked = await mapLimited(step.imageUrls, deps.settings.photoConcurrency, async (url, index) => {
    const label = `image_urls[${index}]`;
    try {
      const photo = await deps.decodePhoto(url, label);
      if (Math.min(photo.width, photo.height) < MIN_PHOTO_EDGE_PX) {
        return { problem: `${label} is too small (${photo.width}x${photo.height}); photos need at least ${MIN_PHOTO_EDGE_PX} px on their short side.` };
      }
      return { photo };
    } catch (error) {
      if (error instanceof DomainError) return { problem: error.message };
      throw error;
    }
  });
  const problems = checked.flatMap((c) => ('problem' in c && c.problem ? [c.problem] : []));
  if (problems.length > 0) {
    return { ok: false, message: `${problems.length} of ${step.imageUrls.length} photos could not be used: ${problems.join(' ')} Create the profile again with readable photos.` };
  }
  const photos = checked.flatMap((c) => ('photo' in c && c.photo ? [c.photo] : []));
  const photoKeys = await mapLimited(photos, deps.settings.photoConcurrency, (photo, index) => deps.photos.savePhoto(step.accountId, step.profileId, index, photo));
  const pictureKey = await deps.photos.savePicture(step.accountId, step.profileId, photos[0]!);
  const stillThere = await deps.profiles.patch(step.accountId, step.profileId, { status: 'QUEUING', message: defaultMessage('QUEUING'), photoKeys, pictureKey }, deps.clock());
  return stillThere ? { ok: true, photoCount: photos.length } : { ok: false, message: 'The profile was deleted.' };
};

export const startTraining = async (deps: TrainingDeps, step: TrainingStep): Promise<{ waitSeconds: number }> => {
  const profile = await deps.profiles.get(step.accountId, step.profileId);
  if (!profile) return { waitSeconds: 0 };
  await deps.profiles.patch(step.accountId, step.profileId, { status: 'IN_PROGRESS', message: defaultMessage('IN_PROGRESS') }, deps.clock());
  const seconds = deps.trainer.durationSeconds(profile.trainingTier, profile.photoKeys.length) * deps.settings.trainingTimeScale;
  return { waitSeconds: Math.max(0, Math.round(seconds)) };
};

export const completeTraining = async (deps: TrainingDeps, step: TrainingStep): Promise<void> => {
  const profile = await deps.profiles.get(step.accountId, step.profileId);
  if (!profile) return;
  const { signature } = await deps.trainer.train(await deps.photos.load(profile.photoKeys));
  const at = deps.clock();
  await deps.ledger.settle({
    accountId: step.accountId,
    owner: { kind: 'profile', id: step.profileId },
    finalMicros: TRAINING_PRICE_MICROS[profile.trainingTier],
    ownerPatch: { status: 'READY', message: defaultMessage('READY'), signature, updatedAt: at },
    at,
  });
};

/** How a failure caught by the workflow reads to the user. */
export const trainingFailureMessage = (failure: { Error?: string; Cause?: string } | undefined): string =>
  failure?.Error === 'States.Timeout' || failure?.Error === 'States.HeartbeatTimeout'
    ? 'Training did not finish in time; nothing was charged. Please create the profile again.'
    : 'Training failed because of an internal error; nothing was charged. Please create the profile again.';

export const failTraining = async (
  deps: Pick<TrainingDeps, 'ledger' | 'clock'>,
  step: TrainingStep & { validation?: ValidationOutcome; failure?: { Error?: string; Cause?: string } },
): Promise<void> => {
  const message = step.validation && !step.validation.ok ? step.validation.message : trainingFailureMessage(step.failure);
  const at = deps.clock();
  await deps.ledger.release({ accountId: step.accountId, owner: { kind: 'profile', id: step.profileId }, ownerPatch: { status: 'ERROR', message, updatedAt: at }, at });
};
