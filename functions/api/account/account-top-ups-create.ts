import { topUpDeps, topUpLimits } from '../../composition/account/billing';
import { createTopUp, topUpAmount } from '../../domain/billing/top-ups';
import { type ApiRequest, apiHandler } from '../../entry/http/api-handler';
import { created } from '../../entry/http/responses';
import { RequestValidationError, valueErrorDetail } from '../../entry/http/validation';
import { type TopUpRequest, TopUpRequestSchema } from '../schemas/billing';

/**
 * POST /v2/service/account/top-ups: a pending top-up and Stripe's Checkout page to pay it on; the portal's
 * Billing page is where Checkout sends the developer back. Only Stripe's webhook credits it.
 */
const lambdaHandler = async ({ body, caller, baseUrl }: ApiRequest<TopUpRequest>) => {
  const amount = topUpAmount(body.amount, topUpLimits());
  if ('problem' in amount)
    throw new RequestValidationError([valueErrorDetail(['body', 'amount'], amount.problem, body.amount)]);
  return created(
    await createTopUp(topUpDeps(), caller, {
      amountMicros: amount.micros,
      returnUrl: `${baseUrl}/portal#/billing`,
      saveCard: body.save_card,
    }),
  );
};

export const handler = apiHandler(lambdaHandler, { body: TopUpRequestSchema });
