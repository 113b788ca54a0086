/** A profile: a learned representation of one subject, trained from reference photos. */
import type { FaceKind, FacePose } from '../faces';
import type { ModelVersion } from '../shared/model-version';

export const PROFILE_STATUSES = ['VALIDATING', 'QUEUING', 'IN_PROGRESS', 'READY', 'ERROR'] as const;
export type ProfileStatus = (typeof PROFILE_STATUSES)[number];

export const TRAINING_TIERS = ['standard', 'fast'] as const;
export type TrainingTier = (typeof TRAINING_TIERS)[number];

/** Photos per request by tier (spec): standard (Full Train) 10-50, fast (Quick Train) 5-10. */
export const PHOTO_COUNT_BY_TIER = { standard: { min: 10, max: 50 }, fast: { min: 5, max: 10 } } as const;

/**
 * Photos with one usable face of the subject a training needs, by tier. A template's mean steadies with
 * the number of photos (on the fixtures, a mean of 4 augmented photos was already within 0.02 cosine of
 * one of 10), and a photo set aside must not sink a set sent at the tier's minimum for one bad photo:
 * fast (5-10 photos) trains from 4, so one photo of the 5 may fail; standard (10-50) from 8, so two of
 * the 10 may, and the larger tier keeps its promise of a steadier template.
 */
export const MIN_USABLE_PHOTOS_BY_TIER = { standard: 8, fast: 4 } as const;

/** What a LoRA trainer answered for a submit (lora-training.ts): its request, stored on the profile. */
export interface LoraTrainingTicket {
  requestId: string;
  /** The trainer's model (fal: `fal-ai/flux-2-trainer`) and its request's URLs as it answered them. */
  model: string;
  statusUrl: string;
  responseUrl: string;
  cancelUrl: string;
  submittedAt: number;
  steps: number;
}

export interface Profile {
  profileId: string;
  accountId: string;
  status: ProfileStatus;
  /** What the status means for the user; failure details when ERROR. */
  message: string;
  tag: string | null;
  trainingTier: TrainingTier;
  modelVersion: ModelVersion;
  /**
   * The identity artefact an HTTP training backend reported (docs/trainer-contract.md), opaque to us and
   * handed to the HTTP engine; null with the sandbox trainer, whose identity is `face` alone.
   */
  signature: string | null;
  /**
   * The profile's first face template, compact: recognition compares faces with it when it is of the
   * analyser's model. Null before training (or an old profile). Never replaced by another model's template:
   * code of that model (an older deploy) keeps reading it here.
   */
  face: ProfileFace | null;
  /** Templates of the other face models the profile was embedded with since (one per model id, never `face`'s). */
  moreFaces: ProfileFace[];
  /** Sentences about the photos training did not use (no face, another person…), shown in the READY message. */
  photoNotes: string[];
  /** Object key of the profile picture, once chosen. */
  pictureKey: string | null;
  /** Object keys of the prepared training photos. */
  photoKeys: string[];
  /** An https URL that gets a signed POST of the profile status when training ends (READY or ERROR). */
  callbackUrl: string | null;
  /** When IN_PROGRESS began, and how long the training is expected to take there (null when unknown: a remote trainer). */
  trainingStartedAt: number | null;
  trainingSeconds: number | null;
  /**
   * Full Train on a LoRA trainer (TRAINER=fal; lora-training.ts), each absent on every other profile and on
   * records written before it: the random token the LoRA learned the subject as (never the profile id), the
   * trainer's request while it trains, the trainer's queue position while queued, the task token its
   * webhook resumes and whether that webhook has come, and once READY the LoRA's key in our bucket.
   */
  loraToken?: string | null;
  /** When the trainer was asked to train (before its answer): a retried submit that finds it never asks again. */
  loraSubmitAskedAt?: number | null;
  loraTraining?: LoraTrainingTicket | null;
  queuePosition?: number | null;
  loraAwaitToken?: string | null;
  loraReported?: boolean;
  lora?: { key: string } | null;
  createdAt: number;
  updatedAt: number;
}

/**
 * What recognition and the engines need of a profile's face template: the normalised mean of its
 * photos' embeddings in the space of `modelId`, and the S3 keys of its best aligned face crops (JPEG,
 * 3-6, best first). The per-photo embeddings are in `template.json` beside the photos.
 */
export interface ProfileFace {
  modelId: string;
  kind: FaceKind;
  mean: number[];
  referenceKeys: string[];
  /**
   * The pose and light of each reference crop, in the order of `referenceKeys`: a Full Train profile's
   * reference bank (reference-bank.ts), from which each request picks the crops closest to the subject's
   * pose. Absent (Quick Train, a profile trained before the bank): the crops are sent best first.
   */
  referencePoses?: FacePose[];
}

/** The profile's template of face model `modelId`, if it has one. */
export const faceOfModel = (profile: Pick<Profile, 'face' | 'moreFaces'>, modelId: string): ProfileFace | undefined =>
  [profile.face, ...profile.moreFaces].find((face) => face?.modelId === modelId) ?? undefined;

/** The template whose reference crops the profile has: any one's (the crops are images, not of a model). */
const withReferences = (profile: Pick<Profile, 'face' | 'moreFaces'>): ProfileFace | undefined =>
  [profile.face, ...profile.moreFaces].find((face) => face && face.referenceKeys.length > 0) ?? undefined;

/** The profile's reference crops: those of any template (the crops are images, not of a model). */
export const referenceKeysOf = (profile: Pick<Profile, 'face' | 'moreFaces'>): string[] =>
  withReferences(profile)?.referenceKeys ?? [];

/** The poses of `referenceKeysOf(profile)`, one per crop; undefined when they were not recorded. */
export const referencePosesOf = (profile: Pick<Profile, 'face' | 'moreFaces'>): FacePose[] | undefined =>
  posesOf(withReferences(profile));

/** A template's reference poses when there is one per crop (anything else is read as none recorded). */
export const posesOf = (
  face: Pick<ProfileFace, 'referenceKeys' | 'referencePoses'> | undefined,
): FacePose[] | undefined =>
  face?.referencePoses && face.referencePoses.length === face.referenceKeys.length && face.referenceKeys.length > 0
    ? face.referencePoses
    : undefined;

/** A profile's terminal state when training succeeded (settled). */
export interface ProfileReady {
  status: 'READY';
  message: string;
  signature: string | null;
  updatedAt: number;
}

/** A profile's terminal state when training failed, could not start, or the profile was deleted (released). */
export interface ProfileFailed {
  status: 'ERROR';
  message: string;
  updatedAt: number;
}

export interface ProfilesReader {
  /** The caller's profiles among `ids` (others' and unknown ids are simply absent). */
  findMany(accountId: string, ids: readonly string[]): Promise<Profile[]>;
  get(accountId: string, profileId: string): Promise<Profile | undefined>;
}

/**
 * How far a profile's training has got, and the seconds left: the photos' preparation is the first tenth,
 * the training the rest, at the pace of its expected duration (the sandbox trainer's, which it keeps);
 * a training of unknown duration (a remote trainer) stays at its start with no ETA until it ends.
 */
export const trainingProgress = (
  profile: Pick<Profile, 'status' | 'trainingStartedAt' | 'trainingSeconds'>,
  now: number,
): { progress: number; etaSeconds: number | null } => {
  switch (profile.status) {
    case 'VALIDATING':
      return { progress: 0, etaSeconds: null };
    case 'QUEUING':
      return { progress: PREPARATION_SHARE, etaSeconds: null };
    case 'READY':
      return { progress: 1, etaSeconds: 0 };
    case 'ERROR':
      return { progress: 0, etaSeconds: null };
    case 'IN_PROGRESS': {
      if (profile.trainingStartedAt === null || profile.trainingSeconds === null)
        return { progress: PREPARATION_SHARE, etaSeconds: null };
      const elapsedSeconds = Math.max(0, (now - profile.trainingStartedAt) / 1000);
      const done = profile.trainingSeconds === 0 ? 1 : Math.min(elapsedSeconds / profile.trainingSeconds, 1);
      // Never 1 before READY: the last step (the settlement) is still to come.
      return {
        progress: Math.min(0.99, PREPARATION_SHARE + (1 - PREPARATION_SHARE) * done),
        etaSeconds: Math.max(0, Math.ceil(profile.trainingSeconds - elapsedSeconds)),
      };
    }
  }
};

const PREPARATION_SHARE = 0.1;
