/**
 * The composition root: builds the adapters the domain needs from the configuration, once per
 * process (Lambda cold start, or the local runtime), and hands them to handlers as one typed object.
 */
import { SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import type { AccountsRepository } from '../domain/accounts/accounts';
import type { DeliveryDeps } from '../domain/callbacks/deliver';
import { newSecret } from '../domain/shared/ids';
import { WEBHOOK_SECRET_PREFIX } from '../domain/accounts/accounts';
import { countCallbackAttempts, recordCallbackAttempt } from '../adapters/dynamo/callback-attempts';
import { postCallback } from '../adapters/net/post-callback';
import { systemClock, type Clock } from '../domain/shared/clock';
import { newId, type IdSource } from '../domain/shared/ids';
import { DynamoAccounts } from '../adapters/dynamo/accounts-repository';
import { DynamoLedger } from '../adapters/dynamo/ledger-repository';
import { openTable, type Table } from '../adapters/dynamo/table';
import { cachedKeyLookup } from '../adapters/dynamo/key-cache';
import { config, type ServiceConfig } from './config';
import { createLogger, type Logger } from './http/logger';

export interface Services {
  config: ServiceConfig;
  clock: Clock;
  newId: IdSource;
  log: Logger;
  table: Table;
  accounts: AccountsRepository;
  /** Key resolution with a short cache: a warm function reads the key once per cache period. */
  keyLookup: Pick<AccountsRepository, 'findKeyByHash'>;
  ledger: DynamoLedger;
  sqs: SQSClient;
  callbacks: DeliveryDeps;
}

const localCredentials = (endpoint: string | undefined) =>
  endpoint ? { endpoint, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } } : {};

export const buildServices = (settings: ServiceConfig, clock: Clock = systemClock): Services => {
  const table = openTable({ tableName: settings.SERVICE_TABLE_NAME, region: settings.AWS_REGION, endpoint: settings.DYNAMODB_ENDPOINT });
  const accounts = new DynamoAccounts(table, newId);
  const sqs = new SQSClient({ region: settings.AWS_REGION, ...localCredentials(settings.SQS_ENDPOINT) });
  return {
    config: settings,
    clock,
    newId,
    log: createLogger(settings.LOG_LEVEL),
    table,
    accounts,
    keyLookup: cachedKeyLookup(accounts, settings.API_KEY_CACHE_SECONDS * 1000, clock),
    ledger: new DynamoLedger(table, newId),
    sqs,
    callbacks: {
      webhookSecret: (accountId) => accounts.getOrCreateWebhookSecret(accountId, newSecret(WEBHOOK_SECRET_PREFIX), clock()),
      attemptsSoFar: countCallbackAttempts(table),
      deadLetter: async (message, attempts) => {
        await sqs.send(
          new SendMessageCommand({
            QueueUrl: settings.CALLBACK_DLQ_URL,
            MessageBody: JSON.stringify(message),
            MessageAttributes: { attempts: { DataType: 'Number', StringValue: String(attempts) } },
          }),
        );
      },
      post: postCallback({ allowLoopback: settings.ALLOW_LOOPBACK_URLS }),
      recordAttempt: recordCallbackAttempt(table),
      clock,
      random: Math.random,
    },
  };
};

let current: Services | undefined;

export const services = (): Services => (current ??= buildServices(config()));

/** Forget the built services (the local runtime rebuilds them after changing the environment). */
export const resetServices = (): void => {
  current = undefined;
};
