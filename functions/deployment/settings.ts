/**
 * Configuration is read once, from the environment, validated here, and handed on as a typed object.
 * The CDK stack sets these variables and the local runtime sets them before it loads any handler; the
 * names both set are written once, in env-names.ts, and so are the development settings (DEVELOPMENT_ENV),
 * which only the local runtimes set, from their own environment.
 */
import * as v from 'valibot';
import { listPriceOf, TRAINER_LIST_PRICES, trainerCostMicros } from '../adapters/engine/providers/list-prices';
import { FACE_MODEL_IDS, MODEL_ID } from '../adapters/faces/face-models';
import { parseModelAliases, parseModelRoutes } from '../domain/catalog/model-routes';
import { checkRouteCosts } from '../domain/catalog/route-margins';
import { checkTrainerCost } from '../domain/catalog/trainer-cost';
import { USD_AMOUNT_PATTERN, usdAmountMicros } from '../domain/shared/money';
import { BACKEND_ENV, DEVELOPMENT_ENV, ENV, PROVIDER_ENV, STATE_MACHINE_ARN_ENV, STRIPE_ENV } from './env-names';
import {
  HOSTED_PROVIDER_IDS,
  HOSTED_PROVIDERS,
  type HostedProviderId,
  isTrainerProvider,
  type QueuedProviderRow,
  queueRow,
  ROUTE_TARGETS,
  TRAINER_PROVIDER_IDS,
  type TrainerProviderId,
  trainerRow,
} from './providers';

const flag = v.pipe(
  v.optional(v.picklist(['true', 'false', '1', '0']), 'false'),
  v.transform((value) => value === 'true' || value === '1'),
);
const seconds = (fallback: string) =>
  v.pipe(v.optional(v.string(), fallback), v.transform(Number), v.number(), v.minValue(0));
const atLeastOne = (fallback: string) =>
  v.pipe(v.optional(v.string(), fallback), v.transform(Number), v.integer(), v.minValue(1));
const optionalUrl = v.optional(v.pipe(v.string(), v.url()));
/** A dollar amount with at most two decimals ("5", "2000.00"), as micro-USD. */
const usdCents = (name: string, fallback: string) =>
  v.pipe(
    v.optional(v.string(), fallback),
    v.regex(USD_AMOUNT_PATTERN, `${name}: a dollar amount with at most two decimals, e.g. 25.00`),
    v.transform((text) => usdAmountMicros(text) ?? 0),
    v.minValue(1),
  );

export const ConfigSchema = v.object({
  AWS_REGION: v.optional(v.string(), 'us-east-1'),
  [ENV.tableName]: v.pipe(v.string(), v.minLength(1)),
  [ENV.bucketName]: v.optional(v.string(), ''),
  /** Endpoints of the embedded back ends; unset on AWS. */
  DYNAMODB_ENDPOINT: optionalUrl,
  S3_ENDPOINT: optionalUrl,
  SFN_ENDPOINT: optionalUrl,
  SQS_ENDPOINT: optionalUrl,
  SECRETS_MANAGER_ENDPOINT: optionalUrl,
  [ENV.callbackQueueUrl]: v.optional(v.string(), ''),
  [ENV.callbackDeadLetterQueueUrl]: v.optional(v.string(), ''),
  [ENV.logLevel]: v.optional(v.picklist(['debug', 'info', 'warn', 'error', 'silent']), 'info'),
  /** Requests per minute an account may make unless the operator set its own limit (npm run admin -- limits). */
  [DEVELOPMENT_ENV.rateLimitPerMinute]: atLeastOne('3000'),
  /** Webhook tests and callback redeliveries an account may ask for per minute (each sends to a URL it chose). */
  [DEVELOPMENT_ENV.outboundSendsPerMinute]: atLeastOne('30'),
  /** Asynchronous jobs an account may have running at once; more wait in pending (the workflow asks again). */
  [DEVELOPMENT_ENV.maxRunningJobs]: atLeastOne('20'),
  /** How long a resolved API key is trusted before it is read again (revocation delay). */
  [DEVELOPMENT_ENV.apiKeyCacheSeconds]: seconds('30'),
  /**
   * How long the training-set preflight reads photos before it answers with the rest `not_checked`: at
   * most 25 s, inside API Gateway's 29 s (tests shorten it).
   */
  [DEVELOPMENT_ENV.preflightBudgetSeconds]: v.pipe(
    v.optional(v.string(), '25'),
    v.transform(Number),
    v.number(),
    v.minValue(0.001),
    v.maxValue(25),
  ),
  /** Multiplies callback retry delays (tests use 0 so that six attempts take no hour). */
  [DEVELOPMENT_ENV.callbackRetryScale]: v.pipe(
    v.optional(v.string(), '1'),
    v.transform(Number),
    v.number(),
    v.minValue(0),
    v.maxValue(1),
  ),
  /** Synchronous image operations answer 504 TIMEOUT (and refund) past this budget. */
  [ENV.syncBudgetSeconds]: v.pipe(v.optional(v.string(), '600'), v.transform(Number), v.number(), v.minValue(0.001)),
  /** Asynchronous jobs fail with TIMEOUT (and are refunded) past this budget. */
  [ENV.asyncBudgetSeconds]: v.pipe(v.optional(v.string(), '1800'), v.transform(Number), v.number(), v.minValue(0.001)),
  [STATE_MACHINE_ARN_ENV['image-job']]: v.optional(v.string(), ''),
  /**
   * Keeps a profile IN_PROGRESS this long after its face template is built (0: training takes as long as
   * its real work). Only for tests that need a training in progress.
   */
  [DEVELOPMENT_ENV.trainingDelaySeconds]: seconds('0'),
  /**
   * How long one attempt of a hosted provider's call may take before the client gives up on it (a POST of
   * work is then never sent again: provider-http.ts). Tests shorten it to exercise a provider that hangs.
   */
  [DEVELOPMENT_ENV.providerAttemptTimeoutSeconds]: v.pipe(
    v.optional(v.string(), '300'), // PROVIDER_RETRY_DEFAULTS.attemptTimeoutSeconds
    v.transform(Number),
    v.number(),
    v.minValue(0.001),
  ),
  [STATE_MACHINE_ARN_ENV['profile-training']]: v.optional(v.string(), ''),
  [STATE_MACHINE_ARN_ENV['profile-reembedding']]: v.optional(v.string(), ''),
  /**
   * The face model id the analyser runs under: the built models' own (MODEL_ID), or the same weights under
   * TEST_MODEL_ID, for tests of a face-model change. Not set on AWS.
   */
  [DEVELOPMENT_ENV.faceModelId]: v.optional(v.picklist(FACE_MODEL_IDS), MODEL_ID),
  /**
   * How long an image request may spend making the templates of the current face model that its READY
   * profiles lack (profiles/templates.ts), before it serves them unchecked: 20 s fits an asynchronous
   * submit inside API Gateway's 29 s, and the measured cost of a 50-photo profile (bench `templates`).
   */
  [DEVELOPMENT_ENV.templateBudgetSeconds]: seconds('20'),
  /** From this instant the default output_format is jpg (png before). */
  [DEVELOPMENT_ENV.outputFormatSwitchAt]: v.pipe(
    v.optional(v.string(), '2026-05-08T00:00:00Z'),
    v.isoTimestamp(),
    v.transform(Date.parse),
  ),
  /** The image engine: the sandbox on sharp, or a GPU backend over HTTPS. */
  [BACKEND_ENV.engine]: v.optional(v.picklist(['sandbox', 'http']), 'sandbox'),
  [BACKEND_ENV.engineUrl]: optionalUrl,
  [DEVELOPMENT_ENV.engineToken]: v.optional(v.string(), ''),
  /** On AWS the engine's token is a Secrets Manager secret, read once per cold start. */
  [BACKEND_ENV.engineTokenSecretArn]: v.optional(v.string()),
  /**
   * The trainer: the sandbox (the face template is the training), a training backend over HTTPS that calls back
   * (docs/trainer-contract.md), or a provider whose row has a `trainer` (Full Train as a LoRA on its queue,
   * e.g. fal's flux-2-trainer; Quick Train stays the sandbox's: domain/profiles/lora-training.ts).
   */
  [BACKEND_ENV.trainer]: v.optional(v.picklist(['sandbox', 'http', ...TRAINER_PROVIDER_IDS]), 'sandbox'),
  /** A LoRA trainer's steps a training (absent: its list's default, list-prices.ts TRAINER_LIST_PRICES). */
  [BACKEND_ENV.loraTrainerSteps]: v.optional(
    v.pipe(
      v.string(),
      v.transform(Number),
      v.integer(`${BACKEND_ENV.loraTrainerSteps}: a whole number of steps`),
      v.minValue(1),
      v.maxValue(10_000),
    ),
  ),
  /** A LoRA trainer's learning rate (absent: its list's default). */
  [BACKEND_ENV.loraTrainerLearningRate]: v.optional(
    v.pipe(
      v.string(),
      v.transform(Number),
      v.number(`${BACKEND_ENV.loraTrainerLearningRate}: a number, e.g. 0.00005`),
      v.minValue(0),
      v.maxValue(0.01),
    ),
  ),
  /** Train with a trainer whose list price exceeds the Full Train price (refused at start otherwise). */
  [BACKEND_ENV.allowTrainingBelowCost]: flag,
  [BACKEND_ENV.trainerUrl]: optionalUrl,
  /** Shared with the training backend: sent on our requests, and required on its callbacks. */
  [DEVELOPMENT_ENV.trainerToken]: v.optional(v.string(), ''),
  /** On AWS the trainer's token is a Secrets Manager secret, read once per cold start. */
  [BACKEND_ENV.trainerTokenSecretArn]: v.optional(v.string()),
  /** The public URL of POST /v2/service/internal/trainer-callback, handed to the training backend. */
  [BACKEND_ENV.trainerCallbackUrl]: optionalUrl,
  /**
   * Which engine serves each base model (model-routes.ts); checked here, at cold start: a route to an
   * unknown model or provider throws, so the function (or `npm start`) does not start.
   */
  [PROVIDER_ENV.modelRoutes]: v.pipe(
    v.optional(v.string(), ''),
    v.transform((text) => parseModelRoutes(text, ROUTE_TARGETS)),
  ),
  /** Serve a route whose provider lists a price at or above ours (refused at start otherwise). */
  [PROVIDER_ENV.allowRoutesBelowCost]: flag,
  [PROVIDER_ENV.modelAliases]: v.pipe(
    v.optional(v.string(), ''),
    v.transform((text) => parseModelAliases(text)),
  ),
  /**
   * A provider's key is kept this long, then read again (Secrets Manager on AWS, the environment
   * locally); a provider's 401/403 reads it again at once, so a rotated key is taken without a restart.
   */
  [PROVIDER_ENV.providerKeyCacheSeconds]: seconds('300'),
  /**
   * Stripe (docs/billing.md): the secret key and the webhook endpoint's signing secret, by value (local)
   * or as Secrets Manager secrets (AWS). Without a secret key, top-ups answer 503.
   */
  [STRIPE_ENV.secretKey]: v.optional(v.string(), ''),
  [STRIPE_ENV.secretKeySecretArn]: v.optional(v.string()),
  [STRIPE_ENV.webhookSecret]: v.optional(v.string(), ''),
  [STRIPE_ENV.webhookSecretSecretArn]: v.optional(v.string()),
  /** Development only: the Stripe API origin the library is pointed at (https; loopback http with ALLOW_LOOPBACK_URLS). */
  [STRIPE_ENV.apiBase]: optionalUrl,
  /** The smallest and largest top-up, in USD with at most two decimals. */
  [STRIPE_ENV.topUpMinUsd]: usdCents(STRIPE_ENV.topUpMinUsd, '5.00'),
  [STRIPE_ENV.topUpMaxUsd]: usdCents(STRIPE_ENV.topUpMaxUsd, '2000.00'),
  /**
   * Auto-recharge (docs/billing.md): what automatic charges may take per account per UTC day together, and
   * the least time between two of them (an hour; 0 lets every settle below the threshold start one, the cap
   * alone then bounds them).
   */
  [STRIPE_ENV.autoRechargeDailyMaxUsd]: usdCents(STRIPE_ENV.autoRechargeDailyMaxUsd, '500.00'),
  [STRIPE_ENV.autoRechargeWindowSeconds]: seconds('3600'),
  /** The amounts the portal's Billing page offers, comma-separated USD. */
  [STRIPE_ENV.topUpPresetsUsd]: v.pipe(
    v.optional(v.string(), '10,25,50,100'),
    v.transform((text) => text.split(',').map((part) => part.trim())),
    v.check(
      (parts) => parts.length > 0 && parts.every((part) => USD_AMOUNT_PATTERN.test(part)),
      `${STRIPE_ENV.topUpPresetsUsd}: dollar amounts, comma-separated, e.g. 10,25,50`,
    ),
    v.transform((parts) => parts.map((part) => usdAmountMicros(part) ?? 0)),
  ),
  /** The HMAC key of download links: given directly (local), or the ARN of a Secrets Manager secret (AWS). */
  DOWNLOAD_TOKEN_SECRET: v.optional(v.pipe(v.string(), v.minLength(32))),
  [ENV.downloadTokenSecretArn]: v.optional(v.string()),
  /** Development and tests only: a PEM file of one more CA that callback deliveries trust. */
  [DEVELOPMENT_ENV.extraTrustedCaFile]: v.optional(v.string()),
  /** Development only: let fetched and callback URLs point at loopback addresses. */
  [DEVELOPMENT_ENV.allowLoopbackUrls]: flag,
});

/**
 * A hosted provider's settings, named by its row of the provider table (providers.ts): where its API is
 * (https; a loopback http address only with ALLOW_LOOPBACK_URLS, checked where the engine is built), and
 * its key by value (local) or as a Secrets Manager secret read by ARN (AWS).
 */
export interface ProviderSettings {
  baseUrl: string;
  key: string;
  keySecretArn?: string;
  /** A queued provider's (its row's `queue`): the hosts its output files may be downloaded from. */
  mediaHosts?: string[];
  /**
   * A queued provider's: where the keys its webhooks are signed with are published (https; an http
   * loopback address only with ALLOW_LOOPBACK_URLS, checked where the verifier is built).
   */
  webhookKeysUrl?: string;
  /** A queued provider's: our user id its webhooks must be signed for; absent, any. */
  webhookUserId?: string;
  /** A provider that trains (its row's `trainer`): its API where a request's files are deleted. */
  platformUrl?: string;
}

/** TRAINER naming a provider that trains: which, and the training it runs (LORA_TRAINER_*, or its defaults). */
export interface LoraTrainerSettings {
  provider: TrainerProviderId;
  steps: number;
  learningRate: number;
}

/** Hosts, comma-separated in the variable, `*.example.com` for its subdomains. */
const hostList = (name: string, fallback: readonly string[]) =>
  v.pipe(
    v.optional(v.string(), fallback.join(',')),
    v.transform((text) =>
      text
        .split(',')
        .map((host) => host.trim().toLowerCase())
        .filter((host) => host !== ''),
    ),
    v.check(
      (hosts) => hosts.every((host) => /^(\*\.)?[a-z0-9.-]+(:\d+)?$/.test(host)),
      `${name}: hosts such as ${fallback.join(' or ')}, comma-separated`,
    ),
  );

const queueSettings = (env: NodeJS.ProcessEnv, queue: QueuedProviderRow) => {
  const { mediaHosts, webhookKeysUrl, webhookUserId } = queue;
  const parsed = v.parse(
    v.object({
      mediaHosts: hostList(mediaHosts.env, mediaHosts.default),
      webhookKeysUrl: v.pipe(v.optional(v.string(), webhookKeysUrl.default), v.url(`${webhookKeysUrl.env}: a URL`)),
      webhookUserId: v.optional(v.pipe(v.string(), v.trim())),
    }),
    { mediaHosts: env[mediaHosts.env], webhookKeysUrl: env[webhookKeysUrl.env], webhookUserId: env[webhookUserId.env] },
  );
  const { webhookUserId: userId, ...rest } = parsed;
  // An empty variable pins nothing (as if unset).
  return { ...rest, ...(userId ? { webhookUserId: userId } : {}) };
};

const providerSettings = (env: NodeJS.ProcessEnv, id: HostedProviderId): ProviderSettings => {
  const row = HOSTED_PROVIDERS[id];
  const schema = v.object({
    [row.baseUrl.env]: v.optional(v.pipe(v.string(), v.url()), row.baseUrl.default),
    [row.key.env]: v.optional(v.string(), ''),
    [row.key.secretArnEnv]: v.optional(v.string()),
  });
  const parsed = v.parse(schema, env) as Record<string, string | undefined>;
  const keySecretArn = parsed[row.key.secretArnEnv];
  const queue = queueRow(id);
  const trainer = trainerRow(id);
  return {
    baseUrl: parsed[row.baseUrl.env] ?? row.baseUrl.default,
    key: parsed[row.key.env] ?? '',
    ...(keySecretArn !== undefined && { keySecretArn }),
    ...(queue && queueSettings(env, queue)),
    ...(trainer && {
      platformUrl: v.parse(
        v.optional(v.pipe(v.string(), v.url(`${trainer.platformUrl.env}: a URL`)), trainer.platformUrl.default),
        env[trainer.platformUrl.env],
      ),
    }),
  };
};

export type ServiceConfig = v.InferOutput<typeof ConfigSchema> & {
  readonly providers: Readonly<Record<HostedProviderId, ProviderSettings>>;
  /** Set when TRAINER names a provider that trains. */
  readonly loraTrainer?: LoraTrainerSettings;
};

/** The LoRA trainer TRAINER names, with its steps and learning rate (the trainer's list defaults when unset). */
export const loraTrainerSettings = (
  trainer: string,
  steps: number | undefined,
  learningRate: number | undefined,
): LoraTrainerSettings | undefined => {
  if (!isTrainerProvider(trainer)) return undefined;
  const defaults = TRAINER_LIST_PRICES[trainer];
  return {
    provider: trainer,
    steps: steps ?? defaults.defaultSteps,
    learningRate: learningRate ?? defaults.defaultLearningRate,
  };
};

/**
 * A provider's key given by value, as the environment says now (locally a developer may change it without
 * a restart of `npm start`; on AWS the key is a secret and this is empty).
 */
export const currentProviderKey = (id: HostedProviderId, env: NodeJS.ProcessEnv = process.env): string =>
  providerSettings(env, id).key;

let cached: ServiceConfig | undefined;

/** ALLOW_ROUTES_BELOW_COST as the settings read it, for the local runtime's start (bin/local.ts). */
export const allowRoutesBelowCost = (env: NodeJS.ProcessEnv): boolean =>
  v.parse(flag, env[PROVIDER_ENV.allowRoutesBelowCost]);

/**
 * The configuration; a route table with a pairing the provider lists at or above our price stops the cold
 * start (catalog/route-margins.ts) unless ALLOW_ROUTES_BELOW_COST=true.
 */
export const loadConfig = (env: NodeJS.ProcessEnv = process.env): ServiceConfig => {
  const parsed = v.parse(ConfigSchema, env);
  checkRouteCosts(parsed[PROVIDER_ENV.modelRoutes], listPriceOf, parsed[PROVIDER_ENV.allowRoutesBelowCost]);
  const loraTrainer = loraTrainerSettings(
    parsed[BACKEND_ENV.trainer],
    parsed[BACKEND_ENV.loraTrainerSteps],
    parsed[BACKEND_ENV.loraTrainerLearningRate],
  );
  if (loraTrainer)
    checkTrainerCost(
      trainerCostMicros(loraTrainer.provider, loraTrainer.steps),
      parsed[BACKEND_ENV.allowTrainingBelowCost],
      `${BACKEND_ENV.loraTrainerSteps}=${loraTrainer.steps}`,
      `${BACKEND_ENV.allowTrainingBelowCost}=true`,
    );
  return {
    ...parsed,
    ...(loraTrainer && { loraTrainer }),
    providers: Object.fromEntries(HOSTED_PROVIDER_IDS.map((id) => [id, providerSettings(env, id)])) as Record<
      HostedProviderId,
      ProviderSettings
    >,
  };
};

/** The configuration of this process, parsed on first use and then kept. */
export const config = (): ServiceConfig => (cached ??= loadConfig());

/** For the local runtime and tests that change the environment between runtimes. */
export const resetConfig = (): void => {
  cached = undefined;
};
