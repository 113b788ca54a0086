/**
 * The image engine the configuration names: per base model, the route table's hosted provider (OpenAI,
 * Gemini, fal), and for every other model the default engine (the sandbox on sharp, or a GPU backend
 * over HTTPS).
 */

import { type HostedProviderId, isHostedProvider } from '../../deployment/providers';
import type { ModelRoutes } from '../../domain/catalog/model-routes';
import type { EngineQueue, EngineTicket, ImageEngine } from '../../domain/engine/engine';
import { HttpEngine } from './http-engine';
import { PROVIDER_ADAPTERS } from './providers';
import type { ApiKey, MediaPolicy, ReferenceImages } from './providers/provider';
import type { ProviderTransport } from './providers/provider-http';
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
  /**
   * A provider's access for a ticket it made, routed now or not (read only when such a ticket is checked or
   * canceled): a job keeps its provider's work whatever the routes say by the time it is checked.
   */
  ticketAccess?: (provider: HostedProviderId) => ProviderAccess | undefined;
  /** What the hosted providers' calls may replace (their retry policy: PROVIDER_ATTEMPT_TIMEOUT_SECONDS). */
  transport?: Partial<ProviderTransport>;
}

/**
 * A hosted provider's engine: none deduplicates work (OpenAI does not document Idempotency-Key, Gemini and
 * fal's queue take none), so each run is started once per job (ImageEngine.startsOnce).
 */
const hostedEngine = (engine: ImageEngine): ImageEngine => ({
  run: (request, signal, progress, keepTicket) => engine.run(request, signal, progress, keepTicket),
  ...(engine.queue && { queue: engine.queue }),
  startsOnce: () => true,
});

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
  /** Hosted engines by `provider:model`: a ticket's checks and cancels go back to the one that made it. */
  const byProviderModel = new Map<string, ImageEngine>();
  const hosted = (provider: HostedProviderId, model: string, access: ProviderAccess): ImageEngine => {
    const key = `${provider}:${model}`;
    const made =
      byProviderModel.get(key) ??
      hostedEngine(
        PROVIDER_ADAPTERS[provider].engine({
          model,
          baseUrl: access.baseUrl,
          apiKey: access.apiKey,
          ...(access.media && { media: access.media }),
          references: options.references,
          ...(options.transport && { transport: options.transport }),
        }),
      );
    byProviderModel.set(key, made);
    return made;
  };
  const ticketQueue = (ticket: EngineTicket): EngineQueue | undefined => {
    const { engine: provider, model } = ticket;
    if (model === undefined || !isHostedProvider(provider)) return undefined;
    const known = byProviderModel.get(`${provider}:${model}`);
    if (known) return known.queue;
    const access = options.providers?.[provider] ?? options.ticketAccess?.(provider);
    return access ? hosted(provider, model, access).queue : undefined;
  };
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
    byModel.set(modelId, hosted(route.provider, route.model, access));
  }
  return byModel.size === 0 && !options.ticketAccess ? fallback : routedEngine(byModel, fallback, ticketQueue);
};
