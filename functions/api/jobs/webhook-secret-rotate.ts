import { accountDeps } from '../../composition/data';
import { Accounts } from '../../domain';
import { type ApiRequest, apiHandler } from '../../entry/http/api-handler';
import { ok } from '../../entry/http/responses';

/**
 * POST /v2/service/webhook-secret/rotate: a new callback signing secret. For 24 h deliveries are signed
 * with the previous one too (docs/callbacks.md). The body is ignored: none and `{}` are the same request.
 */
const lambdaHandler = async ({ caller }: ApiRequest) => ok(await Accounts.rotateWebhookSecret(accountDeps(), caller));

export const handler = apiHandler(lambdaHandler);
