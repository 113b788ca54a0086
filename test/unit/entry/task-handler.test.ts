import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import * as v from 'valibot';
import { lambdaContext } from '../../../bin/local-aws/lambda-context';
import { INVALID_TASK_INPUT, taskHandler } from '../../../functions/entry/task-handler';
import { WORKFLOWS } from '../../../functions/workflows/definitions';

// The wrapper's logger reads the process configuration, which needs a table name.
process.env.SERVICE_TABLE_NAME ??= 'unit-tests';

const Step = v.object({ accountId: v.string(), jobId: v.string() });

describe('the workflow task wrapper', () => {
  it('hands the use case its parsed state, its dependencies and the time its function has left', async () => {
    const seen: unknown[] = [];
    const handler = taskHandler(
      Step,
      () => ({ name: 'deps' }),
      async (deps, step, task) => {
        seen.push(deps, step, task.remainingMs());
        return 'done';
      },
    );
    await expect(
      handler({ accountId: 'acc_1', jobId: 'job_1', extra: true }, lambdaContext('Task', 60_000)),
    ).resolves.toBe('done');
    expect(seen[0]).toEqual({ name: 'deps' });
    expect(seen[1]).toEqual({ accountId: 'acc_1', jobId: 'job_1' });
    expect(seen[2]).toBeGreaterThan(59_000);
    expect(seen[2]).toBeLessThanOrEqual(60_000);
  });

  it('fails a state that does not match its schema with the named error, without calling the use case', async () => {
    let called = false;
    const handler = taskHandler(
      Step,
      () => ({}),
      async () => {
        called = true;
      },
    );
    const failure = await handler({ accountId: 'acc_1' }).catch((error: unknown) => error);
    expect(failure).toMatchObject({ name: INVALID_TASK_INPUT, message: expect.stringContaining('jobId') });
    expect(called).toBe(false);
  });

  it("passes the use case's own error on unchanged, so that the state machine retries or catches it by name", async () => {
    class TransientEngineError extends Error {
      override name = 'TransientEngineError';
    }
    const handler = taskHandler(
      Step,
      () => ({}),
      async () => Promise.reject(new TransientEngineError('busy')),
    );
    await expect(handler({ accountId: 'a', jobId: 'j' })).rejects.toMatchObject({
      name: 'TransientEngineError',
      message: 'busy',
    });
  });

  it('is never retried by a state machine: no retry can fix a state of the wrong shape', () => {
    for (const workflow of Object.values(WORKFLOWS)) {
      const definition = JSON.parse(readFileSync(path.join(__dirname, '../../..', workflow.file), 'utf8')) as {
        States: Record<string, { Type: string; Retry?: Array<{ ErrorEquals: string[]; MaxAttempts?: number }> }>;
      };
      for (const [name, state] of Object.entries(definition.States)) {
        const retriers = state.Retry ?? [];
        const catchAll = retriers.findIndex((retrier) =>
          retrier.ErrorEquals.some((error) => error === 'States.ALL' || error === 'States.TaskFailed'),
        );
        if (state.Type !== 'Task' || catchAll < 0) continue;
        const own = retriers.findIndex((retrier) => retrier.ErrorEquals.includes(INVALID_TASK_INPUT));
        expect({ name, own, maxAttempts: retriers[own]?.MaxAttempts }).toEqual({
          name,
          own: expect.any(Number),
          maxAttempts: 0,
        });
        expect(own).toBeLessThan(catchAll);
      }
    }
  });
});
