/**
 * Top-ups and what Stripe's events do to them (functions/domain/billing/top-ups.ts). A credit or debit is
 * one transaction: the Stripe event's claim (new, or the event was acted on already), the top-up's
 * change guarded by its state (not yet completed; the cumulative refund it last recorded), and the
 * ledger's writes guarded by the funds they were computed from (ledger-repository.ts, fundsChange). Keys
 * in table.ts.
 */
import { GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import * as v from 'valibot';
import {
  type StripeApplyOutcome,
  TOP_UP_STATUSES,
  type TopUp,
  type TopUpAdjustment,
  type TopUpPage,
  type TopUpsRepository,
  takenBack,
} from '../../domain/billing/top-ups';
import { InvalidRequestError } from '../../domain/errors';
import type { IdSource } from '../../domain/shared/ids';
import { fundsChange, withFunds } from './ledger-repository';
import {
  cancellationReasons,
  ITEM_TYPE,
  isConditionalCheckFailure,
  keys,
  RECORD_VERSION,
  SORT_KEY_PREFIX,
  type Table,
  type TransactItem,
  transactWrite,
  ttlAfter,
} from './table';

/** How long an event id is remembered: Stripe retries for three days; a replay later finds the top-up's own guard. */
const EVENT_MEMORY_MS = 90 * 24 * 3600 * 1000;

const TopUpItem = v.object({
  topUpId: v.string(),
  accountId: v.string(),
  amountMicros: v.pipe(v.number(), v.safeInteger()),
  status: v.picklist(TOP_UP_STATUSES),
  createdAt: v.number(),
  checkoutSessionId: v.optional(v.string()),
  checkoutUrl: v.optional(v.string()),
  creditedMicros: v.optional(v.pipe(v.number(), v.safeInteger())),
  paymentIntentId: v.optional(v.string()),
  completedAt: v.optional(v.number()),
  refundedMicros: v.optional(v.pipe(v.number(), v.safeInteger()), 0),
  disputedMicros: v.optional(v.pipe(v.number(), v.safeInteger()), 0),
  saveCard: v.optional(v.boolean(), false),
  refundFailedMicros: v.optional(v.pipe(v.number(), v.safeInteger()), 0),
  failedRefundIds: v.optional(v.array(v.string()), []),
  disputeClosed: v.optional(v.boolean(), false),
  revision: v.optional(v.pipe(v.number(), v.safeInteger()), 0),
  rechargeCard: v.optional(v.object({ customerId: v.string(), paymentIntentId: v.string() })),
});

const toTopUp = (raw: unknown): TopUp => {
  const item = v.parse(TopUpItem, raw);
  return {
    topUpId: item.topUpId,
    accountId: item.accountId,
    amountMicros: item.amountMicros,
    status: item.status,
    createdAt: item.createdAt,
    checkoutSessionId: item.checkoutSessionId ?? null,
    checkoutUrl: item.checkoutUrl ?? null,
    creditedMicros: item.creditedMicros ?? null,
    paymentIntentId: item.paymentIntentId ?? null,
    completedAt: item.completedAt ?? null,
    refundedMicros: item.refundedMicros,
    disputedMicros: item.disputedMicros,
    saveCard: item.saveCard,
    refundFailedMicros: item.refundFailedMicros,
    failedRefundIds: item.failedRefundIds,
    disputeClosed: item.disputeClosed,
    revision: item.revision,
    rechargeCard: item.rechargeCard ?? null,
  };
};

const encodeCursor = (sortKey: string) => Buffer.from(sortKey, 'utf8').toString('base64url');
const decodeCursor = (cursor: string): string => {
  const sortKey = Buffer.from(cursor, 'base64url').toString('utf8');
  if (!sortKey.startsWith(SORT_KEY_PREFIX.topUp) || encodeCursor(sortKey) !== cursor)
    throw new InvalidRequestError('The cursor is not one this service gave out.');
  return sortKey;
};

export class DynamoTopUps implements TopUpsRepository {
  constructor(
    private readonly table: Table,
    private readonly newId: IdSource,
  ) {}

  private eventClaim(eventId: string, at: number): TransactItem {
    return {
      Put: {
        TableName: this.table.name,
        Item: { ...keys.stripeEvent(eventId), type: ITEM_TYPE.stripeEvent, at, ttl: ttlAfter(at + EVENT_MEMORY_MS) },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    };
  }

  async create(topUp: TopUp): Promise<void> {
    await this.table.doc.send(
      new PutCommand({
        TableName: this.table.name,
        Item: {
          ...keys.topUp(topUp.accountId, topUp.topUpId),
          type: ITEM_TYPE.topUp,
          v: RECORD_VERSION.topUp,
          topUpId: topUp.topUpId,
          accountId: topUp.accountId,
          amountMicros: topUp.amountMicros,
          status: topUp.status,
          createdAt: topUp.createdAt,
          refundedMicros: topUp.refundedMicros,
          disputedMicros: topUp.disputedMicros,
          saveCard: topUp.saveCard === true,
          ...(topUp.rechargeCard && { rechargeCard: topUp.rechargeCard }),
        },
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    );
  }

  async attachSession(accountId: string, topUpId: string, session: { sessionId: string; url: string }): Promise<void> {
    await this.table.doc.send(
      new UpdateCommand({
        TableName: this.table.name,
        Key: keys.topUp(accountId, topUpId),
        UpdateExpression: 'SET checkoutSessionId = :session, checkoutUrl = :url',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeValues: { ':session': session.sessionId, ':url': session.url },
      }),
    );
  }

  async close(accountId: string, topUpId: string, status: 'expired' | 'failed', at: number): Promise<boolean> {
    try {
      await this.table.doc.send(
        new UpdateCommand({
          TableName: this.table.name,
          Key: keys.topUp(accountId, topUpId),
          UpdateExpression: 'SET #status = :to, closedAt = :at',
          ConditionExpression: '#status = :pending',
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: { ':to': status, ':at': at, ':pending': 'pending' },
        }),
      );
      return true;
    } catch (error) {
      if (isConditionalCheckFailure(error)) return false;
      throw error;
    }
  }

  async get(accountId: string, topUpId: string): Promise<TopUp | undefined> {
    const found = await this.table.doc.send(
      new GetCommand({ TableName: this.table.name, Key: keys.topUp(accountId, topUpId), ConsistentRead: true }),
    );
    return found.Item ? toTopUp(found.Item) : undefined;
  }

  async list(accountId: string, page: { limit: number; cursor?: string }): Promise<TopUpPage> {
    const pk = keys.accountPk(accountId);
    const result = await this.table.doc.send(
      new QueryCommand({
        TableName: this.table.name,
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
        ExpressionAttributeValues: { ':pk': pk, ':prefix': SORT_KEY_PREFIX.topUp },
        ExclusiveStartKey: page.cursor ? { pk, sk: decodeCursor(page.cursor) } : undefined,
        ScanIndexForward: false,
        Limit: page.limit,
      }),
    );
    const last = result.LastEvaluatedKey?.sk;
    return {
      topUps: (result.Items ?? []).map(toTopUp),
      ...(typeof last === 'string' && { cursor: encodeCursor(last) }),
    };
  }

  async findByPayment(paymentIntentId: string): Promise<{ accountId: string; topUpId: string } | undefined> {
    const found = await this.table.doc.send(
      new GetCommand({ TableName: this.table.name, Key: keys.stripePayment(paymentIntentId), ConsistentRead: true }),
    );
    return found.Item ? v.parse(v.object({ accountId: v.string(), topUpId: v.string() }), found.Item) : undefined;
  }

  /** Reasons 0 and 1 are the event's claim and the top-up's guard: either failing means it was done already. */
  private static done(reasons: { Code?: string }[]): StripeApplyOutcome | undefined {
    if (reasons[0]?.Code === 'ConditionalCheckFailed') return 'duplicate-event';
    if (reasons[1]?.Code === 'ConditionalCheckFailed') return 'already-applied';
    return undefined;
  }

  credit(input: {
    eventId: string;
    accountId: string;
    topUpId: string;
    amountMicros: number;
    paymentIntentId: string;
    at: number;
  }): Promise<StripeApplyOutcome> {
    return withFunds<StripeApplyOutcome>(
      this.table,
      input.accountId,
      (funds) => {
        const money = fundsChange(
          this.table,
          this.newId,
          {
            accountId: input.accountId,
            amountMicros: input.amountMicros,
            note: `top-up ${input.topUpId} (Stripe payment ${input.paymentIntentId})`,
            at: input.at,
          },
          funds,
        );
        const items: TransactItem[] = [
          this.eventClaim(input.eventId, input.at),
          {
            Update: {
              TableName: this.table.name,
              Key: keys.topUp(input.accountId, input.topUpId),
              UpdateExpression:
                'SET #status = :completed, creditedMicros = :amount, paymentIntentId = :payment, completedAt = :at',
              ConditionExpression: 'attribute_exists(pk) AND #status <> :completed',
              ExpressionAttributeNames: { '#status': 'status' },
              ExpressionAttributeValues: {
                ':completed': 'completed',
                ':amount': input.amountMicros,
                ':payment': input.paymentIntentId,
                ':at': input.at,
              },
            },
          },
          {
            Put: {
              TableName: this.table.name,
              Item: {
                ...keys.stripePayment(input.paymentIntentId),
                type: ITEM_TYPE.stripePayment,
                accountId: input.accountId,
                topUpId: input.topUpId,
              },
            },
          },
          ...money.items,
        ];
        return { items, accountIndex: 3, result: 'applied' };
      },
      DynamoTopUps.done,
    );
  }

  async adjust(input: {
    eventId: string;
    accountId: string;
    topUpId: string;
    change: (topUp: TopUp) => TopUpAdjustment | undefined;
    note: string;
    at: number;
  }): Promise<StripeApplyOutcome> {
    for (;;) {
      const topUp = await this.get(input.accountId, input.topUpId);
      if (!topUp) throw new Error(`top-up ${input.topUpId} of a credited payment is missing`);
      const change = input.change(topUp);
      if (change === undefined) return 'already-applied';
      const deltaMicros = takenBack(topUp) - takenBack({ ...topUp, ...change });
      const revision = topUp.revision ?? 0;
      const names: Record<string, string> = {};
      const values: Record<string, unknown> = { ':next': revision + 1 };
      const sets = ['revision = :next'];
      for (const [name, value] of Object.entries(change)) {
        names[`#${name}`] = name;
        values[`:${name}`] = value;
        sets.push(`#${name} = :${name}`);
      }
      if (revision > 0) values[':revision'] = revision;
      const topUpUpdate: TransactItem = {
        Update: {
          TableName: this.table.name,
          Key: keys.topUp(input.accountId, input.topUpId),
          UpdateExpression: `SET ${sets.join(', ')}`,
          // The revision it was computed from (none before the first change).
          ConditionExpression: revision > 0 ? 'revision = :revision' : 'attribute_not_exists(revision)',
          ExpressionAttributeNames: names,
          ExpressionAttributeValues: values,
        },
      };
      const onFailure = (reasons: { Code?: string }[]) =>
        reasons[0]?.Code === 'ConditionalCheckFailed'
          ? ('duplicate-event' as const)
          : reasons[1]?.Code === 'ConditionalCheckFailed'
            ? ('moved' as const)
            : undefined;
      let outcome: StripeApplyOutcome | 'moved';
      if (deltaMicros === 0) {
        // Stripe's word changed, the money does not (a refund within what a lost dispute already took).
        try {
          await transactWrite(this.table, [this.eventClaim(input.eventId, input.at), topUpUpdate]);
          outcome = 'applied';
        } catch (error) {
          const reasons = cancellationReasons(error);
          const found = reasons && onFailure(reasons);
          if (!found) throw error;
          outcome = found;
        }
      } else
        outcome = await withFunds<StripeApplyOutcome | 'moved'>(
          this.table,
          input.accountId,
          (funds) => {
            const money = fundsChange(
              this.table,
              this.newId,
              { accountId: input.accountId, amountMicros: deltaMicros, note: input.note, at: input.at },
              funds,
            );
            return {
              items: [this.eventClaim(input.eventId, input.at), topUpUpdate, ...money.items],
              accountIndex: 2,
              result: 'applied',
            };
          },
          // The top-up moved (another event): read it again.
          onFailure,
        );
      if (outcome !== 'moved') return outcome;
    }
  }

  async attachPayment(accountId: string, topUpId: string, paymentIntentId: string): Promise<void> {
    await this.table.doc.send(
      new UpdateCommand({
        TableName: this.table.name,
        Key: keys.topUp(accountId, topUpId),
        UpdateExpression: 'SET paymentIntentId = :payment',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeValues: { ':payment': paymentIntentId },
      }),
    );
  }

  async recordUnhandled(eventId: string, reason: string, at: number): Promise<void> {
    try {
      await this.table.doc.send(
        new PutCommand({
          TableName: this.table.name,
          Item: {
            ...keys.stripeEvent(eventId),
            type: ITEM_TYPE.stripeEvent,
            at,
            unhandled: reason,
            ttl: ttlAfter(at + EVENT_MEMORY_MS),
          },
          ConditionExpression: 'attribute_not_exists(pk)',
        }),
      );
    } catch (error) {
      if (!isConditionalCheckFailure(error)) throw error;
    }
  }
}
