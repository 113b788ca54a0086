/** The image operations (edit, generate, enhance, remix): input decoding, the engine and recognition, so sharp and the face models. */

import { createHash } from 'node:crypto';
import { imageEngine } from '../adapters/engine/engines';
import { jobInputs, jobOutputs } from '../adapters/s3/job-files';
import type { ImageDeps } from '../domain/images/deps';
import { meteredEngine } from '../domain/images/engine';
import { BUCKET_AREAS } from '../shared/access';
import { clock, meter, newId, once, settings } from './core';
import { jobs, ledger, profiles } from './data';
import { faceAnalyzer } from './faces';
import { decodeInput } from './inputs';
import { link } from './links';
import { secretOrEmpty } from './secrets';
import { objects } from './storage';
import { startImageJob } from './workflows';

/** How long a backend may fetch a candidate's reference crops for (an engine run lasts at most 15 minutes). */
const REFERENCE_URL_SECONDS = 3600;

/** The configured engine, built on first use. */
export const engine = once(() =>
  meteredEngine(
    imageEngine({
      engine: settings().ENGINE,
      url: settings().ENGINE_URL,
      token: secretOrEmpty(settings().ENGINE_TOKEN, settings().ENGINE_TOKEN_SECRET_ARN, 'the engine token'),
      references: {
        load: async (key) => {
          const object = await objects().get(key);
          if (!object) throw new Error(`reference image ${key} is missing`);
          return object.body;
        },
        url: (key) => objects().presignGet(key, REFERENCE_URL_SECONDS),
        share: async (data, contentType) => {
          // Keyed by content: the same input shared twice (a retried step) is one object. `inputs/` expires.
          const key = `${BUCKET_AREAS.inputs}shared/${createHash('sha256').update(data).digest('hex')}`;
          await objects().put(key, data, contentType);
          return objects().presignGet(key, REFERENCE_URL_SECONDS);
        },
      },
    }),
    meter(),
  ),
);

export const imageDeps = once(
  (): ImageDeps => ({
    clock,
    meter: meter(),
    sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
    newId,
    ledger: ledger(),
    profiles: profiles(),
    jobs: jobs(),
    get engine() {
      return engine();
    },
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
    },
  }),
);
