/**
 * Read first: which engine serves each base model. The catalog (catalog.ts) stays provider-neutral; a
 * deployment's route table maps our ids to `provider:model`, e.g.
 *   {"base-b-2":"openai:gpt-image-2","base-c-2":"gemini:gemini-3.1-flash-image","base-a-2":"fal:fal-ai/flux-2"}
 * from the environment variable MODEL_ROUTES (CDK context `modelRoutes` on AWS). A model without a
 * route runs on the deployment's default engine (the sandbox, or the HTTP engine when ENGINE=http).
 * Checked at cold start (and at synth): an unknown model id or provider, a malformed entry, or a
 * token-metered model on a provider whose answers report no tokens (it could never be priced, only
 * settled at its reservation) stops the start with a message that says which and what is allowed.
 *
 * Aliases (MODEL_ALIASES, e.g. {"nb2":"base-c-2"}) let clients written for the service this API mirrors
 * send its real model names; without one, an unknown name stays a 400 as the spec says.
 */
import { BASE_MODELS, findBaseModel } from './catalog';

/**
 * A provider's name as the route table writes it: one of the deployment's provider table
 * (functions/deployment/providers.ts), or `http`, the deployment's own GPU backend. The domain names none.
 */
export type Provider = string;

export interface ModelRoute {
  provider: Provider;
  /** The provider's own model name (for fal, the endpoint id, e.g. fal-ai/flux-2). */
  model: string;
}

export type ModelRoutes = Readonly<Record<string, ModelRoute>>;

/** The providers a route may name, each with whether its answers report token usage. */
export type RouteTargets = Readonly<Record<Provider, { readonly reportsTokens: boolean }>>;

export class ModelRoutesError extends Error {
  override name = 'ModelRoutesError';
}

const parseObject = (name: string, text: string | undefined): Record<string, unknown> => {
  if (text === undefined || text.trim() === '') return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new ModelRoutesError(`${name} is not JSON: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new ModelRoutesError(`${name} must be a JSON object of strings, e.g. {"base-b-2":"openai:gpt-image-2"}`);
  return value as Record<string, unknown>;
};

const knownIds = () => BASE_MODELS.map((model) => model.id).join(', ');

/** MODEL_ROUTES, checked against the catalog and `targets`, the providers we have adapters for. */
export const parseModelRoutes = (
  text: string | undefined,
  targets: RouteTargets,
  name = 'MODEL_ROUTES',
): ModelRoutes => {
  const providers = Object.keys(targets);
  const routes: Record<string, ModelRoute> = {};
  for (const [id, target] of Object.entries(parseObject(name, text))) {
    if (!findBaseModel(id)) throw new ModelRoutesError(`${name}: "${id}" is not a base model (known: ${knownIds()})`);
    if (typeof target !== 'string')
      throw new ModelRoutesError(`${name}: the route of "${id}" must be a string "provider:model"`);
    const colon = target.indexOf(':');
    const provider = colon > 0 ? target.slice(0, colon) : target;
    const model = colon > 0 ? target.slice(colon + 1).trim() : '';
    if (!providers.includes(provider))
      throw new ModelRoutesError(
        `${name}: "${id}" names provider "${provider}", which is not one of ${providers.join(', ')}`,
      );
    if (model === '' && provider !== 'http')
      throw new ModelRoutesError(`${name}: the route of "${id}" must name the provider's model, e.g. "${provider}:…"`);
    if (findBaseModel(id)?.pricing.metering === 'tokens' && targets[provider]?.reportsTokens !== true) {
      const reporting = providers.filter((candidate) => targets[candidate]?.reportsTokens === true);
      throw new ModelRoutesError(
        `${name}: "${id}" is priced by tokens, but provider "${provider}" reports no token usage; route it to one that does (${reporting.join(', ')})`,
      );
    }
    routes[id] = { provider, model };
  }
  return routes;
};

/** MODEL_ALIASES: public names → our ids; an alias may not shadow a catalog id. */
export const parseModelAliases = (
  text: string | undefined,
  name = 'MODEL_ALIASES',
): Readonly<Record<string, string>> => {
  const aliases: Record<string, string> = {};
  for (const [alias, id] of Object.entries(parseObject(name, text))) {
    if (typeof id !== 'string' || !findBaseModel(id))
      throw new ModelRoutesError(`${name}: "${alias}" must name a base model (known: ${knownIds()})`);
    if (findBaseModel(alias)) throw new ModelRoutesError(`${name}: "${alias}" is already a base model id`);
    aliases[alias] = id;
  }
  return aliases;
};

/** The providers a route table uses (each needs its key). */
export const routedProviders = (routes: ModelRoutes): Provider[] => [
  ...new Set(Object.values(routes).map((route) => route.provider)),
];

/** "openai:gpt-image-2", or the default engine's name, for the ready line and GET /models. */
export const engineNameOf = (routes: ModelRoutes, modelId: string, defaultEngine: string): string => {
  const route = routes[modelId];
  if (!route) return defaultEngine;
  return route.model ? `${route.provider}:${route.model}` : route.provider;
};
