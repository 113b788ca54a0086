import { topUpDeps, topUpLimits } from '../../composition/account/billing';
import type { Caller } from '../../domain/accounts/accounts';
import { assertMaySaveCard, type BillingActor } from '../../domain/billing/recharge-rules';
import { createTopUp, topUpAmount } from '../../domain/billing/top-ups';
import { RequestValidationError, valueErrorDetail } from '../../entry/http/validation';
import type { TopUpRequest } from '../schemas/billing';

/**
 * A top-up as POST /account/top-ups and the portal's Billing page both open it: the amount within the
 * operator's limits (else a 422 on `amount`), and Checkout sending the developer back to the Billing page.
 * Keeping the card for automatic charges (`save_card`) is a person's decision, in the portal (`actor`).
 */
export const openTopUp = async (caller: Caller, body: TopUpRequest, baseUrl: string, actor: BillingActor) => {
  assertMaySaveCard(actor, body.save_card);
  const amount = topUpAmount(body.amount, topUpLimits());
  if ('problem' in amount)
    throw new RequestValidationError([valueErrorDetail(['body', 'amount'], amount.problem, body.amount)]);
  return createTopUp(topUpDeps(), caller, {
    amountMicros: amount.micros,
    returnUrl: `${baseUrl}/portal#/billing`,
    saveCard: body.save_card,
  });
};
