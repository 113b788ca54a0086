/**
 * Jobs for the unit tests of the use cases: a valid record with every field set (`aJob`), the work an
 * asynchronous job stores for its engine step (`engineWork`), and the workflow's ports on fakes
 * (`workflowDeps`), for tests to change one aspect of.
 */
import type { Job, JobWork } from '../../../functions/domain/jobs/job';
import { newId } from '../../../functions/domain/shared/ids';
import { cancelEngineWork } from '../../../functions/domain/workflow/rounds';
import type { WorkflowDeps } from '../../../functions/domain/workflow/steps';
import { type FakeLedger, fakeFaceAnalyzer } from '../fakes';

/** A pending asynchronous enhance job of the account, created now. */
export const aJob = (accountId: string, overrides: Partial<Job> = {}, now = Date.now()): Job => ({
  jobId: newId('job'),
  accountId,
  operation: 'enhance',
  mode: 'async',
  status: 'pending',
  createdAt: now,
  startedAt: null,
  completedAt: null,
  expiresAt: null,
  result: null,
  error: null,
  responseMode: 'urls',
  callbackUrl: null,
  clientRequestId: null,
  baseUrl: 'https://api.test',
  cancelAt: null,
  progress: null,
  progressAt: null,
  engineTickets: [],
  engineRun: null,
  charge: null,
  work: null,
  ...overrides,
});

/**
 * The work an asynchronous job stores for its engine step: by default an enhance of one 2048×1536 JPEG
 * on base-c-2 that names nobody, priced as one enhance output. `engine` changes the engine request;
 * `priced` the priced request (else an enhance of as many outputs as the engine request asks).
 */
export const engineWork = (engine: Partial<JobWork['engine']> = {}, priced?: JobWork['priced']): JobWork => ({
  engine: {
    operation: 'enhance',
    prompt: '',
    width: 2048,
    height: 1536,
    outputFormat: 'jpg',
    numOutputImages: 1,
    baseModel: 'base-c-2',
    candidates: [],
    namedInPrompt: [],
    ...engine,
  },
  inputs: [],
  priced: priced ?? { operation: 'enhance', numOutputImages: engine.numOutputImages ?? 1 },
});

/** Reserves `amountMicros` for the job on the fake ledger, which stores the job with its charge. */
export const reserveJob = (ledger: FakeLedger, job: Job, amountMicros: number, at = Date.now()) =>
  ledger.reserve({ accountId: job.accountId, amountMicros, creates: { kind: 'job', job }, at });

/**
 * The workflow's ports around the given jobs, ledger and engine: the wall clock, no faces, no profiles,
 * no inputs, outputs stored as `outputs/<account>/<job>/<index>.<format>`, a fixed download link, callbacks
 * dropped, and a 30-minute budget with 20 running jobs an account. Override any of them.
 */
export const workflowDeps = (
  ports: Pick<WorkflowDeps, 'jobs' | 'ledger' | 'engine'> & Partial<WorkflowDeps>,
): WorkflowDeps => ({
  clock: () => Date.now(),
  faces: fakeFaceAnalyzer(),
  profiles: { findMany: async () => [] },
  inputs: { load: async () => [] },
  outputs: {
    save: async (accountId, jobId, images, format) =>
      images.map((_, index) => `outputs/${accountId}/${jobId}/${index}.${format}`),
  },
  link: async () => 'https://api.test/dl',
  enqueueCallback: async () => undefined,
  // As the composition does: through the queue of the engine that made the ticket (here, the test's engine).
  cancelEngineWork: (ticket) => cancelEngineWork(ports.engine.queue, ticket),
  settings: { asyncBudgetMs: 30 * 60 * 1000, maxRunningJobs: 20 },
  ...ports,
});
