/** A profile: a learned representation of one subject, trained from reference photos. */
import type { ModelVersion } from '../accounts/accounts';

export const PROFILE_STATUSES = ['VALIDATING', 'QUEUING', 'IN_PROGRESS', 'READY', 'ERROR'] as const;
export type ProfileStatus = (typeof PROFILE_STATUSES)[number];

export const TRAINING_TIERS = ['standard', 'fast'] as const;
export type TrainingTier = (typeof TRAINING_TIERS)[number];

/** Photos per request by tier (spec): standard (Full Train) 10-50, fast (Quick Train) 5-10. */
export const PHOTO_COUNT_BY_TIER = { standard: { min: 10, max: 50 }, fast: { min: 5, max: 10 } } as const;

export interface Profile {
  profileId: string;
  accountId: string;
  status: ProfileStatus;
  /** What the status means for the user; failure details when ERROR. */
  message: string;
  tag: string | null;
  trainingTier: TrainingTier;
  modelVersion: ModelVersion;
  /** The identity signature training produced (READY profiles only). */
  signature: string | null;
  /** Object key of the profile picture, once chosen. */
  pictureKey: string | null;
  /** Object keys of the prepared training photos. */
  photoKeys: string[];
  /** An https URL that gets a signed POST of the profile status when training ends (READY or ERROR). */
  callbackUrl: string | null;
  createdAt: number;
  updatedAt: number;
}

/** A profile's terminal state when training succeeded (settled). */
export interface ProfileReady {
  status: 'READY';
  message: string;
  signature: string;
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
