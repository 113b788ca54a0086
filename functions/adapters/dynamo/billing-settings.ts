/**
 * An account's billing settings (functions/domain/billing/auto-billing.ts): one item beside the account,
 * whose flags are moved by conditional writes so that a notice is sent once per crossing and a card is
 * charged at most once per window and within the day's cap, however many settles race: a claim is one
 * transaction of the window's condition on the settings and the cap's condition on the day's counter item
 * (keys in table.ts).
 */
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import * as v from 'valibot';
import {
  type BillingSettings,
  type BillingSettingsRepository,
  NO_SETTINGS,
  type RechargeClaim,
  type SavedCard,
} from '../../domain/billing/auto-billing';
import {
  cancellationReasons,
  ITEM_TYPE,
  isConditionalCheckFailure,
  keys,
  RECORD_VERSION,
  type Table,
  transactWrite,
  ttlAfter,
} from './table';

const DAY_MS = 86_400_000;
/** Every write may create the item (an update of nothing): it gets this code's version, an existing item keeps its own. */
const VERSION_SET = 'v = if_not_exists(v, :v)';
const RechargeDayItem = v.object({ chargedMicros: v.optional(v.number(), 0) });

const SettingsItem = v.object({
  autoRecharge: v.optional(v.object({ enabled: v.boolean(), thresholdMicros: v.number(), amountMicros: v.number() })),
  lowBalanceThresholdMicros: v.optional(v.nullable(v.number())),
  webhookUrl: v.optional(v.nullable(v.string())),
  card: v.optional(
    v.object({ customerId: v.string(), paymentIntentId: v.string(), consentedAt: v.optional(v.number()) }),
  ),
  lastRechargeAt: v.optional(v.number()),
  lowNotified: v.optional(v.boolean(), false),
  disabledReason: v.optional(v.nullable(v.string())),
});

export class DynamoBillingSettings implements BillingSettingsRepository {
  constructor(private readonly table: Table) {}

  private async write(accountId: string, expression: string, values: Record<string, unknown>, condition?: string) {
    try {
      await this.table.doc.send(
        new UpdateCommand({
          TableName: this.table.name,
          Key: keys.billingSettings(accountId),
          UpdateExpression: `SET #type = :type, ${VERSION_SET}, ${expression}`,
          ...(condition && { ConditionExpression: condition }),
          ExpressionAttributeNames: { '#type': 'type' },
          ExpressionAttributeValues: {
            ':type': ITEM_TYPE.billingSettings,
            ':v': RECORD_VERSION.billingSettings,
            ...values,
          },
        }),
      );
      return true;
    } catch (error) {
      if (condition && isConditionalCheckFailure(error)) return false;
      throw error;
    }
  }

  async get(accountId: string): Promise<BillingSettings> {
    const found = await this.table.doc.send(
      new GetCommand({ TableName: this.table.name, Key: keys.billingSettings(accountId), ConsistentRead: true }),
    );
    if (!found.Item) return NO_SETTINGS;
    const item = v.parse(SettingsItem, found.Item);
    return {
      autoRecharge: item.autoRecharge ?? null,
      lowBalanceThresholdMicros: item.lowBalanceThresholdMicros ?? null,
      webhookUrl: item.webhookUrl ?? null,
      card: item.card ?? null,
      lastRechargeAt: item.lastRechargeAt ?? null,
      lowNotified: item.lowNotified,
      disabledReason: item.disabledReason ?? null,
    };
  }

  async update(
    accountId: string,
    patch: Partial<Pick<BillingSettings, 'autoRecharge' | 'lowBalanceThresholdMicros' | 'webhookUrl'>>,
  ): Promise<void> {
    const sets: string[] = [];
    const values: Record<string, unknown> = {};
    if (patch.autoRecharge !== undefined) {
      sets.push('autoRecharge = :recharge');
      values[':recharge'] = patch.autoRecharge;
      if (patch.autoRecharge?.enabled) {
        sets.push('disabledReason = :none');
        values[':none'] = null;
      }
    }
    if (patch.lowBalanceThresholdMicros !== undefined) {
      // A new threshold is a new line to cross.
      sets.push('lowBalanceThresholdMicros = :low', 'lowNotified = :false');
      values[':low'] = patch.lowBalanceThresholdMicros;
      values[':false'] = false;
    }
    if (patch.webhookUrl !== undefined) {
      sets.push('webhookUrl = :url');
      values[':url'] = patch.webhookUrl;
    }
    if (sets.length > 0) await this.write(accountId, sets.join(', '), values);
  }

  /** The newest consent wins: a card saved from an older top-up (a late or replayed event) changes nothing. */
  async saveCard(accountId: string, card: SavedCard): Promise<void> {
    const consentedAt = card.consentedAt ?? 0;
    await this.write(
      accountId,
      'card = :card',
      { ':card': { ...card, consentedAt }, ':at': consentedAt },
      'attribute_not_exists(card) OR attribute_not_exists(card.consentedAt) OR card.consentedAt <= :at',
    );
  }

  claimLowNotice(accountId: string): Promise<boolean> {
    return this.write(
      accountId,
      'lowNotified = :sent',
      { ':sent': true, ':notYet': false },
      'attribute_not_exists(lowNotified) OR lowNotified = :notYet',
    );
  }

  async clearLowNotice(accountId: string): Promise<void> {
    await this.write(accountId, 'lowNotified = :false', { ':false': false });
  }

  async claimRecharge(accountId: string, claim: RechargeClaim): Promise<boolean> {
    if (claim.amountMicros > claim.dailyMaxMicros) return false;
    try {
      await transactWrite(this.table, [
        {
          Update: {
            TableName: this.table.name,
            Key: keys.billingSettings(accountId),
            UpdateExpression: `SET #type = :type, ${VERSION_SET}, lastRechargeAt = :now`,
            ConditionExpression: 'attribute_not_exists(lastRechargeAt) OR lastRechargeAt <= :windowStart',
            ExpressionAttributeNames: { '#type': 'type' },
            ExpressionAttributeValues: {
              ':type': ITEM_TYPE.billingSettings,
              ':v': RECORD_VERSION.billingSettings,
              ':now': claim.now,
              ':windowStart': claim.now - claim.windowMs,
            },
          },
        },
        {
          // The day's total after this charge stays within the cap: at most cap − amount before it.
          Update: {
            TableName: this.table.name,
            Key: keys.rechargeDay(accountId, claim.dayStart),
            UpdateExpression:
              'SET #type = :type, accountId = :account, #ttl = :ttl ADD chargedMicros :amount, charges :one',
            ConditionExpression: 'attribute_not_exists(chargedMicros) OR chargedMicros <= :room',
            ExpressionAttributeNames: { '#type': 'type', '#ttl': 'ttl' },
            ExpressionAttributeValues: {
              ':type': ITEM_TYPE.rechargeDay,
              ':account': accountId,
              ':ttl': ttlAfter(claim.dayStart + DAY_MS),
              ':amount': claim.amountMicros,
              ':one': 1,
              ':room': claim.dailyMaxMicros - claim.amountMicros,
            },
          },
        },
      ]);
      return true;
    } catch (error) {
      if (cancellationReasons(error)?.some((reason) => reason.Code === 'ConditionalCheckFailed')) return false;
      throw error;
    }
  }

  async rechargedOn(accountId: string, dayStart: number): Promise<number> {
    const found = await this.table.doc.send(
      new GetCommand({ TableName: this.table.name, Key: keys.rechargeDay(accountId, dayStart), ConsistentRead: true }),
    );
    return found.Item ? v.parse(RechargeDayItem, found.Item).chargedMicros : 0;
  }

  async disableAutoRecharge(accountId: string, reason: string): Promise<void> {
    await this.write(accountId, 'autoRecharge.enabled = :off, disabledReason = :reason', {
      ':off': false,
      ':reason': reason,
    });
  }
}
