import { formatUsd } from './shared/money';

/**
 * The one error hierarchy. Domain errors carry a stable `code` and a message that is safe to show to
 * the caller; `functions/entry/http/error-mapping.ts` is the only place that turns a code into an
 * HTTP status. Anything that is not a DomainError is an internal error and is never shown.
 */
export const ERROR_CODES = [
  'INVALID_REQUEST',
  'MISSING_API_KEY',
  'INVALID_API_KEY',
  'INSUFFICIENT_SCOPE',
  'PERSON_REQUIRED',
  'INSUFFICIENT_BALANCE',
  'BALANCE_IN_DEBT',
  'NOT_FOUND',
  'JOB_EXPIRED',
  'DOWNLOAD_EXPIRED',
  'PAYLOAD_TOO_LARGE',
  'CONTENT_MODERATION',
  'MIXED_PROFILE_MODEL_VERSIONS',
  'PROFILE_NOT_READY',
  'PROFILE_NEEDS_REEMBEDDING',
  'NO_IMAGE_GENERATED',
  'INTERNAL_ERROR',
  'SERVICE_UNAVAILABLE',
  'TIMEOUT',
  'IDEMPOTENCY_KEY_REUSED',
  'RATE_LIMITED',
  'CANCELED',
  'JOB_NOT_CANCELABLE',
  'JOB_NOT_FINISHED',
  // The developer portal's own refusals (functions/domain/portal/portal.ts), never a public route's.
  'INVALID_CREDENTIALS',
  'SESSION_REQUIRED',
  'CSRF_FAILED',
  'INVITATION_INVALID',
  'EMAIL_TAKEN',
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

/** The portal's own codes, which no public route answers (so the public API's document leaves them out). */
export const PORTAL_ERROR_CODES = [
  'INVALID_CREDENTIALS',
  'SESSION_REQUIRED',
  'CSRF_FAILED',
  'INVITATION_INVALID',
  'EMAIL_TAKEN',
] as const satisfies readonly ErrorCode[];
type PortalErrorCode = (typeof PORTAL_ERROR_CODES)[number];
/** The codes the public API may answer. */
export const API_ERROR_CODES = ERROR_CODES.filter(
  (code): code is Exclude<ErrorCode, PortalErrorCode> => !(PORTAL_ERROR_CODES as readonly string[]).includes(code),
);

export class DomainError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

export class InvalidRequestError extends DomainError {
  constructor(message: string) {
    super('INVALID_REQUEST', message);
  }
}

export class MissingApiKeyError extends DomainError {
  constructor() {
    super('MISSING_API_KEY', 'The X-API-Key header is required.');
  }
}

export class InvalidApiKeyError extends DomainError {
  constructor() {
    super('INVALID_API_KEY', 'The API key is not valid.');
  }
}

/** The key lacks the scope the route needs (domain/accounts/scopes.ts); the message names it. */
export class InsufficientScopeError extends DomainError {
  constructor(readonly scope: string) {
    super(
      'INSUFFICIENT_SCOPE',
      `This API key lacks the scope this operation needs: ${scope}. A person can create a key with it in the developer portal.`,
    );
  }
}

/**
 * What charges a card without a person present (turning auto-recharge on, raising it, saving a card) is
 * agreed to only in a person's portal session, never with an API key, whatever its scopes.
 */
export class PersonRequiredError extends DomainError {
  constructor(what: string) {
    super('PERSON_REQUIRED', `${what} is done by a person signed in to the developer portal, not with an API key.`);
  }
}

/**
 * The balance does not cover a reservation. `basis` 'ceiling': an image request's reservation is the
 * most it can cost (catalog/pricing.ts), and the message says so, so a caller knows what to top up.
 */
export class InsufficientBalanceError extends DomainError {
  constructor(
    readonly requiredMicros: number,
    readonly availableMicros?: number,
    readonly basis: 'price' | 'ceiling' = 'price',
  ) {
    const balance = availableMicros === undefined ? '' : ` The balance is ${formatUsd(availableMicros)}.`;
    super(
      'INSUFFICIENT_BALANCE',
      basis === 'ceiling'
        ? `Insufficient prepaid balance: this request can cost up to ${formatUsd(requiredMicros)} (its ceiling: every output at the most its model, size and quality can take, with every surcharge that may apply), which is reserved until it settles at its final price.${balance}`
        : `Insufficient prepaid balance: this request needs ${formatUsd(requiredMicros)}.${balance}`,
    );
  }
}

/**
 * A refund or a lost dispute took more than the balance held: the account owes the rest, and no new work
 * starts until a top-up or a credit has repaid it (billing/top-ups.ts).
 */
export class BalanceInDebtError extends DomainError {
  constructor(readonly debtMicros: number) {
    super(
      'BALANCE_IN_DEBT',
      `The account owes ${formatUsd(debtMicros)} after a refund or a lost payment dispute; new work starts once a top-up or a credit has repaid it.`,
    );
  }
}

export class NotFoundError extends DomainError {
  constructor(message: string) {
    super('NOT_FOUND', message);
  }
}

export class PayloadTooLargeError extends DomainError {
  constructor(limitBytes: number) {
    super('PAYLOAD_TOO_LARGE', `The request body exceeds ${limitBytes} bytes; send large images by URL.`);
  }
}

export class ContentModerationError extends DomainError {
  constructor(message = 'The request was blocked by content moderation.') {
    super('CONTENT_MODERATION', message);
  }
}

export class NoImageGeneratedError extends DomainError {
  constructor(message = 'The model finished without producing an image. This was not charged; retrying may succeed.') {
    super('NO_IMAGE_GENERATED', message);
  }
}

export class RequestTimeoutError extends DomainError {
  constructor(budgetSeconds: number) {
    super(
      'TIMEOUT',
      `The request exceeded ${budgetSeconds} s; the reserved cost was refunded. Resubmit with async: true.`,
    );
  }
}

export class ServiceUnavailableError extends DomainError {
  constructor(message: string) {
    super('SERVICE_UNAVAILABLE', message);
  }
}

/** A client_request_id sent again with a different request: answering the first job would hide the change. */
export class IdempotencyKeyReusedError extends DomainError {
  constructor(clientRequestId: string) {
    super(
      'IDEMPOTENCY_KEY_REUSED',
      `client_request_id ${JSON.stringify(clientRequestId)} was already used with a different request. Send the same request to get its result, or use a new client_request_id; nothing was charged.`,
    );
  }
}

export class JobExpiredError extends DomainError {
  constructor(jobId: string) {
    super('JOB_EXPIRED', `Job ${jobId} completed more than 24 hours ago; its result has expired.`);
  }
}

export class DownloadExpiredError extends DomainError {
  constructor() {
    super('DOWNLOAD_EXPIRED', 'This download link has expired (links are valid for 24 hours).');
  }
}

/** The account made more requests this minute than its limit; the answer says when to come back. */
export class RateLimitedError extends DomainError {
  constructor(
    readonly window: { limit: number; count: number; resetAt: number },
    readonly retryAfterSeconds: number,
    what = 'requests',
  ) {
    super(
      'RATE_LIMITED',
      `Too many ${what}: this account may make ${window.limit} per minute. Retry after ${retryAfterSeconds} s.`,
    );
  }
}

/**
 * A record that must be new already exists (a create lost a race, or a retry repeats a create).
 * Not shown to callers as such: use cases turn it into their own answer.
 */
export class AlreadyExistsError extends Error {
  constructor(readonly record: string) {
    super(`${record} already exists`);
    this.name = 'AlreadyExistsError';
  }
}

/**
 * The client_request_id a reservation claims is already claimed: another request with the same id won
 * the race (the reservation moved nothing). The submit answers with that request's job instead.
 */
export class ClientRequestIdTakenError extends Error {
  constructor(readonly clientRequestId: string) {
    super(`client_request_id ${clientRequestId} is already claimed`);
    this.name = 'ClientRequestIdTakenError';
  }
}

/** A job that can no longer be canceled: it has ended, or it is a synchronous call (its request owns it). */
export class JobNotCancelableError extends DomainError {
  constructor(message: string) {
    super('JOB_NOT_CANCELABLE', message);
  }
}

/** A job whose terminal event is asked for (a callback redelivery) before it has one. */
export class JobNotFinishedError extends DomainError {
  constructor(message: string) {
    super('JOB_NOT_FINISHED', message);
  }
}
