/** RunEngine: the job steps' dependencies plus the engine and the stored inputs (so sharp). */
import type { WorkflowDeps } from '../domain/jobs/workflow';
import { jobInputs } from '../adapters/s3/job-files';
import { once } from './core';
import { objects } from './data';
import { engine } from './images';
import { jobStepDeps } from './job-steps';

/**
 * The job steps' object is the prototype, so whatever replaces one of its dependencies (a test's
 * injected fault) is seen by RunEngine too.
 */
export const engineStepDeps = once((): WorkflowDeps =>
  Object.create(jobStepDeps(), {
    engine: { get: engine, enumerable: true },
    inputs: { value: jobInputs(objects()), enumerable: true },
  }),
);
