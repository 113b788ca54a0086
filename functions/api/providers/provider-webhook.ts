import type * as v from 'valibot';
import { loraReportDeps } from '../../composition/profiles/lora-training';
import { reportDeps, reportingProvider } from '../../composition/providers/provider-reports';
import { acceptLoraReport } from '../../domain/profiles/lora-training';
import { acceptProviderReport, InvalidReportSignatureError } from '../../domain/workflow/reports';
import { type ApiRequest, apiHandler } from '../../entry/http/api-handler';
import { ok } from '../../entry/http/responses';
import { ProviderWebhookParamsSchema, ProviderWebhookQuerySchema } from '../schemas/providers';

/**
 * POST /v2/service/providers/{provider}/webhook?account=…&job=…&sig=…: a queued provider reports one
 * request's end (adapters/engine/providers/queued-provider.ts); with `profile=…` instead of `job`, the end of
 * a profile's training (a hosted LoRA trainer: domain/profiles/lora-training.ts). 404 for a provider that is unknown or does
 * not queue. Not authenticated by an API key: our token in the URL names the job, the provider's own
 * signature over the raw body the delivery.
 */
const lambdaHandler = async ({
  params,
  query,
  headers,
  rawBody,
  log,
}: ApiRequest<
  undefined,
  v.InferOutput<typeof ProviderWebhookQuerySchema>,
  v.InferOutput<typeof ProviderWebhookParamsSchema>
>) => {
  const report = await reportingProvider(params.provider).readReport(headers, rawBody);
  const fields = { provider: params.provider, job_id: query.job, profile_id: query.profile };
  if (!report.verified) {
    log.warn('provider webhook refused', { ...fields, reason: report.reason });
    throw new InvalidReportSignatureError(report.reason);
  }
  if (query.profile !== undefined) {
    const answer = await acceptLoraReport(loraReportDeps(), {
      accountId: query.account,
      profileId: query.profile,
      token: query.sig,
      requestId: report.requestId,
    });
    log.info('provider webhook accepted', { ...fields, request_id: report.requestId, ...answer });
    return ok(answer);
  }
  const answer = await acceptProviderReport(reportDeps(params.provider), {
    accountId: query.account,
    jobId: query.job ?? '',
    token: query.sig,
    requestId: report.requestId,
    ok: report.succeeded,
  });
  log.info('provider webhook accepted', { ...fields, request_id: report.requestId, ...answer });
  return ok(answer);
};

export const handler = apiHandler(lambdaHandler, {
  params: ProviderWebhookParamsSchema,
  query: ProviderWebhookQuerySchema,
  auth: 'none',
});
