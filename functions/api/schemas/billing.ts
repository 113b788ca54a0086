/** Request shapes of the billing endpoints: a top-up, and the page of top-ups. */
import * as v from 'valibot';
import { USD_AMOUNT_PATTERN } from '../../domain/shared/money';
import { CursorSchema, PageLimitSchema } from './jobs';

export const TopUpRequestSchema = v.object({
  amount: v.pipe(
    v.string('amount must be a string of US dollars, e.g. "25.00".'),
    v.regex(USD_AMOUNT_PATTERN, 'amount must be US dollars with at most two decimals, e.g. "25.00".'),
    v.description(
      'US dollars with at most two decimals, from the operator’s minimum (default 5.00) to its maximum (default 2000.00).',
    ),
  ),
  currency: v.optional(
    v.pipe(
      v.picklist(['usd'], 'currency must be "usd": balances are kept in US dollars.'),
      v.description('Only `usd`.'),
    ),
  ),
  save_card: v.optional(
    v.pipe(
      v.boolean('save_card must be true or false.'),
      v.description(
        'Keep the card this top-up is paid with, for auto-recharge: only from the portal’s Billing page, where a person is present (403 `PERSON_REQUIRED` with an API key); Checkout asks them to agree.',
      ),
    ),
  ),
});
export type TopUpRequest = v.InferOutput<typeof TopUpRequestSchema>;

export const TopUpsQuerySchema = v.object({ cursor: CursorSchema, limit: PageLimitSchema });
export type TopUpsQuery = v.InferOutput<typeof TopUpsQuerySchema>;

const Dollars = (name: string) =>
  v.pipe(
    v.string(`${name} must be a string of US dollars, e.g. "10.00".`),
    v.regex(USD_AMOUNT_PATTERN, `${name} must be US dollars with at most two decimals, e.g. "10.00".`),
  );

export const BillingSettingsRequestSchema = v.object({
  auto_recharge: v.optional(
    v.pipe(
      v.object({
        enabled: v.boolean('auto_recharge.enabled must be true or false.'),
        threshold: Dollars('auto_recharge.threshold'),
        amount: Dollars('auto_recharge.amount'),
      }),
      v.description(
        'When a job’s or a training’s settle leaves the balance below `threshold`, the saved card is charged `amount`, at most once an hour and within the daily cap. A decline turns it off. When on: `amount` within the top-up limits and the daily cap, `threshold` below `amount` (422 otherwise). With an API key it may only be turned off or lowered (403 `PERSON_REQUIRED` otherwise): a person turns it on or raises it in the portal.',
      ),
    ),
  ),
  low_balance_threshold: v.optional(
    v.pipe(
      v.nullable(Dollars('low_balance_threshold')),
      v.description('Below this balance, one signed `balance.low` event is sent to `webhook_url` (null: none).'),
    ),
  ),
  webhook_url: v.optional(
    v.pipe(
      v.nullable(
        v.pipe(
          v.string(),
          v.check(
            (url) => URL.canParse(url) && new URL(url).protocol === 'https:',
            'webhook_url must be an absolute https URL.',
          ),
        ),
      ),
      v.description(
        'Where account events (`balance.low`, `billing.auto_recharge.charged`, `auto_recharge.failed`) are sent, signed as callbacks are.',
      ),
    ),
  ),
});
export type BillingSettingsRequest = v.InferOutput<typeof BillingSettingsRequestSchema>;
