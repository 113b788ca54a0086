/** The callback deliverer: signing secrets, attempt records, the signed POST and the dead-letter queue. */
import { readFileSync } from 'node:fs';
import { WEBHOOK_SECRET_PREFIX } from '../domain/accounts/accounts';
import type { DeliveryDeps } from '../domain/callbacks/deliver';
import { newSecret } from '../domain/shared/ids';
import { countCallbackAttempts, recordCallbackAttempt } from '../adapters/dynamo/callback-attempts';
import { postCallback } from '../adapters/net/post-callback';
import { sendJson } from '../adapters/sqs/queues';
import { clock, once, settings } from './core';
import { accounts, table } from './data';
import { sqs } from './queues';

export const callbackDeps = once(
  (): DeliveryDeps => ({
    webhookSecret: (accountId) => accounts().getOrCreateWebhookSecret(accountId, newSecret(WEBHOOK_SECRET_PREFIX), clock()),
    attemptsSoFar: countCallbackAttempts(table()),
    deadLetter: (message, attempts) => sendJson(sqs(), settings().CALLBACK_DLQ_URL, message, { attempts }),
    post: postCallback({
      allowLoopback: settings().ALLOW_LOOPBACK_URLS,
      extraCa: settings().EXTRA_TRUSTED_CA_FILE ? readFileSync(settings().EXTRA_TRUSTED_CA_FILE!, 'utf8') : undefined,
    }),
    recordAttempt: recordCallbackAttempt(table()),
    clock,
    random: Math.random,
  }),
);
