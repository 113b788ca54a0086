import { type ApiRequest, apiHandler } from '../../entry/http/api-handler';
import { ok } from '../../entry/http/responses';
import { type BillingSettingsRequest, BillingSettingsRequestSchema } from '../schemas/billing';
import { applyBillingSettings } from '../support/billing-settings';

/**
 * PUT /v2/service/account/billing: auto-recharge, the low-balance threshold and where account events go.
 * With an API key auto-recharge may only be turned off or lowered: turning it on or raising it is a
 * person's, in the portal (domain/billing/recharge-rules.ts).
 */
const lambdaHandler = async ({ body, caller }: ApiRequest<BillingSettingsRequest>) =>
  ok(await applyBillingSettings(caller, body, 'api-key'));

export const handler = apiHandler(lambdaHandler, { body: BillingSettingsRequestSchema, bodyOptional: true });
