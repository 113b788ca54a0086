import { loraTrainingDeps } from '../../composition/profiles/lora-training';
import { Profiles } from '../../domain';
import { taskHandler } from '../../entry/task-handler';
import { LoraSubmitStepSchema } from './steps';

/** SubmitLoraTraining (TRAINER=fal, Full Train): the zip of captioned photos submitted to fal's trainer (QUEUING). */
export const handler = taskHandler(LoraSubmitStepSchema, loraTrainingDeps, Profiles.submitLoraTraining);
