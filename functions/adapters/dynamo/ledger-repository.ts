/**
 * Read first: how money moves. Every change of an account's balance is one transaction that moves its
 * `balanceMicros` (counting the entry in `entryCount`) and writes the ledger entry: credit adds money;
 * reserve takes it while creating the job or profile it is for (and its client_request_id claim); settle
 * and release close that charge from `reserved`, once (freeing a running asynchronous job's place). The
 * reads (balance, statement) are in ledger-reads.ts; keys in table.ts.
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import * as v from 'valibot';
import type { LedgerStatements, StatementPage, StatementPosition } from '../../domain/accounts/statement';
import {
  CHARGE_STATES,
  type ChargeOutcome,
  type ChargeOwner,
  type KnownReservation,
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
  BalanceInDebtError,
  ClientRequestIdTakenError,
  InsufficientBalanceError,
  NotFoundError,
} from '../../domain/errors';
import type { IdSource } from '../../domain/shared/ids';
import { usdDecimal } from '../../domain/shared/money';
import * as reads from './ledger-reads';
import { chargedRecordItem, claimItem, endPatch, type OwnerRecords, patchExpression } from './records';
import {
  cancellationReasons,
  ITEM_TYPE,
  type ItemKey,
  keys,
  RECORD_VERSION,
  type Table,
  type TransactItem,
  transactWrite,
} from './table';

const ChargedOwnerItem = v.object({
  chargeState: v.picklist(CHARGE_STATES),
  reservedMicros: v.pipe(v.number(), v.safeInteger()),
  status: v.optional(v.string()),
  mode: v.optional(v.string()),
});

/** Attempts at a close whose owner changed between its read and its transaction (e.g. pending → running). */
const CLOSE_ATTEMPTS = 3;
/** Attempts at a credit or debit whose account's balance or debt moved between its read and its transaction. */
const MONEY_ATTEMPTS = 8;

const AccountFundsItem = v.object({
  balanceMicros: v.pipe(v.number(), v.safeInteger()),
  debtMicros: v.optional(v.pipe(v.number(), v.safeInteger()), 0),
});
export type AccountFunds = v.InferOutput<typeof AccountFundsItem>;

/** The account's balance and debt, read strongly (a credit and a debit decide from them). */
export const readFunds = async (table: Table, accountId: string): Promise<AccountFunds> => {
  const found = await table.doc.send(
    new GetCommand({ TableName: table.name, Key: keys.account(accountId), ConsistentRead: true }),
  );
  if (!found.Item) throw new NotFoundError(`Account ${accountId} not found.`);
  return v.parse(AccountFundsItem, found.Item);
};

/** A settle that charged identity retries names them on its entry: a count, and a note a person reads. */
const retriedDetails = (retriedOutputs: number | undefined): { note?: string; retriedOutputs?: number } =>
  retriedOutputs && retriedOutputs > 0
    ? {
        retriedOutputs,
        note: `identity retries: ${retriedOutputs} output${retriedOutputs === 1 ? '' : 's'} made again, each charged at the per-output price`,
      }
    : {};

/** A ledger entry's Put: the entry is new (its time-ordered id is too). */
export const ledgerEntryWrite = (
  table: Table,
  entryId: string,
  entry: {
    accountId: string;
    kind: LedgerEntryKind;
    amountMicros: number;
    at: number;
    owner?: ChargeOwner;
    note?: string;
    retriedOutputs?: number;
  },
): { item: TransactItem; entry: LedgerEntry } => ({
  entry: {
    entryId,
    accountId: entry.accountId,
    kind: entry.kind,
    amountMicros: entry.amountMicros,
    owner: entry.owner ?? null,
    note: entry.note ?? null,
    ...(entry.retriedOutputs !== undefined && { retriedOutputs: entry.retriedOutputs }),
    createdAt: entry.at,
  },
  item: {
    Put: {
      TableName: table.name,
      Item: {
        ...keys.ledgerEntry(entry.accountId, entryId),
        type: ITEM_TYPE.ledger,
        v: RECORD_VERSION.ledger,
        accountId: entry.accountId,
        kind: entry.kind,
        amountMicros: entry.amountMicros,
        ownerKind: entry.owner?.kind,
        ownerId: entry.owner?.id,
        note: entry.note,
        retriedOutputs: entry.retriedOutputs,
        createdAt: entry.at,
      },
      ConditionExpression: 'attribute_not_exists(pk)',
    },
  },
});

/**
 * The writes of a credit (`amountMicros` > 0) or a debit (< 0) against funds read just before: the entry,
 * and for a credit the repaid part of a debt as a second entry; the account's update is guarded by the
 * funds it was computed from, so a balance or debt that moved meanwhile cancels it (read again, retry).
 */
export const fundsChange = (
  table: Table,
  newId: IdSource,
  input: { accountId: string; amountMicros: number; note: string; at: number },
  funds: AccountFunds,
): { items: TransactItem[]; entries: LedgerEntry[]; balanceMicros: number; debtMicros: number } => {
  const writes: Array<{ item: TransactItem; entry: LedgerEntry }> = [];
  let balanceDelta: number;
  let debtMicros: number;
  if (input.amountMicros >= 0) {
    const repaid = Math.min(funds.debtMicros, input.amountMicros);
    debtMicros = funds.debtMicros - repaid;
    balanceDelta = input.amountMicros - repaid;
    writes.push(ledgerEntryWrite(table, newId('led'), { ...input, kind: 'credit' }));
    if (repaid > 0)
      writes.push(
        ledgerEntryWrite(table, newId('led'), {
          accountId: input.accountId,
          kind: 'credit',
          amountMicros: -repaid,
          at: input.at,
          note: 'repays the debt left by a refund or a lost dispute',
        }),
      );
  } else {
    const taken = Math.min(funds.balanceMicros, -input.amountMicros);
    debtMicros = funds.debtMicros + (-input.amountMicros - taken);
    balanceDelta = -taken;
    const owed = debtMicros > funds.debtMicros ? `; ${usdDecimal(debtMicros - funds.debtMicros)} USD more owed` : '';
    writes.push(
      ledgerEntryWrite(table, newId('led'), {
        ...input,
        kind: 'credit',
        amountMicros: -taken,
        note: `${input.note}${owed}`,
      }),
    );
  }
  const account: TransactItem = {
    Update: {
      TableName: table.name,
      Key: keys.account(input.accountId),
      UpdateExpression: 'SET balanceMicros = balanceMicros + :delta, debtMicros = :debt ADD entryCount :count',
      // The debt as read: none (never set, or repaid to 0), or exactly this much.
      ConditionExpression: `attribute_exists(pk) AND balanceMicros = :balance AND ${
        funds.debtMicros === 0 ? '(attribute_not_exists(debtMicros) OR debtMicros = :oldDebt)' : 'debtMicros = :oldDebt'
      }`,
      ExpressionAttributeValues: {
        ':delta': balanceDelta,
        ':debt': debtMicros,
        ':count': writes.length,
        ':balance': funds.balanceMicros,
        ':oldDebt': funds.debtMicros,
      },
    },
  };
  return {
    items: [account, ...writes.map((write) => write.item)],
    entries: writes.map((write) => write.entry),
    balanceMicros: funds.balanceMicros + balanceDelta,
    debtMicros,
  };
};

/**
 * Runs a credit or debit built by `build` from freshly read funds, reading again while the account's
 * funds moved in between (reservations on a busy account). `build` may add writes of its own (a claim)
 * before the account's update; `accountIndex` is where that update is in its list.
 */
export const withFunds = async <T>(
  table: Table,
  accountId: string,
  build: (funds: AccountFunds) => { items: TransactItem[]; accountIndex: number; result: T },
  onOtherFailure: (reasons: NonNullable<ReturnType<typeof cancellationReasons>>) => T | undefined,
): Promise<T> => {
  for (let attempt = 1; ; attempt += 1) {
    const funds = await readFunds(table, accountId);
    const { items, accountIndex, result } = build(funds);
    try {
      await transactWrite(table, items);
      return result;
    } catch (error) {
      const reasons = cancellationReasons(error);
      if (!reasons) throw error;
      const other = onOtherFailure(reasons);
      if (other !== undefined) return other;
      if (reasons[accountIndex]?.Code !== 'ConditionalCheckFailed' || attempt >= MONEY_ATTEMPTS) throw error;
    }
  }
};

export class DynamoLedger implements LedgerPort, LedgerStatements {
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
    details: { note?: string; retriedOutputs?: number } = {},
  ): { item: TransactItem; entry: LedgerEntry } {
    return ledgerEntryWrite(this.table, this.newId('led'), { accountId, kind, amountMicros, at, owner, ...details });
  }

  /** `covers`: a reservation, which the balance must cover and which an account in debt may not make. */
  private balanceChange(accountId: string, deltaMicros: number, guard?: 'covers'): TransactItem {
    return {
      Update: {
        TableName: this.table.name,
        Key: keys.account(accountId),
        // entryCount moves with every entry, so a reader can tell that no entry landed between two reads (statement).
        UpdateExpression: 'SET balanceMicros = balanceMicros + :delta ADD entryCount :one',
        ConditionExpression:
          guard === 'covers'
            ? 'attribute_exists(pk) AND balanceMicros >= :needed AND (attribute_not_exists(debtMicros) OR debtMicros <= :zero)'
            : 'attribute_exists(pk)',
        ExpressionAttributeValues: {
          ':delta': deltaMicros,
          ':one': 1,
          ...(guard === 'covers' ? { ':needed': -deltaMicros, ':zero': 0 } : {}),
        },
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      },
    };
  }

  /** Adds money; an account in debt repays it first (the module's header). */
  async credit(input: { accountId: string; amountMicros: number; note: string; at: number }): Promise<LedgerEntry> {
    return withFunds(
      this.table,
      input.accountId,
      (funds) => {
        const change = fundsChange(this.table, this.newId, input, funds);
        const entry = change.entries[0];
        if (!entry) throw new Error('a credit writes an entry');
        return { items: change.items, accountIndex: 0, result: entry };
      },
      () => undefined,
    );
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
        const debt = balanceReason.Item.debtMicros;
        const debtMicros = debt && 'N' in debt ? Number(debt.N) : 0;
        if (debtMicros > 0) throw new BalanceInDebtError(debtMicros);
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

  /** Charges the final price, never more than the reservation: a balance that covered it stays ≥ 0. */
  settle(input: SettleInput<OwnerRecords>): Promise<ChargeOutcome> {
    return this.close(input, 'settle', 'settled', (reserved) => {
      const charged = Math.min(input.finalMicros, reserved);
      return {
        delta: reserved - charged,
        amountMicros: charged,
        patch: { ...endPatch(input.ends), finalMicros: charged },
      };
    });
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
    input: { accountId: string; ends: ChargeOwner; at: number; known?: KnownReservation; retriedOutputs?: number },
    kind: 'settle' | 'release',
    to: 'settled' | 'released',
    amounts: (reservedMicros: number) => { delta: number; amountMicros: number; patch: Record<string, unknown> },
  ): Promise<ChargeOutcome> {
    // The account's funds as last seen: none owed until a close finds a debt (then it repays it first).
    let funds: AccountFunds | undefined;
    let ownerChanges = 0;
    let fundsMoves = 0;
    for (let attempt = 1; ; attempt += 1) {
      // What the caller knows stands in for the first read only; a retry reads what is there.
      const outcome = await this.closeOnce(input, kind, to, amounts, attempt === 1 ? input.known : undefined, funds);
      if (outcome === 'owner-changed') {
        ownerChanges += 1;
        if (ownerChanges >= CLOSE_ATTEMPTS)
          throw new Error(`${input.ends.kind} ${input.ends.id} kept changing while its charge was closed`);
      } else if ('inDebt' in outcome) {
        funds = outcome.inDebt;
        fundsMoves += 1;
        if (fundsMoves >= MONEY_ATTEMPTS)
          throw new Error(`account ${input.accountId}'s funds kept moving while a charge was closed`);
      } else return outcome;
    }
  }

  /**
   * The account's side of a close that gives `delta` back. Without a debt (the usual case, no read): the
   * balance moves, guarded by there being no debt. With a debt as last seen: the money repays it first,
   * as a second entry, guarded by the funds it was computed from (as a credit does, fundsChange).
   */
  private closeFunds(accountId: string, delta: number, at: number, funds: AccountFunds | undefined): TransactItem[] {
    if (delta <= 0) return [this.balanceChange(accountId, delta)];
    if (!funds || funds.debtMicros <= 0)
      return [
        {
          Update: {
            TableName: this.table.name,
            Key: keys.account(accountId),
            UpdateExpression: 'SET balanceMicros = balanceMicros + :delta ADD entryCount :one',
            ConditionExpression: 'attribute_exists(pk) AND (attribute_not_exists(debtMicros) OR debtMicros <= :zero)',
            ExpressionAttributeValues: { ':delta': delta, ':one': 1, ':zero': 0 },
            ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
          },
        },
      ];
    const repaid = Math.min(funds.debtMicros, delta);
    return [
      {
        Update: {
          TableName: this.table.name,
          Key: keys.account(accountId),
          UpdateExpression: 'SET balanceMicros = balanceMicros + :delta, debtMicros = :debt ADD entryCount :two',
          ConditionExpression: 'attribute_exists(pk) AND balanceMicros = :balance AND debtMicros = :oldDebt',
          ExpressionAttributeValues: {
            ':delta': delta - repaid,
            ':debt': funds.debtMicros - repaid,
            ':two': 2,
            ':balance': funds.balanceMicros,
            ':oldDebt': funds.debtMicros,
          },
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        },
      },
      ledgerEntryWrite(this.table, this.newId('led'), {
        accountId,
        kind: 'credit',
        amountMicros: -repaid,
        at,
        note: 'repays the debt left by a refund or a lost dispute',
      }).item,
    ];
  }

  private async readCharge(ownerKey: ItemKey, owner: ChargeOwner): Promise<v.InferOutput<typeof ChargedOwnerItem>> {
    const current = await this.table.doc.send(
      new GetCommand({ TableName: this.table.name, Key: ownerKey, ConsistentRead: true }),
    );
    if (!current.Item) throw new NotFoundError(`No charge recorded for ${owner.kind} ${owner.id}.`);
    return v.parse(ChargedOwnerItem, current.Item);
  }

  private async closeOnce(
    input: { accountId: string; ends: ChargeOwner; at: number; retriedOutputs?: number },
    kind: 'settle' | 'release',
    to: 'settled' | 'released',
    amounts: (reservedMicros: number) => { delta: number; amountMicros: number; patch: Record<string, unknown> },
    known: KnownReservation | undefined,
    funds: AccountFunds | undefined,
  ): Promise<ChargeOutcome | 'owner-changed' | { inDebt: AccountFunds }> {
    const owner: ChargeOwner = { kind: input.ends.kind, id: input.ends.id };
    const ownerKey = keys.chargeOwner(input.accountId, owner);
    const charge = known
      ? {
          chargeState: 'reserved' as const,
          reservedMicros: known.reservedMicros,
          mode: known.asyncJobStatus === undefined ? ('sync' as const) : ('async' as const),
          status: known.asyncJobStatus,
        }
      : await this.readCharge(ownerKey, owner);
    if (charge.chargeState !== 'reserved') return { applied: false, chargeState: charge.chargeState };

    const { delta, amountMicros, patch } = amounts(charge.reservedMicros);
    const { sets, names, values } = patchExpression(patch);
    const { item } = this.entryPut(input.accountId, kind, delta, input.at, owner, retriedDetails(input.retriedOutputs));
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
        item,
        ...this.closeFunds(input.accountId, delta, input.at, funds),
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
      const reasons = cancellationReasons(error);
      const account = reasons?.[2];
      // The account owes (or its funds moved since they were read): repay the debt first, from funds read now.
      if (account?.Code === 'ConditionalCheckFailed' && reasons?.[0]?.Code !== 'ConditionalCheckFailed') {
        if (!account.Item) throw new NotFoundError(`Account ${input.accountId} not found.`);
        return { inDebt: await readFunds(this.table, input.accountId) };
      }
      const reason = reasons?.[0];
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

  // ---- reads (ledger-reads.ts) ----

  balance(accountId: string): Promise<number> {
    return reads.balance(this.table, accountId);
  }

  statement(accountId: string, page: { limit: number; after?: StatementPosition }): Promise<StatementPage> {
    return reads.statement(this.table, accountId, page);
  }

  entriesSince(accountId: string, since: number, max: number): Promise<{ entries: LedgerEntry[]; truncated: boolean }> {
    return reads.entriesSince(this.table, accountId, since, max);
  }

  recentEntries(accountId: string, limit: number): Promise<LedgerEntry[]> {
    return reads.recentEntries(this.table, accountId, limit);
  }

  /** Every entry of the account, oldest first, paging through the table (for audits and tests). */
  allEntries(accountId: string): Promise<LedgerEntry[]> {
    return reads.allEntries(this.table, accountId);
  }
}
