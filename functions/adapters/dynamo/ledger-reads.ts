/**
 * The ledger's reads (ledger-repository.ts writes): the balance, a statement page with the balance after
 * each entry, the entries since a time, the newest ones, and all of them. Keys in table.ts.
 */
import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import * as v from 'valibot';
import type { StatementPage, StatementPosition } from '../../domain/accounts/statement';
import { CHARGE_OWNER_KINDS, LEDGER_ENTRY_KINDS, type LedgerEntry } from '../../domain/billing/ledger';
import { NotFoundError, ServiceUnavailableError } from '../../domain/errors';
import { earliestIdAt } from '../../domain/shared/ids';
import { keys, queryAll, SORT_KEY_PREFIX, type Table } from './table';

const LedgerItem = v.object({
  sk: v.string(),
  accountId: v.string(),
  kind: v.picklist(LEDGER_ENTRY_KINDS),
  amountMicros: v.pipe(v.number(), v.safeInteger()),
  ownerKind: v.optional(v.picklist(CHARGE_OWNER_KINDS)),
  ownerId: v.optional(v.string()),
  note: v.optional(v.string()),
  retriedOutputs: v.optional(v.number()),
  createdAt: v.number(),
});

const toEntry = (raw: unknown): LedgerEntry => {
  const item = v.parse(LedgerItem, raw);
  return {
    entryId: item.sk.slice(SORT_KEY_PREFIX.ledger.length),
    accountId: item.accountId,
    kind: item.kind,
    amountMicros: item.amountMicros,
    owner: item.ownerKind && item.ownerId ? { kind: item.ownerKind, id: item.ownerId } : null,
    note: item.note ?? null,
    ...(item.retriedOutputs !== undefined && { retriedOutputs: item.retriedOutputs }),
    createdAt: item.createdAt,
  };
};

/** Reads of a statement page that found an entry landing between them before one held still. */
const STATEMENT_SNAPSHOT_ATTEMPTS = 5;

const AccountMoneyItem = v.object({ balanceMicros: v.number(), entryCount: v.optional(v.number(), 0) });

/** The current balance, read strongly. */
export const balance = async (table: Table, accountId: string): Promise<number> => {
  const result = await table.doc.send(
    new GetCommand({ TableName: table.name, Key: keys.account(accountId), ConsistentRead: true }),
  );
  if (!result.Item) throw new NotFoundError(`Account ${accountId} not found.`);
  return v.parse(v.object({ balanceMicros: v.number() }), result.Item).balanceMicros;
};

const accountMoney = async (table: Table, accountId: string) => {
  const result = await table.doc.send(
    new GetCommand({ TableName: table.name, Key: keys.account(accountId), ConsistentRead: true }),
  );
  if (!result.Item) throw new NotFoundError(`Account ${accountId} not found.`);
  return v.parse(AccountMoneyItem, result.Item);
};

const entriesPage = async (table: Table, accountId: string, limit: number, afterEntryId?: string) => {
  const pk = keys.accountPk(accountId);
  const result = await table.doc.send(
    new QueryCommand({
      TableName: table.name,
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: { ':pk': pk, ':prefix': SORT_KEY_PREFIX.ledger },
      ExclusiveStartKey: afterEntryId ? keys.ledgerEntry(accountId, afterEntryId) : undefined,
      ScanIndexForward: false,
      // One more than asked: whether older entries remain, without an empty last page.
      Limit: limit + 1,
      ConsistentRead: true,
    }),
  );
  const entries = (result.Items ?? []).map(toEntry);
  return { entries: entries.slice(0, limit), more: entries.length > limit };
};

/**
 * A page of entries with the balance after each. The first page is anchored on the balance: the account
 * is read before and after the Query, and only when its entryCount held still (no transaction landed in
 * between; a transaction is serialisable against GetItem) is the balance the one after the newest entry.
 */
export const statement = async (
  table: Table,
  accountId: string,
  page: { limit: number; after?: StatementPosition },
): Promise<StatementPage> => {
  let anchor: number;
  let found: { entries: LedgerEntry[]; more: boolean };
  if (page.after) {
    anchor = page.after.balanceBeforeMicros;
    found = await entriesPage(table, accountId, page.limit, page.after.entryId);
  } else {
    for (let attempt = 1; ; attempt += 1) {
      const before = await accountMoney(table, accountId);
      found = await entriesPage(table, accountId, page.limit);
      const after = await accountMoney(table, accountId);
      if (after.entryCount === before.entryCount && after.balanceMicros === before.balanceMicros) {
        anchor = after.balanceMicros;
        break;
      }
      if (attempt >= STATEMENT_SNAPSHOT_ATTEMPTS)
        throw new ServiceUnavailableError('The account’s ledger kept changing while it was read; retry.');
    }
  }
  let balanceAfter = anchor;
  const entries = found.entries.map((entry) => {
    const shown = { ...entry, balanceAfterMicros: balanceAfter };
    balanceAfter -= entry.amountMicros;
    return shown;
  });
  const last = entries.at(-1);
  return { entries, next: found.more && last ? { entryId: last.entryId, balanceBeforeMicros: balanceAfter } : null };
};

/** Entries made at `since` or later, oldest first, at most `max` of them (`truncated` when more exist). */
export const entriesSince = async (
  table: Table,
  accountId: string,
  since: number,
  max: number,
): Promise<{ entries: LedgerEntry[]; truncated: boolean }> => {
  const { items, truncated } = await queryAll(
    table,
    {
      // Entry ids are time-ordered: the first id possible at `since` bounds the range.
      KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
      ExpressionAttributeValues: {
        ':pk': keys.accountPk(accountId),
        ':from': keys.ledgerEntry(accountId, earliestIdAt('led', since)).sk,
        ':to': `${SORT_KEY_PREFIX.ledger}\uffff`,
      },
    },
    max,
  );
  return { entries: items.map(toEntry), truncated };
};

/** Newest first. */
export const recentEntries = async (table: Table, accountId: string, limit: number): Promise<LedgerEntry[]> => {
  const result = await table.doc.send(
    new QueryCommand({
      TableName: table.name,
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: { ':pk': keys.accountPk(accountId), ':prefix': SORT_KEY_PREFIX.ledger },
      ScanIndexForward: false,
      Limit: limit,
    }),
  );
  return (result.Items ?? []).map(toEntry);
};

/** Every entry of the account, oldest first, paging through the table (for audits and tests). */
export const allEntries = async (table: Table, accountId: string): Promise<LedgerEntry[]> => {
  const { items } = await queryAll(table, {
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: { ':pk': keys.accountPk(accountId), ':prefix': SORT_KEY_PREFIX.ledger },
    ConsistentRead: true,
  });
  return items.map(toEntry);
};
