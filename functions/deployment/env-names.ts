/**
 * The names both homes must agree on, each written once: the environment variables that the stack
 * (lib/constructs/) and the local runtime (bin/local-aws/runtime.ts) set, and that functions/deployment/settings.ts
 * reads. A name changed here changes in all three. The development settings, which only the local
 * runtimes set, are at the end.
 */
import { HOSTED_PROVIDER_IDS, HOSTED_PROVIDERS, queueVariables } from './providers';

export const ENV = {
  tableName: 'SERVICE_TABLE_NAME',
  bucketName: 'SERVICE_BUCKET_NAME',
  callbackQueueUrl: 'CALLBACK_QUEUE_URL',
  callbackDeadLetterQueueUrl: 'CALLBACK_DLQ_URL',
  downloadTokenSecretArn: 'DOWNLOAD_TOKEN_SECRET_ARN',
  logLevel: 'LOG_LEVEL',
  syncBudgetSeconds: 'SYNC_BUDGET_SECONDS',
  asyncBudgetSeconds: 'ASYNC_BUDGET_SECONDS',
} as const;

/** Where the engine and the trainer run (lib/constructs/backends.ts). */
export const BACKEND_ENV = {
  engine: 'ENGINE',
  engineUrl: 'ENGINE_URL',
  engineTokenSecretArn: 'ENGINE_TOKEN_SECRET_ARN',
  trainer: 'TRAINER',
  trainerUrl: 'TRAINER_URL',
  trainerTokenSecretArn: 'TRAINER_TOKEN_SECRET_ARN',
  trainerCallbackUrl: 'TRAINER_CALLBACK_URL',
  /** TRAINER=fal (Full Train as a LoRA on fal-ai/flux-2-trainer): its steps and learning rate (lora-training.ts). */
  loraTrainerSteps: 'LORA_TRAINER_STEPS',
  loraTrainerLearningRate: 'LORA_TRAINER_LEARNING_RATE',
  /** `true` lets a trainer whose list price exceeds the Full Train price start anyway (catalog/trainer-cost.ts). */
  allowTrainingBelowCost: 'ALLOW_TRAINING_BELOW_COST',
} as const;

/**
 * Hosted image models (functions/domain/catalog/model-routes.ts): the route table and the public aliases.
 * Each provider's own variables (its base URL, its key by value or as a secret's ARN, a queued provider's
 * media hosts and webhook keys) are in its row of the provider table (providers.ts).
 */
export const PROVIDER_ENV = {
  modelRoutes: 'MODEL_ROUTES',
  modelAliases: 'MODEL_ALIASES',
  /** How long a provider's key is kept before it is read again (a 401/403 reads it again at once). */
  providerKeyCacheSeconds: 'PROVIDER_KEY_CACHE_SECONDS',
  /** `true` lets a route whose provider lists a price at or above ours start anyway (catalog/route-margins.ts). */
  allowRoutesBelowCost: 'ALLOW_ROUTES_BELOW_COST',
} as const;

/**
 * Money in (docs/billing.md): Stripe's keys by value (local) or as Secrets Manager secrets read by ARN
 * (AWS, granted only to the billing functions), the top-up limits and presets, and where the Stripe API
 * is (a development setting: the local Stripe double, loopback only with ALLOW_LOOPBACK_URLS).
 */
export const STRIPE_ENV = {
  secretKey: 'STRIPE_SECRET_KEY',
  secretKeySecretArn: 'STRIPE_SECRET_KEY_SECRET_ARN',
  webhookSecret: 'STRIPE_WEBHOOK_SECRET',
  webhookSecretSecretArn: 'STRIPE_WEBHOOK_SECRET_SECRET_ARN',
  apiBase: 'STRIPE_API_BASE',
  topUpMinUsd: 'TOP_UP_MIN_USD',
  topUpMaxUsd: 'TOP_UP_MAX_USD',
  topUpPresetsUsd: 'TOP_UP_PRESETS_USD',
  autoRechargeDailyMaxUsd: 'AUTO_RECHARGE_DAILY_MAX_USD',
  autoRechargeWindowSeconds: 'AUTO_RECHARGE_WINDOW_SECONDS',
} as const;

/** Workflow (functions/workflows/definitions.ts) → the variable holding its state machine's ARN. */
export const STATE_MACHINE_ARN_ENV = {
  'image-job': 'IMAGE_JOB_STATE_MACHINE_ARN',
  'profile-training': 'PROFILE_TRAINING_STATE_MACHINE_ARN',
  'profile-reembedding': 'PROFILE_REEMBEDDING_STATE_MACHINE_ARN',
} as const;

export type WorkflowName = keyof typeof STATE_MACHINE_ARN_ENV;

/**
 * Read first: the development settings. functions/deployment/settings.ts reads them (Powertools reads
 * POWERTOOLS_METRICS_DISABLED) and the stack never sets them, so on AWS each keeps its default. lib/
 * must not import this list: a development setting in a deployed function's environment is a hole
 * (a trusted CA, loopback URLs past the SSRF guard) or a test's shortcut (retries at once).
 */
export const DEVELOPMENT_ENV = {
  extraTrustedCaFile: 'EXTRA_TRUSTED_CA_FILE',
  allowLoopbackUrls: 'ALLOW_LOOPBACK_URLS',
  callbackRetryScale: 'CALLBACK_RETRY_SCALE',
  apiKeyCacheSeconds: 'API_KEY_CACHE_SECONDS',
  preflightBudgetSeconds: 'PREFLIGHT_BUDGET_SECONDS',
  rateLimitPerMinute: 'RATE_LIMIT_PER_MINUTE',
  outboundSendsPerMinute: 'OUTBOUND_SENDS_PER_MINUTE',
  maxRunningJobs: 'MAX_RUNNING_JOBS',
  outputFormatSwitchAt: 'OUTPUT_FORMAT_SWITCH_AT',
  trainingDelaySeconds: 'TRAINING_DELAY_SECONDS',
  providerAttemptTimeoutSeconds: 'PROVIDER_ATTEMPT_TIMEOUT_SECONDS',
  engineToken: 'ENGINE_TOKEN',
  trainerToken: 'TRAINER_TOKEN',
  metricsDisabled: 'POWERTOOLS_METRICS_DISABLED',
  faceModelId: 'FACE_MODEL_ID',
  templateBudgetSeconds: 'TEMPLATE_BUDGET_SECONDS',
} as const;

/**
 * What a developer may set in the environment of `npm start` or `npm run start:assets`: both take each
 * one that is set from their own environment and hand it to every function (bin/local-aws/runtime.ts), over
 * what the template says. The development settings, and the stack settings a developer may change
 * locally: where the engine and the trainer run (CDK context on AWS), the model routes and the providers
 * (their keys by value), and the time budgets.
 */
export const LOCAL_ENV_SETTINGS = [
  ...Object.values(DEVELOPMENT_ENV),
  BACKEND_ENV.engine,
  BACKEND_ENV.engineUrl,
  BACKEND_ENV.trainer,
  BACKEND_ENV.trainerUrl,
  BACKEND_ENV.trainerCallbackUrl,
  BACKEND_ENV.loraTrainerSteps,
  BACKEND_ENV.loraTrainerLearningRate,
  BACKEND_ENV.allowTrainingBelowCost,
  PROVIDER_ENV.modelRoutes,
  PROVIDER_ENV.modelAliases,
  PROVIDER_ENV.providerKeyCacheSeconds,
  PROVIDER_ENV.allowRoutesBelowCost,
  ...HOSTED_PROVIDER_IDS.flatMap((id) => [
    HOSTED_PROVIDERS[id].baseUrl.env,
    HOSTED_PROVIDERS[id].key.env,
    ...queueVariables(id),
  ]),
  ENV.syncBudgetSeconds,
  ENV.asyncBudgetSeconds,
  STRIPE_ENV.secretKey,
  STRIPE_ENV.webhookSecret,
  STRIPE_ENV.apiBase,
  STRIPE_ENV.topUpMinUsd,
  STRIPE_ENV.topUpMaxUsd,
  STRIPE_ENV.topUpPresetsUsd,
  STRIPE_ENV.autoRechargeDailyMaxUsd,
  STRIPE_ENV.autoRechargeWindowSeconds,
];
