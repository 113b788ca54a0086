import { billingSettingsDeps } from '../../composition/account/billing';
import { billingSettings } from '../../domain/billing/auto-billing';
import { type ApiRequest, apiHandler } from '../../entry/http/api-handler';
import { ok } from '../../entry/http/responses';

/** GET /v2/service/account/billing: auto-recharge, the low-balance notice, the balance and any debt. */
const lambdaHandler = async ({ caller }: ApiRequest) => ok(await billingSettings(billingSettingsDeps(), caller));

export const handler = apiHandler(lambdaHandler);
