/**
 * Read first: one image operation, from a validated request to its answer.
 *
 * 1. Rules that need no I/O (base model, resolution, quality, aspect ratio, size) → 400.
 * 2. Profile references: unknown → 404, not READY → 400, mixed versions → 400.
 * 3. Inputs decoded (fetched through the SSRF guard) → 400 naming the input.
 * 4. The floor price reserved together with the job record → 402 with nothing created.
 * 5. The engine runs under the deadline; the outcome settles (success) or releases (refusal, failure,
 *    timeout) the reservation, exactly once, through the ledger's guarded transitions.
 * Everything before step 4 fails without a job or a charge.
 */
import { createHash } from 'node:crypto';
import type { Caller } from '../accounts/accounts';
import type { LedgerPort } from '../billing/ledger';
import { AlreadyExistsError, ContentModerationError, DomainError, IdempotencyKeyReusedError, NoImageGeneratedError, RequestTimeoutError, ServiceUnavailableError } from '../errors';
import type { ProfilesReader } from '../profiles/profile';
import type { Clock } from '../shared/clock';
import type { IdSource } from '../shared/ids';
import { DOWNLOAD_LINK_LIFETIME_MS, type DownloadGrant } from './download-token';
import type { DecodedImage, EngineOutcome, EngineRequest, ImageEngine, Operation, OutputFormat } from './engine';
import type { AspectRatio, Quality, Resolution } from './catalog';
import { pinnedTwoK, resolveOutputSpec } from './output-spec';
import { finalPrice, floorPrice, type PricedRequest } from './pricing';
import { checkReferencedProfiles, mergeReferences } from './profile-references';
import { completion, idempotencySortKey, isTerminal, JOB_RETENTION_MS, TTL_GRACE_MS, type Job, type JobError, type JobsRepository, type StoredInput } from '../jobs/job';

export interface OutputChoice {
  baseModel?: string;
  resolution?: Resolution;
  aspectRatio?: AspectRatio;
  quality?: Quality;
  size?: string;
}

/** A validated request of any of the four operations, in the domain's terms. */
export interface ImageCommand {
  operation: Operation;
  prompt: string;
  /** Image inputs in the engine's order, each with the name errors use (`images[3]`, `input_image`). */
  inputs: ReadonlyArray<{ label: string; value: string }>;
  profileIds: readonly string[];
  /** Edit and generate only; enhance and remix are pinned to 2K on the default model. */
  output: OutputChoice | 'pinned';
  numOutputImages: number;
  outputFormat?: OutputFormat;
  responseMode: 'bytes' | 'urls';
  async: boolean;
  callbackUrl?: string;
  clientRequestId?: string;
}

export interface ImageResultBody {
  known_subjects: { counts: Record<string, number> };
  images: string[];
  download_urls: string[];
}

export interface ImageDeps {
  clock: Clock;
  newId: IdSource;
  ledger: LedgerPort;
  profiles: ProfilesReader;
  jobs: JobsRepository;
  engine: ImageEngine;
  decodeInput(value: string, label: string, signal: AbortSignal): Promise<DecodedImage>;
  inputs: {
    /** Keeps an async job's decoded inputs for its workflow, under the account's prefix. */
    save(accountId: string, jobId: string, images: DecodedImage[]): Promise<StoredInput[]>;
    load(inputs: StoredInput[]): Promise<DecodedImage[]>;
    remove(accountId: string, jobId: string): Promise<void>;
  };
  outputs: {
    /** Stores the outputs under the account's prefix; returns their object keys. */
    save(accountId: string, jobId: string, images: Buffer[], format: OutputFormat): Promise<string[]>;
    load(keys: string[]): Promise<Buffer[]>;
    /** The public download link for a grant, on the API's base URL. */
    link(baseUrl: string, grant: DownloadGrant): Promise<string>;
  };
  workflows: {
    /** Starts the image-job workflow for a job; starting it again is harmless. */
    startImageJob(input: { accountId: string; jobId: string; hasCallback: boolean }): Promise<void>;
  };
  settings: {
    syncBudgetMs: number;
    asyncBudgetMs: number;
    /** Epoch ms from which the default output format is jpg (png before). */
    outputFormatSwitchAt: number;
    /** How often a replayed synchronous request looks for its original's result. */
    replayPollMs: number;
  };
}

/** What is known once a request has passed every check and its inputs are decoded. */
export interface PreparedOperation {
  engineRequest: EngineRequest;
  priced: PricedRequest;
  floorMicros: number;
}

const CONTENT_TYPE: Record<OutputFormat, string> = { png: 'image/png', jpg: 'image/jpeg' };
export const contentTypeOf = (format: OutputFormat) => CONTENT_TYPE[format];

export const defaultOutputFormat = (now: number, switchAt: number): OutputFormat => (now < switchAt ? 'png' : 'jpg');

/** Steps 1-3: checks and decoding, nothing created, nothing charged. */
export const prepare = async (deps: ImageDeps, caller: Caller, command: ImageCommand, signal: AbortSignal): Promise<PreparedOperation> => {
  const choice = command.output;
  if (choice !== 'pinned') resolveOutputSpec(editOrGenerate(command.operation), choice);

  // Edit and generate name subjects in the prompt; for enhance and remix the prompt only guides (spec).
  const { referenced, namedInPrompt } =
    command.operation === 'edit' || command.operation === 'generate'
      ? mergeReferences(command.profileIds, command.prompt)
      : { referenced: [...new Set(command.profileIds)], namedInPrompt: [] };
  const profiles = referenced.length > 0 ? await deps.profiles.findMany(caller.accountId, referenced) : [];
  checkReferencedProfiles(referenced, profiles);

  const images = await Promise.all(command.inputs.map((input) => deps.decodeInput(input.value, input.label, signal)));
  const first = images[0];
  const outputFormat = command.outputFormat ?? defaultOutputFormat(deps.clock(), deps.settings.outputFormatSwitchAt);

  let size: { width: number; height: number };
  let priced: PricedRequest;
  let baseModel: string;
  let quality: string | undefined;
  if (choice === 'pinned') {
    if (!first) throw new Error(`${command.operation} needs an input image`);
    size = pinnedTwoK(first.width, first.height);
    priced = { operation: pinnedOperation(command.operation), numOutputImages: command.numOutputImages };
    baseModel = 'base-c-2';
  } else {
    const spec = resolveOutputSpec(editOrGenerate(command.operation), { ...choice, inputAspect: first ? first.width / first.height : undefined });
    size = { width: spec.width, height: spec.height };
    priced = { operation: editOrGenerate(command.operation), output: spec, numOutputImages: command.numOutputImages };
    baseModel = spec.baseModel;
    quality = spec.quality;
  }
  // Every referenced profile is a candidate; one without a signature can only be named, not matched.
  const candidates = profiles.map((profile) => ({ profileId: profile.profileId, signature: profile.signature ?? '' }));
  return {
    engineRequest: {
      operation: command.operation,
      prompt: command.prompt,
      images,
      width: size.width,
      height: size.height,
      outputFormat,
      numOutputImages: command.numOutputImages,
      baseModel,
      quality,
      candidates,
      namedInPrompt,
    },
    priced,
    floorMicros: floorPrice(priced),
  };
};

const editOrGenerate = (operation: Operation): 'edit' | 'generate' => {
  if (operation !== 'edit' && operation !== 'generate') throw new Error(`${operation} takes no output choice`);
  return operation;
};
const pinnedOperation = (operation: Operation): 'enhance' | 'remix' => {
  if (operation !== 'enhance' && operation !== 'remix') throw new Error(`${operation} is not pinned`);
  return operation;
};

/** A refusal or failure as the job records it and as the caller sees it. */
export const outcomeError = (outcome: Exclude<EngineOutcome, { kind: 'images' }>): DomainError =>
  outcome.kind === 'moderated' ? new ContentModerationError(outcome.message) : new NoImageGeneratedError(outcome.message);

export const jobErrorOf = (error: unknown): JobError =>
  error instanceof DomainError ? { code: error.code, message: error.message } : { code: 'INTERNAL_ERROR', message: 'The image engine failed. The reserved cost was refunded.' };

/** Runs the engine until it answers or `signal` aborts, whichever is first (an engine that ignores aborts is left behind). */
export const runEngine = (engine: ImageEngine, request: EngineRequest, signal: AbortSignal): Promise<EngineOutcome> =>
  new Promise<EngineOutcome>((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    engine.run(request, signal).then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });

class DeadlineReached extends Error {}

/**
 * A synchronous operation: prepare, reserve, run under the deadline, settle or release, answer.
 * The budget covers the whole request (fetching inputs included).
 */
/** The job record's own fields, as the reservation creates it. */
const jobAttributes = (jobId: string, caller: Caller, command: ImageCommand, context: { baseUrl: string }, at: number, mode: Job['mode']) => ({
  type: 'job',
  jobId,
  accountId: caller.accountId,
  operation: command.operation,
  mode,
  status: mode === 'sync' ? 'running' : 'pending',
  createdAt: at,
  startedAt: mode === 'sync' ? at : null,
  responseMode: command.responseMode,
  callbackUrl: command.callbackUrl ?? null,
  clientRequestId: command.clientRequestId ?? null,
  baseUrl: context.baseUrl,
});

/**
 * What makes two requests the same request: the command without its client_request_id (the schema has
 * filled in defaults and the command's fields are in a fixed order, so field order and omitted defaults
 * in the body do not count).
 */
export const requestFingerprint = (command: ImageCommand): string => {
  const { clientRequestId: _key, ...request } = command;
  return createHash('sha256').update(JSON.stringify(request)).digest('base64url');
};

/**
 * The idempotency record lives as long as its job can: our code frees it once the job has expired; its
 * TTL (the longest a job can run, plus retention and the TTL grace) only cleans up.
 */
const idempotencyCompanions = (command: ImageCommand, jobId: string, at: number, settings: ImageDeps['settings']) =>
  command.clientRequestId
    ? [
        {
          sortKey: idempotencySortKey(command.clientRequestId),
          attributes: {
            type: 'idempotency',
            jobId,
            clientRequestId: command.clientRequestId,
            fingerprint: requestFingerprint(command),
            ttl: Math.floor((at + Math.max(settings.syncBudgetMs, settings.asyncBudgetMs) + JOB_RETENTION_MS + TTL_GRACE_MS) / 1000),
          },
        },
      ]
    : [];

export const runSync = async (deps: ImageDeps, caller: Caller, command: ImageCommand, context: { baseUrl: string }): Promise<ImageResultBody> => {
  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(new DeadlineReached()), deps.settings.syncBudgetMs);
  const budgetSeconds = Math.round(deps.settings.syncBudgetMs / 1000);
  try {
    const prepared = await prepare(deps, caller, command, deadline.signal).catch((error: unknown) => {
      throw error instanceof DeadlineReached ? new RequestTimeoutError(budgetSeconds) : error;
    });
    const jobId = deps.newId('job');
    const owner = { kind: 'job' as const, id: jobId };
    const startedAt = deps.clock();
    await deps.ledger.reserve({
      accountId: caller.accountId,
      owner,
      amountMicros: prepared.floorMicros,
      ownerAttributes: jobAttributes(jobId, caller, command, context, startedAt, 'sync'),
      companions: idempotencyCompanions(command, jobId, startedAt, deps.settings),
      at: startedAt,
    });

    const fail = async (error: DomainError | Error): Promise<never> => {
      const at = deps.clock();
      await deps.ledger.release({
        accountId: caller.accountId,
        owner,
        ownerPatch: { status: 'failed', error: jobErrorOf(error), ...completion(at) },
        at,
      });
      throw error;
    };

    let outcome: EngineOutcome;
    try {
      outcome = await runEngine(deps.engine, prepared.engineRequest, deadline.signal);
    } catch (error) {
      return await fail(error instanceof DeadlineReached || deadline.signal.aborted ? new RequestTimeoutError(budgetSeconds) : (error as Error));
    }
    if (outcome.kind !== 'images') return await fail(outcomeError(outcome));

    const { outputFormat } = prepared.engineRequest;
    let outputKeys: string[];
    try {
      outputKeys = await deps.outputs.save(caller.accountId, jobId, outcome.images, outputFormat);
    } catch (error) {
      return await fail(error as Error);
    }
    const completedAt = deps.clock();
    const knownSubjects = outcome.knownSubjects;
    try {
      await deps.ledger.settle({
        accountId: caller.accountId,
        owner,
        finalMicros: finalPrice(prepared.priced, outcome),
        ownerPatch: {
          status: 'succeeded',
          result: { outputKeys, outputFormat, knownSubjects },
          ...completion(completedAt),
        },
        at: completedAt,
      });
    } catch (error) {
      // Unsettled work is not delivered, and its reservation must not stay held: release it (a no-op
      // if the settle did land after all) and answer the failure.
      return await fail(error as Error);
    }
    return {
      known_subjects: { counts: knownSubjects },
      images: command.responseMode === 'bytes' ? outcome.images.map((image) => image.toString('base64')) : [],
      download_urls:
        command.responseMode === 'urls'
          ? await Promise.all(
              outputKeys.map((objectKey) => deps.outputs.link(context.baseUrl, { objectKey, accountId: caller.accountId, expiresAt: completedAt + DOWNLOAD_LINK_LIFETIME_MS })),
            )
          : [],
    };
  } finally {
    clearTimeout(timer);
  }
};

export interface JobHandle {
  job_id: string;
  status: 'pending';
  poll_url: string;
}

/** What a submit answers: a result (synchronous) or a job handle (asynchronous), possibly replayed. */
export type SubmitOutcome = { kind: 'result'; body: ImageResultBody; replayed: boolean } | { kind: 'accepted'; body: JobHandle; replayed: boolean };

/** A synchronous job still unfinished this long past its budget was abandoned by its request. */
const ABANDONED_AFTER_MS = 60_000;

const handleOf = (jobId: string): JobHandle => ({ job_id: jobId, status: 'pending', poll_url: `/v2/service/jobs/${jobId}` });

/** The answer the original request got (or will get), for a repeated client_request_id. */
const replayOf = async (deps: ImageDeps, caller: Caller, jobId: string): Promise<SubmitOutcome> => {
  const deadline = deps.clock() + deps.settings.syncBudgetMs;
  for (;;) {
    const job = await deps.jobs.get(caller.accountId, jobId);
    if (!job) throw new Error(`idempotency record names job ${jobId}, which does not exist`);
    if (job.mode === 'async') return { kind: 'accepted', body: handleOf(jobId), replayed: true };
    if (isTerminal(job.status)) {
      if (job.status === 'failed' || !job.result) throw new DomainError(job.error?.code ?? 'INTERNAL_ERROR', job.error?.message ?? 'The original request failed.');
      const result = job.result;
      return {
        kind: 'result',
        replayed: true,
        body: {
          known_subjects: { counts: result.knownSubjects },
          images: job.responseMode === 'bytes' ? (await deps.outputs.load(result.outputKeys)).map((image) => image.toString('base64')) : [],
          download_urls:
            job.responseMode === 'urls'
              ? await Promise.all(
                  result.outputKeys.map((objectKey) =>
                    deps.outputs.link(job.baseUrl, { objectKey, accountId: job.accountId, expiresAt: (job.completedAt ?? job.createdAt) + DOWNLOAD_LINK_LIFETIME_MS }),
                  ),
                )
              : [],
        },
      };
    }
    if (job.createdAt + deps.settings.syncBudgetMs + ABANDONED_AFTER_MS < deps.clock()) {
      // The original request died with its function (e.g. out of memory) before it could finish:
      // release its reservation so that neither the money nor the client_request_id stays held.
      const at = deps.clock();
      await deps.ledger.release({ accountId: caller.accountId, owner: { kind: 'job', id: jobId }, ownerPatch: { status: 'failed', error: jobErrorOf(new Error('abandoned')), ...completion(at) }, at });
      continue;
    }
    if (deps.clock() >= deadline) throw new RequestTimeoutError(Math.round(deps.settings.syncBudgetMs / 1000));
    await new Promise((resolve) => setTimeout(resolve, deps.settings.replayPollMs));
  }
};

/** The job a repeated client_request_id names, provided the request is the same one. */
const sameRequestJob = (command: ImageCommand, clientRequestId: string, found: { jobId: string; fingerprint: string | null }): string => {
  if (found.fingerprint !== null && found.fingerprint !== requestFingerprint(command)) throw new IdempotencyKeyReusedError(clientRequestId);
  return found.jobId;
};

/** An earlier job for this client_request_id that still counts (its record is freed once the job expired). */
const earlierJob = async (deps: ImageDeps, caller: Caller, command: ImageCommand, clientRequestId: string): Promise<string | undefined> => {
  const found = await deps.jobs.findByClientRequestId(caller.accountId, clientRequestId);
  if (!found) return undefined;
  const job = await deps.jobs.get(caller.accountId, found.jobId);
  // A job past its expiry (or already cleaned up by TTL) no longer holds its client_request_id.
  if (!job || (job.expiresAt !== null && deps.clock() >= job.expiresAt)) {
    await deps.jobs.forgetClientRequestId(caller.accountId, clientRequestId, found.jobId);
    return undefined;
  }
  return sameRequestJob(command, clientRequestId, found);
};

/**
 * Asynchronous submit: the same checks and decoding as a synchronous call, then the inputs kept for the
 * workflow, the floor reserved in the transaction that creates the job, and the workflow started
 * (execution name = job id). If the workflow cannot be started the reservation is released at once.
 */
const submitAsync = async (deps: ImageDeps, caller: Caller, command: ImageCommand, context: { baseUrl: string }): Promise<SubmitOutcome> => {
  const prepared = await prepare(deps, caller, command, new AbortController().signal);
  const jobId = deps.newId('job');
  const inputs = await deps.inputs.save(caller.accountId, jobId, prepared.engineRequest.images);
  const { images: _decoded, ...engine } = prepared.engineRequest;
  const at = deps.clock();
  try {
    await deps.ledger.reserve({
      accountId: caller.accountId,
      owner: { kind: 'job', id: jobId },
      amountMicros: prepared.floorMicros,
      ownerAttributes: { ...jobAttributes(jobId, caller, command, context, at, 'async'), work: { engine, inputs, priced: prepared.priced } },
      companions: idempotencyCompanions(command, jobId, at, deps.settings),
      at,
    });
  } catch (error) {
    // No job was created (402, or a lost idempotency race): its inputs go too.
    await deps.inputs.remove(caller.accountId, jobId);
    throw error;
  }
  try {
    await deps.workflows.startImageJob({ accountId: caller.accountId, jobId, hasCallback: command.callbackUrl !== undefined });
  } catch (error) {
    const failedAt = deps.clock();
    const unavailable = new ServiceUnavailableError('The job could not be started; nothing was charged. Please retry.');
    await deps.ledger.release({ accountId: caller.accountId, owner: { kind: 'job', id: jobId }, ownerPatch: { status: 'failed', error: jobErrorOf(unavailable), ...completion(failedAt) }, at: failedAt });
    throw Object.assign(unavailable, { cause: error });
  }
  return { kind: 'accepted', body: handleOf(jobId), replayed: false };
};

/**
 * Every image operation enters here. A repeated client_request_id returns the original job (or, for a
 * synchronous call, its result once ready) and creates and charges nothing; concurrent repeats race on
 * the idempotency record, which the reservation creates, so exactly one of them creates the job.
 */
export const submit = async (deps: ImageDeps, caller: Caller, command: ImageCommand, context: { baseUrl: string }): Promise<SubmitOutcome> => {
  const clientRequestId = command.clientRequestId;
  if (clientRequestId) {
    const jobId = await earlierJob(deps, caller, command, clientRequestId);
    if (jobId) return replayOf(deps, caller, jobId);
  }
  try {
    return command.async ? await submitAsync(deps, caller, command, context) : { kind: 'result', body: await runSync(deps, caller, command, context), replayed: false };
  } catch (error) {
    if (clientRequestId && error instanceof AlreadyExistsError && error.sortKey === idempotencySortKey(clientRequestId)) {
      const found = await deps.jobs.findByClientRequestId(caller.accountId, clientRequestId);
      if (found) return replayOf(deps, caller, sameRequestJob(command, clientRequestId, found));
    }
    throw error;
  }
};
