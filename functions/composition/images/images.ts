/** The image operations (edit, generate, enhance, remix): input decoding, the engine and recognition, so sharp and the face models. */

import { imageEngine } from '../../adapters/engine/engines';
import { possibleProviderCostMicros } from '../../adapters/engine/providers/possible-cost';
import { PROVIDER_RETRY_DEFAULTS } from '../../adapters/engine/providers/provider-http';
import { jobInputs, jobOutputs } from '../../adapters/s3/job-files';
import { photoStore } from '../../adapters/s3/photo-store';
import { sharedInputKey } from '../../adapters/s3/shared-inputs';
import {
  HOSTED_PROVIDERS,
  type HostedProviderId,
  isHostedProvider,
  isQueuedProvider,
} from '../../deployment/providers';
import { routedProviders } from '../../domain/catalog/model-routes';
import { type EngineRequest, meteredEngine, reportingLostWork } from '../../domain/engine/engine';
import type { ImageDeps } from '../../domain/images/deps';
import { checkedHttpsUrl } from '../../domain/shared/loopback';
import { watchedLedger } from '../account/balance-watch';
import { clock, log, meter, newId, once, settings } from '../core';
import { jobs, ledger, profiles } from '../data';
import { faceAnalyzer } from '../faces';
import { link } from '../jobs/links';
import { cancelTicketWork, hasProviderKey } from '../providers/provider-work';
import { providerKey, secretOrEmpty } from '../secrets';
import { startImageJob } from '../state-machines';
import { objects } from '../storage';
import { decodeInput } from './inputs';

/** How long a backend may fetch a candidate's reference crops for (an engine run lasts at most 15 minutes). */
const REFERENCE_URL_SECONDS = 3600;

/** The configured engine: the route table's providers, the default engine for the rest; built on first use. */
export const engine = once(() => {
  const config = settings();
  // Only the routed providers are built: an unused provider's URL or key is never checked or read.
  // A queued provider's outputs are downloaded only from its own media hosts (its row's `mediaHosts`).
  const access = (id: HostedProviderId) => {
    const { baseUrl, mediaHosts } = config.providers[id];
    const { title } = HOSTED_PROVIDERS[id];
    return {
      baseUrl: checkedHttpsUrl(baseUrl, `The ${title} base URL`, config.ALLOW_LOOPBACK_URLS),
      apiKey: providerKey(id, `the ${title} API key`),
      ...(mediaHosts && { media: { hosts: mediaHosts, allowLoopback: config.ALLOW_LOOPBACK_URLS } }),
    };
  };
  const metered = meteredEngine(
    imageEngine({
      engine: config.ENGINE,
      url: config.ENGINE_URL,
      token: secretOrEmpty(config.ENGINE_TOKEN, config.ENGINE_TOKEN_SECRET_ARN, 'the engine token'),
      routes: config.MODEL_ROUTES,
      providers: Object.fromEntries(
        routedProviders(config.MODEL_ROUTES).flatMap((id) => (isHostedProvider(id) ? [[id, access(id)]] : [])),
      ),
      transport: {
        policy: {
          ...PROVIDER_RETRY_DEFAULTS,
          attemptTimeoutSeconds: config.PROVIDER_ATTEMPT_TIMEOUT_SECONDS,
        },
      },
      // A job's ticket is checked and canceled by the provider that made it, routed now or not, if it has a key.
      ticketAccess: (id) => (isQueuedProvider(id) && hasProviderKey(id) ? access(id) : undefined),
      references: {
        load: async (key) => {
          const object = await objects().get(key);
          if (!object) throw new Error(`reference image ${key} is missing`);
          return object.body;
        },
        url: (key) => objects().presignGet(key, REFERENCE_URL_SECONDS),
        share: async (data, contentType, owner) => {
          // Scoped to the account and the profile or job, keyed by content within it (shared-inputs.ts).
          const key = sharedInputKey(owner, data);
          await objects().put(key, data, contentType);
          return objects().presignGet(key, REFERENCE_URL_SECONDS);
        },
      },
    }),
    meter(),
  );
  return reportingLostWork(metered, lostWorkLog);
});

/** A provider call whose answer was lost after it may have started paid work: the operator's possible cost, logged. */
const lostWorkLog = (request: EngineRequest, error: unknown): void =>
  log().warn('provider work may have run without its answer: not asked again, the job fails refunded', {
    job_id: request.workKey,
    base_model: request.baseModel,
    operation: request.operation,
    num_output_images: request.numOutputImages,
    size: `${request.width}x${request.height}`,
    possible_cost_micros: possibleProviderCostMicros(settings().MODEL_ROUTES, request),
    error: error instanceof Error ? error.message : String(error),
  });

export const imageDeps = once(
  (): ImageDeps => ({
    clock,
    meter: meter(),
    sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
    newId,
    // A synchronous job's settle is followed by the low-balance notice and auto-recharge (balance-watch.ts).
    ledger: watchedLedger(ledger()),
    profiles: profiles(),
    jobs: jobs(),
    get engine() {
      return engine();
    },
    cancelEngineWork: cancelTicketWork,
    get faces() {
      return faceAnalyzer();
    },
    decodeInput,
    inputs: jobInputs(objects()),
    outputs: { ...jobOutputs(objects()), link },
    workflows: { startImageJob },
    settings: {
      syncBudgetMs: settings().SYNC_BUDGET_SECONDS * 1000,
      asyncBudgetMs: settings().ASYNC_BUDGET_SECONDS * 1000,
      outputFormatSwitchAt: settings().OUTPUT_FORMAT_SWITCH_AT,
      replayPollMs: 200,
      maxRunningJobs: settings().MAX_RUNNING_JOBS,
      modelAliases: settings().MODEL_ALIASES,
      templateBudgetMs: settings().TEMPLATE_BUDGET_SECONDS * 1000,
    },
    profileTemplates: { photos: photoStore(objects()), profiles: profiles() },
    warn: (message, fields) => log().warn(message, fields),
  }),
);
