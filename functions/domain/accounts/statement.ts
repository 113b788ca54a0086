/**
 * Read first: what an account can see of its money (GET /account and GET /account/ledger).
 *
 * The balance and the entries are the ledger's (billing/ledger.ts: every change of the balance is one
 * entry written in the same transaction). A statement page lists entries newest first with the balance
 * after each: the newest entry's is the balance read in the same consistent snapshot as the page (the
 * adapter proves no transaction landed between its reads), and each older one is the next newer one's
 * minus that entry's amount. Entries are ordered by their time-ordered ids, so two charges that landed
 * in the same moment show a running balance in id order, whose newest figure is the true balance.
 *
 * The cursor carries the last entry shown and the balance before it, so a later page needs no sum over
 * the entries in between; it is opaque to callers, and one this service did not hand out is refused.
 */

import type { LedgerEntry, LedgerEntryKind } from '../billing/ledger';
import { InvalidRequestError, NotFoundError } from '../errors';
import { toIso } from '../shared/clock';
import type { ModelVersion } from '../shared/model-version';
import { type MoneyBody, moneyBody } from '../shared/money';
import type { Account, AccountsRepository, Caller } from './accounts';

/** A page of the ledger as the adapter reads it: entries newest first, each with the balance after it. */
export interface StatementPage {
  entries: Array<LedgerEntry & { balanceAfterMicros: number }>;
  /** Set when older entries remain: the last entry shown and the balance before it. */
  next: StatementPosition | null;
}

export interface StatementPosition {
  /** The last entry shown. */
  entryId: string;
  /** The balance before it: the balance after the next older entry. */
  balanceBeforeMicros: number;
}

export interface LedgerStatements {
  /** The current balance, read strongly. */
  balance(accountId: string): Promise<number>;
  /** Without `after`: the newest entries, their balances anchored on the balance of the same snapshot. */
  statement(accountId: string, page: { limit: number; after?: StatementPosition }): Promise<StatementPage>;
  /** Entries made at `since` or later, oldest first, at most `max` of them (`truncated` when more exist). */
  entriesSince(accountId: string, since: number, max: number): Promise<{ entries: LedgerEntry[]; truncated: boolean }>;
}

export interface StatementDeps {
  accounts: Pick<AccountsRepository, 'get'>;
  statements: LedgerStatements;
  /** The configured limits an account without its own follows. */
  defaultLimits: { requestsPerMinute: number; runningJobs: number };
}

export interface AccountBody {
  account_id: string;
  name: string;
  balance: MoneyBody;
  default_model_version: ModelVersion;
  limits: { requests_per_minute: number; running_jobs: number };
  created_at: string;
}

export interface LedgerEntryBody {
  entry_id: string;
  created_at: string;
  kind: LedgerEntryKind;
  amount: MoneyBody;
  balance_after: MoneyBody;
  job_id: string | null;
  profile_id: string | null;
  note: string | null;
  /** A job's settle that charged identity retries: the outputs made again. */
  retried_outputs?: number;
}

export interface LedgerPageBody {
  entries: LedgerEntryBody[];
  next_cursor: string | null;
}

const accountOf = async (deps: StatementDeps, caller: Caller): Promise<Account> => {
  const account = await deps.accounts.get(caller.accountId);
  if (!account) throw new NotFoundError(`Account ${caller.accountId} not found.`);
  return account;
};

/** GET /account: the balance (read strongly), the default model version and the limits in force. */
export const accountSummary = async (deps: StatementDeps, caller: Caller): Promise<AccountBody> => {
  const [account, balanceMicros] = await Promise.all([
    accountOf(deps, caller),
    deps.statements.balance(caller.accountId),
  ]);
  return {
    account_id: account.accountId,
    name: account.name,
    balance: moneyBody(balanceMicros),
    default_model_version: account.defaultModelVersion,
    limits: {
      requests_per_minute: account.requestsPerMinute ?? deps.defaultLimits.requestsPerMinute,
      running_jobs: account.runningJobs ?? deps.defaultLimits.runningJobs,
    },
    created_at: toIso(account.createdAt),
  };
};

const ENTRY_ID = /^led_[0-9A-Za-z]{1,40}$/;

export const encodeCursor = (position: StatementPosition): string =>
  Buffer.from(JSON.stringify([position.entryId, position.balanceBeforeMicros]), 'utf8').toString('base64url');

export const decodeCursor = (cursor: string): StatementPosition => {
  const refused = () => new InvalidRequestError('The cursor is not one this service gave out.');
  let decoded: unknown;
  try {
    decoded = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw refused();
  }
  if (!Array.isArray(decoded) || decoded.length !== 2) throw refused();
  const [entryId, balanceBeforeMicros] = decoded as unknown[];
  if (typeof entryId !== 'string' || !ENTRY_ID.test(entryId) || !Number.isSafeInteger(balanceBeforeMicros))
    throw refused();
  const position = { entryId, balanceBeforeMicros: balanceBeforeMicros as number };
  if (encodeCursor(position) !== cursor) throw refused();
  return position;
};

export const ledgerEntryBody = (entry: LedgerEntry & { balanceAfterMicros: number }): LedgerEntryBody => ({
  entry_id: entry.entryId,
  created_at: toIso(entry.createdAt),
  kind: entry.kind,
  amount: moneyBody(entry.amountMicros),
  balance_after: moneyBody(entry.balanceAfterMicros),
  job_id: entry.owner?.kind === 'job' ? entry.owner.id : null,
  profile_id: entry.owner?.kind === 'profile' ? entry.owner.id : null,
  note: entry.note,
  ...(entry.retriedOutputs !== undefined && { retried_outputs: entry.retriedOutputs }),
});

/** GET /account/ledger: one page of entries, newest first, each with the balance after it. */
export const ledger = async (
  deps: Pick<StatementDeps, 'statements'>,
  caller: Caller,
  query: { limit: number; cursor?: string },
): Promise<LedgerPageBody> => {
  const after = query.cursor === undefined ? undefined : decodeCursor(query.cursor);
  const page = await deps.statements.statement(caller.accountId, { limit: query.limit, after });
  return {
    entries: page.entries.map(ledgerEntryBody),
    next_cursor: page.next ? encodeCursor(page.next) : null,
  };
};

/** The longest history the spend chart reads, and the most entries it sums (a busy account's month). */
export const SPEND_MAX_DAYS = 90;
export const SPEND_MAX_ENTRIES = 20_000;
const DAY_MS = 24 * 3600 * 1000;

export interface SpendBody {
  days: Array<{ date: string; spent: MoneyBody; credited: MoneyBody }>;
  /** More entries than SPEND_MAX_ENTRIES: the oldest days are incomplete. */
  truncated: boolean;
}

/**
 * Money per UTC day over the last `days` days, today included: `spent` is what work cost net of refunds
 * (reserve, settle and release entries, negated), `credited` what was added. A reservation made one day
 * and refunded the next shows on both days, so a day can be negative.
 */
export const spendByDay = async (
  deps: Pick<StatementDeps, 'statements'>,
  caller: Caller,
  query: { days: number; now: number },
): Promise<SpendBody> => {
  const days = Math.min(Math.max(1, Math.floor(query.days)), SPEND_MAX_DAYS);
  const firstDay = Math.floor(query.now / DAY_MS) * DAY_MS - (days - 1) * DAY_MS;
  const { entries, truncated } = await deps.statements.entriesSince(caller.accountId, firstDay, SPEND_MAX_ENTRIES);
  const totals = Array.from({ length: days }, () => ({ spent: 0, credited: 0 }));
  for (const entry of entries) {
    const day = totals[Math.floor((entry.createdAt - firstDay) / DAY_MS)];
    if (!day) continue;
    if (entry.kind === 'credit') day.credited += entry.amountMicros;
    else day.spent -= entry.amountMicros;
  }
  return {
    days: totals.map((total, index) => ({
      date: toIso(firstDay + index * DAY_MS).slice(0, 10),
      spent: moneyBody(total.spent),
      credited: moneyBody(total.credited),
    })),
    truncated,
  };
};
