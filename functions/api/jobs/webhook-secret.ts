import { accountDeps } from '../../composition/data';
import { Accounts } from '../../domain';
import { type ApiRequest, apiHandler } from '../../entry/http/api-handler';
import { ok } from '../../entry/http/responses';

/**
 * GET /v2/service/webhook-secret: the account's callback signing secret, created on first use; while a
 * rotation window is open, also until when the previous secret still signs.
 */
const lambdaHandler = async ({ caller }: ApiRequest) => ok(await Accounts.webhookSecret(accountDeps(), caller));

export const handler = apiHandler(lambdaHandler);
