/**
 * Read first: the single table. Every key, index entry and TTL the service writes is built in this file.
 *
 * Every item has `pk`, `sk` and `type` (ITEM_TYPE); `gsi1pk`/`gsi1sk` feed the one index; `ttl` (epoch
 * seconds) only cleans up, it never decides anything (DynamoDB deletes "typically within 2 days"): it is
 * set a week (TTL_GRACE_MS) after our code stops answering for the item.
 *
 * | access pattern                          | key                                                         | type            | ttl                          |
 * |-----------------------------------------|-------------------------------------------------------------|-----------------|------------------------------|
 * | account (balance, entryCount, version)  | pk ACCOUNT#<accountId>  sk ACCOUNT                          | account         | none                         |
 * | resolve an API key                      | pk APIKEY#<sha256 hex>  sk APIKEY                           | apiKeyLookup    | none                         |
 * | an account's keys (list, revoke)        | pk ACCOUNT#<accountId>  sk KEY#<keyId>                      | apiKey          | none                         |
 * | webhook signing secrets (see below)     | pk ACCOUNT#<accountId>  sk WEBHOOK_SECRET                   | webhookSecret   | none                         |
 * | ledger entries, newest first            | pk ACCOUNT#<accountId>  sk LEDGER#<entryId> (time-ordered)  | ledger          | none (the books are kept)    |
 * | running async jobs (the account's cap)  | pk ACCOUNT#<accountId>  sk RUNNING_JOBS                     | runningJobs     | none                         |
 * | job (charge owner), jobs newest first   | pk ACCOUNT#<accountId>  sk JOB#<jobId> (time-ordered)       | job             | expiresAt + grace, once ended|
 * | client_request_id → job (idempotency)   | pk ACCOUNT#<accountId>  sk IDEMPOTENCY#<clientRequestId>    | idempotency     | keepUntil + grace            |
 * | a job's callback attempts (per delivery)  | pk ACCOUNT#<accountId>  sk CALLBACK#<jobId>#<deliveryId>#<attempt 000> | callbackAttempt | at + retention + grace |
 * | profile (charge owner), all profiles    | pk ACCOUNT#<accountId>  sk PROFILE#<profileId>              | profile         | none                         |
 * | profiles by tag                         | gsi1pk TAG#<accountId>#<tag>  gsi1sk PROFILE#<profileId>    | (on profile)    |                              |
 * | requests in a minute (rate limit)       | pk RATE#<accountId>  sk WINDOW#<window start, epoch ms>      | rateWindow      | window end + 1 h             |
 * | when a key was last used (≤ 1 write/min) | pk RATE#<accountId>  sk KEYUSE#<keyId>                      | keyUse          | none                         |
 * | a photo the preflight read (by its bytes) | pk RATE#<accountId>  sk PREFLIGHT#<name of the bytes>        | preflightPhoto  | written + 1 day              |
 * | portal invitation (token hash)          | pk INVITATION#<sha256 hex>  sk INVITATION                   | invitation      | expiresAt + grace            |
 * | portal user (e-mail, lower case)        | pk PORTAL_USER#<email>  sk USER                             | portalUser      | none                         |
 * | portal session (cookie hash)            | pk PORTAL_SESSION#<sha256 hex>  sk SESSION                  | portalSession   | expiresAt + grace            |
 * | billing settings (auto-recharge, notice)| pk ACCOUNT#<accountId>  sk BILLING                          | billingSettings | none                         |
 * | automatic charges of a UTC day (the cap) | pk ACCOUNT#<accountId>  sk RECHARGE_DAY#<day start, epoch ms> | rechargeDay   | day end + grace              |
 * | top-up, newest first (billing/top-ups)  | pk ACCOUNT#<accountId>  sk TOPUP#<topUpId> (time-ordered)   | topUp           | none (the books are kept)    |
 * | the top-up a Stripe payment credited    | pk STRIPE_PAYMENT#<payment intent id>  sk PAYMENT           | stripePayment   | none                         |
 * | a Stripe event acted on (exactly once)  | pk STRIPE_EVENT#<event id>  sk EVENT                        | stripeEvent     | at + 90 days + grace         |
 * | a face model's backfill (progress)      | pk FACE_MODEL#<model id>  sk REEMBED                        | reembedProgress | none                         |
 * | a LoRA trainer's measured pace          | pk TRAINER#<trainer model>  sk PACE                         | trainerPace     | none                         |
 *
 * Record versions. Old and new code run side by side during a deploy (docs/deploy-aws.md, "Changing what is
 * stored"), so every family below is written with `v` (RECORD_VERSION: the shape its writer wrote) and read
 * by code that accepts the current shape and the previous one. An item without `v` is version 1: anything
 * written before versions were recorded (commit f2880e8's shapes, and the attributes added after it, listed
 * here). Readers do not branch on `v`: each version only adds attributes, which a reader of the previous
 * version drops (valibot's object ignores unknown keys) and today's reader defaults when absent. A change
 * that cannot be read that way bumps its family's version, ships a reader that branches on `v` first and the
 * writer a deploy later. Updates keep the `v` the item was created with (they only add attributes too).
 *
 * | family (type)        | v | version 1, still read                                                              |
 * |----------------------|---|------------------------------------------------------------------------------------|
 * | account              | 2 | the same attributes                                                                |
 * | apiKeyLookup, apiKey | 2 | no `scopes`: every scope but billing (LEGACY_KEY_SCOPES)                           |
 * | profile              | 2 | the template in `face` only, no `faces` map                                        |
 * | job                  | 2 | one ticket, in `engineTicket`; or (written after f2880e8) the work's first in `engineTickets` |
 * | ledger               | 2 | no `retriedOutputs`                                                                |
 * | topUp                | 2 | no refundFailedMicros, failedRefundIds, disputeClosed, revision, rechargeCard      |
 * | billingSettings      | 2 | a `card` without `consentedAt` (the daily cap is its own item, rechargeDay)        |
 *
 * Optional attributes added without a new version (absent reads as before, an older reader drops them): a
 * profile template's `referencePoses` (Full Train's reference bank), a job's stored candidate `inputPose`.
 *
 * The webhook-secret item holds `secret` (current) and, after a rotation, `previousSecret` with
 * `previousExpiresAt` (epoch ms; our code ignores it after that, no TTL: the item is the current secret).
 * Every write of it is conditional on the `secret` it replaces (accounts-repository.ts), so of two
 * concurrent rotations exactly one wins.
 *
 * A job's money is its `chargeState` and `reservedMicros` (functions/adapters/dynamo/ledger-repository.ts)
 * and the ledger entries whose `ownerId` is the job id. Open jobs and profiles are found by a Scan on
 * `type` and `status` (open-work.ts).
 */
import { type CancellationReason, DynamoDBClient, TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import {
  DynamoDBDocumentClient,
  QueryCommand,
  type QueryCommandInput,
  TransactWriteCommand,
  type TransactWriteCommandInput,
} from '@aws-sdk/lib-dynamodb';
import type { ChargeOwner } from '../../domain/billing/ledger';
import { localCredentials } from '../aws-clients';

export interface TableConfig {
  tableName: string;
  region: string;
  /** Set for the local runtime and DynamoDB Local; absent on AWS. */
  endpoint?: string;
}

export interface Table {
  doc: DynamoDBDocumentClient;
  name: string;
}

export const openTable = (config: TableConfig): Table => {
  const client = new DynamoDBClient({
    region: config.region,
    ...(config.endpoint ? { endpoint: config.endpoint, credentials: localCredentials() } : {}),
    maxAttempts: 5,
  });
  return {
    doc: DynamoDBDocumentClient.from(client, { marshallOptions: { removeUndefinedValues: true } }),
    name: config.tableName,
  };
};

export interface ItemKey {
  pk: string;
  sk: string;
}

const accountPk = (accountId: string) => `ACCOUNT#${accountId}`;

/** The partition-key prefix of the rate counters, which the stack's IAM condition names. */
export const RATE_PARTITION_PREFIX = 'RATE#';

/** The sort-key prefixes that queries over one account's partition begin with. */
export const SORT_KEY_PREFIX = {
  key: 'KEY#',
  ledger: 'LEDGER#',
  job: 'JOB#',
  profile: 'PROFILE#',
  idempotency: 'IDEMPOTENCY#',
  callback: 'CALLBACK#',
  topUp: 'TOPUP#',
} as const;

export const ITEM_TYPE = {
  account: 'account',
  apiKeyLookup: 'apiKeyLookup',
  apiKey: 'apiKey',
  webhookSecret: 'webhookSecret',
  ledger: 'ledger',
  job: 'job',
  idempotency: 'idempotency',
  callbackAttempt: 'callbackAttempt',
  profile: 'profile',
  rateWindow: 'rateWindow',
  keyUse: 'keyUse',
  preflightPhoto: 'preflightPhoto',
  invitation: 'invitation',
  portalUser: 'portalUser',
  portalSession: 'portalSession',
  runningJobs: 'runningJobs',
  topUp: 'topUp',
  billingSettings: 'billingSettings',
  rechargeDay: 'rechargeDay',
  stripePayment: 'stripePayment',
  stripeEvent: 'stripeEvent',
  reembedProgress: 'reembedProgress',
  trainerPace: 'trainerPace',
} as const;

export const keys = {
  account: (accountId: string): ItemKey => ({ pk: accountPk(accountId), sk: 'ACCOUNT' }),
  apiKeyLookup: (keyHash: string): ItemKey => ({ pk: `APIKEY#${keyHash}`, sk: 'APIKEY' }),
  apiKey: (accountId: string, keyId: string): ItemKey => ({
    pk: accountPk(accountId),
    sk: `${SORT_KEY_PREFIX.key}${keyId}`,
  }),
  webhookSecret: (accountId: string): ItemKey => ({ pk: accountPk(accountId), sk: 'WEBHOOK_SECRET' }),
  ledgerEntry: (accountId: string, entryId: string): ItemKey => ({
    pk: accountPk(accountId),
    sk: `${SORT_KEY_PREFIX.ledger}${entryId}`,
  }),
  job: (accountId: string, jobId: string): ItemKey => ({
    pk: accountPk(accountId),
    sk: `${SORT_KEY_PREFIX.job}${jobId}`,
  }),
  profile: (accountId: string, profileId: string): ItemKey => ({
    pk: accountPk(accountId),
    sk: `${SORT_KEY_PREFIX.profile}${profileId}`,
  }),
  reembedProgress: (modelId: string): ItemKey => ({ pk: `FACE_MODEL#${modelId}`, sk: 'REEMBED' }),
  trainerPace: (model: string): ItemKey => ({ pk: `TRAINER#${model}`, sk: 'PACE' }),
  chargeOwner: (accountId: string, owner: ChargeOwner): ItemKey =>
    owner.kind === 'job' ? keys.job(accountId, owner.id) : keys.profile(accountId, owner.id),
  idempotency: (accountId: string, clientRequestId: string): ItemKey => ({
    pk: accountPk(accountId),
    sk: `${SORT_KEY_PREFIX.idempotency}${clientRequestId}`,
  }),
  callbackAttempts: (jobId: string) => `${SORT_KEY_PREFIX.callback}${jobId}#`,
  /** A redelivery is a new delivery id whose attempts count from 1 again, beside the first delivery's. */
  callbackAttempt: (accountId: string, jobId: string, deliveryId: string, attempt: number): ItemKey => ({
    pk: accountPk(accountId),
    sk: `${keys.callbackAttempts(jobId)}${deliveryId}#${String(attempt).padStart(3, '0')}`,
  }),
  /** The tag index entry a tagged profile carries. */
  tagIndex: (accountId: string, tag: string, profileId: string) => ({
    gsi1pk: keys.tagPartition(accountId, tag),
    gsi1sk: `${SORT_KEY_PREFIX.profile}${profileId}`,
  }),
  tagPartition: (accountId: string, tag: string) => `TAG#${accountId}#${tag}`,
  /** Its own partition, so that the functions may write it (IAM dynamodb:LeadingKeys RATE#*) and nothing else of an account. */
  rateWindow: (accountId: string, windowStart: number): ItemKey => ({
    pk: `${RATE_PARTITION_PREFIX}${accountId}`,
    sk: `WINDOW#${windowStart}`,
  }),
  /** In the RATE# partition, so that every API-key function may write it under the same IAM condition as its counter. */
  keyUse: (accountId: string, keyId: string): ItemKey => ({
    pk: `${RATE_PARTITION_PREFIX}${accountId}`,
    sk: `KEYUSE#${keyId}`,
  }),
  keyUses: (accountId: string) => ({ pk: `${RATE_PARTITION_PREFIX}${accountId}`, prefix: 'KEYUSE#' }),
  /** In the RATE# partition, so that the preflight may remember a photo under the grant its rate counter has. */
  preflightPhoto: (accountId: string, name: string): ItemKey => ({
    pk: `${RATE_PARTITION_PREFIX}${accountId}`,
    sk: `PREFLIGHT#${name}`,
  }),
  invitation: (tokenHash: string): ItemKey => ({ pk: `INVITATION#${tokenHash}`, sk: 'INVITATION' }),
  portalUser: (email: string): ItemKey => ({ pk: `PORTAL_USER#${email}`, sk: 'USER' }),
  portalSession: (idHash: string): ItemKey => ({ pk: `PORTAL_SESSION#${idHash}`, sk: 'SESSION' }),
  /** How many of the account's asynchronous jobs are running (jobs-repository.ts markRunning, ledger close). */
  runningJobs: (accountId: string): ItemKey => ({ pk: accountPk(accountId), sk: 'RUNNING_JOBS' }),
  topUp: (accountId: string, topUpId: string): ItemKey => ({
    pk: accountPk(accountId),
    sk: `${SORT_KEY_PREFIX.topUp}${topUpId}`,
  }),
  billingSettings: (accountId: string): ItemKey => ({ pk: accountPk(accountId), sk: 'BILLING' }),
  /** What automatic charges claimed on one UTC day, against AUTO_RECHARGE_DAILY_MAX_USD (billing-settings.ts). */
  rechargeDay: (accountId: string, dayStart: number): ItemKey => ({
    pk: accountPk(accountId),
    sk: `RECHARGE_DAY#${dayStart}`,
  }),
  stripePayment: (paymentIntentId: string): ItemKey => ({ pk: `STRIPE_PAYMENT#${paymentIntentId}`, sk: 'PAYMENT' }),
  stripeEvent: (eventId: string): ItemKey => ({ pk: `STRIPE_EVENT#${eventId}`, sk: 'EVENT' }),
  accountPk,
} as const;

/** The record version (`v`) each family's writer stamps on the items it creates (the header's table). */
export const RECORD_VERSION = {
  account: 2,
  /** Both items of a key: the lookup by hash and the account's key item. */
  apiKey: 2,
  profile: 2,
  job: 2,
  ledger: 2,
  topUp: 2,
  billingSettings: 2,
} as const;

/** TTL only cleans up: a week after our code stopped answering for the item. */
export const TTL_GRACE_MS = 7 * 24 * 3600 * 1000;

/** The `ttl` attribute (epoch seconds) of an item our code stops answering for at `lastUsefulAt` (epoch ms). */
export const ttlAfter = (lastUsefulAt: number): number => Math.floor((lastUsefulAt + TTL_GRACE_MS) / 1000);

export type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

export const isConditionalCheckFailure = (error: unknown): boolean =>
  error instanceof Error && error.name === 'ConditionalCheckFailedException';

/** The cancellation reasons of a failed transaction, or undefined when it failed for another cause. */
export const cancellationReasons = (error: unknown): CancellationReason[] | undefined =>
  error instanceof TransactionCanceledException ||
  (error instanceof Error && error.name === 'TransactionCanceledException')
    ? ((error as TransactionCanceledException).CancellationReasons ?? [])
    : undefined;

const CONFLICT_RETRIES = 8;

/**
 * Runs a transaction, retrying with jittered backoff while DynamoDB cancels it only for a conflict with
 * another transaction on the same items (contention on a hot balance is normal, not an error).
 */
export const transactWrite = async (table: Table, items: TransactItem[]): Promise<void> => {
  for (let attempt = 0; ; attempt += 1) {
    try {
      await table.doc.send(new TransactWriteCommand({ TransactItems: items }));
      return;
    } catch (error) {
      const reasons = cancellationReasons(error);
      const conflictOnly =
        (reasons?.some((r) => r.Code === 'TransactionConflict') &&
          reasons.every((r) => r.Code === 'TransactionConflict' || r.Code === 'None')) ||
        (error instanceof Error && error.name === 'TransactionConflictException');
      if (!conflictOnly || attempt >= CONFLICT_RETRIES) throw error;
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 10 * 2 ** attempt));
    }
  }
};

/** Every item a Query finds, page after page, or the first `max` of them (then `truncated` if more exist). */
export const queryAll = async (
  table: Table,
  input: Omit<QueryCommandInput, 'TableName' | 'ExclusiveStartKey'>,
  max = Infinity,
): Promise<{ items: Record<string, unknown>[]; truncated: boolean }> => {
  const items: Record<string, unknown>[] = [];
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await table.doc.send(
      new QueryCommand({
        ...input,
        TableName: table.name,
        ExclusiveStartKey: startKey,
        ...(Number.isFinite(max) ? { Limit: max + 1 - items.length } : {}),
      }),
    );
    items.push(...(page.Items ?? []));
    startKey = page.LastEvaluatedKey;
  } while (startKey && items.length <= max);
  return { items: items.slice(0, max), truncated: items.length > max };
};
