import { engineStepDeps } from '../../composition/workflows/image-engine';
import { Workflow } from '../../domain';
import { taskHandler } from '../../entry/task-handler';
import { JobStepSchema } from './steps';

/** RunEngine: the engine on the stored inputs; outputs stored, outcome handed to settle or release. */
export const handler = taskHandler(JobStepSchema, engineStepDeps, (deps, step, task) =>
  Workflow.runEngine(deps, step, task.remainingMs()),
);
