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
   * Present on a provider that queues work and answers later (a ticket on the job, a webhook when done):
   * its adapter then also implements the queued-provider contract (providers/queued-provider.ts), its
   * webhook is POST /providers/<id>/webhook, and the cancel route reads its key too, to stop a job's work.
   * Inline providers answer within the call.
   */
  readonly queue?: QueuedProviderRow;
  /**
   * Present on a queued provider that also trains LoRAs (TRAINER=<id>: Full Train, docs/identity.md): its
   * adapter then registers a trainer (providers/queued.ts `LORA_TRAINERS`), whose key is the provider's.
   */
  readonly trainer?: TrainerRow;
  /** Whether its answers report usage in tokens (a token-metered model may be routed to it). */
  readonly reportsTokens: boolean;
  /** The local double that speaks its wire format in tests and `npm start` examples (repository path). */
  readonly double: string;
  /** Where its published API description and prices come from (docs/providers.md). */
  readonly reference: string;
}

/** A queued provider's own settings, each a variable with its default (settings().providers.<id>). */
export interface QueuedProviderRow {
  /**
   * The hosts its output files may be downloaded from: https only, `*.` for subdomains, comma-separated in
   * the variable (with ALLOW_LOOPBACK_URLS its queue's host and loopback hosts too).
   */
  readonly mediaHosts: { readonly env: string; readonly default: readonly string[] };
  /**
   * Where it publishes the keys its webhooks are signed with: https (an http loopback address, a local
   * double, only with ALLOW_LOOPBACK_URLS).
   */
  readonly webhookKeysUrl: { readonly env: string; readonly default: string };
  /**
   * Our account's user id at the provider, as its signed webhooks name it: when set, a delivery signed for
   * another user is refused (401). No default: unset, any user the provider signs for is accepted.
   */
  readonly webhookUserId: { readonly env: string; readonly context: string };
}

/** A LoRA trainer on a queued provider's queue. */
export interface TrainerRow {
  /** The trainer's app on the provider's queue (the key of its measured pace, lora-training.ts). */
  readonly model: string;
  /** The provider's API where a request's files are deleted: the setting and its default. */
  readonly platformUrl: { readonly env: string; readonly default: string };
}

export const HOSTED_PROVIDERS = {
  openai: {
    title: 'OpenAI',
    baseUrl: { env: 'OPENAI_BASE_URL', default: 'https://api.openai.com/v1', context: 'openaiBaseUrl' },
    key: { env: 'OPENAI_API_KEY', secretArnEnv: 'OPENAI_API_KEY_SECRET_ARN', secret: 'openaiKey' },
    reportsTokens: true,
    double: 'test/support/providers/openai-double.ts',
    reference: "OpenAI's Images API (openai-openapi, the Images operations)",
  },
  gemini: {
    title: 'Gemini',
    baseUrl: { env: 'GEMINI_BASE_URL', default: 'https://generativelanguage.googleapis.com', context: 'geminiBaseUrl' },
    key: { env: 'GEMINI_API_KEY', secretArnEnv: 'GEMINI_API_KEY_SECRET_ARN', secret: 'geminiKey' },
    reportsTokens: true,
    double: 'test/support/providers/gemini-double.ts',
    reference: "Google's Gemini API reference (models.generateContent)",
  },
  fal: {
    title: 'fal',
    baseUrl: { env: 'FAL_QUEUE_URL', default: 'https://queue.fal.run', context: 'falQueueUrl' },
    key: { env: 'FAL_KEY', secretArnEnv: 'FAL_KEY_SECRET_ARN', secret: 'falKey' },
    queue: {
      // Its outputs are URLs on its CDN (https://fal.media/files/…, https://v3.fal.media/files/…).
      mediaHosts: { env: 'FAL_MEDIA_HOSTS', default: ['fal.media', '*.fal.media'] },
      // https://docs.fal.ai/model-apis/model-endpoints/webhooks
      webhookKeysUrl: { env: 'FAL_JWKS_URL', default: 'https://rest.alpha.fal.ai/.well-known/jwks.json' },
      // The X-Fal-Webhook-User-Id its deliveries are signed with (fal's webhooks page).
      webhookUserId: { env: 'FAL_USER_ID', context: 'falUserId' },
    },
    // https://fal.ai/models/fal-ai/flux-2-trainer; payloads deleted on https://fal.ai/docs/platform-apis/v1.
    trainer: {
      model: 'fal-ai/flux-2-trainer',
      platformUrl: { env: 'FAL_PLATFORM_URL', default: 'https://api.fal.ai/v1' },
    },
    reportsTokens: false,
    double: 'test/support/providers/fal-double.ts',
    reference: "fal's queue API (the types @fal-ai/client ships)",
  },
} as const satisfies Record<string, HostedProvider>;

export type HostedProviderId = keyof typeof HOSTED_PROVIDERS;

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

/** The providers whose row says they queue work (a `queue`): each registers the queued-provider contract. */
export type QueuedProviderId = {
  [Id in HostedProviderId]: (typeof HOSTED_PROVIDERS)[Id] extends { queue: QueuedProviderRow } ? Id : never;
}[HostedProviderId];

/** A provider's queue settings, or undefined for a provider that answers within the call. */
export const queueRow = (id: HostedProviderId): QueuedProviderRow | undefined => {
  const row: HostedProvider = HOSTED_PROVIDERS[id];
  return row.queue;
};

export const QUEUED_PROVIDER_IDS = HOSTED_PROVIDER_IDS.filter((id) => queueRow(id) !== undefined) as QueuedProviderId[];

export const isQueuedProvider = (name: string): name is QueuedProviderId =>
  (QUEUED_PROVIDER_IDS as readonly string[]).includes(name);

/** Every provider's key: what a function that runs the engine may read (a secret exists only for a routed provider). */
export const ALL_PROVIDER_SECRETS: readonly ProviderSecretName[] = HOSTED_PROVIDER_IDS.map(
  (id) => HOSTED_PROVIDERS[id].key.secret,
);

/** The keys of the queued providers: what the cancel route reads to stop a job's queued work. */
export const QUEUED_PROVIDER_SECRETS: readonly ProviderSecretName[] = QUEUED_PROVIDER_IDS.map(
  (id) => HOSTED_PROVIDERS[id].key.secret,
);

/** The providers whose row has a `trainer`: what TRAINER may name besides `sandbox` and `http`. */
export type TrainerProviderId = {
  [Id in HostedProviderId]: (typeof HOSTED_PROVIDERS)[Id] extends { trainer: TrainerRow } ? Id : never;
}[HostedProviderId];

/** A provider's LoRA trainer, or undefined for a provider that trains none. */
export const trainerRow = (id: HostedProviderId): TrainerRow | undefined => {
  const row: HostedProvider = HOSTED_PROVIDERS[id];
  return row.trainer;
};

export const TRAINER_PROVIDER_IDS = HOSTED_PROVIDER_IDS.filter(
  (id) => trainerRow(id) !== undefined,
) as TrainerProviderId[];

export const isTrainerProvider = (name: string): name is TrainerProviderId =>
  (TRAINER_PROVIDER_IDS as readonly string[]).includes(name);

/** The keys of the providers that train: what the training steps and a profile's deletion read. */
export const TRAINER_PROVIDER_SECRETS: readonly ProviderSecretName[] = TRAINER_PROVIDER_IDS.map(
  (id) => HOSTED_PROVIDERS[id].key.secret,
);

/**
 * The variables a queued provider's row adds: its media hosts, its webhook keys' address and its user id;
 * and its trainer's platform URL.
 */
export const queueVariables = (id: HostedProviderId): string[] => {
  const queue = queueRow(id);
  const trainer = trainerRow(id);
  return [
    ...(queue ? [queue.mediaHosts.env, queue.webhookKeysUrl.env, queue.webhookUserId.env] : []),
    ...(trainer ? [trainer.platformUrl.env] : []),
  ];
};

/** The variables a provider row reads: its base URL, its key by value and its key's secret ARN, and its queue's. */
export const PROVIDER_VARIABLES: readonly string[] = HOSTED_PROVIDER_IDS.flatMap((id) => {
  const { baseUrl, key } = HOSTED_PROVIDERS[id];
  return [baseUrl.env, key.env, key.secretArnEnv, ...queueVariables(id)];
});

/** The stack's construct id of a provider's key secret: `OpenaiApiKey`, `GeminiApiKey`, `FalApiKey`. */
export const secretConstructId = (id: HostedProviderId): string => `${id[0]?.toUpperCase()}${id.slice(1)}ApiKey`;
