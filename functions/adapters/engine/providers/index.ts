/**
 * The adapter of each row of the provider table (functions/deployment/providers.ts), by the same id: a
 * row without an adapter here, or an adapter without a row, fails the type check, and so does a row with a
 * `queue` whose engine has no queue (queued-provider.ts). Each adapter lives in its own folder with its wire
 * schemas, its refusals and its price table. A queued provider's queue half is registered in queued.ts.
 */

import type { HostedProviderId, QueuedProviderId } from '../../../deployment/providers';
import type { ImageEngine } from '../../../domain/engine/engine';
import { FalEngine } from './fal/fal';
import { falPossibleCostMicros } from './fal/families';
import { GeminiEngine, geminiPossibleCostMicros } from './gemini/gemini';
import { OpenAiEngine } from './openai/openai';
import type { PossibleCost, ProviderEngineOptions } from './provider';
import type { QueuedEngine } from './queued-provider';

export interface ProviderAdapter<Engine extends ImageEngine = ImageEngine> {
  engine(options: ProviderEngineOptions): Engine;
  /** Absent where the price needs the usage a lost answer carried (OpenAI's tokens). */
  possibleCostMicros?: PossibleCost;
}

export const PROVIDER_ADAPTERS: {
  readonly [Id in HostedProviderId]: ProviderAdapter<Id extends QueuedProviderId ? QueuedEngine : ImageEngine>;
} = {
  openai: { engine: (options) => new OpenAiEngine(options) },
  gemini: { engine: (options) => new GeminiEngine(options), possibleCostMicros: geminiPossibleCostMicros },
  fal: { engine: (options) => new FalEngine(options), possibleCostMicros: falPossibleCostMicros },
};
