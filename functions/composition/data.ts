/** The table's repositories and the bucket, each built once per process on first use. */
import { DynamoAccounts } from '../adapters/dynamo/accounts-repository';
import { cachedKeyLookup } from '../adapters/dynamo/key-cache';
import { DynamoJobs } from '../adapters/dynamo/jobs-repository';
import { DynamoLedger } from '../adapters/dynamo/ledger-repository';
import { DynamoProfiles } from '../adapters/dynamo/profiles-repository';
import { openTable } from '../adapters/dynamo/table';
import { createObjectStore } from '../adapters/s3/object-store';
import { clock, newId, once, settings } from './core';

export const table = once(() => openTable({ tableName: settings().SERVICE_TABLE_NAME, region: settings().AWS_REGION, endpoint: settings().DYNAMODB_ENDPOINT }));
export const accounts = once(() => new DynamoAccounts(table(), newId));
export const ledger = once(() => new DynamoLedger(table(), newId));
export const profiles = once(() => new DynamoProfiles(table()));
export const jobs = once(() => new DynamoJobs(table()));
export const objects = once(() => createObjectStore({ bucket: settings().SERVICE_BUCKET_NAME, region: settings().AWS_REGION, endpoint: settings().S3_ENDPOINT }));

/** Key resolution with a short cache: a warm function reads the key once per cache period. */
export const keyLookup = once(() => cachedKeyLookup(accounts(), settings().API_KEY_CACHE_SECONDS * 1000, clock));

/** What account operations need (webhook secret, opening accounts and keys). */
export const accountDeps = once(() => ({ accounts: accounts(), clock, newId }));
