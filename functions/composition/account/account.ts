/** The account's own view of its money: its record, its balance and its ledger, read strongly. */
import { DynamoLedger } from '../../adapters/dynamo/ledger-repository';
import type { StatementDeps } from '../../domain/accounts/statement';
import { newId, once, settings } from '../core';
import { accounts, table } from '../data';

export const statementDeps = once(
  (): StatementDeps => ({
    accounts: accounts(),
    // Reads only: the unmetered adapter (the metered ledger counts money that moves).
    statements: new DynamoLedger(table(), newId),
    defaultLimits: { requestsPerMinute: settings().RATE_LIMIT_PER_MINUTE, runningJobs: settings().MAX_RUNNING_JOBS },
  }),
);
