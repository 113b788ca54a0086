/**
 * Read first: Full Train on a hosted LoRA trainer (TRAINER=fal; docs/identity.md "What each tier buys").
 *
 * ValidatePhotos has built the face template and kept the photos that taught it, as for every tier. With
 * TRAINER=fal a Full Train (`standard`) profile then goes on (statemachines/profile-training.asl.json):
 * - SubmitLoraTraining: a random token is given to the profile (never its id: the token is what the model
 *   learns to draw, and what a prompt names), a caption per photo built from the subject's class and the
 *   token, and the trainer asked to train with a webhook to our generic provider route (QUEUING);
 * - AwaitLoraTraining: a `waitForTaskToken` Task whose token the webhook resumes (acceptLoraReport); its
 *   heartbeat (LORA_CHECK_SECONDS) moves on without one, so that the trainer's status is read at that pace;
 * - CheckLoraTraining: the trainer's status mapped onto ours: IN_QUEUE → QUEUING with the queue position,
 *   IN_PROGRESS → IN_PROGRESS with an ETA (loraTrainingSeconds), COMPLETED → the LoRA copied into our bucket
 *   under the profile, the trainer's copy deleted, READY and settled; a failed training → FailTraining with
 *   the trainer's reason (ERROR, released). Not done: back to AwaitLoraTraining.
 * Quick Train (`fast`) never reaches the trainer: the workflow's input names the sandbox trainer for it
 * (composition/state-machines.ts).
 */
import { randomBytes } from 'node:crypto';
import type { LedgerPort } from '../billing/ledger';
import type { CallbackMessage } from '../callbacks/deliver';
import { TRAINING_PRICE_MICROS } from '../catalog/pricing';
import { loraSubjectWords } from '../engine/identity-prompt';
import { DomainError } from '../errors';
import type { FaceKind } from '../faces';
import type { Clock } from '../shared/clock';
import { hmacSha256, sameBytes } from '../shared/hmac';
import type { LoraTrainingTicket, Profile } from './profile';
import { defaultMessage, type ProfilesRepository } from './profiles';
import { queueTrainingCallback, TRAINER_SUBMIT_UNCERTAIN_ERROR } from './training';

export type { LoraTrainingTicket };

export type LoraTrainingStatus =
  | { state: 'IN_QUEUE'; queuePosition?: number }
  | { state: 'IN_PROGRESS' }
  | { state: 'COMPLETED' };

export type LoraTrainingResult = { ok: true; loraUrl: string } | { ok: false; message: string };

/** The trainer port of a LoRA trainer on a queue (adapters/engine/providers/fal/trainer.ts). */
export interface LoraTrainer {
  /** The steps each training runs (a setting): what the ETA is estimated from. */
  readonly steps: number;
  submit(training: {
    accountId: string;
    profileId: string;
    photos: { name: string; data: Buffer }[];
    captions: string[];
    webhookUrl: string;
  }): Promise<LoraTrainingTicket>;
  status(ticket: LoraTrainingTicket): Promise<LoraTrainingStatus>;
  result(ticket: LoraTrainingTicket): Promise<LoraTrainingResult>;
  /** Copies the trained LoRA into our bucket under the profile; returns its key. */
  keepLora(accountId: string, profileId: string, loraUrl: string): Promise<string>;
  /** Deletes the trainer's copies of the request's files (best effort: never throws). */
  deleteCopies(ticket: LoraTrainingTicket): Promise<void>;
  /** Stops a training still queued or running (best effort: never throws). */
  cancel(ticket: LoraTrainingTicket): Promise<void>;
}

/**
 * The ETA of a training in progress comes from measured durations: each training that ends READY adds its
 * steps and its seconds from IN_PROGRESS to READY to its trainer's pace (TrainerPaceStore), and a training
 * is expected to take its steps at that pace (seconds per step, all measured trainings of the trainer
 * together). Before a trainer's first measured training there is nothing to measure by, and the estimate
 * is the spec's "about 8 minutes" for Full Train: a fixed start (loading the model, reading the zip) and
 * a pace that gives 8 minutes at 350 steps, rounded up.
 */
export const LORA_SECONDS_PER_STEP = 1.2;
export const LORA_START_SECONDS = 60;
export const loraTrainingSeconds = (steps: number, measuredSecondsPerStep?: number): number =>
  measuredSecondsPerStep !== undefined && measuredSecondsPerStep > 0
    ? Math.ceil(steps * measuredSecondsPerStep)
    : Math.ceil(LORA_START_SECONDS + steps * LORA_SECONDS_PER_STEP);

/** The measured pace of each trainer (its model, e.g. `fal-ai/flux-2-trainer`): adapters/dynamo/trainer-pace.ts. */
export interface TrainerPaceStore {
  /** Seconds per step over every training of `model` measured so far; undefined before the first. */
  secondsPerStep(model: string): Promise<number | undefined>;
  /** Adds one finished training: its steps and its seconds from IN_PROGRESS to READY. */
  record(model: string, measured: { steps: number; seconds: number }, at: number): Promise<void>;
}

/** How often the trainer's status is read while no webhook came (AwaitLoraTraining's HeartbeatSeconds). */
export const LORA_CHECK_SECONDS = 60;
/** A training not finished this long after its submit is stopped and ends in ERROR (released). */
export const LORA_TRAINING_LIMIT_MS = 2 * 3600 * 1000;

/** The scale a profile's LoRA is applied at: engine/identity-prompt.ts `LORA_SCALE`. */
export { LORA_SCALE } from '../engine/identity-prompt';

/** A fresh token: 8 lowercase letters, a word no tokenizer knows and no prompt contains by chance. */
export const newLoraToken = (random: (size: number) => Buffer = randomBytes): string =>
  Array.from(random(8), (byte) => String.fromCharCode(97 + (byte % 26))).join('');

/**
 * The caption of each training photo (fal: `NAME.txt` beside `NAME.jpg` in the zip): the token and the class
 * word (the face analyser tells a person from an animal, not a dog from a cat), the same words a prompt says
 * in place of `[[id]]` for the subject carried by its LoRA (engine/identity-prompt.ts `loraSubjectWords`).
 */
export const loraCaption = (token: string, kind: FaceKind | undefined): string =>
  `a photo of ${loraSubjectWords(token, kind)}`;

/** The token of the trainer's webhook URL: HMAC-SHA256 of the account and profile, with the link secret. */
export const profileReportToken = (accountId: string, profileId: string, secret: string): string =>
  hmacSha256(secret, `profile-report\n${accountId}\n${profileId}`).toString('base64url');

export class InvalidProfileReportError extends DomainError {
  constructor(readonly reason: string) {
    super('INVALID_API_KEY', 'The report is not signed as the provider signs its webhooks.');
  }
}

export interface LoraStep {
  accountId: string;
  profileId: string;
}

export interface LoraTrainingDeps {
  clock: Clock;
  profiles: ProfilesRepository;
  ledger: LedgerPort;
  trainer: LoraTrainer;
  photos: { load(keys: string[]): Promise<Buffer[]> };
  /** Where the trainer reports: our generic provider webhook route for this profile, signed by us. */
  webhookUrl(step: LoraStep & { apiBaseUrl: string }): Promise<string>;
  enqueueCallback(message: CallbackMessage): Promise<void>;
  /** The trainers' measured paces: read for an ETA, added to at READY. */
  pace: TrainerPaceStore;
}

/** The error the check ends a failed training with: its cause is the message for the user. */
export const LORA_TRAINING_FAILED = 'TrainingFailed';

/** SubmitLoraTraining: the token, the captions and the zip, the trainer asked once (QUEUING). */
export const submitLoraTraining = async (
  deps: Pick<LoraTrainingDeps, 'clock' | 'profiles' | 'trainer' | 'photos' | 'webhookUrl'>,
  step: LoraStep & { apiBaseUrl: string },
): Promise<void> => {
  const profile = await deps.profiles.get(step.accountId, step.profileId);
  if (!profile) throw new Error(`profile ${step.profileId} was deleted before training started`);
  // A retried step finds its submit: the trainer takes no idempotency key, so it is never asked twice.
  if (profile.loraTraining) return;
  // Asked before, and its answer lost (a timeout, a 5xx after the work was queued, a crash before the ticket
  // was stored): it may be training and billing already, so it is not asked again; the training ends.
  if (profile.loraSubmitAskedAt) throw new TrainerSubmitUncertainError();
  const token = profile.loraToken ?? newLoraToken();
  if (!profile.loraToken) await deps.profiles.patch(step.accountId, step.profileId, { loraToken: token }, deps.clock());
  const data = await deps.photos.load(profile.photoKeys);
  // Names that say nothing of the profile: fal sees the photos, their captions and the token only.
  const photos = data.map((bytes, index) => ({ name: `photo-${String(index + 1).padStart(2, '0')}`, data: bytes }));
  const caption = loraCaption(token, profile.face?.kind);
  await deps.profiles.patch(step.accountId, step.profileId, { loraSubmitAskedAt: deps.clock() }, deps.clock());
  const ticket = await deps.trainer.submit({
    accountId: step.accountId,
    profileId: step.profileId,
    photos,
    captions: photos.map(() => caption),
    webhookUrl: await deps.webhookUrl(step),
  });
  const stored = await deps.profiles.patch(
    step.accountId,
    step.profileId,
    { loraTraining: ticket, status: 'QUEUING', message: defaultMessage('QUEUING') },
    deps.clock(),
  );
  // Deleted while it was submitted: nobody will use the work.
  if (!stored) await deps.trainer.cancel(ticket);
};

/** SubmitLoraTraining found the trainer asked before without its answer: not retried (statemachines' Retry). */
export class TrainerSubmitUncertainError extends Error {
  override name = TRAINER_SUBMIT_UNCERTAIN_ERROR;
  constructor() {
    super('the trainer was asked to train and its answer was lost: it is not asked twice');
  }
}

/** AwaitLoraTraining ends at once: the report came before the token was stored, or nothing is trained. */
export class NothingToAwaitError extends Error {
  override name = 'NothingToAwait';
}

/**
 * AwaitLoraTraining: stores the task token the webhook resumes, then reads the profile again: a report
 * written before the token (the webhook came first) ends the wait at once. The webhook writes its report
 * first and reads the token after, so one of the two sees the other.
 */
export const awaitLoraTraining = async (
  deps: Pick<LoraTrainingDeps, 'clock' | 'profiles'>,
  step: LoraStep & { taskToken: string },
): Promise<void> => {
  const stored = await deps.profiles.patch(
    step.accountId,
    step.profileId,
    { loraAwaitToken: step.taskToken },
    deps.clock(),
  );
  if (!stored) throw new NothingToAwaitError('the profile is gone');
  const profile = await deps.profiles.get(step.accountId, step.profileId);
  if (!profile?.loraTraining || profile.loraReported) throw new NothingToAwaitError('the trainer has reported');
};

export interface LoraReportDeps {
  clock: Clock;
  profiles: Pick<ProfilesRepository, 'get' | 'patch'>;
  reportSecret(): Promise<string>;
  resume(taskToken: string): Promise<void>;
  log(message: string, fields: Record<string, unknown>): void;
}

/**
 * The webhook route for a profile's training (`?account=…&profile=…&sig=…`), after the provider's signature
 * verified: the report recorded, and the waiting check resumed. Always 200 for a report nobody waits for.
 */
export const acceptLoraReport = async (
  deps: LoraReportDeps,
  report: { accountId: string; profileId: string; token: string; requestId: string },
): Promise<{ accepted: boolean; duplicate: boolean; resumed: boolean }> => {
  const expected = profileReportToken(report.accountId, report.profileId, await deps.reportSecret());
  if (!sameBytes(Buffer.from(report.token), Buffer.from(expected)))
    throw new InvalidProfileReportError('the profile token in the URL does not match');
  const fields = { profile_id: report.profileId, request_id: report.requestId };
  const profile = await deps.profiles.get(report.accountId, report.profileId);
  if (!profile || profile.loraTraining?.requestId !== report.requestId) {
    deps.log('trainer report for a profile or request that no longer waits: ignored', fields);
    return { accepted: false, duplicate: false, resumed: false };
  }
  const duplicate = profile.loraReported === true;
  await deps.profiles.patch(report.accountId, report.profileId, { loraReported: true }, deps.clock());
  const after = await deps.profiles.get(report.accountId, report.profileId);
  if (!after?.loraAwaitToken) return { accepted: true, duplicate, resumed: false };
  // A token no task waits on any more (resumed already, or the wait moved on) is not an error.
  await deps.resume(after.loraAwaitToken);
  return { accepted: true, duplicate, resumed: true };
};

/** What CheckLoraTraining hands the state machine's choice: done, or a failure for FailTraining. */
export type LoraCheck = { done: boolean; failure?: string };

const NOTHING_CHARGED = 'Nothing was charged; please create the profile again.';

/** CheckLoraTraining: the trainer's status, mapped onto the profile's; at the end the LoRA kept and READY. */
export const checkLoraTraining = async (
  deps: Pick<LoraTrainingDeps, 'clock' | 'profiles' | 'trainer' | 'ledger' | 'enqueueCallback' | 'pace'>,
  step: LoraStep,
): Promise<LoraCheck> => {
  const profile = await deps.profiles.get(step.accountId, step.profileId);
  if (!profile) return { done: true };
  const ticket = profile.loraTraining;
  if (!ticket) throw new Error(`profile ${step.profileId} has no training to check`);
  const now = deps.clock();
  // A new wait stores a new token: the report of this round is spent.
  await deps.profiles.patch(step.accountId, step.profileId, { loraReported: false, loraAwaitToken: null }, now);
  const status = await deps.trainer.status(ticket);
  if (status.state !== 'COMPLETED') {
    if (now - ticket.submittedAt > LORA_TRAINING_LIMIT_MS) {
      await deps.trainer.cancel(ticket);
      return { done: true, failure: `Training did not finish in time. ${NOTHING_CHARGED}` };
    }
    if (status.state === 'IN_QUEUE') {
      await deps.profiles.patch(
        step.accountId,
        step.profileId,
        {
          status: 'QUEUING',
          message: defaultMessage('QUEUING'),
          queuePosition: status.queuePosition ?? null,
        },
        now,
      );
    } else if (profile.status !== 'IN_PROGRESS') {
      await deps.profiles.patch(
        step.accountId,
        step.profileId,
        {
          status: 'IN_PROGRESS',
          message: defaultMessage('IN_PROGRESS'),
          queuePosition: null,
          trainingStartedAt: now,
          trainingSeconds: loraTrainingSeconds(ticket.steps, await deps.pace.secondsPerStep(ticket.model)),
        },
        now,
      );
    }
    return { done: false };
  }
  const result = await deps.trainer.result(ticket);
  if (!result.ok) {
    await deps.trainer.deleteCopies(ticket);
    const reason = result.message.trim().replace(/[.!?]?$/, '.');
    return {
      done: true,
      failure: `Training failed: the trainer could not train on these photos (${reason}) ${NOTHING_CHARGED}`,
    };
  }
  const key = await deps.trainer.keepLora(step.accountId, step.profileId, result.loraUrl);
  await deps.trainer.deleteCopies(ticket);
  await settleLoraReady(deps, step, profile, key);
  // Measured only from a training seen IN_PROGRESS (one that went from the queue straight to COMPLETED
  // between two checks has no start to measure from).
  if (profile.status === 'IN_PROGRESS' && profile.trainingStartedAt !== null) {
    const seconds = (deps.clock() - profile.trainingStartedAt) / 1000;
    await deps.pace.record(ticket.model, { steps: ticket.steps, seconds }, deps.clock());
  }
  return { done: true };
};

/** READY with the LoRA's key, the tier's price settled; then the training callback. */
const settleLoraReady = async (
  deps: Pick<LoraTrainingDeps, 'clock' | 'profiles' | 'ledger' | 'enqueueCallback'>,
  step: LoraStep,
  profile: Profile,
  loraKey: string,
): Promise<void> => {
  const at = deps.clock();
  const stillThere = await deps.profiles.patch(
    step.accountId,
    step.profileId,
    { lora: { key: loraKey }, queuePosition: null },
    at,
  );
  if (!stillThere) return;
  const notes = profile.photoNotes;
  const message =
    notes.length === 0 ? defaultMessage('READY') : `${defaultMessage('READY')} Not used: ${notes.join(' ')}`;
  await deps.ledger.settle({
    accountId: step.accountId,
    finalMicros: TRAINING_PRICE_MICROS[profile.trainingTier],
    ends: { kind: 'profile', id: step.profileId, end: { status: 'READY', message, signature: null, updatedAt: at } },
    at,
  });
  await queueTrainingCallback(deps, step);
};

/** A deleted profile's training at the trainer: stopped and its copies deleted (best effort). */
export const stopLoraTraining = async (trainer: Pick<LoraTrainer, 'cancel' | 'deleteCopies'>, profile: Profile) => {
  if (!profile.loraTraining) return;
  await trainer.cancel(profile.loraTraining);
  await trainer.deleteCopies(profile.loraTraining);
};
