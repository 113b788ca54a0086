/**
 * Where the image engine and the trainer run. Without context the stack deploys the sandbox engine and
 * trainer. With CDK context `engineUrl` (and/or `trainerUrl` plus `trainerCallbackUrl`, the public URL of
 * POST /v2/service/internal/trainer-callback) the functions use those HTTPS backends; each gets a
 * generated token in Secrets Manager that the operator shares with the backend.
 *
 *   npx cdk deploy -c engineUrl=https://gpu.example.com -c trainerUrl=https://train.example.com \
 *     -c trainerCallbackUrl=https://<api>/prod/v2/service/internal/trainer-callback
 *
 * Or context `trainer=<provider>` naming a provider whose row has a trainer (fal: Full Train as a LoRA on
 * fal-ai/flux-2-trainer, docs/identity.md), with a model routed to that provider (its key is the trainer's),
 * optional `loraTrainerSteps`, `loraTrainerLearningRate`, and
 * `allowTrainingBelowCost=true` to synthesise steps whose list price exceeds the Full Train price (the synth
 * stops otherwise, as every cold start would).
 */
import * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import { Construct } from 'constructs';
import {
  listPriceOf,
  TRAINER_LIST_PRICES,
  trainerCostMicros,
} from '../../functions/adapters/engine/providers/list-prices';
import { BACKEND_ENV, PROVIDER_ENV, STRIPE_ENV } from '../../functions/deployment/env-names';
import {
  HOSTED_PROVIDERS,
  type HostedProviderId,
  isHostedProvider,
  isTrainerProvider,
  type ProviderSecretName,
  ROUTE_TARGETS,
  secretConstructId,
  TRAINER_PROVIDER_IDS,
} from '../../functions/deployment/providers';
import { parseModelAliases, parseModelRoutes, routedProviders } from '../../functions/domain/catalog/model-routes';
import { checkRouteCosts } from '../../functions/domain/catalog/route-margins';
import { checkTrainerCost } from '../../functions/domain/catalog/trainer-cost';
import { acknowledge } from './acknowledgements';

export { BACKEND_ENV };

export interface BackendsProps {
  /** CDK context `modelRoutes`: a JSON object (string) or an object, e.g. {"base-b-2":"openai:gpt-image-2"}. */
  readonly modelRoutes?: unknown;
  /**
   * CDK context `allowRoutesBelowCost=true`: serve routes whose provider lists a price at or above ours
   * (refused at synth otherwise, and at every cold start without ALLOW_ROUTES_BELOW_COST, which this sets).
   */
  readonly allowRoutesBelowCost?: unknown;
  /** CDK context `modelAliases`: public model names → our ids. */
  readonly modelAliases?: unknown;
  /** CDK context per provider (its row's `baseUrl.context`, e.g. `openaiBaseUrl`): a gateway in front of it (https). */
  readonly providerBaseUrls?: Partial<Record<HostedProviderId, string>>;
  /** A queued provider's account id its webhooks must be signed for (its row's `queue.webhookUserId`). */
  readonly providerWebhookUserIds?: Partial<Record<HostedProviderId, string>>;
  readonly engineUrl?: string;
  readonly trainerUrl?: string;
  readonly trainerCallbackUrl?: string;
  /** CDK context `trainer`: a provider that trains Full Train as a LoRA (e.g. `fal`; a model must be routed to it). */
  readonly trainer?: unknown;
  /** CDK context `loraTrainerSteps` / `loraTrainerLearningRate`: LORA_TRAINER_STEPS, LORA_TRAINER_LEARNING_RATE. */
  readonly loraTrainerSteps?: unknown;
  readonly loraTrainerLearningRate?: unknown;
  /** CDK context `allowTrainingBelowCost=true`: ALLOW_TRAINING_BELOW_COST (with `trainer`). */
  readonly allowTrainingBelowCost?: unknown;
  /** CDK context `stripe=true`: top-ups through Stripe; the operator puts the keys in the two secrets (docs/billing.md). */
  readonly stripe?: boolean;
}

export class Backends extends Construct {
  /** Environment every function gets (empty for the sandbox). */
  readonly environment: Record<string, string> = {};
  /** The backends' tokens, present only where that backend is configured. */
  readonly tokens: {
    engineToken?: secretsmanager.Secret;
    trainerToken?: secretsmanager.Secret;
    stripeSecretKey?: secretsmanager.Secret;
    stripeWebhookSecret?: secretsmanager.Secret;
  } & Partial<Record<ProviderSecretName, secretsmanager.Secret>> = {};

  constructor(scope: Construct, id: string, props: BackendsProps) {
    super(scope, id);
    this.routeModels(props);
    if (props.stripe) this.stripe();
    if (props.engineUrl) {
      const token = this.token('EngineToken', 'Bearer token this service sends to the image engine backend');
      this.tokens.engineToken = token;
      Object.assign(this.environment, {
        [BACKEND_ENV.engine]: 'http',
        [BACKEND_ENV.engineUrl]: props.engineUrl,
        [BACKEND_ENV.engineTokenSecretArn]: token.secretArn,
      });
    }
    if (props.trainerUrl) {
      if (!props.trainerCallbackUrl)
        throw new Error(
          'context trainerUrl needs trainerCallbackUrl (the public URL of POST /v2/service/internal/trainer-callback)',
        );
      const token = this.token('TrainerToken', 'Bearer token shared with the training backend, both ways');
      this.tokens.trainerToken = token;
      Object.assign(this.environment, {
        [BACKEND_ENV.trainer]: 'http',
        [BACKEND_ENV.trainerUrl]: props.trainerUrl,
        [BACKEND_ENV.trainerTokenSecretArn]: token.secretArn,
        [BACKEND_ENV.trainerCallbackUrl]: props.trainerCallbackUrl,
      });
    }
    if (props.trainer !== undefined) this.loraTrainer(props);
  }

  /**
   * TRAINER=<provider>: checked here as at cold start (a training whose steps list above the Full Train price
   * fails the synth unless allowed), on the provider's key (the secret of a model routed to it).
   */
  private loraTrainer(props: BackendsProps): void {
    const id = String(props.trainer);
    if (!isTrainerProvider(id))
      throw new Error(`context trainer: one of ${TRAINER_PROVIDER_IDS.join(', ')}, not ${id}`);
    if (props.trainerUrl) throw new Error(`context trainer=${id} and trainerUrl name two trainers: choose one`);
    if (!this.tokens[HOSTED_PROVIDERS[id].key.secret])
      throw new Error(`context trainer=${id} needs a model routed to ${id} in context modelRoutes (its key trains)`);
    const defaults = TRAINER_LIST_PRICES[id];
    const number = (value: unknown, fallback: number, name: string) => {
      const parsed = value === undefined ? fallback : Number(value);
      if (!Number.isFinite(parsed) || parsed <= 0)
        throw new Error(`context ${name}: a positive number, not ${String(value)}`);
      return parsed;
    };
    const steps = number(props.loraTrainerSteps, defaults.defaultSteps, 'loraTrainerSteps');
    if (!Number.isInteger(steps)) throw new Error(`context loraTrainerSteps: a whole number of steps, not ${steps}`);
    const learningRate = number(props.loraTrainerLearningRate, defaults.defaultLearningRate, 'loraTrainerLearningRate');
    const allow = props.allowTrainingBelowCost === true || props.allowTrainingBelowCost === 'true';
    checkTrainerCost(
      trainerCostMicros(id, steps),
      allow,
      `context loraTrainerSteps=${steps}`,
      'context allowTrainingBelowCost=true',
    );
    Object.assign(this.environment, {
      [BACKEND_ENV.trainer]: id,
      [BACKEND_ENV.loraTrainerSteps]: String(steps),
      [BACKEND_ENV.loraTrainerLearningRate]: String(learningRate),
      ...(allow && { [BACKEND_ENV.allowTrainingBelowCost]: 'true' }),
    });
  }

  /**
   * The route table and aliases, checked here as at cold start (a bad table fails the synth), and for
   * each routed provider a secret that the operator fills with its API key (docs/providers.md).
   */
  private routeModels(props: BackendsProps): void {
    const text = (value: unknown) =>
      value === undefined ? undefined : typeof value === 'string' ? value : JSON.stringify(value);
    const routes = parseModelRoutes(text(props.modelRoutes), ROUTE_TARGETS, 'context modelRoutes');
    const allowBelowCost = props.allowRoutesBelowCost === true || props.allowRoutesBelowCost === 'true';
    checkRouteCosts(routes, listPriceOf, allowBelowCost, 'context modelRoutes', 'context allowRoutesBelowCost=true');
    if (allowBelowCost) this.environment[PROVIDER_ENV.allowRoutesBelowCost] = 'true';
    const aliases = parseModelAliases(text(props.modelAliases), 'context modelAliases');
    if (Object.keys(aliases).length > 0) this.environment[PROVIDER_ENV.modelAliases] = JSON.stringify(aliases);
    // The environment carries the route table in its own written form: provider:model.
    if (Object.keys(routes).length > 0)
      this.environment[PROVIDER_ENV.modelRoutes] = JSON.stringify(
        Object.fromEntries(Object.entries(routes).map(([id, route]) => [id, `${route.provider}:${route.model}`])),
      );
    for (const provider of routedProviders(routes)) {
      if (!isHostedProvider(provider)) {
        if (!props.engineUrl)
          throw new Error('context modelRoutes routes a model to "http": it needs context engineUrl');
        continue;
      }
      const secret = new secretsmanager.Secret(this, secretConstructId(provider), {
        description: `The ${provider} API key this service calls its models with; the operator puts the key here (docs/providers.md)`,
      });
      acknowledge(
        secret,
        'AwsSolutions-SMG4',
        "A provider's API key is issued by that provider; it is rotated in the provider's console and put here by an operator.",
      );
      const row = HOSTED_PROVIDERS[provider];
      this.tokens[row.key.secret] = secret;
      this.environment[row.key.secretArnEnv] = secret.secretArn;
      const url = props.providerBaseUrls?.[provider];
      if (url) {
        if (!url.startsWith('https://')) throw new Error(`the ${provider} base URL must be https: ${url}`);
        this.environment[row.baseUrl.env] = url;
      }
      const userId = props.providerWebhookUserIds?.[provider];
      const queue = 'queue' in row ? row.queue : undefined;
      if (userId && queue) this.environment[queue.webhookUserId.env] = userId;
    }
  }

  /**
   * Stripe's secret key and the webhook endpoint's signing secret, issued by Stripe and put here by the
   * operator; only the top-up and webhook functions are granted them (functions/deployment/routes.ts).
   */
  private stripe(): void {
    const issued = (id: string, description: string) => {
      const secret = new secretsmanager.Secret(this, id, { description });
      acknowledge(
        secret,
        'AwsSolutions-SMG4',
        'Stripe issues this secret; it is rolled in the Stripe Dashboard and put here by an operator.',
      );
      return secret;
    };
    const key = issued(
      'StripeSecretKey',
      'The Stripe secret key (sk_live_… or sk_test_…) top-ups are made with (docs/billing.md)',
    );
    const webhook = issued(
      'StripeWebhookSecret',
      'The signing secret (whsec_…) of the Stripe webhook endpoint pointed at POST /v2/service/billing/stripe/webhook',
    );
    this.tokens.stripeSecretKey = key;
    this.tokens.stripeWebhookSecret = webhook;
    this.environment[STRIPE_ENV.secretKeySecretArn] = key.secretArn;
    this.environment[STRIPE_ENV.webhookSecretSecretArn] = webhook.secretArn;
  }

  private token(id: string, description: string): secretsmanager.Secret {
    const secret = new secretsmanager.Secret(this, id, {
      description,
      generateSecretString: { passwordLength: 48, excludePunctuation: true },
    });
    acknowledge(
      secret,
      'AwsSolutions-SMG4',
      'A token shared with an external backend is rotated together with that backend, by an operator, never automatically.',
    );
    return secret;
  }
}
