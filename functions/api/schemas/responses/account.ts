/** Response bodies of the account endpoints (responses/index.ts): the account with its balance, and its ledger. */
import * as v from 'valibot';
import { LEDGER_ENTRY_KINDS } from '../../../domain/billing/ledger';
import { MODEL_VERSIONS } from '../../../domain/shared/model-version';
import { IsoDateTime, MoneySchema } from './common';

export const AccountSchema = v.pipe(
  v.strictObject({
    account_id: v.string(),
    name: v.string(),
    balance: v.pipe(
      MoneySchema,
      v.description('The prepaid balance now (reservations of running work already taken out).'),
    ),
    default_model_version: v.picklist(MODEL_VERSIONS),
    limits: v.strictObject({
      requests_per_minute: v.pipe(
        v.number(),
        v.integer(),
        v.description('Requests per minute past which the answer is 429 `RATE_LIMITED`.'),
      ),
      running_jobs: v.pipe(
        v.number(),
        v.integer(),
        v.description('Asynchronous jobs running at once; more wait `pending`.'),
      ),
    }),
    created_at: IsoDateTime,
  }),
  v.title('Account'),
  v.examples([
    {
      account_id: 'acc_01JD5Z',
      name: 'Acme',
      balance: { usd: '99.88', micro_usd: 99880000 },
      default_model_version: 'v2' as const,
      limits: { requests_per_minute: 3000, running_jobs: 20 },
      created_at: '2026-11-23T12:00:00.000Z',
    },
  ]),
);

export const LedgerPageSchema = v.pipe(
  v.strictObject({
    entries: v.array(
      v.pipe(
        v.strictObject({
          entry_id: v.string(),
          created_at: IsoDateTime,
          kind: v.pipe(
            v.picklist(LEDGER_ENTRY_KINDS),
            v.description(
              '`credit` (money added), `reserve` (taken at submit), `settle` (the reservation’s difference to the final price given back, or a surcharge taken), `release` (a reservation refunded).',
            ),
          ),
          amount: v.pipe(MoneySchema, v.description('The signed effect on the balance.')),
          balance_after: MoneySchema,
          job_id: v.nullable(v.string()),
          profile_id: v.nullable(v.string()),
          note: v.pipe(
            v.nullable(v.string()),
            v.description('The operator’s note on a credit; on a settle, what identity retries were charged.'),
          ),
          retried_outputs: v.optional(
            v.pipe(
              v.number(),
              v.integer(),
              v.minValue(1),
              v.description(
                'On the settle of a job whose `identity_check: retry` made outputs again: how many, each charged at the operation’s per-output price.',
              ),
            ),
          ),
        }),
        v.title('LedgerEntry'),
      ),
    ),
    next_cursor: v.pipe(
      v.nullable(v.string()),
      v.description('Pass as `cursor` for older entries; null on the last page.'),
    ),
  }),
  v.title('LedgerPage'),
);
