/**
 * Read first: profile creation, reads and deletion.
 *
 * Creation reserves the tier's price in the same transaction that creates the profile (VALIDATING),
 * then starts the training workflow named after the profile. Training settles at READY and releases at
 * ERROR; deletion releases a reservation that is still open, stops the training, removes the photos
 * and the picture, and the copies of its crops shown to a provider by URL, then the record (with its tag index entry), after which every read and every
 * reference answers 404. Every training write is conditional on the record still existing, so a
 * training that finishes while its profile is deleted cannot bring it back.
 */
import type { Caller } from '../accounts/accounts';
import type { LedgerPort } from '../billing/ledger';
import { TRAINING_PRICE_MICROS } from '../catalog/pricing';
import { NotFoundError, ServiceUnavailableError } from '../errors';
import type { Clock } from '../shared/clock';
import type { IdSource } from '../shared/ids';
import type { ModelVersion } from '../shared/model-version';
import { type Profile, type ProfileFace, type ProfileStatus, type TrainingTier, trainingProgress } from './profile';

/** What a list of profiles shows of each. */
export type ProfileSummary = Pick<
  Profile,
  'profileId' | 'status' | 'tag' | 'message' | 'modelVersion' | 'trainingTier' | 'pictureKey' | 'createdAt'
>;

/** What a training step or a maintenance run may change on an existing profile. */
export type ProfileChanges = Partial<
  Pick<
    Profile,
    | 'status'
    | 'message'
    | 'signature'
    | 'face'
    | 'photoNotes'
    | 'pictureKey'
    | 'photoKeys'
    | 'trainingStartedAt'
    | 'trainingSeconds'
    | 'loraToken'
    | 'loraSubmitAskedAt'
    | 'loraTraining'
    | 'queuePosition'
    | 'loraAwaitToken'
    | 'loraReported'
    | 'lora'
  >
>;

/** What storing a template of another face model did: stored now, already there (another request's), or the profile is gone or not READY. */
export type AddFaceOutcome = 'stored' | 'exists' | 'missing';

export interface ProfilesRepository {
  get(accountId: string, profileId: string): Promise<Profile | undefined>;
  findMany(accountId: string, ids: readonly string[]): Promise<Profile[]>;
  /** Every profile of the account (all pages), optionally only those with `tag`. */
  list(accountId: string, tag?: string): Promise<ProfileSummary[]>;
  /** Changes a profile that still exists; false when it is gone (deleted meanwhile). */
  patch(accountId: string, profileId: string, changes: ProfileChanges, at: number): Promise<boolean>;
  /** Stores a READY profile's template of another face model beside its others, once (profile-templates.ts). */
  addFace(accountId: string, profileId: string, face: ProfileFace, at: number): Promise<AddFaceOutcome>;
  remove(accountId: string, profileId: string): Promise<void>;
}

export interface ProfileDeps {
  clock: Clock;
  newId: IdSource;
  ledger: LedgerPort;
  profiles: ProfilesRepository;
  accounts: { get(accountId: string): Promise<{ defaultModelVersion: ModelVersion } | undefined> };
  training: {
    start(input: {
      accountId: string;
      profileId: string;
      imageUrls: string[];
      trainingTier: TrainingTier;
      apiBaseUrl: string;
    }): Promise<void>;
    stop(profileId: string): Promise<void>;
    /** A hosted trainer's work for the profile (TRAINER=fal): stopped and its copies deleted; never throws. */
    stopRemote(profile: Profile): Promise<void>;
  };
  photos: {
    deleteAll(accountId: string, profileId: string): Promise<void>;
    picture(key: string): Promise<Buffer | undefined>;
  };
  /** The copies of the profile's reference crops shown to a provider by URL (s3/shared-inputs.ts). */
  shared: { deleteProfileCopies(accountId: string, profileId: string): Promise<void> };
}

export interface AddProfileCommand {
  imageUrls: string[];
  trainingTier: TrainingTier;
  tag?: string;
  modelVersion?: ModelVersion;
  /** https; gets a signed POST of the profile status when training ends. */
  callbackUrl?: string;
  /** The API the profile is created on (`https://…/prod`): where a hosted trainer reports. */
  apiBaseUrl: string;
}

const statusMessage: Record<ProfileStatus, string> = {
  VALIDATING: 'The photos are being validated and prepared.',
  QUEUING: 'The training job is queued.',
  IN_PROGRESS: 'The model is training.',
  READY: 'Training completed; the profile can be used in requests.',
  ERROR: 'Training failed.',
};
export const defaultMessage = (status: ProfileStatus) => statusMessage[status];

/** ERROR with `message`, and the reservation released in the same transaction (a no-op once it was closed). */
export const releaseProfile = (
  deps: { ledger: Pick<LedgerPort, 'release'> },
  accountId: string,
  profileId: string,
  message: string,
  at: number,
) =>
  deps.ledger.release({
    accountId,
    ends: { kind: 'profile', id: profileId, end: { status: 'ERROR', message, updatedAt: at } },
    at,
  });

/** POST /profiles/add: reserve the tier's price with the new profile, then start its training. */
export const add = async (
  deps: ProfileDeps,
  caller: Caller,
  command: AddProfileCommand,
): Promise<{ profile_id: string }> => {
  const account = await deps.accounts.get(caller.accountId);
  if (!account) throw new NotFoundError('Account not found.');
  const profileId = deps.newId('prf');
  const at = deps.clock();
  const profile: Profile = {
    profileId,
    accountId: caller.accountId,
    status: 'VALIDATING',
    message: defaultMessage('VALIDATING'),
    tag: command.tag ?? null,
    trainingTier: command.trainingTier,
    modelVersion: command.modelVersion ?? account.defaultModelVersion,
    signature: null,
    face: null,
    moreFaces: [],
    photoNotes: [],
    pictureKey: null,
    photoKeys: [],
    callbackUrl: command.callbackUrl ?? null,
    trainingStartedAt: null,
    trainingSeconds: null,
    createdAt: at,
    updatedAt: at,
  };
  await deps.ledger.reserve({
    accountId: caller.accountId,
    amountMicros: TRAINING_PRICE_MICROS[command.trainingTier],
    creates: { kind: 'profile', profile },
    at,
  });
  try {
    await deps.training.start({
      accountId: caller.accountId,
      profileId,
      imageUrls: command.imageUrls,
      trainingTier: command.trainingTier,
      apiBaseUrl: command.apiBaseUrl,
    });
  } catch (error) {
    const failedAt = deps.clock();
    await releaseProfile(
      deps,
      caller.accountId,
      profileId,
      'Training could not be started; nothing was charged. Please create the profile again.',
      failedAt,
    );
    throw Object.assign(
      new ServiceUnavailableError('Training could not be started; nothing was charged. Please retry.'),
      { cause: error },
    );
  }
  return { profile_id: profileId };
};

const ownProfile = async (deps: Pick<ProfileDeps, 'profiles'>, caller: Caller, profileId: string): Promise<Profile> => {
  const profile = await deps.profiles.get(caller.accountId, profileId);
  if (!profile) throw new NotFoundError(`Profile ${profileId} not found.`);
  return profile;
};

/** The profile status body, for a poll and for the training callback alike. */
export const statusBody = (profile: Profile, now: number) => {
  const { progress, etaSeconds } = trainingProgress(profile, now);
  return {
    profile_id: profile.profileId,
    status: profile.status,
    message: profile.message,
    progress,
    eta_seconds: etaSeconds,
    // A training queued at a hosted trainer (TRAINER=fal): the requests ahead of it there.
    ...(profile.status === 'QUEUING' && typeof profile.queuePosition === 'number'
      ? { queue_position: profile.queuePosition }
      : {}),
  };
};

export const status = async (deps: Pick<ProfileDeps, 'profiles' | 'clock'>, caller: Caller, profileId: string) =>
  statusBody(await ownProfile(deps, caller, profileId), deps.clock());

export const list = async (deps: Pick<ProfileDeps, 'profiles'>, caller: Caller, tag?: string) => ({
  profiles: (await deps.profiles.list(caller.accountId, tag)).map((p) => ({
    profile_id: p.profileId,
    status: p.status,
    tag: p.tag,
  })),
});

/** The portal's list: every profile of the account with what a person looks for, newest first. */
export const summaries = async (deps: Pick<ProfileDeps, 'profiles'>, caller: Caller) => ({
  profiles: (await deps.profiles.list(caller.accountId))
    .sort((a, b) => b.createdAt - a.createdAt)
    .map((p) => ({
      profile_id: p.profileId,
      status: p.status,
      message: p.message,
      tag: p.tag,
      model_version: p.modelVersion,
      training_tier: p.trainingTier,
      has_picture: p.pictureKey !== null,
      created_at: new Date(p.createdAt).toISOString(),
    })),
});

export const picture = async (
  deps: Pick<ProfileDeps, 'profiles' | 'photos'>,
  caller: Caller,
  profileId: string,
): Promise<Buffer> => {
  const profile = await ownProfile(deps, caller, profileId);
  const bytes = profile.pictureKey ? await deps.photos.picture(profile.pictureKey) : undefined;
  if (!bytes) throw new NotFoundError(`Profile ${profileId} has no picture yet (status ${profile.status}).`);
  return bytes;
};

/** How many reference crops (aligned faces, best first) training kept for the profile: none before READY. */
export const referenceCount = async (
  deps: Pick<ProfileDeps, 'profiles'>,
  caller: Caller,
  profileId: string,
): Promise<number> => (await ownProfile(deps, caller, profileId)).face?.referenceKeys.length ?? 0;

/** One reference crop by rank (0 the best), as JPEG bytes; 404 past the last one. */
export const referenceCrop = async (
  deps: Pick<ProfileDeps, 'profiles' | 'photos'>,
  caller: Caller,
  profileId: string,
  rank: number,
): Promise<Buffer> => {
  const key = (await ownProfile(deps, caller, profileId)).face?.referenceKeys[rank];
  const bytes = key ? await deps.photos.picture(key) : undefined;
  if (!bytes) throw new NotFoundError(`Profile ${profileId} has no reference crop ${rank}.`);
  return bytes;
};

/** DELETE /profiles/{id}: release what is still reserved, stop training, remove data, then the record. */
export const remove = async (
  deps: ProfileDeps,
  caller: Caller,
  profileId: string,
): Promise<{ profile_id: string; status: 'deleted' }> => {
  const profile = await ownProfile(deps, caller, profileId);
  const at = deps.clock();
  await releaseProfile(deps, caller.accountId, profileId, 'Deleted.', at);
  await deps.training.stop(profileId);
  // Its LoRA training at fal, if any: cancelled (still running) and fal's copies deleted; ours go with the prefix.
  await deps.training.stopRemote(profile);
  await deps.photos.deleteAll(caller.accountId, profileId);
  await deps.shared.deleteProfileCopies(caller.accountId, profileId);
  await deps.profiles.remove(caller.accountId, profileId);
  return { profile_id: profileId, status: 'deleted' };
};
