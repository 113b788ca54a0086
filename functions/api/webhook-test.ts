import { webhookTestDeps } from '../composition/callbacks';
import { settings } from '../composition/core';
import { rateLimitDeps } from '../composition/data';
import { admitOutboundSend } from '../domain/accounts/rate-limit';
import { Callbacks } from '../domain';
import { apiHandler, type ApiRequest } from '../shared/http/api-handler';
import { assertBodyUrlReachable } from '../shared/http/callback-url';
import { ok } from '../shared/http/responses';
import { WebhookTestRequestSchema, type WebhookTestRequest } from './schemas/callbacks';

/** POST /v2/service/webhook-test: one signed test event to `url`, answered with what the receiver did. */
const lambdaHandler = async ({ body, caller }: ApiRequest<WebhookTestRequest>) => {
  assertBodyUrlReachable('url', body.url);
  await admitOutboundSend(rateLimitDeps(), caller.accountId, settings().OUTBOUND_SENDS_PER_MINUTE);
  return ok(await Callbacks.testWebhook(webhookTestDeps(), caller, body.url));
};

export const handler = apiHandler(lambdaHandler, { body: WebhookTestRequestSchema });
