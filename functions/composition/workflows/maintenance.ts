/** The scheduled closing of abandoned work: the table, the ledger, and the state of executions. */

import { executionState } from '../../adapters/sfn/executions';
import { STATE_MACHINE_ARN_ENV } from '../../deployment/env-names';
import { type AbandonedWorkDeps, GRACE_MS } from '../../domain/workflow/abandoned';
import { clock, once, settings } from '../core';
import { jobs, ledger, profiles } from '../data';
import { cancelTicketWork } from '../providers/provider-work';
import { sfn } from '../state-machines';

export const abandonedWorkDeps = once(
  (): AbandonedWorkDeps => ({
    clock,
    graceMs: GRACE_MS,
    jobs: jobs(),
    profiles: profiles(),
    ledger: ledger(),
    cancelEngineWork: cancelTicketWork,
    executionState: (kind, id) =>
      executionState(
        sfn(),
        kind === 'job'
          ? settings()[STATE_MACHINE_ARN_ENV['image-job']]
          : settings()[STATE_MACHINE_ARN_ENV['profile-training']],
        id,
      ),
  }),
);
