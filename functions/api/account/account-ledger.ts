import { statementDeps } from '../../composition/account/account';
import { Statement } from '../../domain';
import { type ApiRequest, apiHandler } from '../../entry/http/api-handler';
import { ok } from '../../entry/http/responses';
import { type LedgerQuery, LedgerQuerySchema } from '../schemas/account';

/** GET /v2/service/account/ledger: the account's ledger entries, newest first, each with the balance after it. */
const lambdaHandler = async ({ query, caller }: ApiRequest<undefined, LedgerQuery>) =>
  ok(await Statement.ledger(statementDeps(), caller, { limit: query.limit, cursor: query.cursor }));

export const handler = apiHandler(lambdaHandler, { query: LedgerQuerySchema });
