import { billingSettingsDeps } from '../../composition/account/billing';
import type { Caller } from '../../domain/accounts/accounts';
import { updateBillingSettings } from '../../domain/billing/auto-billing';
import { type BillingActor, rechargeProblems } from '../../domain/billing/recharge-rules';
import { usdAmountMicros } from '../../domain/shared/money';
import { RequestValidationError, valueErrorDetail } from '../../entry/http/validation';
import type { BillingSettingsRequest } from '../schemas/billing';

/** The schema admitted only dollars with two decimals, so they parse. */
const micros = (text: string): number => usdAmountMicros(text) ?? 0;

/**
 * Billing settings as PUT /account/billing (`actor` 'api-key') and the portal's Billing page ('person') set
 * them: auto-recharge outside its limits is a 422 on the field, in FastAPI's shape, before anything is
 * read; what only a person may agree to is the domain's 403 (recharge-rules.ts).
 */
export const applyBillingSettings = async (caller: Caller, body: BillingSettingsRequest, actor: BillingActor) => {
  const deps = billingSettingsDeps();
  const autoRecharge = body.auto_recharge && {
    enabled: body.auto_recharge.enabled,
    thresholdMicros: micros(body.auto_recharge.threshold),
    amountMicros: micros(body.auto_recharge.amount),
  };
  const problems = autoRecharge ? rechargeProblems(autoRecharge, deps.limits) : [];
  if (problems.length > 0)
    throw new RequestValidationError(
      problems.map(({ field, message }) =>
        valueErrorDetail(['body', 'auto_recharge', field], message, body.auto_recharge?.[field]),
      ),
    );
  return updateBillingSettings(
    deps,
    caller,
    {
      ...(autoRecharge && { autoRecharge }),
      ...(body.low_balance_threshold !== undefined && {
        lowBalanceThresholdMicros: body.low_balance_threshold === null ? null : micros(body.low_balance_threshold),
      }),
      ...(body.webhook_url !== undefined && { webhookUrl: body.webhook_url }),
    },
    actor,
  );
};
