/**
 * The steps of the image-job workflow. The steps around the engine (MarkRunning, SettleCharge,
 * ReleaseCharge, QueueCallback) use `jobStepDeps`, which touches no image; RunEngine adds the engine
 * and the stored inputs on top of the same object (image-engine.ts).
 */
import type { WorkflowDeps } from '../domain/jobs/workflow';
import { jobOutputs } from '../adapters/s3/job-files';
import { clock, once, settings } from './core';
import { jobs, ledger, objects } from './data';
import { link } from './downloads';
import { enqueueCallback } from './queues';

export type JobStepDeps = Omit<WorkflowDeps, 'engine' | 'inputs'>;

export const jobStepDeps = once(
  (): JobStepDeps => ({
    clock,
    jobs: jobs(),
    ledger: ledger(),
    outputs: jobOutputs(objects()),
    link,
    enqueueCallback,
    settings: { asyncBudgetMs: settings().ASYNC_BUDGET_SECONDS * 1000 },
  }),
);
