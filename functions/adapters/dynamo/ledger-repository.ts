import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import * as v from 'valibot';
import type { LedgerStatements, StatementPage, StatementPosition } from '../../domain/accounts/statement';
import {
  CHARGE_OWNER_KINDS,
  CHARGE_STATES,
  type ChargeOutcome,
  type ChargeOwner,
  type KnownReservation,
  LEDGER_ENTRY_KINDS,
  type LedgerEntry,
  type LedgerEntryKind,
  type LedgerPort,
  ownerOf,
  type ReleaseInput,
  type ReserveInput,
  type SettleInput,
} from '../../domain/billing/ledger';
import {
  AlreadyExistsError,
  ClientRequestIdTakenError,
  InsufficientBalanceError,
  NotFoundError,
  ServiceUnavailableError,
} from '../../domain/errors';
import { earliestIdAt, type IdSource } from '../../domain/shared/ids';
import { chargedRecordItem, claimItem, endPatch, type OwnerRecords, patchExpression } from './records';
import {
  cancellationReasons,
  ITEM_TYPE,
  type ItemKey,
  keys,
  queryAll,
  SORT_KEY_PREFIX,
  type Table,
  type TransactItem,
  transactWrite,
} from './table';

const LedgerItem = v.object({
  sk: v.string(),
  accountId: v.string(),
  kind: v.picklist(LEDGER_ENTRY_KINDS),
  amountMicros: v.pipe(v.number(), v.safeInteger()),
  ownerKind: v.optional(v.picklist(CHARGE_OWNER_KINDS)),
  ownerId: v.optional(v.string()),
  note: v.optional(v.string()),
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
    createdAt: item.createdAt,
  };
};

const ChargedOwnerItem = v.object({
  chargeState: v.picklist(CHARGE_STATES),
  reservedMicros: v.pipe(v.number(), v.safeInteger()),
  status: v.optional(v.string()),
  mode: v.optional(v.string()),
});

/** Attempts at a close whose owner changed between its read and its transaction (e.g. pending → running). */
const CLOSE_ATTEMPTS = 3;

/** Reads of a statement page that found an entry landing between them before one held still. */
const STATEMENT_SNAPSHOT_ATTEMPTS = 5;

const AccountMoneyItem = v.object({ balanceMicros: v.number(), entryCount: v.optional(v.number(), 0) });

export class DynamoLedger implements LedgerPort<OwnerRecords>, LedgerStatements {
  constructor(
    private readonly table: Table,
    private readonly newId: IdSource,
  ) {}

  private entryPut(
    accountId: string,
    kind: LedgerEntryKind,
    amountMicros: number,
    at: number,
    owner?: ChargeOwner,
    note?: string,
  ): {
    item: TransactItem;
    entry: LedgerEntry;
  } {
    const entryId = this.newId('led');
    return {
      entry: { entryId, accountId, kind, amountMicros, owner: owner ?? null, note: note ?? null, createdAt: at },
      item: {
        Put: {
          TableName: this.table.name,
          Item: {
            ...keys.ledgerEntry(accountId, entryId),
            type: ITEM_TYPE.ledger,
            accountId,
            kind,
            amountMicros,
            ownerKind: owner?.kind,
            ownerId: owner?.id,
            note,
            createdAt: at,
          },
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
    };
  }

  private balanceChange(accountId: string, deltaMicros: number, guard?: 'covers'): TransactItem {
    return {
      Update: {
        TableName: this.table.name,
        Key: keys.account(accountId),
        // entryCount moves with every entry, so a reader can tell that no entry landed between two reads (statement).
        UpdateExpression: 'SET balanceMicros = balanceMicros + :delta ADD entryCount :one',
        ConditionExpression:
          guard === 'covers' ? 'attribute_exists(pk) AND balanceMicros >= :needed' : 'attribute_exists(pk)',
        ExpressionAttributeValues: {
          ':delta': deltaMicros,
          ':one': 1,
          ...(guard === 'covers' ? { ':needed': -deltaMicros } : {}),
        },
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      },
    };
  }

  async credit(input: { accountId: string; amountMicros: number; note: string; at: number }): Promise<LedgerEntry> {
    const { item, entry } = this.entryPut(
      input.accountId,
      'credit',
      input.amountMicros,
      input.at,
      undefined,
      input.note,
    );
    try {
      await transactWrite(this.table, [this.balanceChange(input.accountId, input.amountMicros), item]);
    } catch (error) {
      if (cancellationReasons(error)?.[0]?.Code === 'ConditionalCheckFailed') {
        throw new NotFoundError(`Account ${input.accountId} not found.`);
      }
      throw error;
    }
    return entry;
  }

  async reserve(input: ReserveInput<OwnerRecords>): Promise<LedgerEntry> {
    const owner = ownerOf(input.creates);
    const { item, entry } = this.entryPut(input.accountId, 'reserve', -input.amountMicros, input.at, owner);
    const creates: TransactItem[] = [
      {
        Put: {
          TableName: this.table.name,
          Item: {
            ...chargedRecordItem(input.creates),
            ...keys.chargeOwner(input.accountId, owner),
            chargeState: 'reserved',
            reservedMicros: input.amountMicros,
          },
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
      ...(input.claim
        ? [
            {
              Put: {
                TableName: this.table.name,
                Item: claimItem(input.accountId, input.claim),
                ConditionExpression: 'attribute_not_exists(pk)',
              },
            },
          ]
        : []),
    ];
    try {
      await transactWrite(this.table, [
        this.balanceChange(input.accountId, -input.amountMicros, 'covers'),
        ...creates,
        item,
      ]);
    } catch (error) {
      const reasons = cancellationReasons(error);
      if (!reasons) throw error;
      // A create that collides wins over the balance: a replayed submit must not be reported as 402.
      const collided = reasons.slice(1, 1 + creates.length).findIndex((r) => r.Code === 'ConditionalCheckFailed');
      if (collided === 0) throw new AlreadyExistsError(`${owner.kind} ${owner.id}`);
      if (collided === 1 && input.claim) throw new ClientRequestIdTakenError(input.claim.clientRequestId);
      const balanceReason = reasons[0];
      if (balanceReason?.Code === 'ConditionalCheckFailed') {
        if (!balanceReason.Item) throw new NotFoundError(`Account ${input.accountId} not found.`);
        const available = balanceReason.Item.balanceMicros;
        throw new InsufficientBalanceError(
          input.amountMicros,
          available && 'N' in available ? Number(available.N) : undefined,
        );
      }
      throw error;
    }
    return entry;
  }

  settle(input: SettleInput<OwnerRecords>): Promise<ChargeOutcome> {
    return this.close(input, 'settle', 'settled', (reserved) => ({
      delta: reserved - input.finalMicros,
      amountMicros: input.finalMicros,
      patch: { ...endPatch(input.ends), finalMicros: input.finalMicros },
    }));
  }

  release(input: ReleaseInput<OwnerRecords>): Promise<ChargeOutcome> {
    return this.close(input, 'release', 'released', (reserved) => ({
      delta: reserved,
      amountMicros: reserved,
      patch: { ...endPatch(input.ends), finalMicros: 0 },
    }));
  }

  /**
   * Settle and release share one shape: read the reservation, then move money only if still `reserved`.
   * An asynchronous job that was running gives its place under the account's cap back in the same
   * transaction (jobs-repository.ts markRunning took it), guarded by the status it was read with.
   */
  private async close(
    input: { accountId: string; ends: ChargeOwner; at: number; known?: KnownReservation },
    kind: 'settle' | 'release',
    to: 'settled' | 'released',
    amounts: (reservedMicros: number) => { delta: number; amountMicros: number; patch: Record<string, unknown> },
  ): Promise<ChargeOutcome> {
    for (let attempt = 1; ; attempt += 1) {
      // What the caller knows stands in for the first read only; a retry reads what is there.
      const outcome = await this.closeOnce(input, kind, to, amounts, attempt === 1 ? input.known : undefined);
      if (outcome !== 'owner-changed') return outcome;
      if (attempt >= CLOSE_ATTEMPTS)
        throw new Error(`${input.ends.kind} ${input.ends.id} kept changing while its charge was closed`);
    }
  }

  private async readCharge(ownerKey: ItemKey, owner: ChargeOwner): Promise<v.InferOutput<typeof ChargedOwnerItem>> {
    const current = await this.table.doc.send(
      new GetCommand({ TableName: this.table.name, Key: ownerKey, ConsistentRead: true }),
    );
    if (!current.Item) throw new NotFoundError(`No charge recorded for ${owner.kind} ${owner.id}.`);
    return v.parse(ChargedOwnerItem, current.Item);
  }

  private async closeOnce(
    input: { accountId: string; ends: ChargeOwner; at: number },
    kind: 'settle' | 'release',
    to: 'settled' | 'released',
    amounts: (reservedMicros: number) => { delta: number; amountMicros: number; patch: Record<string, unknown> },
    known: KnownReservation | undefined,
  ): Promise<ChargeOutcome | 'owner-changed'> {
    const owner: ChargeOwner = { kind: input.ends.kind, id: input.ends.id };
    const ownerKey = keys.chargeOwner(input.accountId, owner);
    const charge = known
      ? {
          chargeState: 'reserved' as const,
          reservedMicros: known.reservedMicros,
          mode: 'sync' as const,
          status: undefined,
        }
      : await this.readCharge(ownerKey, owner);
    if (charge.chargeState !== 'reserved') return { applied: false, chargeState: charge.chargeState };

    const { delta, amountMicros, patch } = amounts(charge.reservedMicros);
    const { sets, names, values } = patchExpression(patch);
    const { item } = this.entryPut(input.accountId, kind, delta, input.at, owner);
    // An asynchronous job's status decides whether it holds a place: the close is guarded by the status it read.
    const guarded = owner.kind === 'job' && charge.mode === 'async' && charge.status !== undefined;
    const freesPlace = guarded && charge.status === 'running';
    try {
      await transactWrite(this.table, [
        {
          Update: {
            TableName: this.table.name,
            Key: ownerKey,
            UpdateExpression: ['SET chargeState = :to', ...sets].join(', '),
            ConditionExpression: `chargeState = :reserved AND reservedMicros = :reservedMicros${guarded ? ' AND #readStatus = :readStatus' : ''}`,
            ExpressionAttributeNames: guarded
              ? { ...names, '#readStatus': 'status' }
              : Object.keys(names).length > 0
                ? names
                : undefined,
            ExpressionAttributeValues: {
              ...values,
              ':to': to,
              ':reserved': 'reserved',
              ':reservedMicros': charge.reservedMicros,
              ...(guarded ? { ':readStatus': charge.status } : {}),
            },
            ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
          },
        },
        this.balanceChange(input.accountId, delta),
        item,
        ...(freesPlace
          ? [
              {
                Update: {
                  TableName: this.table.name,
                  Key: keys.runningJobs(input.accountId),
                  UpdateExpression: 'ADD running :less',
                  ExpressionAttributeValues: { ':less': -1 },
                },
              },
            ]
          : []),
      ]);
    } catch (error) {
      const reason = cancellationReasons(error)?.[0];
      if (reason?.Code === 'ConditionalCheckFailed') {
        const state = reason.Item?.chargeState;
        const chargeState = state && 'S' in state ? v.parse(v.picklist(CHARGE_STATES), state.S) : null;
        // Still reserved: only the status moved since the read; read again.
        if (chargeState === 'reserved') return 'owner-changed';
        return { applied: false, chargeState };
      }
      throw error;
    }
    return { applied: true, chargeState: to, amountMicros };
  }

  async balance(accountId: string): Promise<number> {
    const result = await this.table.doc.send(
      new GetCommand({ TableName: this.table.name, Key: keys.account(accountId), ConsistentRead: true }),
    );
    if (!result.Item) throw new NotFoundError(`Account ${accountId} not found.`);
    return v.parse(v.object({ balanceMicros: v.number() }), result.Item).balanceMicros;
  }

  private async accountMoney(accountId: string) {
    const result = await this.table.doc.send(
      new GetCommand({ TableName: this.table.name, Key: keys.account(accountId), ConsistentRead: true }),
    );
    if (!result.Item) throw new NotFoundError(`Account ${accountId} not found.`);
    return v.parse(AccountMoneyItem, result.Item);
  }

  private async entriesPage(accountId: string, limit: number, afterEntryId?: string) {
    const pk = keys.accountPk(accountId);
    const result = await this.table.doc.send(
      new QueryCommand({
        TableName: this.table.name,
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
  }

  /**
   * A page of entries with the balance after each. The first page is anchored on the balance: the account
   * is read before and after the Query, and only when its entryCount held still (no transaction landed in
   * between; a transaction is serialisable against GetItem) is the balance the one after the newest entry.
   */
  async statement(accountId: string, page: { limit: number; after?: StatementPosition }): Promise<StatementPage> {
    let anchor: number;
    let found: { entries: LedgerEntry[]; more: boolean };
    if (page.after) {
      anchor = page.after.balanceBeforeMicros;
      found = await this.entriesPage(accountId, page.limit, page.after.entryId);
    } else {
      for (let attempt = 1; ; attempt += 1) {
        const before = await this.accountMoney(accountId);
        found = await this.entriesPage(accountId, page.limit);
        const after = await this.accountMoney(accountId);
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
  }

  async entriesSince(
    accountId: string,
    since: number,
    max: number,
  ): Promise<{ entries: LedgerEntry[]; truncated: boolean }> {
    const { items, truncated } = await queryAll(
      this.table,
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
  }

  async recentEntries(accountId: string, limit: number): Promise<LedgerEntry[]> {
    const result = await this.table.doc.send(
      new QueryCommand({
        TableName: this.table.name,
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
        ExpressionAttributeValues: { ':pk': keys.accountPk(accountId), ':prefix': SORT_KEY_PREFIX.ledger },
        ScanIndexForward: false,
        Limit: limit,
      }),
    );
    return (result.Items ?? []).map(toEntry);
  }

  /** Every entry of the account, oldest first, paging through the table (for audits and tests). */
  async allEntries(accountId: string): Promise<LedgerEntry[]> {
    const { items } = await queryAll(this.table, {
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: { ':pk': keys.accountPk(accountId), ':prefix': SORT_KEY_PREFIX.ledger },
      ConsistentRead: true,
    });
    return items.map(toEntry);
  }
}
