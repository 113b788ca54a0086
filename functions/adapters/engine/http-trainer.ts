/**
 * Read first: the trainer port over HTTPS to a real training backend (docs/trainer-contract.md).
 *
 * Training takes minutes, so nothing here waits for it. `request` is one POST {baseUrl}/v1/trainings,
 * repeated with the same body while the failure is worth retrying (network error, attempt timeout, 429,
 * 5xx) and attempts remain; the backend answers at once and later reports heartbeats and the outcome to
 * our trainer callback with the task token it was given. `training_id` (the profile id) makes a repeated
 * request the same training. Photos go as presigned S3 GET URLs that live one hour: the backend fetches
 * them when it starts.
 *
 * `sfnTrainingTasks` is the callback's way back into the workflow: SendTaskHeartbeat, SendTaskSuccess and
 * SendTaskFailure, with Step Functions' "no such task" answers turned into NotFoundError.
 *
 * The backend URL is operator configuration, so it is not passed through the SSRF guard.
 */
import { setTimeout as delay } from 'node:timers/promises';
import type { SFNClient } from '@aws-sdk/client-sfn';
import { NotFoundError } from '../../domain/errors';
import {
  type RemoteTrainer,
  type RemoteTrainingRequest,
  TRAINER_UNAVAILABLE_ERROR,
  type TrainingTasks,
} from '../../domain/profiles/training';
import { sfnSdk } from '../sfn/executions';

export type Fetch = typeof globalThis.fetch;

export interface HttpTrainerOptions {
  /** e.g. https://trainer.example.com or https://trainer.example.com/prefix; the trainings path is appended. */
  baseUrl: string;
  /** Sent as `Authorization: Bearer <token>`; the backend sends the same token on its callbacks. */
  token: string;
  /** Where the backend reports: our POST /v2/service/internal/trainer-callback. */
  callbackUrl: string;
  /** A GET URL for a stored photo that stays valid for the given time. */
  presignPhoto(key: string, expiresInSeconds: number): Promise<string>;
  fetch?: Fetch;
  maxAttempts?: number;
  attemptTimeoutSeconds?: number;
  /** Backoff before attempt n+1 is about base * 2^(n-1), jittered to between half and all of it. */
  retryBaseDelaySeconds?: number;
  wait?: (milliseconds: number) => Promise<void>;
  /** Uniform in [0, 1), for the jitter. */
  random?: () => number;
}

/** Together they fit the RequestTraining function's timeout (functions/workflows/definitions.ts). */
export const HTTP_TRAINER_DEFAULTS = {
  maxAttempts: 4,
  attemptTimeoutSeconds: 20,
  retryBaseDelaySeconds: 1,
} as const;

export const PHOTO_URL_TTL_SECONDS = 3600;
export const TRAININGS_PATH = 'v1/trainings';

/** The body POSTed to {baseUrl}/v1/trainings. */
export interface TrainingRequestBody {
  training_id: string;
  task_token: string;
  photos: { url: string }[];
  tier: RemoteTrainingRequest['tier'];
  model_version: RemoteTrainingRequest['modelVersion'];
  callback_url: string;
}

/**
 * The request could not be placed. Its name is the error the workflow Task ends with: TrainerUnavailable
 * after retries ran out (the user is told to try later), TrainerRefused for an answer that retrying cannot
 * change (a contract problem, shown as an internal error).
 */
export class TrainerRequestError extends Error {
  readonly retryable: boolean;
  readonly status?: number;

  constructor(message: string, details: { retryable: boolean; status?: number; cause?: unknown }) {
    super(message, { cause: details.cause });
    this.name = details.retryable ? TRAINER_UNAVAILABLE_ERROR : 'TrainerRefused';
    this.retryable = details.retryable;
    this.status = details.status;
  }
}

export const httpTrainer = ({ baseUrl, ...options }: HttpTrainerOptions): RemoteTrainer => {
  const url = new URL(TRAININGS_PATH, baseUrl.endsWith('/') ? baseUrl : `${baseUrl}/`);
  const settings = {
    fetch: options.fetch ?? ((input: string | URL | Request, init?: RequestInit) => globalThis.fetch(input, init)),
    maxAttempts: options.maxAttempts ?? HTTP_TRAINER_DEFAULTS.maxAttempts,
    attemptTimeoutMs: (options.attemptTimeoutSeconds ?? HTTP_TRAINER_DEFAULTS.attemptTimeoutSeconds) * 1000,
    retryBaseDelayMs: (options.retryBaseDelaySeconds ?? HTTP_TRAINER_DEFAULTS.retryBaseDelaySeconds) * 1000,
    wait: options.wait ?? ((milliseconds: number) => delay(milliseconds)),
    random: options.random ?? Math.random,
  };

  const post = async (body: string): Promise<void> => {
    try {
      const response = await settings.fetch(url, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${options.token}`,
          'content-type': 'application/json',
          accept: 'application/json',
        },
        body,
        signal: AbortSignal.timeout(settings.attemptTimeoutMs),
      });
      const text = await response.text();
      if (!response.ok) {
        throw new TrainerRequestError(`trainer answered HTTP ${response.status}: ${text.slice(0, 200)}`, {
          retryable: response.status === 429 || response.status >= 500,
          status: response.status,
        });
      }
    } catch (error) {
      if (error instanceof TrainerRequestError) throw error;
      const reason =
        error instanceof Error && error.name === 'TimeoutError'
          ? `no answer within ${settings.attemptTimeoutMs / 1000} s`
          : String(error);
      throw new TrainerRequestError(`trainer unreachable: ${reason}`, { retryable: true, cause: error });
    }
  };

  return {
    async request(training) {
      const photos = await Promise.all(
        training.photoKeys.map(async (key) => ({ url: await options.presignPhoto(key, PHOTO_URL_TTL_SECONDS) })),
      );
      const body: TrainingRequestBody = {
        training_id: training.trainingId,
        task_token: training.taskToken,
        photos,
        tier: training.tier,
        model_version: training.modelVersion,
        callback_url: options.callbackUrl,
      };
      const text = JSON.stringify(body);
      for (let attempt = 1; ; attempt += 1) {
        try {
          return await post(text);
        } catch (error) {
          if (!(error instanceof TrainerRequestError) || !error.retryable) throw error;
          if (attempt >= settings.maxAttempts) {
            throw new TrainerRequestError(`${error.message} (gave up after ${attempt} attempts)`, {
              retryable: true,
              status: error.status,
              cause: error,
            });
          }
          const ceilingMs = settings.retryBaseDelayMs * 2 ** (attempt - 1);
          await settings.wait(ceilingMs / 2 + settings.random() * (ceilingMs / 2));
        }
      }
    },
  };
};

/** Step Functions' answers for a token that names no waiting task (malformed, unknown, timed out, finished). */
const GONE_TASK_ERRORS = new Set(['InvalidToken', 'TaskDoesNotExist', 'TaskTimedOut']);

const toDomain = async (send: () => Promise<unknown>): Promise<void> => {
  try {
    await send();
  } catch (error) {
    if (error instanceof Error && GONE_TASK_ERRORS.has(error.name)) {
      throw new NotFoundError(
        'No training is waiting for this task token: it is unknown, or its training already finished or timed out.',
      );
    }
    throw error;
  }
};

export const sfnTrainingTasks = (sfn: SFNClient): TrainingTasks => ({
  heartbeat: (taskToken) => toDomain(() => sfn.send(new (sfnSdk().SendTaskHeartbeatCommand)({ taskToken }))),
  succeed: (taskToken, output) =>
    toDomain(() => sfn.send(new (sfnSdk().SendTaskSuccessCommand)({ taskToken, output: JSON.stringify(output) }))),
  fail: (taskToken, error, cause) =>
    toDomain(() => sfn.send(new (sfnSdk().SendTaskFailureCommand)({ taskToken, error, cause }))),
});
