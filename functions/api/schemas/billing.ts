/** Request shapes of the billing endpoints: a top-up, and the page of top-ups. */
import * as v from 'valibot';
import { TOP_UP_AMOUNT_PATTERN } from '../../domain/billing/top-ups';
import { CursorSchema, PageLimitSchema } from './jobs';

export const TopUpRequestSchema = v.object({
  amount: v.pipe(
    v.string('amount must be a string of US dollars, e.g. "25.00".'),
    v.regex(TOP_UP_AMOUNT_PATTERN, 'amount must be US dollars with at most two decimals, e.g. "25.00".'),
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
});
export type TopUpRequest = v.InferOutput<typeof TopUpRequestSchema>;

export const TopUpsQuerySchema = v.object({ cursor: CursorSchema, limit: PageLimitSchema });
export type TopUpsQuery = v.InferOutput<typeof TopUpsQuerySchema>;
