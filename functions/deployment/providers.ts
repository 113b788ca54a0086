/**
 * Read first: the hosted providers, one row each. Everything that names a provider derives from this
 * table: the route table's check (MODEL_ROUTES), the settings each provider reads (its base URL, its key
 * by value locally or as a Secrets Manager ARN on AWS), the stack's secret per routed provider and the
 * functions that may read it, the development settings the local runtime passes on, the composition of
 * the engine, and the provider table in docs/providers.md (a test holds it to this table).
 *
 * A row is data only, so that the stack and every function can read it without loading an adapter. The
 * adapter is registered by the same id in functions/adapters/engine/providers/index.ts (a missing one
 * fails the type check); its price table lives in its folder; its local double is the file `double` names.
 * Adding a provider: docs/adding-a-provider.md.
 */

import type { RouteTargets } from '../domain/catalog/model-routes';

export interface HostedProvider {
  /** The name in MODEL_ROUTES (`<id>:<model>`), in messages and in the stack's construct ids. */
  readonly title: string;
  /** Where its API is: the setting, its default, and the CDK context that overrides it on AWS. */
  readonly baseUrl: { readonly env: string; readonly default: string; readonly context: string };
  /**
   * Its API key: by value in `env` (local development), or in the Secrets Manager secret `secret`, whose
   * ARN the stack puts in `secretArnEnv`. The stack creates that secret only when a route names the provider.
   */
  readonly key: { readonly env: string; readonly secretArnEnv: string; readonly secret: string };
  /**
   * Queued providers take work and answer later (a ticket on the job): cancelling a job stops their work,
   * so the cancel route reads their key too. Inline providers answer within the call.
   */
  readonly queued: boolean;
  /** Whether its answers report usage in tokens (a token-metered model may be routed to it). */
  readonly reportsTokens: boolean;
  /** The local double that speaks its wire format in tests and `npm start` examples (repository path). */
  readonly double: string;
  /** Where its published API description and prices come from (docs/providers.md). */
  readonly reference: string;
}

export const HOSTED_PROVIDERS = {
  openai: {
    title: 'OpenAI',
    baseUrl: { env: 'OPENAI_BASE_URL', default: 'https://api.openai.com/v1', context: 'openaiBaseUrl' },
    key: { env: 'OPENAI_API_KEY', secretArnEnv: 'OPENAI_API_KEY_SECRET_ARN', secret: 'openaiKey' },
    queued: false,
    reportsTokens: true,
    double: 'test/support/providers/openai-double.ts',
    reference: "OpenAI's Images API (openai-openapi, the Images operations)",
  },
  gemini: {
    title: 'Gemini',
    baseUrl: { env: 'GEMINI_BASE_URL', default: 'https://generativelanguage.googleapis.com', context: 'geminiBaseUrl' },
    key: { env: 'GEMINI_API_KEY', secretArnEnv: 'GEMINI_API_KEY_SECRET_ARN', secret: 'geminiKey' },
    queued: false,
    reportsTokens: true,
    double: 'test/support/providers/gemini-double.ts',
    reference: "Google's Gemini API reference (models.generateContent)",
  },
  fal: {
    title: 'fal',
    baseUrl: { env: 'FAL_QUEUE_URL', default: 'https://queue.fal.run', context: 'falQueueUrl' },
    key: { env: 'FAL_KEY', secretArnEnv: 'FAL_KEY_SECRET_ARN', secret: 'falKey' },
    queued: true,
    reportsTokens: false,
    double: 'test/support/providers/fal-double.ts',
    reference: "fal's queue API (the types @fal-ai/client ships)",
  },
} as const satisfies Record<string, HostedProvider>;

export type HostedProviderId = keyof typeof HOSTED_PROVIDERS;

/**
 * fal answers its outputs as URLs on its CDN (https://fal.media/files/…, https://v3.fal.media/files/…): the
 * hosts they may be downloaded from unless FAL_MEDIA_HOSTS says otherwise (functions/deployment/settings.ts).
 */
export const FAL_MEDIA_HOSTS_DEFAULT: readonly string[] = ['fal.media', '*.fal.media'];
/** Where fal publishes its webhook keys (https://docs.fal.ai/model-apis/model-endpoints/webhooks), unless FAL_JWKS_URL says otherwise. */
export const FAL_JWKS_URL_DEFAULT = 'https://rest.alpha.fal.ai/.well-known/jwks.json';
export type ProviderSecretName = (typeof HOSTED_PROVIDERS)[HostedProviderId]['key']['secret'];

export const HOSTED_PROVIDER_IDS = Object.keys(HOSTED_PROVIDERS) as HostedProviderId[];

/**
 * Every provider a route may name, the hosted ones and `http`, the deployment's own GPU backend
 * (ENGINE_URL, whose contract requires `usage.output_tokens`: docs/engine-contract.md), with whether its
 * answers report tokens: the route table's check refuses a token-metered model on one that does not.
 */
export const ROUTE_TARGETS: RouteTargets = {
  ...Object.fromEntries(HOSTED_PROVIDER_IDS.map((id) => [id, { reportsTokens: HOSTED_PROVIDERS[id].reportsTokens }])),
  http: { reportsTokens: true },
};

export const isHostedProvider = (name: string): name is HostedProviderId => Object.hasOwn(HOSTED_PROVIDERS, name);

/** Every provider's key: what a function that runs the engine may read (a secret exists only for a routed provider). */
export const ALL_PROVIDER_SECRETS: readonly ProviderSecretName[] = HOSTED_PROVIDER_IDS.map(
  (id) => HOSTED_PROVIDERS[id].key.secret,
);

/** The keys of the queued providers: what the cancel route reads to stop a job's queued work. */
export const QUEUED_PROVIDER_SECRETS: readonly ProviderSecretName[] = HOSTED_PROVIDER_IDS.filter(
  (id) => HOSTED_PROVIDERS[id].queued,
).map((id) => HOSTED_PROVIDERS[id].key.secret);

/** The variables a provider row reads: its base URL, its key by value and its key's secret ARN. */
export const PROVIDER_VARIABLES: readonly string[] = HOSTED_PROVIDER_IDS.flatMap((id) => {
  const { baseUrl, key } = HOSTED_PROVIDERS[id];
  return [baseUrl.env, key.env, key.secretArnEnv];
});

/** The stack's construct id of a provider's key secret: `OpenaiApiKey`, `GeminiApiKey`, `FalApiKey`. */
export const secretConstructId = (id: HostedProviderId): string => `${id[0]?.toUpperCase()}${id.slice(1)}ApiKey`;
