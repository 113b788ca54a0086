/**
 * What a request may have cost the operator at its provider when the answer was lost after the provider
 * may have started the work (provider-http.ts `mayHaveRun`): from its adapter's price table (index.ts), the
 * most the request's calls could have cost, for the log line that tells the operator. Undefined where the
 * price needs the usage the lost answer carried (OpenAI's tokens) or no price is published.
 */
import { isHostedProvider } from '../../../deployment/providers';
import type { ModelRoutes } from '../../../domain/catalog/model-routes';
import type { EngineRequest } from '../../../domain/engine/engine';
import { PROVIDER_ADAPTERS } from './index';

export const possibleProviderCostMicros = (
  routes: ModelRoutes | undefined,
  request: Pick<EngineRequest, 'baseModel' | 'width' | 'height' | 'numOutputImages'> &
    Partial<Pick<EngineRequest, 'candidates' | 'namedInPrompt' | 'images'>>,
): number | undefined => {
  const route = routes?.[request.baseModel];
  if (!route || !isHostedProvider(route.provider)) return undefined;
  return PROVIDER_ADAPTERS[route.provider].possibleCostMicros?.(route.model, request);
};
