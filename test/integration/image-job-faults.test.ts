/**
 * A failure injected once at every step of the image-job workflow, before and after that step's write,
 * with the real local Step Functions retrying and catching as the ASL says: the job always ends
 * terminal once, and the money moves once (one reserve, then exactly one settle or one release).
 */

import { services } from '../../bin/local-aws/services';
import type { JobStepDeps } from '../../functions/composition/workflows/job-steps';
import { PINNED_PRICES } from '../../functions/domain/catalog/catalog';
import type { WorkflowDeps } from '../../functions/domain/workflow/steps';
import { base64Jpeg } from '../support/images';
import { entriesOfJob } from '../support/ledger';
import { describeInProcessOnly, startTestRuntime, type TestRuntime } from '../support/runtime';

let runtime: TestRuntime;

beforeAll(async () => {
  runtime = await startTestRuntime();
});
afterAll(() => runtime.close());

class InjectedFault extends Error {
  override name = 'InjectedFault';
}

type Step = 'MarkRunning' | 'RunEngine' | 'SettleCharge' | 'ReleaseCharge' | 'QueueCallback';

/**
 * Replaces one dependency of the workflow with one that fails once, before or after doing its work: on
 * the job steps' object, or for RunEngine's outputs on its own (which inherits the others).
 */
const injectOnce = (
  deps: JobStepDeps,
  engineStep: WorkflowDeps,
  step: Step,
  when: 'before' | 'after',
): { restore: () => void; tripped: () => boolean } => {
  let tripped = false;
  const wrap =
    <A extends unknown[], R>(original: (...args: A) => Promise<R>) =>
    async (...args: A): Promise<R> => {
      if (tripped) return original(...args);
      tripped = true;
      if (when === 'before') throw new InjectedFault(`${step} failed before its write`);
      await original(...args);
      throw new InjectedFault(`${step} failed after its write`);
    };
  const saved = { jobs: deps.jobs, ledger: deps.ledger, enqueueCallback: deps.enqueueCallback };
  const savedOutputs = engineStep.outputs;
  switch (step) {
    case 'MarkRunning':
      deps.jobs = {
        ...deps.jobs,
        get: deps.jobs.get.bind(deps.jobs),
        markRunning: wrap(deps.jobs.markRunning.bind(deps.jobs)),
      };
      break;
    case 'RunEngine':
      engineStep.outputs = { ...engineStep.outputs, save: wrap(engineStep.outputs.save) };
      break;
    case 'SettleCharge':
      deps.ledger = Object.assign(Object.create(deps.ledger), { settle: wrap(deps.ledger.settle.bind(deps.ledger)) });
      break;
    case 'ReleaseCharge':
      deps.ledger = Object.assign(Object.create(deps.ledger), { release: wrap(deps.ledger.release.bind(deps.ledger)) });
      break;
    case 'QueueCallback':
      deps.enqueueCallback = wrap(deps.enqueueCallback);
      break;
  }
  return {
    restore: () => {
      Object.assign(deps, saved);
      engineStep.outputs = savedOutputs;
    },
    tripped: () => tripped,
  };
};

const cases: Array<[Step, 'before' | 'after', string]> = [];
for (const step of ['MarkRunning', 'RunEngine', 'SettleCharge', 'QueueCallback'] as const) {
  for (const when of ['before', 'after'] as const) cases.push([step, when, '']);
}
// ReleaseCharge runs only for a failing job: make the engine refuse.
cases.push(['ReleaseCharge', 'before', 'sandbox:no-image'], ['ReleaseCharge', 'after', 'sandbox:no-image']);

describeInProcessOnly('a failure injected into the image-job workflow', () => {
  it.each(cases)(
    'at %s (%s its write) leaves the job terminal once and the money moved once',
    async (step, when, prompt) => {
      const account = await runtime.newAccount(1_000_000);
      const fault = injectOnce(services().workflow, services().engineStep, step, when);
      try {
        const response = await runtime.call('POST', '/v2/service/enhance', {
          apiKey: account.apiKey,
          body: { image: await base64Jpeg(), prompt, async: true, callback_url: 'https://127.0.0.1:9/unused' },
        });
        const { job_id: jobId } = (await response.json()) as { job_id: string };
        const execution = await runtime.stepFunctions.waitForExecution(jobId);
        expect(execution.status).toBe('SUCCEEDED');
        expect(fault.tripped()).toBe(true);

        const job = await services().jobs.get(account.accountId, jobId);
        expect(['succeeded', 'failed']).toContain(job!.status);
        const kinds = (await entriesOfJob(account.accountId, jobId)).map((entry) => entry.kind);
        expect(kinds).toEqual(job!.status === 'succeeded' ? ['reserve', 'settle'] : ['reserve', 'release']);
        const balance = await services().ledger.balance(account.accountId);
        expect(balance).toBe(job!.status === 'succeeded' ? 1_000_000 - PINNED_PRICES.perImageMicros : 1_000_000);
        const entries = await services().ledger.allEntries(account.accountId);
        expect(entries.reduce((sum, entry) => sum + entry.amountMicros, 0)).toBe(balance);
      } finally {
        fault.restore();
      }
    },
  );
});
