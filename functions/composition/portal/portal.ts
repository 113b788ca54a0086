/** The developer portal's function: its sign-in and sessions, and the use cases it shares with the public API. */
import { DynamoPortal } from '../../adapters/dynamo/portal-repository';
import { admitRequest } from '../../domain/accounts/rate-limit';
import type { PortalDeps } from '../../domain/portal/portal';
import { statementDeps } from '../account/account';
import { clock, newId, once } from '../core';
import { accountDeps, accounts, keyUses, profileReadDeps, rateLimitDeps, table } from '../data';
import { webhookTestDeps } from '../jobs/callbacks';
import { redeliveryDeps } from '../jobs/job-actions';
import { deliveryLogDeps, jobStatusDeps } from '../jobs/links';
import { profileDeps } from '../profiles/profiles';
import { pictureDeps } from '../storage';

export const portalRepository = once(() => new DynamoPortal(table(), newId));

export const portalDeps = once(() => ({
  auth: {
    portal: portalRepository(),
    clock,
    newId,
    // Sign-in attempts count on the rate windows, under keys of their own (an e-mail hash, a source address).
    admit: async (key: string, limit: number) => {
      await admitRequest(rateLimitDeps(), key, limit);
    },
  } satisfies PortalDeps,
  statement: statementDeps(),
  keys: { accounts: accounts(), keyUses: keyUses(), clock, newId },
  accounts: accountDeps(),
  jobs: jobStatusDeps(),
  deliveries: deliveryLogDeps(),
  redelivery: redeliveryDeps(),
  webhookTest: webhookTestDeps(),
  profileReads: profileReadDeps(),
  pictures: pictureDeps(),
  profiles: profileDeps(),
}));
