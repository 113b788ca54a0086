/**
 * The image engine the configuration names: per base model, the route table's hosted provider (OpenAI,
 * Gemini, fal), and for every other model the default engine (the sandbox on sharp, or a GPU backend
 * over HTTPS).
 */

import { type HostedProviderId, isHostedProvider } from '../../deployment/providers';
import type { ModelRoutes } from '../../domain/catalog/model-routes';
import type { ImageEngine } from '../../domain/engine/engine';
import { HttpEngine } from './http-engine';
import { PROVIDER_ADAPTERS } from './providers';
import type { ApiKey, MediaPolicy, ReferenceImages } from './providers/provider';
import { routedEngine } from './routed-engine';
import { SandboxEngine } from './sandbox-engine';

/** Where a hosted provider is, its key (cached, read again on a refusal), and where its outputs may come from. */
export interface ProviderAccess {
  baseUrl: string;
  apiKey: ApiKey;
  media?: MediaPolicy;
}

export interface EngineOptions {
  engine: 'sandbox' | 'http';
  url?: string;
  token: () => Promise<string>;
  references: ReferenceImages;
  routes?: ModelRoutes;
  providers?: Partial<Record<HostedProviderId, ProviderAccess>>;
}

const httpEngine = (options: EngineOptions): ImageEngine => {
  const baseUrl = options.url;
  if (!baseUrl) throw new Error('ENGINE=http (or a route to "http") needs ENGINE_URL');
  let engine: Promise<ImageEngine> | undefined;
  return {
    run: async (request, signal) => {
      engine =
        engine ??
        options.token().then((token) => new HttpEngine({ baseUrl, token, referenceUrl: options.references.url }));
      return (await engine).run(request, signal);
    },
  };
};

export const imageEngine = (options: EngineOptions): ImageEngine => {
  const fallback =
    options.engine === 'sandbox' ? new SandboxEngine({ referenceImage: options.references.load }) : httpEngine(options);
  const byModel = new Map<string, ImageEngine>();
  let http: ImageEngine | undefined;
  for (const [modelId, route] of Object.entries(options.routes ?? {})) {
    if (route.provider === 'http') {
      http = http ?? (options.engine === 'http' ? fallback : httpEngine(options));
      byModel.set(modelId, http);
      continue;
    }
    const access = isHostedProvider(route.provider) ? options.providers?.[route.provider] : undefined;
    if (!isHostedProvider(route.provider) || !access)
      throw new Error(`${modelId} is routed to ${route.provider}, which is not configured`);
    byModel.set(
      modelId,
      PROVIDER_ADAPTERS[route.provider]({
        model: route.model,
        baseUrl: access.baseUrl,
        apiKey: access.apiKey,
        ...(access.media && { media: access.media }),
        references: options.references,
      }),
    );
  }
  return byModel.size === 0 ? fallback : routedEngine(byModel, fallback);
};
