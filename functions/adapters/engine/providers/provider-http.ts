/**
 * One call to a hosted provider over HTTPS, with the retry rules every provider adapter shares: a network
 * error, an attempt timeout, 429 and 5xx are tried again (honouring Retry-After, else jittered exponential
 * backoff) while attempts and the deadline allow; any other answer, 2xx or 4xx, is handed back to the
 * adapter, which knows what a 400 means for its provider (a refusal, or a request it got wrong). The
 * caller's AbortSignal ends everything at once with its own reason.
 *
 * A provider is asked to do work once: a call that starts paid work at a provider that does not
 * deduplicate names the statuses that provider documents as "not processed" (`notProcessed`, each
 * adapter cites its own). Only those, and a connection that was never made (the body never left), are
 * tried again; any other 5xx, an attempt timeout or a connection lost once the request may have been sent
 * fails at once with `mayHaveRun` (the provider may have done, and charged, the work): never repeated.
 *
 * Every attempt of one call carries the same headers, so an `Idempotency-Key` set by the adapter (from
 * the request's workKey) is repeated, never renewed.
 */
import { setTimeout as delay } from 'node:timers/promises';
import { type Clock, systemClock } from '../../../domain/shared/clock';

export type Fetch = typeof globalThis.fetch;

/** Waits, rejecting as soon as `signal` aborts. */
export type Wait = (milliseconds: number, signal: AbortSignal) => Promise<void>;

/** An engine or provider failure: it could not be reached, refused the request, or broke its contract; `retryable` says whether another try may help. */
export class HttpEngineError extends Error {
  readonly retryable: boolean;
  readonly status?: number;
  readonly retryAfterSeconds?: number;
  /** The request may have reached the provider and started paid work whose answer was lost: never sent again. */
  readonly mayHaveRun?: boolean;

  constructor(
    message: string,
    details: { retryable: boolean; status?: number; retryAfterSeconds?: number; cause?: unknown; mayHaveRun?: boolean },
  ) {
    super(message, { cause: details.cause });
    this.name = 'HttpEngineError';
    this.retryable = details.retryable;
    this.status = details.status;
    this.retryAfterSeconds = details.retryAfterSeconds;
    if (details.mayHaveRun) this.mayHaveRun = true;
  }
}

export interface RetryPolicy {
  maxAttempts: number;
  attemptTimeoutSeconds: number;
  /** Bounds all attempts and backoffs of one call together. */
  deadlineSeconds: number;
  retryBaseDelaySeconds: number;
  /** Longest wait honoured from a Retry-After header; a longer one gives up at once. */
  maxRetryAfterSeconds: number;
}

export const PROVIDER_RETRY_DEFAULTS: RetryPolicy = {
  maxAttempts: 4,
  attemptTimeoutSeconds: 300,
  deadlineSeconds: 840,
  retryBaseDelaySeconds: 1,
  maxRetryAfterSeconds: 60,
};

/** What an adapter may replace (tests replace the wait, the jitter and the clock). */
export interface ProviderTransport {
  fetch: Fetch;
  wait: Wait;
  /** Uniform in [0, 1), for the jitter. */
  random: () => number;
  clock: Clock;
  policy: RetryPolicy;
}

export const defaultTransport = (overrides: Partial<ProviderTransport> = {}): ProviderTransport => ({
  fetch: overrides.fetch ?? ((input, init) => globalThis.fetch(input, init)),
  wait: overrides.wait ?? (async (milliseconds, signal) => void (await delay(milliseconds, undefined, { signal }))),
  random: overrides.random ?? Math.random,
  clock: overrides.clock ?? systemClock,
  policy: { ...PROVIDER_RETRY_DEFAULTS, ...overrides.policy },
});

export interface ProviderCall {
  /** For messages: "OpenAI", "Gemini", "fal". */
  provider: string;
  url: string | URL;
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  headers: Record<string, string>;
  /** A string (JSON) or a FormData (multipart); rebuilt by the caller never, reused on every attempt. */
  body?: string | FormData;
  /**
   * Set on a call that starts paid work at a provider that does not deduplicate it: the statuses the
   * provider documents as "the work was not done" (429, an overload refusal), the only answers tried again.
   * Absent: the call is safe to repeat (a read, a cancel, an engine that honours Idempotency-Key).
   */
  notProcessed?: readonly number[];
}

/**
 * Errors of a connection that was never made: the request's body never left, so nothing can have started
 * (undici's `cause.code`, or Node's system errors).
 */
const NEVER_SENT_CODES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'UND_ERR_CONNECT_TIMEOUT',
]);

const neverSent = (error: unknown): boolean => {
  // Duck-typed: fetch's errors may come from another realm (a test sandbox), where instanceof Error fails.
  let cause: unknown = error;
  for (let depth = 0; typeof cause === 'object' && cause !== null && depth < 5; depth += 1) {
    const { code, cause: next } = cause as { code?: unknown; cause?: unknown };
    if (typeof code === 'string' && NEVER_SENT_CODES.has(code)) return true;
    cause = next;
  }
  return false;
};

/** A provider's answer that is not worth retrying: any 2xx, or a 4xx other than 429. */
export interface ProviderAnswer {
  status: number;
  headers: Headers;
  text: string;
}

/** Parses the Retry-After header (seconds or an HTTP date) into seconds, if present and sane. */
export const retryAfterSeconds = (headers: Headers, now: number): number | undefined => {
  const value = headers.get('retry-after');
  if (value === null || value.trim() === '') return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return seconds >= 0 ? seconds : undefined;
  const at = Date.parse(value);
  return Number.isFinite(at) ? Math.max(0, (at - now) / 1000) : undefined;
};

export const sendWithRetries = async (
  transport: ProviderTransport,
  call: ProviderCall,
  signal: AbortSignal,
): Promise<ProviderAnswer> => {
  signal.throwIfAborted();
  const { policy, clock } = transport;
  const deadlineAt = clock() + policy.deadlineSeconds * 1000;
  for (let attempt = 1; ; attempt += 1) {
    const remainingMs = deadlineAt - clock();
    try {
      return await attemptOnce(transport, call, Math.min(policy.attemptTimeoutSeconds * 1000, remainingMs), signal);
    } catch (error) {
      if (signal.aborted) throw signal.reason;
      if (!(error instanceof HttpEngineError) || !error.retryable) throw error;
      const tooLong = error.retryAfterSeconds !== undefined && error.retryAfterSeconds > policy.maxRetryAfterSeconds;
      const backoffMs =
        error.retryAfterSeconds !== undefined
          ? error.retryAfterSeconds * 1000
          : ((ceiling) => ceiling / 2 + transport.random() * (ceiling / 2))(
              policy.retryBaseDelaySeconds * 1000 * 2 ** (attempt - 1),
            );
      if (attempt >= policy.maxAttempts || tooLong || clock() + backoffMs >= deadlineAt) {
        const why =
          attempt >= policy.maxAttempts
            ? `gave up after ${attempt} attempts`
            : tooLong
              ? `it asked to wait ${error.retryAfterSeconds} s`
              : 'no time left for another attempt before the deadline';
        throw new HttpEngineError(`${error.message} (${why})`, {
          retryable: false,
          status: error.status,
          cause: error,
        });
      }
      // The caller's abort ends the backoff with the caller's own reason, not the timer's AbortError.
      await transport.wait(backoffMs, signal).catch((error: unknown) => {
        throw signal.aborted ? signal.reason : error;
      });
    }
  }
};

const MAY_HAVE_RUN = ' (the provider may have done the work: not sent again)';

const attemptOnce = async (
  transport: ProviderTransport,
  call: ProviderCall,
  timeoutMs: number,
  signal: AbortSignal,
): Promise<ProviderAnswer> => {
  const attempt = new AbortController();
  let timedOut = false;
  const timer = setTimeout(
    () => {
      timedOut = true;
      attempt.abort();
    },
    Math.max(0, timeoutMs),
  );
  const cancel = () => attempt.abort(signal.reason);
  signal.addEventListener('abort', cancel, { once: true });
  try {
    const response = await transport.fetch(call.url, {
      method: call.method,
      headers: call.headers,
      body: call.body,
      signal: attempt.signal,
    });
    const text = await response.text();
    if (response.status === 429 || response.status >= 500) {
      const notDone = call.notProcessed === undefined || call.notProcessed.includes(response.status);
      throw new HttpEngineError(
        `${call.provider} answered HTTP ${response.status}: ${text.slice(0, 300)}${notDone ? '' : MAY_HAVE_RUN}`,
        {
          retryable: notDone,
          status: response.status,
          retryAfterSeconds: retryAfterSeconds(response.headers, transport.clock()),
          mayHaveRun: !notDone,
        },
      );
    }
    return { status: response.status, headers: response.headers, text };
  } catch (error) {
    if (error instanceof HttpEngineError || signal.aborted) throw error;
    const message = error instanceof Error ? error.message : String(error);
    // A POST of paid work whose connection was made may have been received: its loss is not a "no".
    const mayHaveRun = call.notProcessed !== undefined && (timedOut || !neverSent(error));
    throw new HttpEngineError(
      (timedOut
        ? `${call.provider} attempt timed out after ${(timeoutMs / 1000).toFixed(1)} s`
        : `${call.provider} unreachable: ${message}`) + (mayHaveRun ? MAY_HAVE_RUN : ''),
      { retryable: !mayHaveRun, cause: error, mayHaveRun },
    );
  } finally {
    clearTimeout(timer);
    signal.removeEventListener('abort', cancel);
  }
};

/** A provider answer that breaks its own published format: not retried (the same request would break again). */
export const malformedAnswer = (provider: string, reason: string, cause?: unknown): HttpEngineError =>
  new HttpEngineError(`${provider} answer does not match its API: ${reason}`, { retryable: false, cause });

/** Parses JSON or throws malformedAnswer. */
export const parseJson = (provider: string, text: string): unknown => {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw malformedAnswer(provider, 'not JSON', error);
  }
};
