/**
 * Read first: the contract of a provider that queues work (fal's queue today; a trainer or Replicate's
 * predictions later). Such a provider takes the work, answers a ticket (stored on the job), and reports each
 * request's end to a callback URL: our webhook route, POST /v2/service/providers/<id>/webhook, one route for
 * every queued provider, which finds the provider by the id in its path (providers/queued.ts).
 *
 * The contract comes in two halves because of what a function ships (esbuild bundles what it imports):
 * - the engine (`QueuedEngine`, registered in providers/index.ts with the inline providers): submit with
 *   the callback URL, check (the status, then the result: downloaded from its media hosts and fitted with
 *   sharp), cancel; and its possible cost. Only the image functions load it.
 * - its queue without image work (`QueuedProvider`, registered in providers/queued.ts): read and verify a
 *   webhook delivery, the status of a ticket's requests, cancel a ticket or one request. The webhook route,
 *   AwaitEngine, the cancel route and the sweep load only this, so they ship no sharp.
 * Its settings are its row's (functions/deployment/providers.ts): its base URL and key, and its row's `queue`:
 * the hosts its outputs are downloaded from (handed to its engine as its MediaPolicy) and where its webhook
 * keys are published (handed to its queue half).
 * The ticket's `engine` is the provider's id: a stored ticket goes back to its provider whatever the routes
 * say now.
 */
import type { EngineQueue, EngineTicket, ImageEngine } from '../../../domain/engine/engine';
import type { LoraTrainer } from '../../../domain/profiles/lora-training';
import type { ApiKey } from './provider';
import type { ProviderTransport } from './provider-http';

/** The engine of a queued provider: an image engine with its queue (submit with the callback URL, check, cancel). */
export type QueuedEngine = ImageEngine & { readonly queue: EngineQueue };

/** What the queue half is built from: where the provider is, its key, and its row's settings. */
export interface QueueAccess {
  /** Its queue's base URL (its row's setting; a development double's loopback URL locally). */
  baseUrl: string;
  apiKey: ApiKey;
  /** ALLOW_LOOPBACK_URLS: its webhook keys may be fetched from a loopback http address (a local double). */
  allowLoopback: boolean;
  /** Where it publishes the keys its webhooks are signed with (its row's `webhookKeysUrl`), checked when read. */
  webhookKeysUrl: string;
  /**
   * The provider's id of our account, when the operator pins it (its row's `webhookUserId`): a delivery signed
   * for another user is refused (401). Absent: any user the provider signs for.
   */
  webhookUserId?: string;
  clock: () => number;
  transport?: Partial<ProviderTransport>;
}

/** Why a delivery is refused: logged, and answered 401 whatever the reason. */
export type ReportRefusal = { verified: false; reason: string };

/** One webhook delivery, verified: the provider's request it reports, and whether that request succeeded. */
export type ProviderReport = { verified: true; requestId: string; succeeded: boolean } | ReportRefusal;

export interface QueuedProvider {
  /**
   * One delivery to its webhook: its signature checked over the raw body as received and the headers, then
   * the body read. A refusal says why; a signed body that is not a report throws InvalidRequestError (400).
   */
  readReport(headers: Readonly<Record<string, string | undefined>>, rawBody: Buffer): Promise<ProviderReport>;
  /** The ids of a ticket's requests its status says have finished (the fallback when a webhook is lost). */
  finishedRequests(ticket: EngineTicket, signal: AbortSignal): Promise<string[]>;
  /** Asks it to stop a ticket's work (best effort: a request it has finished may still be charged). */
  cancel(ticket: EngineTicket, signal: AbortSignal): Promise<void>;
  /** Asks it to stop one request known only by its id and model (a report of a request no job holds). */
  cancelRequest(model: string, requestId: string, signal: AbortSignal): Promise<void>;
}

/** A queued provider's registration (providers/queued.ts): its queue half, built from its access. */
export type QueuedProviderAdapter = (access: QueueAccess) => QueuedProvider;

/**
 * What a queued provider's LoRA trainer is built with (its row's `trainer`; TRAINER=<id>): the provider's key,
 * queue and platform API, the training's steps and learning rate, and where its files go in our bucket.
 */
export interface LoraTrainerOptions {
  apiKey: ApiKey;
  queueUrl: string;
  platformUrl: string;
  steps: number;
  learningRate: number;
  /** The provider's media hosts (the LoRA is downloaded only from them; loopback too with ALLOW_LOOPBACK_URLS). */
  media: { hosts: readonly string[]; allowLoopback: boolean };
  clock: () => number;
  /** Stores a file of the profile's (profiles/shared/…, photo-store.ts) and answers its key. */
  store(accountId: string, profileId: string, name: string, data: Buffer, contentType: string): Promise<string>;
  presign(key: string, expiresInSeconds: number): Promise<string>;
  log(message: string, fields: Record<string, unknown>): void;
  transport?: Partial<ProviderTransport>;
}

export type LoraTrainerAdapter = (options: LoraTrainerOptions) => LoraTrainer;
