/** What a training backend reports on the internal trainer-callback route (docs/trainer-contract.md). */
import * as v from 'valibot';
import type { TrainerEvent } from '../../domain/profiles/training';

/** Step Functions task tokens are at most 1024 characters. */
const TaskToken = v.pipe(v.string(), v.minLength(1), v.maxLength(1024));

/** What a training backend reports (docs/trainer-contract.md). */
export const TrainerCallbackSchema = v.pipe(
  v.variant('event', [
    v.object({ task_token: TaskToken, event: v.literal('heartbeat') }),
    v.object({
      task_token: TaskToken,
      event: v.literal('succeeded'),
      signature: v.pipe(v.string(), v.minLength(1), v.maxLength(16_384)),
    }),
    v.object({
      task_token: TaskToken,
      event: v.literal('failed'),
      message: v.pipe(v.string(), v.trim(), v.minLength(1), v.maxLength(1000)),
    }),
  ]),
  v.transform(({ task_token, ...report }): TrainerEvent => ({ taskToken: task_token, ...report })),
);
