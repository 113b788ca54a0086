import { reembedDeps } from '../../composition/workflows/reembedding';
import { FaceModelMismatchError, reembedProfile } from '../../domain/profiles/reembed';
import { taskHandler } from '../../entry/task-handler';
import { ReembedStepSchema } from './steps';

/**
 * ReembedProfile: one profile's template of the model, from its stored photos. A step that reaches a version
 * of this function running another face model (a canary's previous version) fails FaceModelMismatch, which
 * the state machine retries later.
 */
export const handler = taskHandler(ReembedStepSchema, reembedDeps, async (deps, { modelId, ...profile }) => {
  if (deps.faces.modelId !== modelId) throw new FaceModelMismatchError(modelId, deps.faces.modelId);
  return { outcome: await reembedProfile(deps, profile) };
});
