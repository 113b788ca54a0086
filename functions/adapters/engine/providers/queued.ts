/**
 * The queue half of each queued provider (queued-provider.ts), by its row's id: a row with a `queue` and
 * no entry here, or an entry without such a row, fails the type check. Nothing here does image work, so the
 * functions that import this (the webhook route, AwaitEngine, the cancel route, the sweep) ship no sharp.
 */
import type { QueuedProviderId, TrainerProviderId } from '../../../deployment/providers';
import { falQueuedProvider } from './fal/queued';
import { falTrainer } from './fal/trainer';
import type { LoraTrainerAdapter, QueuedProviderAdapter } from './queued-provider';

export const QUEUED_PROVIDERS: Readonly<Record<QueuedProviderId, QueuedProviderAdapter>> = {
  fal: falQueuedProvider,
};

/** The LoRA trainer of each provider whose row has a `trainer` (TRAINER=<id>), by the same rule. */
export const LORA_TRAINERS: Readonly<Record<TrainerProviderId, LoraTrainerAdapter>> = {
  fal: falTrainer,
};
