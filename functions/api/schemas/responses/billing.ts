/** Response bodies of the billing endpoints (responses/index.ts): top-ups and the Stripe webhook's receipt. */
import * as v from 'valibot';
import { STRIPE_OUTCOMES, TOP_UP_STATUSES } from '../../../domain/billing/top-ups';
import { IsoDateTime, MoneySchema } from './common';

const Dollars = v.pipe(v.string(), v.regex(/^\d+\.\d{2}$/), v.description('US dollars, two decimals.'));

export const TopUpCreatedSchema = v.pipe(
  v.strictObject({
    top_up_id: v.string(),
    checkout_url: v.pipe(v.string(), v.description('Stripe’s hosted Checkout page: send the developer there to pay.')),
    amount: Dollars,
    status: v.picklist(['pending']),
  }),
  v.title('TopUpCreated'),
  v.examples([
    {
      top_up_id: 'tup_01jd5z',
      checkout_url: 'https://checkout.stripe.com/c/pay/cs_test_a1',
      amount: '25.00',
      status: 'pending' as const,
    },
  ]),
);

export const TopUpSchema = v.pipe(
  v.strictObject({
    top_up_id: v.string(),
    status: v.pipe(
      v.picklist(TOP_UP_STATUSES),
      v.description(
        '`pending` (Checkout open), `completed` (credited, once Stripe confirmed the payment), `expired` (unpaid), `failed`.',
      ),
    ),
    amount: Dollars,
    checkout_url: v.pipe(v.nullable(v.string()), v.description('While pending: where to pay.')),
    created_at: IsoDateTime,
    completed_at: v.nullable(IsoDateTime),
    credited: v.pipe(v.nullable(MoneySchema), v.description('What Stripe reported paid, credited to the balance.')),
    refunded: v.pipe(MoneySchema, v.description('What refunds and lost disputes took back.')),
  }),
  v.title('TopUp'),
);

export const TopUpPageSchema = v.pipe(
  v.strictObject({
    top_ups: v.array(TopUpSchema),
    next_cursor: v.pipe(
      v.nullable(v.string()),
      v.description('Pass as `cursor` for older top-ups; null on the last page.'),
    ),
  }),
  v.title('TopUpPage'),
);

export const StripeWebhookReceiptSchema = v.pipe(
  v.strictObject({
    received: v.literal(true),
    outcome: v.pipe(
      v.picklist(STRIPE_OUTCOMES),
      v.description('What the event did; every outcome is a 200, so Stripe does not deliver it again.'),
    ),
  }),
  v.title('StripeWebhookReceipt'),
);

export const BillingSettingsSchema = v.pipe(
  v.strictObject({
    auto_recharge: v.strictObject({
      enabled: v.boolean(),
      threshold: v.nullable(Dollars),
      amount: v.nullable(Dollars),
      card_saved: v.pipe(v.boolean(), v.description('A card was kept at a top-up paid with `save_card: true`.')),
      disabled_reason: v.pipe(
        v.nullable(v.string()),
        v.description('Why the service turned auto-recharge off (Stripe’s decline code, e.g. `card_declined`).'),
      ),
      charged_today: v.pipe(
        Dollars,
        v.description('What automatic charges claimed today (UTC); they stop at `daily_max`.'),
      ),
      daily_max: v.pipe(
        Dollars,
        v.description('The operator’s cap of automatic charges per account per UTC day (AUTO_RECHARGE_DAILY_MAX_USD).'),
      ),
    }),
    low_balance_threshold: v.nullable(Dollars),
    webhook_url: v.nullable(v.string()),
    balance: MoneySchema,
    debt: v.pipe(
      MoneySchema,
      v.description('What a refund or a lost dispute took beyond the balance; new work waits until it is repaid.'),
    ),
  }),
  v.title('BillingSettings'),
);
