import { type ApiRequest, apiHandler } from '../../entry/http/api-handler';
import { created } from '../../entry/http/responses';
import { type TopUpRequest, TopUpRequestSchema } from '../schemas/billing';
import { openTopUp } from '../support/top-up';

/**
 * POST /v2/service/account/top-ups: a pending top-up and Stripe's Checkout page to pay it on; the portal's
 * Billing page is where Checkout sends the developer back. Only Stripe's webhook credits it. `save_card`
 * is refused here (403 PERSON_REQUIRED): a card for automatic charges is saved in the portal only.
 */
const lambdaHandler = async ({ body, caller, baseUrl }: ApiRequest<TopUpRequest>) =>
  created(await openTopUp(caller, body, baseUrl, 'api-key'));

export const handler = apiHandler(lambdaHandler, { body: TopUpRequestSchema });
