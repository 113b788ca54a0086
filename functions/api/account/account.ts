import { statementDeps } from '../../composition/account/account';
import { Statement } from '../../domain';
import { type ApiRequest, apiHandler } from '../../entry/http/api-handler';
import { ok } from '../../entry/http/responses';

/** GET /v2/service/account: the balance (USD and micro-USD), the default model version and the limits in force. */
const lambdaHandler = async ({ caller }: ApiRequest) => ok(await Statement.accountSummary(statementDeps(), caller));

export const handler = apiHandler(lambdaHandler);
