/** The table's repositories, each built once per process on first use (the bucket is in storage.ts). */
import { DynamoAccounts } from '../adapters/dynamo/accounts-repository';
import { DynamoJobs } from '../adapters/dynamo/jobs-repository';
import { cachedKeyLookup } from '../adapters/dynamo/key-cache';
import { dynamoKeyUses } from '../adapters/dynamo/key-use';
import { DynamoLedger } from '../adapters/dynamo/ledger-repository';
import { DynamoProfiles } from '../adapters/dynamo/profiles-repository';
import { dynamoRateCounter } from '../adapters/dynamo/rate-counter';
import { openTable } from '../adapters/dynamo/table';
import { meteredLedger } from '../domain/billing/metered-ledger';
import type { OutboundLimit } from '../domain/jobs/deliveries';
import { clock, log, meter, newId, once, settings } from './core';

export const table = once(() =>
  openTable({
    tableName: settings().SERVICE_TABLE_NAME,
    region: settings().AWS_REGION,
    endpoint: settings().DYNAMODB_ENDPOINT,
  }),
);
export const accounts = once(() => new DynamoAccounts(table(), newId));
/** The ledger, with its money and outcomes counted (functions/domain/billing/metered-ledger.ts). */
export const ledger = once(() => meteredLedger(new DynamoLedger(table(), newId), meter(), log()));
export const profiles = once(() => new DynamoProfiles(table()));
export const jobs = once(() => new DynamoJobs(table()));

/** Key resolution with a short cache: a warm function reads the key once per cache period. */
export const keyLookup = once(() => cachedKeyLookup(accounts(), settings().API_KEY_CACHE_SECONDS * 1000, clock));

/** The per-account request counter every authenticated request passes (functions/domain/accounts/rate-limit.ts). */
export const rateLimitDeps = once(() => ({ counter: dynamoRateCounter(table()), clock }));

/** The lower limit on the same window for what sends to a URL the caller chooses: a webhook test, a redelivery. */
export const outboundLimit = once(
  (): OutboundLimit => ({
    counter: rateLimitDeps().counter,
    outboundSendsPerMinute: settings().OUTBOUND_SENDS_PER_MINUTE,
  }),
);

/** When each key was last used: noted on the request path at most once a minute per key (key-use.ts). */
export const keyUses = once(() => dynamoKeyUses(table()));

/** What account operations need (webhook secret, opening accounts and keys). */
export const accountDeps = once(() => ({ accounts: accounts(), clock, newId }));

/** Profile reads (status, list) need only the table. */
export const profileReadDeps = once(() => ({ profiles: profiles(), clock }));

/** The tag backfill writes through the profiles repository. */
export const tagDeps = once(() => ({ tags: profiles(), writeConcurrency: 16 }));
