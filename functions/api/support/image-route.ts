import type * as v from 'valibot';
import type { SubmitOutcome } from '../../domain/images/submit';
import { imageResultBody } from '../../domain/jobs/result';
import { type ApiRequest, apiHandler } from '../../entry/http/api-handler';
import { type ApiResult, accepted, ok } from '../../entry/http/responses';
import { streamingOnAws } from '../../entry/http/streaming';
import { assertCallbackUrlReachable } from './callback-url';

/** Announced switch of the default output format; every image-operation answer carries it (spec). */
export const DEPRECATION_HEADERS = { 'X-Service-Deprecation-Date': '2026-05-08' } as const;

/** An image operation: a JSON body, the deprecation header on every answer, streamed on AWS. */
export const imageOperationHandler = <B extends v.GenericSchema>(
  fn: (request: ApiRequest<v.InferOutput<B>>) => Promise<ApiResult>,
  body: B,
) =>
  streamingOnAws(
    apiHandler(
      async (request: ApiRequest<v.InferOutput<B>>) => {
        assertCallbackUrlReachable(request.body as { callback_url?: string });
        return fn(request);
      },
      { body, headers: DEPRECATION_HEADERS },
    ),
  );

/** The answer to an asynchronous submit (spec: `job_id`, `status`, `poll_url`). */
export const jobHandleBody = (jobId: string) => ({
  job_id: jobId,
  status: 'pending' as const,
  poll_url: `/v2/service/jobs/${jobId}`,
});

/**
 * 200 with the result (and `X-Job-Id`, the job it was recorded as, whose cost a poll shows), or 202 with
 * the job handle; a replay of a client_request_id says so.
 */
export const submitAnswer = (outcome: SubmitOutcome): ApiResult => {
  const replayed: Record<string, string> = outcome.replayed ? { 'Idempotent-Replayed': 'true' } : {};
  return outcome.kind === 'accepted'
    ? accepted(jobHandleBody(outcome.jobId), outcome.replayed ? replayed : undefined)
    : ok(imageResultBody(outcome.result), { ...replayed, 'X-Job-Id': outcome.result.jobId });
};
