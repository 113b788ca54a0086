import { webhookTestDeps } from '../composition/callbacks';
import { settings } from '../composition/core';
import { rateLimitDeps } from '../composition/data';
import { Callbacks } from '../domain';
import { admitOutboundSend } from '../domain/accounts/rate-limit';
import { type ApiRequest, apiHandler } from '../shared/http/api-handler';
import { assertBodyUrlReachable } from '../shared/http/callback-url';
import { ok } from '../shared/http/responses';
import { type WebhookTestRequest, WebhookTestRequestSchema } from './schemas/callbacks';

/** POST /v2/service/webhook-test: one signed test event to `url`, answered with what the receiver did. */
const lambdaHandler = async ({ body, caller }: ApiRequest<WebhookTestRequest>) => {
  assertBodyUrlReachable('url', body.url);
  await admitOutboundSend(rateLimitDeps(), caller.accountId, settings().OUTBOUND_SENDS_PER_MINUTE);
  return ok(await Callbacks.testWebhook(webhookTestDeps(), caller, body.url));
};

export const handler = apiHandler(lambdaHandler, { body: WebhookTestRequestSchema });
