import { webhookTestDeps } from '../composition/callbacks';
import { Callbacks } from '../domain';
import { type ApiRequest, apiHandler } from '../shared/http/api-handler';
import { assertBodyUrlReachable } from '../shared/http/callback-url';
import { ok } from '../shared/http/responses';
import { type WebhookTestRequest, WebhookTestRequestSchema } from './schemas/callbacks';

/** POST /v2/service/webhook-test: one signed test event to `url`, answered with what the receiver did. */
const lambdaHandler = async ({ body, caller }: ApiRequest<WebhookTestRequest>) => {
  assertBodyUrlReachable('url', body.url);
  return ok(await Callbacks.testWebhook(webhookTestDeps(), caller, body.url));
};

export const handler = apiHandler(lambdaHandler, { body: WebhookTestRequestSchema });
