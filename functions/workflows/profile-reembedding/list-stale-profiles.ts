import { reembedStepDeps } from '../../composition/workflows/reembedding-steps';
import { stalePage } from '../../domain/profiles/reembed';
import { taskHandler } from '../../entry/task-handler';
import { ListStepSchema } from './steps';

/** ListStaleProfiles: one page of the table's READY profiles, those without a template of the model, and the next cursor. */
export const handler = taskHandler(ListStepSchema, reembedStepDeps, (deps, { modelId, cursor }) =>
  stalePage({ ...deps, faces: { modelId } }, cursor),
);
