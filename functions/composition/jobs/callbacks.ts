/** The callback deliverer: signing secrets, attempt records, the signed POST and the dead-letter queue. */
import { readFileSync } from 'node:fs';
import { countCallbackAttempts, recordCallbackAttempt } from '../../adapters/dynamo/callback-attempts';
import { postCallback } from '../../adapters/net/post-callback';
import { sendJson } from '../../adapters/sqs/queues';
import { signingSecrets } from '../../domain/accounts/accounts';
import type { DeliveryDeps } from '../../domain/callbacks/deliver';
import { METRICS } from '../../domain/shared/meter';
import { clock, meter, newId, once, settings } from '../core';
import { accounts, outboundLimit, table } from '../data';
import { sqs } from '../queues';

/** Signing and sending, shared by deliveries and test events (the SSRF guard, the extra CA of the local runtime). */
export const signedPostDeps = once((): Pick<DeliveryDeps, 'webhookSecrets' | 'post' | 'clock'> => {
  const caFile = settings().EXTRA_TRUSTED_CA_FILE;
  return {
    webhookSecrets: (accountId) => signingSecrets({ accounts: accounts(), clock }, accountId),
    post: postCallback({
      allowLoopback: settings().ALLOW_LOOPBACK_URLS,
      extraCa: caFile ? readFileSync(caFile, 'utf8') : undefined,
    }),
    clock,
  };
});

/** A test event: signed and sent like a delivery, answered at once (POST /webhook-test). */
export const webhookTestDeps = once(() => ({ ...signedPostDeps(), ...outboundLimit(), newId }));

export const callbackDeps = once((): DeliveryDeps => {
  const recordAttempt = recordCallbackAttempt(table());
  return {
    ...signedPostDeps(),
    attemptsSoFar: countCallbackAttempts(table()),
    deadLetter: async (message, attempts) => {
      await sendJson(sqs(), settings().CALLBACK_DLQ_URL, message, { attempts });
      meter().count(METRICS.callbackDeadLetters);
    },
    recordAttempt: async (attempt) => {
      await recordAttempt(attempt);
      meter().count(METRICS.callbackAttempts);
      if (typeof attempt.result === 'number' && attempt.result >= 200 && attempt.result < 300)
        meter().count(METRICS.callbackSuccesses);
    },
    random: Math.random,
  };
});
