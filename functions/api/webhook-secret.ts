import { Accounts } from '../domain';
import { apiHandler, type ApiRequest } from '../shared/http/api-handler';
import { ok } from '../shared/http/responses';

/** GET /v2/service/webhook-secret: the account's callback signing secret, created on first use. */
const lambdaHandler = async ({ caller, services }: ApiRequest) => ok(await Accounts.webhookSecret(services, caller));

export const handler = apiHandler(lambdaHandler);
