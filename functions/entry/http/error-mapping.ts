/**
 * The one place where errors become HTTP answers. Domain errors map by their stable code; a validation
 * failure is a 422 in the FastAPI shape; anything else is logged with its stack and answered with a
 * generic 500 that leaks nothing.
 */

import { errorFields, type Logger } from '../../adapters/logger';
import { DomainError, type ErrorCode } from '../../domain/errors';
import { METRICS, type Meter, noMeter } from '../../domain/shared/meter';
import { answerableDetails, RequestValidationError } from './validation';

export const STATUS_BY_CODE: Record<ErrorCode, number> = {
  INVALID_REQUEST: 400,
  CONTENT_MODERATION: 400,
  MIXED_PROFILE_MODEL_VERSIONS: 400,
  PROFILE_NOT_READY: 400,
  PROFILE_NEEDS_REEMBEDDING: 400,
  IDEMPOTENCY_KEY_REUSED: 400,
  INVALID_API_KEY: 401,
  INSUFFICIENT_BALANCE: 402,
  BALANCE_IN_DEBT: 402,
  MISSING_API_KEY: 403,
  INSUFFICIENT_SCOPE: 403,
  PERSON_REQUIRED: 403,
  NOT_FOUND: 404,
  JOB_EXPIRED: 410,
  DOWNLOAD_EXPIRED: 410,
  PAYLOAD_TOO_LARGE: 413,
  RATE_LIMITED: 429,
  JOB_NOT_CANCELABLE: 409,
  JOB_NOT_FINISHED: 409,
  INVALID_CREDENTIALS: 401,
  SESSION_REQUIRED: 401,
  CSRF_FAILED: 403,
  INVITATION_INVALID: 400,
  EMAIL_TAKEN: 409,
  // Only ever a failed job's error.code (a canceled job), never an answer's.
  CANCELED: 409,
  NO_IMAGE_GENERATED: 422,
  INTERNAL_ERROR: 500,
  SERVICE_UNAVAILABLE: 503,
  TIMEOUT: 504,
};

export interface ErrorAnswer {
  statusCode: number;
  body: unknown;
}

export const errorAnswer = (error: unknown, requestId: string, log: Logger, meter: Meter = noMeter): ErrorAnswer => {
  if (error instanceof RequestValidationError) {
    const detail = answerableDetails(error.detail);
    // A log line stays short (CloudWatch cuts events at 256 KB): the first details and how many there were.
    log.info('request rejected', { status: 422, detail: detail.slice(0, 10), detail_count: error.detail.length });
    return { statusCode: 422, body: { detail } };
  }
  if (error instanceof DomainError) {
    const statusCode = STATUS_BY_CODE[error.code];
    // The spec's 500 (the engine failed, refunded) is counted apart from the 500s nobody meant.
    if (statusCode === 500) meter.count(METRICS.engineFailureAnswers);
    (statusCode >= 500 ? log.error : log.info)('request failed', {
      status: statusCode,
      code: error.code,
      ...(statusCode >= 500 ? errorFields(error) : {}),
    });
    return { statusCode, body: { detail: error.message, code: error.code, request_id: requestId } };
  }
  log.error('unhandled error', { status: 500, ...errorFields(error) });
  meter.count(METRICS.unexpectedServerErrors);
  return {
    statusCode: 500,
    body: {
      detail: 'Internal error. Quote the request id when you contact support.',
      code: 'INTERNAL_ERROR',
      request_id: requestId,
    },
  };
};
