import { webhookTestDeps } from '../../composition/jobs/callbacks';
import { Callbacks } from '../../domain';
import { type ApiRequest, apiHandler } from '../../entry/http/api-handler';
import { ok } from '../../entry/http/responses';
import { type WebhookTestRequest, WebhookTestRequestSchema } from '../schemas/callbacks';
import { assertBodyUrlReachable } from '../support/callback-url';

/** POST /v2/service/webhook-test: one signed test event to `url`, answered with what the receiver did. */
const lambdaHandler = async ({ body, caller }: ApiRequest<WebhookTestRequest>) => {
  assertBodyUrlReachable('url', body.url);
  return ok(await Callbacks.testWebhook(webhookTestDeps(), caller, body.url));
};

export const handler = apiHandler(lambdaHandler, { body: WebhookTestRequestSchema });
