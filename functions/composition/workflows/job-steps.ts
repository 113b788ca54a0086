/**
 * The steps of the image-job workflow. The steps around the engine (MarkRunning, SettleCharge,
 * ReleaseCharge, QueueCallback) use `jobStepDeps`, which touches no image and no bucket; RunEngine adds
 * the engine, the stored inputs and the outputs on top of the same object (image-engine.ts).
 */

import { providerWebhookUrl } from '../../deployment/api-paths';
import { reportToken } from '../../domain/workflow/reports';
import type { WorkflowDeps } from '../../domain/workflow/steps';
import { watchedLedger } from '../account/balance-watch';
import { clock, log, once, settings } from '../core';
import { jobs, ledger } from '../data';
import { link } from '../jobs/links';
import { cancelTicketWork } from '../providers/provider-work';
import { enqueueCallback } from '../queues';
import { downloadSecret } from '../secrets';

export type JobStepDeps = Omit<WorkflowDeps, 'engine' | 'faces' | 'profiles' | 'inputs' | 'outputs'>;

export const jobStepDeps = once(
  (): JobStepDeps => ({
    clock,
    jobs: jobs(),
    // SettleCharge's settle is followed by the low-balance notice and auto-recharge (balance-watch.ts).
    ledger: watchedLedger(ledger()),
    link,
    enqueueCallback,
    cancelEngineWork: cancelTicketWork,
    warn: (message, fields) => log().warn(message, fields),
    // A queued provider reports to its webhook route on the API the job was submitted on.
    reportUrl: async ({ accountId, jobId, baseUrl }, provider) => {
      const token = reportToken(accountId, jobId, await downloadSecret()());
      const query = new URLSearchParams({ account: accountId, job: jobId, sig: token });
      return `${providerWebhookUrl(baseUrl, provider)}?${query.toString()}`;
    },
    settings: { asyncBudgetMs: settings().ASYNC_BUDGET_SECONDS * 1000, maxRunningJobs: settings().MAX_RUNNING_JOBS },
  }),
);
