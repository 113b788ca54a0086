import type { Context } from 'aws-lambda';
import * as v from 'valibot';
import { Jobs } from '../../domain';
import type { RunOutcome } from '../../domain/jobs/job';
import { engineStepDeps } from '../../composition/image-engine';
import { JobStepSchema } from './steps';

/** RunEngine: the engine on the stored inputs; outputs stored, outcome handed to settle or release. */
export const handler = async (input: unknown, context: Context): Promise<RunOutcome> =>
  Jobs.runJobEngine(engineStepDeps(), v.parse(JobStepSchema, input), context.getRemainingTimeInMillis());
