import { loraTrainingDeps } from '../../composition/profiles/lora-training';
import { Profiles } from '../../domain';
import { taskHandler } from '../../entry/task-handler';
import { TrainingStepSchema } from './steps';

/** CheckLoraTraining: fal's status mapped onto the profile's; at the end the LoRA kept, READY and settled. */
export const handler = taskHandler(TrainingStepSchema, loraTrainingDeps, Profiles.checkLoraTraining);
