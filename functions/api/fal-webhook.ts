import * as v from 'valibot';
import { FalWebhookBodySchema } from '../adapters/engine/providers/fal/webhook';
import { falWebhookCheck, reportDeps } from '../composition/provider-reports';
import { InvalidRequestError } from '../domain/errors';
import { acceptProviderReport, InvalidReportSignatureError } from '../domain/workflow/reports';
import { type ApiRequest, apiHandler } from '../entry/http/api-handler';
import { ok } from '../entry/http/responses';
import { FalWebhookQuerySchema } from './schemas/providers';

/**
 * POST /v2/service/providers/fal/webhook?account=…&job=…&sig=…: fal reports one request's end (fal/webhook.ts).
 * Not authenticated by an API key: our token in the URL names the job, fal's ED25519 signature the delivery.
 * The raw body is what fal signed, so it is read before any parsing.
 */
const lambdaHandler = async ({
  query,
  headers,
  rawBody,
  log,
}: ApiRequest<undefined, v.InferOutput<typeof FalWebhookQuerySchema>>) => {
  const checked = await falWebhookCheck()(headers, rawBody);
  if (!checked.ok) {
    log.warn('fal webhook refused', { reason: checked.reason, job_id: query.job });
    throw new InvalidReportSignatureError(checked.reason);
  }
  let json: unknown;
  try {
    json = JSON.parse(rawBody.toString('utf8'));
  } catch {
    throw new InvalidRequestError('The body is not JSON.');
  }
  const body = v.safeParse(FalWebhookBodySchema, json);
  if (!body.success) throw new InvalidRequestError(`The body is not a fal webhook: ${v.summarize(body.issues)}`);
  if (body.output.request_id !== checked.requestId)
    throw new InvalidReportSignatureError('the body names another request than the signed header');
  const answer = await acceptProviderReport(reportDeps(), {
    accountId: query.account,
    jobId: query.job,
    token: query.sig,
    requestId: checked.requestId,
    ok: body.output.status === 'OK',
  });
  log.info('fal webhook accepted', { job_id: query.job, request_id: checked.requestId, ...answer });
  return ok(answer);
};

export const handler = apiHandler(lambdaHandler, { query: FalWebhookQuerySchema, auth: 'none' });
