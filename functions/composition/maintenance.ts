/** The scheduled closing of abandoned work: the table, the ledger, and the state of executions. */
import { GRACE_MS, type AbandonedWorkDeps } from '../domain/billing/abandoned';
import { executionState } from '../adapters/sfn/executions';
import { clock, once, settings } from './core';
import { jobs, ledger, profiles } from './data';
import { sfn } from './workflows';

export const abandonedWorkDeps = once(
  (): AbandonedWorkDeps => ({
    clock,
    graceMs: GRACE_MS,
    jobs: jobs(),
    profiles: profiles(),
    ledger: ledger(),
    executionState: (kind, id) =>
      executionState(sfn(), kind === 'job' ? settings().IMAGE_JOB_STATE_MACHINE_ARN : settings().PROFILE_TRAINING_STATE_MACHINE_ARN, id),
  }),
);
