/**
 * The adapter of each row of the provider table (functions/deployment/providers.ts), by the same id: a
 * row without an adapter here, or an adapter without a row, fails the type check. Each adapter lives in
 * its own folder with its wire schemas, its refusals and its price table.
 */

import type { HostedProviderId } from '../../../deployment/providers';
import type { ImageEngine } from '../../../domain/engine/engine';
import { FalEngine } from './fal/fal';
import { GeminiEngine } from './gemini/gemini';
import { OpenAiEngine } from './openai/openai';
import type { ProviderEngineOptions } from './provider';

export const PROVIDER_ADAPTERS: Readonly<Record<HostedProviderId, (options: ProviderEngineOptions) => ImageEngine>> = {
  openai: (options) => new OpenAiEngine(options),
  gemini: (options) => new GeminiEngine(options),
  fal: (options) => new FalEngine(options),
};
