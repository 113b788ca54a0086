import { reembedStepDeps } from '../../composition/workflows/reembedding-steps';
import { taskHandler } from '../../entry/task-handler';
import { FinishStepSchema } from './steps';

/** FinishBackfill: the progress record says when the run found nothing more to do. */
export const handler = taskHandler(FinishStepSchema, reembedStepDeps, async (deps, { modelId }) => {
  await deps.progress.finish(modelId, deps.clock());
  return { modelId };
});
