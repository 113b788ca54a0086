/** The image operations (edit, generate, enhance, remix): input decoding and the engine, so sharp. */

import { imageEngine } from '../adapters/engine/engines';
import { jobInputs, jobOutputs } from '../adapters/s3/job-files';
import type { ImageDeps } from '../domain/images/deps';
import { meteredEngine } from '../domain/images/engine';
import { clock, meter, newId, once, settings } from './core';
import { jobs, ledger, profiles } from './data';
import { decodeInput } from './inputs';
import { link } from './links';
import { secretOrEmpty } from './secrets';
import { objects } from './storage';
import { startImageJob } from './workflows';

/** The configured engine, built on first use. */
export const engine = once(() =>
  meteredEngine(
    imageEngine({
      engine: settings().ENGINE,
      url: settings().ENGINE_URL,
      token: secretOrEmpty(settings().ENGINE_TOKEN, settings().ENGINE_TOKEN_SECRET_ARN, 'the engine token'),
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
