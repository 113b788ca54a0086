/**
 * Read first: the steps of the profile-training workflow (statemachines/profile-training.asl.json).
 *
 * VALIDATING: every photo is fetched through the SSRF guard (or read from the account's direct uploads) and decoded (HEIC included, over 4096 px
 * resized); unreadable or too-small photos end the training in ERROR with a message naming each of
 * them. Then the training proper, whatever the trainer: every photo's faces are analysed and judged
 * (photo-faces.ts: one usable face, the same subject as the majority); too few usable photos for the
 * tier (MIN_USABLE_PHOTOS_BY_TIER) end in ERROR naming each photo and why. Otherwise the face template
 * (per-photo embeddings, their normalised mean, the model id) is stored as template.json, aligned face
 * crops as reference images (Quick Train: the best 3-6; Full Train: a bank of up to 8 covering the
 * subject's poses and lightings, each crop's pose stored beside its key: reference-bank.ts), the best one as the picture, the photos that taught the face
 * as JPEG (PNG and the rest transcoded at quality 95), and the profile's `face` written → QUEUING →
 * IN_PROGRESS (for as long as a test's TRAINING_DELAY_SECONDS, else at once) → READY, settled in the
 * same transaction, its message naming the photos not used; or ERROR, released in the same transaction. Steps are safe to retry: status
 * writes are conditional on the profile existing, money moves through the ledger's guarded transitions.
 *
 * With a remote trainer (TRAINER=http) the workflow hands the backend a task token instead of waiting a
 * fixed time: requestTraining (IN_PROGRESS) asks for the training, the backend reports heartbeats and
 * the outcome to the trainer callback, which only forwards them to the waiting workflow; acceptTraining
 * then stores the signature it sent beside the face template (READY, settled), and a failure reaches FailTraining with the
 * backend's message for the user (ERROR, released). The callback's bearer token is the credential.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { LedgerPort } from '../billing/ledger';
import type { CallbackMessage } from '../callbacks/deliver';
import { TRAINING_PRICE_MICROS } from '../catalog/pricing';
import type { DecodedImage } from '../engine/engine';
import { DomainError } from '../errors';
import {
  buildTemplate,
  type DetectedFace,
  type FaceAnalyzer,
  type FacePose,
  type FaceTemplate,
  poseOf,
} from '../faces';
import type { Clock } from '../shared/clock';
import type { ModelVersion } from '../shared/model-version';
import { faceProblemMessage, judgePhotoFaces, referenceScore } from './photo-faces';
import { MIN_USABLE_PHOTOS_BY_TIER, type Profile, type ProfileFace, type TrainingTier } from './profile';
import { defaultMessage, type ProfilesRepository, releaseProfile, statusBody } from './profiles';
import { chooseReferenceBank } from './reference-bank';

export interface TrainingStep {
  accountId: string;
  profileId: string;
}

export interface TrainingDeps {
  clock: Clock;
  profiles: ProfilesRepository;
  ledger: LedgerPort;
  /**
   * Fetches (SSRF-guarded) or reads from the account's direct uploads (`upload:<upload_id>`), then
   * decodes, one photo; a DomainError says what is wrong with it.
   */
  decodePhoto(source: string, label: string, accountId: string): Promise<DecodedImage>;
  /** Finds, aligns and embeds faces (the face template is the training). */
  faces: FaceAnalyzer;
  photos: {
    /** Stores a prepared photo as JPEG (transcoding when needed); returns its key. */
    savePhoto(accountId: string, profileId: string, index: number, photo: DecodedImage): Promise<string>;
    /** Stores an aligned face crop (JPEG) as the reference image of this rank (0 = best); returns its key. */
    saveReference(accountId: string, profileId: string, rank: number, jpeg: Buffer): Promise<string>;
    /** Stores the profile picture (a face crop, JPEG); returns its key. */
    savePicture(accountId: string, profileId: string, jpeg: Buffer): Promise<string>;
    /** Stores the template with its per-photo embeddings beside the photos; returns its key. */
    saveTemplate(accountId: string, profileId: string, template: FaceTemplate): Promise<string>;
    load(keys: string[]): Promise<Buffer[]>;
    deleteAll(accountId: string, profileId: string): Promise<void>;
  };
  /** A training backend that calls back with the task token (TRAINER=http); built on first use. */
  readonly remoteTrainer: RemoteTrainer;
  /** Queues a training callback (the same deliverer, retries and signatures as a job's). */
  enqueueCallback(message: CallbackMessage): Promise<void>;
  /**
   * trainingDelaySeconds: a development setting (TRAINING_DELAY_SECONDS, 0 on AWS) that keeps a trained
   * profile IN_PROGRESS that long, for tests that need a training in progress.
   */
  settings: { trainingDelaySeconds: number; photoConcurrency: number };
}

export interface RemoteTrainingRequest {
  trainingId: string;
  taskToken: string;
  photoKeys: string[];
  tier: TrainingTier;
  modelVersion: ModelVersion;
}

export interface RemoteTrainer {
  /** Asks the backend to train; it answers later, through the trainer callback, with the task token. */
  request(training: RemoteTrainingRequest): Promise<void>;
}

/** Photos smaller than this on their short side cannot teach a face. */
export const MIN_PHOTO_EDGE_PX = 256;

/** Quick Train keeps at most this many reference images (aligned face crops), the best first; Full Train a bank (reference-bank.ts). */
export const MAX_REFERENCE_IMAGES = 6;

/** A reference's pose as stored: a tenth of a degree and a thousandth of luminance are finer than the estimates. */
const roundedPose = (face: FacePose): FacePose => ({
  yawDegrees: Math.round(face.yawDegrees * 10) / 10,
  pitchDegrees: Math.round(face.pitchDegrees * 10) / 10,
  luminance: Math.round(face.luminance * 1000) / 1000,
});
/** The side of a reference image and of the profile picture, in pixels. */
export const REFERENCE_SIZE_PX = 512;

export type ValidationOutcome = { ok: true; photoCount: number } | { ok: false; message: string };

export const mapLimited = async <T, R>(
  items: readonly T[],
  limit: number,
  fn: (item: T, index: number) => Promise<R>,
): Promise<R[]> => {
  const results: R[] = new Array(items.length);
  // One iterator shared by the workers: each takes the next item when it is free.
  const queue = items.entries();
  const worker = async () => {
    for (const [index, item] of queue) results[index] = await fn(item, index);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
};

/** The photos a face template is built from: a label for messages, and the bytes the analyser reads. */
interface TemplatePhoto {
  label: string;
  data: Buffer;
}

export type FaceTraining =
  | { ok: true; face: ProfileFace; pictureKey: string; used: number[]; notes: string[] }
  | { ok: false; message: string };

/**
 * The face template of a set of photos: every photo analysed, the usable ones judged (photo-faces.ts),
 * the template built from them and stored with the best crops as reference images (the best one also
 * the picture). Too few usable photos for the tier: the reasons, naming each photo.
 */
export const trainFace = async (
  deps: Pick<TrainingDeps, 'faces' | 'photos' | 'settings'>,
  target: TrainingStep & { tier: TrainingTier },
  photos: readonly TemplatePhoto[],
): Promise<FaceTraining> => {
  const analysed = await mapLimited(photos, deps.settings.photoConcurrency, (photo) => deps.faces.analyze(photo.data));
  const judged = judgePhotoFaces(analysed);
  const notes = judged.flatMap((photo, index) =>
    photo.problem === null ? [] : [faceProblemMessage(photos[index].label, photo)],
  );
  const used = judged.flatMap((photo, index) => (photo.problem === null && photo.face ? [index] : []));
  const needed = MIN_USABLE_PHOTOS_BY_TIER[target.tier];
  if (used.length < needed) {
    return {
      ok: false,
      message: `Only ${used.length} of ${photos.length} photos show one usable face of the subject; the ${target.tier} tier needs ${needed}. ${notes.join(' ')} Create the profile again with clear photos of the subject alone.`,
    };
  }
  const faceOf = (index: number): DetectedFace => {
    const face = judged[index].face;
    if (!face) throw new Error('a used photo has its face');
    return face;
  };
  const template = buildTemplate(
    deps.faces.modelId,
    used.map((index) => faceOf(index)),
  );
  // Full Train keeps a bank covering the subject's poses and lightings; Quick Train its best faces.
  const bank = target.tier === 'standard';
  const best = bank
    ? chooseReferenceBank(
        used.map((index) => ({ pose: poseOf(faceOf(index)), quality: referenceScore(faceOf(index)) })),
      ).map((position) => used[position])
    : [...used].sort((a, b) => referenceScore(faceOf(b)) - referenceScore(faceOf(a))).slice(0, MAX_REFERENCE_IMAGES);
  const crops = await mapLimited(best, deps.settings.photoConcurrency, (index) =>
    deps.faces.crop(photos[index].data, faceOf(index), REFERENCE_SIZE_PX),
  );
  const referenceKeys = await mapLimited(crops, deps.settings.photoConcurrency, (crop, rank) =>
    deps.photos.saveReference(target.accountId, target.profileId, rank, crop),
  );
  await deps.photos.saveTemplate(target.accountId, target.profileId, template);
  const pictureKey = await deps.photos.savePicture(target.accountId, target.profileId, crops[0]);
  return {
    ok: true,
    face: {
      modelId: template.modelId,
      kind: template.kind,
      mean: template.mean,
      referenceKeys,
      ...(bank && { referencePoses: best.map((index) => roundedPose(faceOf(index))) }),
    },
    pictureKey,
    used,
    notes,
  };
};

export const validatePhotos = async (
  deps: Pick<TrainingDeps, 'clock' | 'decodePhoto' | 'faces' | 'photos' | 'settings'> & {
    profiles: Pick<ProfilesRepository, 'get' | 'patch'>;
  },
  step: TrainingStep & { imageUrls: string[] },
): Promise<ValidationOutcome> => {
  const checked = await mapLimited(step.imageUrls, deps.settings.photoConcurrency, async (url, index) => {
    const label = `image_urls[${index}]`;
    try {
      const photo = await deps.decodePhoto(url, label, step.accountId);
      if (Math.min(photo.width, photo.height) < MIN_PHOTO_EDGE_PX) {
        return {
          problem: `${label} is too small (${photo.width}x${photo.height}); photos need at least ${MIN_PHOTO_EDGE_PX} px on their short side.`,
        };
      }
      return { photo };
    } catch (error) {
      if (error instanceof DomainError) return { problem: error.message };
      throw error;
    }
  });
  const problems = checked.flatMap((c) => ('problem' in c && c.problem ? [c.problem] : []));
  if (problems.length > 0) {
    return {
      ok: false,
      message: `${problems.length} of ${step.imageUrls.length} photos could not be used: ${problems.join(' ')} Create the profile again with readable photos.`,
    };
  }
  const photos = checked.flatMap((c) => ('photo' in c && c.photo ? [c.photo] : []));
  if (photos.length === 0)
    return { ok: false, message: 'No photos were given. Create the profile again with readable photos.' };
  const profile = await deps.profiles.get(step.accountId, step.profileId);
  if (!profile) return { ok: false, message: 'The profile was deleted.' };
  const trained = await trainFace(
    deps,
    { ...step, tier: profile.trainingTier },
    photos.map((photo, index) => ({ label: `image_urls[${index}]`, data: photo.data })),
  );
  if (!trained.ok) {
    await deps.photos.deleteAll(step.accountId, step.profileId);
    return trained;
  }
  // Only the photos that taught the face are kept (and handed to a training backend).
  const photoKeys = await mapLimited(trained.used, deps.settings.photoConcurrency, (photoIndex, index) =>
    deps.photos.savePhoto(step.accountId, step.profileId, index, photos[photoIndex]),
  );
  const stillThere = await deps.profiles.patch(
    step.accountId,
    step.profileId,
    {
      status: 'QUEUING',
      message: defaultMessage('QUEUING'),
      photoKeys,
      pictureKey: trained.pictureKey,
      face: trained.face,
      photoNotes: trained.notes,
    },
    deps.clock(),
  );
  if (stillThere) return { ok: true, photoCount: photos.length };
  // Deleted while its photos were being prepared: what this step stored goes too.
  await deps.photos.deleteAll(step.accountId, step.profileId);
  return { ok: false, message: 'The profile was deleted.' };
};

/** StartTraining (sandbox trainer): IN_PROGRESS; the face template is ready, so nothing is left to wait for but a test's delay. */
export const startTraining = async (
  deps: Pick<TrainingDeps, 'clock' | 'profiles' | 'settings'>,
  step: TrainingStep,
): Promise<{ waitSeconds: number }> => {
  const profile = await deps.profiles.get(step.accountId, step.profileId);
  if (!profile) return { waitSeconds: 0 };
  const waitSeconds = Math.max(0, deps.settings.trainingDelaySeconds);
  const at = deps.clock();
  await deps.profiles.patch(
    step.accountId,
    step.profileId,
    {
      status: 'IN_PROGRESS',
      message: defaultMessage('IN_PROGRESS'),
      trainingStartedAt: at,
      trainingSeconds: waitSeconds,
    },
    at,
  );
  return { waitSeconds };
};

/** The READY message: the default, and which photos were not used and why. */
const readyMessage = (photoNotes: readonly string[]): string =>
  photoNotes.length === 0 ? defaultMessage('READY') : `${defaultMessage('READY')} Not used: ${photoNotes.join(' ')}`;

/** READY (with a training backend's signature, if any), and the tier's price settled, in one transaction. */
const settleReady = async (
  deps: Pick<TrainingDeps, 'ledger' | 'clock'>,
  step: TrainingStep,
  profile: Pick<Profile, 'trainingTier' | 'photoNotes'>,
  signature: string | null,
) => {
  const at = deps.clock();
  await deps.ledger.settle({
    accountId: step.accountId,
    finalMicros: TRAINING_PRICE_MICROS[profile.trainingTier],
    ends: {
      kind: 'profile',
      id: step.profileId,
      end: { status: 'READY', message: readyMessage(profile.photoNotes), signature, updatedAt: at },
    },
    at,
  });
};

/**
 * The training callback, once the profile has ended (READY or ERROR): a signed POST of the body its status
 * endpoint answers, under a delivery id fixed by the profile, so a step that runs again sends the same
 * delivery (receivers deduplicate by it). A deleted profile, or one without a callback_url, sends nothing.
 */
export const queueTrainingCallback = async (
  deps: Pick<TrainingDeps, 'profiles' | 'enqueueCallback'>,
  step: TrainingStep,
): Promise<void> => {
  const profile = await deps.profiles.get(step.accountId, step.profileId);
  if (!profile?.callbackUrl || (profile.status !== 'READY' && profile.status !== 'ERROR')) return;
  await deps.enqueueCallback({
    deliveryId: `dlv_${profile.profileId}`,
    accountId: profile.accountId,
    jobId: profile.profileId,
    callbackUrl: profile.callbackUrl,
    body: JSON.stringify(statusBody(profile, profile.updatedAt)),
  });
};

/** CompleteTraining (sandbox trainer): the template built in ValidatePhotos is the training; READY and settled. */
export const completeTraining = async (
  deps: Pick<TrainingDeps, 'profiles' | 'ledger' | 'clock' | 'enqueueCallback'>,
  step: TrainingStep,
): Promise<void> => {
  const profile = await deps.profiles.get(step.accountId, step.profileId);
  if (!profile) return;
  await settleReady(deps, step, profile, null);
  await queueTrainingCallback(deps, step);
};

/** RequestTraining (remote trainer): IN_PROGRESS, then the backend is asked to train and call back with the token. */
export const requestTraining = async (
  deps: Pick<TrainingDeps, 'profiles' | 'clock' | 'remoteTrainer'>,
  step: TrainingStep & { taskToken: string },
): Promise<void> => {
  const profile = await deps.profiles.get(step.accountId, step.profileId);
  // Deletion releases the charge and stops this execution; getting here means only that this step ran first.
  if (!profile) throw new Error(`profile ${step.profileId} was deleted before training started`);
  await deps.profiles.patch(
    step.accountId,
    step.profileId,
    { status: 'IN_PROGRESS', message: defaultMessage('IN_PROGRESS') },
    deps.clock(),
  );
  await deps.remoteTrainer.request({
    trainingId: profile.profileId,
    taskToken: step.taskToken,
    photoKeys: profile.photoKeys,
    tier: profile.trainingTier,
    modelVersion: profile.modelVersion,
  });
};

/** AcceptTraining (remote trainer): the signature the backend reported, READY and settled. */
export const acceptTraining = async (
  deps: Pick<TrainingDeps, 'profiles' | 'ledger' | 'clock' | 'enqueueCallback'>,
  step: TrainingStep & { trained: { signature: string } },
): Promise<void> => {
  const profile = await deps.profiles.get(step.accountId, step.profileId);
  if (!profile) return;
  await settleReady(deps, step, profile, step.trained.signature);
  await queueTrainingCallback(deps, step);
};

/** The error a training backend's `failed` callback ends the task with; its cause is the backend's message for the user. */
export const TRAINING_FAILED_ERROR = 'TrainingFailed';
/** The error RequestTraining ends with when the backend could not be reached or kept failing. */
export const TRAINER_UNAVAILABLE_ERROR = 'TrainerUnavailable';
/** The error SubmitLoraTraining ends with when the trainer was asked before and its answer was lost. */
export const TRAINER_SUBMIT_UNCERTAIN_ERROR = 'TrainerSubmitUncertain';

const NOTHING_CHARGED = 'Nothing was charged; please create the profile again.';
const asSentence = (text: string) => (/[.!?]$/.test(text) ? text : `${text}.`);

/** How a failure caught by the workflow reads to the user. */
export const trainingFailureMessage = (failure: { Error?: string; Cause?: string } | undefined): string => {
  const reported = failure?.Cause?.trim();
  if (failure?.Error === TRAINING_FAILED_ERROR && reported)
    return `Training failed: ${asSentence(reported)} ${NOTHING_CHARGED}`;
  if (failure?.Error === 'States.HeartbeatTimeout')
    return `Training stopped: the trainer stopped reporting progress. ${NOTHING_CHARGED}`;
  if (failure?.Error === 'States.Timeout')
    return 'Training did not finish in time; nothing was charged. Please create the profile again.';
  if (failure?.Error === TRAINER_UNAVAILABLE_ERROR)
    return `Training could not start: the trainer is unavailable. ${NOTHING_CHARGED}`;
  if (failure?.Error === TRAINER_SUBMIT_UNCERTAIN_ERROR)
    return `Training could not start: the trainer did not answer our request, and it is not asked twice (a second request could be billed twice). ${NOTHING_CHARGED}`;
  return 'Training failed because of an internal error; nothing was charged. Please create the profile again.';
};

export const failTraining = async (
  deps: { ledger: Pick<LedgerPort, 'release'>; clock: Clock } & Pick<TrainingDeps, 'profiles' | 'enqueueCallback'>,
  step: TrainingStep & {
    validation?: ValidationOutcome;
    failure?: { Error?: string; Cause?: string };
    lora?: { failure?: string };
  },
): Promise<void> => {
  const message =
    step.validation && !step.validation.ok
      ? step.validation.message
      : (step.lora?.failure ?? trainingFailureMessage(step.failure));
  await releaseProfile(deps, step.accountId, step.profileId, message, deps.clock());
  await queueTrainingCallback(deps, step);
};

/** A trainer callback whose bearer token is missing or wrong (answered 401). */
export class InvalidTrainerTokenError extends DomainError {
  constructor() {
    super('INVALID_API_KEY', 'The trainer token is missing or not valid.');
  }
}

export type TrainerEvent =
  | { taskToken: string; event: 'heartbeat' }
  | { taskToken: string; event: 'succeeded'; signature: string }
  | { taskToken: string; event: 'failed'; message: string };

/** The waiting workflow tasks, by task token; an unknown or finished token is a NotFoundError. */
export interface TrainingTasks {
  heartbeat(taskToken: string): Promise<void>;
  succeed(taskToken: string, output: { signature: string }): Promise<void>;
  fail(taskToken: string, error: string, cause: string): Promise<void>;
}

export interface TrainerCallbackDeps {
  /** The shared secret (read once per process); when empty, every callback is refused. */
  trainerToken: () => Promise<string>;
  tasks: TrainingTasks;
}

const digest = (value: string) => createHash('sha256').update(value).digest();

/** Compares digests, so neither the content nor the length of the expected token shows in the time taken. */
const bearerMatches = (authorization: string | undefined, token: string): boolean =>
  token !== '' && authorization !== undefined && timingSafeEqual(digest(authorization), digest(`Bearer ${token}`));

/** POST /internal/trainer-callback: the backend's report, forwarded to the task waiting on its token. */
export const acceptTrainerEvent = async (
  deps: TrainerCallbackDeps,
  authorization: string | undefined,
  report: TrainerEvent,
): Promise<{ accepted: true; event: TrainerEvent['event'] }> => {
  if (!bearerMatches(authorization, await deps.trainerToken())) throw new InvalidTrainerTokenError();
  if (report.event === 'heartbeat') await deps.tasks.heartbeat(report.taskToken);
  else if (report.event === 'succeeded') await deps.tasks.succeed(report.taskToken, { signature: report.signature });
  else await deps.tasks.fail(report.taskToken, TRAINING_FAILED_ERROR, report.message);
  return { accepted: true, event: report.event };
};
