import { billingSettingsDeps, topUpLimits } from '../../composition/account/billing';
import { updateBillingSettings } from '../../domain/billing/auto-billing';
import { usdAmountMicros } from '../../domain/shared/money';
import { type ApiRequest, apiHandler } from '../../entry/http/api-handler';
import { ok } from '../../entry/http/responses';
import { type BillingSettingsRequest, BillingSettingsRequestSchema } from '../schemas/billing';

/** The schema admitted only dollars with two decimals, so they parse. */
const micros = (text: string): number => usdAmountMicros(text) ?? 0;

/** PUT /v2/service/account/billing: auto-recharge, the low-balance threshold and where account events go. */
const lambdaHandler = async ({ body, caller }: ApiRequest<BillingSettingsRequest>) =>
  ok(
    await updateBillingSettings(
      billingSettingsDeps(),
      caller,
      {
        ...(body.auto_recharge && {
          autoRecharge: {
            enabled: body.auto_recharge.enabled,
            thresholdMicros: micros(body.auto_recharge.threshold),
            amountMicros: micros(body.auto_recharge.amount),
          },
        }),
        ...(body.low_balance_threshold !== undefined && {
          lowBalanceThresholdMicros: body.low_balance_threshold === null ? null : micros(body.low_balance_threshold),
        }),
        ...(body.webhook_url !== undefined && { webhookUrl: body.webhook_url }),
      },
      topUpLimits().minMicros,
    ),
  );

export const handler = apiHandler(lambdaHandler, { body: BillingSettingsRequestSchema, bodyOptional: true });
