/** RunEngine: the job steps' dependencies plus the engine, recognition, the candidates, the stored inputs and the outputs (so sharp, the face models and S3). */

import { jobInputs, jobOutputs } from '../../adapters/s3/job-files';
import type { WorkflowDeps } from '../../domain/workflow/steps';
import { once } from '../core';
import { profiles } from '../data';
import { faceAnalyzer } from '../faces';
import { engine } from '../images/images';
import { objects } from '../storage';
import { jobStepDeps } from './job-steps';

/**
 * The job steps' object is the prototype, so whatever replaces one of its dependencies (a test's
 * injected fault) is seen by RunEngine too; RunEngine's own are the engine, the face analyser, the
 * profiles (the candidates' faces), inputs and outputs.
 */
export const engineStepDeps = once(
  (): WorkflowDeps =>
    Object.create(jobStepDeps(), {
      engine: { get: engine, enumerable: true, configurable: true },
      faces: { get: faceAnalyzer, enumerable: true, configurable: true },
      profiles: { get: profiles, enumerable: true, configurable: true },
      inputs: { value: jobInputs(objects()), enumerable: true },
      outputs: { value: jobOutputs(objects()), enumerable: true, writable: true },
    }),
);
