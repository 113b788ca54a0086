/** RunEngine: the job steps' dependencies plus the engine, the stored inputs and the outputs (so sharp and S3). */

import { jobInputs, jobOutputs } from '../adapters/s3/job-files';
import type { WorkflowDeps } from '../domain/jobs/workflow';
import { once } from './core';
import { engine } from './images';
import { jobStepDeps } from './job-steps';
import { objects } from './storage';

/**
 * The job steps' object is the prototype, so whatever replaces one of its dependencies (a test's
 * injected fault) is seen by RunEngine too; RunEngine's own are the engine, inputs and outputs.
 */
export const engineStepDeps = once(
  (): WorkflowDeps =>
    Object.create(jobStepDeps(), {
      engine: { get: engine, enumerable: true, configurable: true },
      inputs: { value: jobInputs(objects()), enumerable: true },
      outputs: { value: jobOutputs(objects()), enumerable: true, writable: true },
    }),
);
