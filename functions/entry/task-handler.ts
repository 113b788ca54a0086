/**
 * The Step Functions task counterpart of apiHandler and queueHandler. Every workflow task handler is one
 * `taskHandler(schema, deps, use case)`:
 * - the state is parsed with the task's schema; a state that does not match fails the task with the
 *   named error `InvalidTaskInput` (the state machines never retry it: no retry can fix it);
 * - the use case gets a child logger carrying the job or profile id and the Lambda request id, and the
 *   time its function has left;
 * - its dependencies come from the one composition module the handler names (functions/composition/).
 */
import type { Context } from 'aws-lambda';
import * as v from 'valibot';
import { errorFields, type Logger } from '../adapters/logger';
import { log as processLog } from '../composition/core';

/** The error name the state machines' retriers exclude (statemachines/*.asl.json). */
export const INVALID_TASK_INPUT = 'InvalidTaskInput';

export class InvalidTaskInputError extends Error {
  override name = INVALID_TASK_INPUT;
}

export interface TaskContext {
  log: Logger;
  /** Milliseconds until the function is stopped (Lambda's deadline; unbounded where no context is given). */
  remainingMs(): number;
}

/** The ids a task's state carries, as log fields. */
const idFields = (state: unknown): Record<string, string> => {
  const fields: Record<string, string> = {};
  if (state && typeof state === 'object') {
    if ('jobId' in state && typeof state.jobId === 'string') fields.job_id = state.jobId;
    if ('profileId' in state && typeof state.profileId === 'string') fields.profile_id = state.profileId;
    if ('accountId' in state && typeof state.accountId === 'string') fields.account_id = state.accountId;
  }
  return fields;
};

export const taskHandler =
  <S extends v.GenericSchema, D, R>(
    schema: S,
    deps: () => D,
    useCase: (deps: D, input: v.InferOutput<S>, task: TaskContext) => Promise<R>,
  ) =>
  async (state: unknown, context?: Context): Promise<R> => {
    if (context) processLog().addContext(context);
    const log = processLog().child(idFields(state));
    const parsed = v.safeParse(schema, state);
    if (!parsed.success) {
      const issues = parsed.issues.map(
        (issue) => `${issue.path?.map((item) => String(item.key)).join('.') ?? 'state'}: ${issue.message}`,
      );
      log.error('task state does not match its schema', { issues });
      throw new InvalidTaskInputError(issues.join('; '));
    }
    const remainingMs = () => context?.getRemainingTimeInMillis() ?? Number.POSITIVE_INFINITY;
    try {
      return await useCase(deps(), parsed.output, { log, remainingMs });
    } catch (error) {
      log.warn('task failed; the state machine retries or catches it', errorFields(error));
      throw error;
    }
  };
