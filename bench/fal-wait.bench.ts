/**
 * What one asynchronous job on fal costs while fal works (issue 32): the state transitions and image-function
 * runs of its execution, how soon its result is stored once fal has finished, and its AWS cost as a share of
 * its price, for fal taking 5 s, 60 s and 29 minutes (the longest a job may queue inside its 30-minute budget
 * with the last status check; simulated), with fal's webhook delivered and with it lost.
 *
 * Each job is a POST /v2/service/generate (base-a-2 on fal, async) on the local runtime, against the fal double
 * (test/support/providers/fal-double.ts) holding the request for the wait, then reporting to the webhook the
 * submit named (or not, when lost). Everything is counted where it happens, not read from the definition: the
 * local Step Functions records each execution's transitions (states entered and retries) and the functions its
 * Tasks invoked, with their durations (bin/local-aws/step-functions.ts); the double records its deliveries.
 * The state machines run at a time scale (waits, heartbeats and retry intervals scaled; the double's hold
 * scaled alike): 0.1 for 5 s and 60 s, 0.01 for 29 min.
 *
 * result_lag_ms: from the double finishing the request (its webhook going out) to the end of SettleCharge, the
 * step that stores the job as succeeded, at the 5 s wait (unscaled: the lag is real time), LAG_JOBS jobs one
 * after another.
 *
 * aws_cost_share: docs/cost.md's model (bench/support/cost-model.ts): API requests and Lambda invocations
 * counted (the submit, each webhook delivery, each Task, and the model's two client polls), GB-seconds from the
 * template's memory sizes and the measured durations (the submit at the model's 0.3 s), transitions counted,
 * DynamoDB units and S3 requests counted around each job.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type LocalRuntime, startLocalRuntime } from '../bin/local-aws/runtime';
import { services } from '../bin/local-aws/services';
import { findBaseModel } from '../functions/domain/catalog/catalog';
import { WORKFLOWS } from '../functions/workflows/definitions';
import { DEFAULT_MEMORY_MB, IMAGE_MEMORY_MB } from '../lib/constructs/function-defaults';
import { type FalDouble, startFalDouble } from '../test/support/providers/fal-double';
import { atMost, type BenchResult, percentile, progress, round } from './harness';
import { costUsd, dynamoUnits, type Usage } from './support/cost-model';
import { countDynamoOps, difference } from './support/dynamo-ops';
import { countLocalHttp } from './support/local-http';

export const name = 'fal-wait';

const MODEL = 'base-a-2';
const FAL_KEY = 'fal-bench-key';
const CREDIT_MICROS = 1_000_000_000;
const LAG_JOBS = 20;
/** Client polls of a job in docs/cost.md's model (each a GET: an API request, a Lambda run, one read). */
const POLLS_PER_JOB = 2;
/** The submit's function in docs/cost.md's model: 2 048 MB for about 0.3 s. */
const SUBMIT_GB_SECONDS = 2 * 0.3;
/** A webhook delivery's function (512 MB), as docs/cost.md prices the small steps: about 50 ms. */
const WEBHOOK_GB_SECONDS = 0.5 * 0.05;

interface Case {
  label: string;
  waitSeconds: number;
  timeScale: number;
}

const CASES: Case[] = [
  { label: '5s', waitSeconds: 5, timeScale: 0.1 },
  { label: '60s', waitSeconds: 60, timeScale: 0.1 },
  { label: '29min', waitSeconds: 29 * 60, timeScale: 0.01 },
];

/** The image functions among the workflow's Tasks (their bundles carry sharp and the face models). */
const IMAGE_TASKS = new Set(
  Object.values(WORKFLOWS).flatMap(({ tasks }) =>
    Object.entries(tasks)
      .filter(([, task]) => task.images === true)
      .map(([variable]) => variable),
  ),
);
const variableOf = (functionArn: string): string => functionArn.split(':').pop() ?? functionArn;

interface JobFigures {
  transitions: number;
  imageRuns: number;
  invocations: number;
  deliveries: number;
  lagMs: number;
  path: string[];
  usage: Usage;
  usd: number;
  status: string;
}

interface World {
  runtime: LocalRuntime;
  fal: FalDouble;
  apiKey: string;
  accountId: string;
  close(): Promise<void>;
}

const startWorld = async (timeScale: number): Promise<World> => {
  const fal = await startFalDouble();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-fal-wait-'));
  try {
    const runtime = await startLocalRuntime({
      dataDir,
      logLevel: 'silent',
      devAccountCreditMicros: CREDIT_MICROS,
      timeScale,
      env: {
        MODEL_ROUTES: JSON.stringify({ [MODEL]: 'fal:fal-ai/flux-2' }),
        FAL_QUEUE_URL: fal.baseUrl,
        FAL_KEY,
        FAL_JWKS_URL: fal.jwksUrl,
        RATE_LIMIT_PER_MINUTE: '1000000',
      },
    });
    const account = runtime.devAccount;
    if (!account) throw new Error('the local runtime made no development account');
    return {
      runtime,
      fal,
      apiKey: account.apiKey,
      accountId: account.accountId,
      close: async () => {
        try {
          await runtime.close();
        } finally {
          await fal.close();
          fs.rmSync(dataDir, { recursive: true, force: true });
        }
      },
    };
  } catch (error) {
    await fal.close();
    throw error;
  }
};

/** One job through fal held `holdMs`, its webhook delivered or lost; everything it cost, counted. */
const runJob = async (world: World, holdMs: number, lost: boolean): Promise<JobFigures> => {
  const { runtime, fal } = world;
  const ops = countDynamoOps(services().table);
  const http = countLocalHttp({ [runtime.endpoints.s3]: 's3' });
  try {
    const opsBefore = ops.snapshot();
    fal.holdNext({ ms: holdMs });
    if (lost) fal.dropNextWebhooks();
    const since = fal.submissions.length;
    const response = await fetch(`${runtime.url}/v2/service/generate`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-API-Key': world.apiKey },
      body: JSON.stringify({ prompt: 'a harbour at dawn', base_model: MODEL, async: true }),
    });
    if (response.status !== 202) throw new Error(`submit: ${response.status} ${await response.text()}`);
    const { job_id: jobId } = (await response.json()) as { job_id: string };
    const execution = await runtime.stepFunctions.waitForExecution(jobId);
    const requestId = fal.submissions.slice(since).find((submission) => submission.webhook)?.requestId;
    if (!requestId) throw new Error(`job ${jobId}: no fal submission named a webhook`);
    const job = await services().jobs.get(world.accountId, jobId);
    const deliveries = fal.webhookDeliveries.filter((delivery) => delivery.requestId === requestId).length;
    const settled = execution.invocations.find(
      (invocation) => variableOf(invocation.functionArn) === 'SettleChargeFunctionArn',
    );
    const finishedAt = fal.finishedAt.get(requestId);
    const lagMs = settled && finishedAt !== undefined ? settled.at + settled.ms - finishedAt : Number.NaN;
    const units = dynamoUnits(difference(ops.snapshot(), opsBefore), 1);
    const gbSeconds =
      SUBMIT_GB_SECONDS +
      deliveries * WEBHOOK_GB_SECONDS +
      POLLS_PER_JOB * WEBHOOK_GB_SECONDS +
      execution.invocations.reduce(
        (sum, invocation) =>
          sum +
          ((IMAGE_TASKS.has(variableOf(invocation.functionArn)) ? IMAGE_MEMORY_MB : DEFAULT_MEMORY_MB) / 1024) *
            (invocation.ms / 1000),
        0,
      );
    const usage: Usage = {
      apiRequests: 1 + deliveries + POLLS_PER_JOB,
      lambdaInvocations: 1 + deliveries + POLLS_PER_JOB + execution.invocations.length,
      lambdaGbSeconds: gbSeconds,
      stateTransitions: execution.transitions,
      writeUnits: units.writeUnits,
      readUnits: units.readUnits + POLLS_PER_JOB,
      s3Requests: http.snapshot().s3 ?? 0,
      traces: 1 + deliveries + POLLS_PER_JOB,
      logBytes: (10 + 2 * deliveries) * 600,
    };
    const usd = costUsd(usage);
    return {
      transitions: execution.transitions,
      imageRuns: execution.invocations.filter((invocation) => IMAGE_TASKS.has(variableOf(invocation.functionArn)))
        .length,
      invocations: execution.invocations.length,
      deliveries,
      lagMs,
      path: execution.path,
      usage,
      usd,
      status: job?.status ?? 'missing',
    };
  } finally {
    http.stop();
  }
};

const priceMicrosOf = (): number => {
  const pricing = findBaseModel(MODEL)?.pricing;
  if (pricing?.metering !== 'flat') throw new Error(`${MODEL} is not priced per image`);
  const price = pricing.perImageMicros['1K'];
  if (price === undefined) throw new Error(`${MODEL} has no 1K price`);
  return price;
};

export const run = async (): Promise<BenchResult[]> => {
  const priceMicros = priceMicrosOf();
  const figures: Record<string, { delivered: JobFigures; lost: JobFigures }> = {};
  const lags: number[] = [];
  for (const timeScale of [...new Set(CASES.map((entry) => entry.timeScale))]) {
    progress(name, `local runtime at time scale ${timeScale}, fal double`);
    const world = await startWorld(timeScale);
    try {
      // One job first: the handlers' modules load and their caches fill outside what is measured.
      await runJob(world, 100, false);
      for (const entry of CASES.filter((candidate) => candidate.timeScale === timeScale)) {
        const holdMs = entry.waitSeconds * 1000 * timeScale;
        progress(name, `fal takes ${entry.label} (${round(holdMs / 1000, 2)} s here): webhook delivered, then lost`);
        const delivered = await runJob(world, holdMs, false);
        const lost = await runJob(world, holdMs, true);
        for (const [kind, job] of Object.entries({ delivered, lost }))
          if (job.status !== 'succeeded')
            throw new Error(`${entry.label}, webhook ${kind}: the job ended ${job.status} (${job.path.join(' > ')})`);
        figures[entry.label] = { delivered, lost };
        progress(
          name,
          `${entry.label}: delivered ${delivered.transitions} transitions (${delivered.path.join(' > ')}); lost ${lost.transitions} (${lost.path.join(' > ')})`,
        );
      }
      if (timeScale === CASES[0]?.timeScale) {
        const holdMs = (CASES[0]?.waitSeconds ?? 5) * 1000 * timeScale;
        progress(name, `result lag: ${LAG_JOBS} jobs of ${CASES[0]?.label}, one after another`);
        for (let index = 0; index < LAG_JOBS; index += 1) lags.push((await runJob(world, holdMs, false)).lagMs);
      }
    } finally {
      await world.close();
    }
  }
  return results(figures, lags, priceMicros);
};

const results = (
  figures: Record<string, { delivered: JobFigures; lost: JobFigures }>,
  lags: number[],
  priceMicros: number,
): BenchResult[] => {
  const labels = CASES.map((entry) => entry.label);
  const of = (label: string, kind: 'delivered' | 'lost'): JobFigures => {
    const figure = figures[label]?.[kind];
    if (!figure) throw new Error(`no ${label} job with its webhook ${kind}`);
    return figure;
  };
  const worst = (pick: (job: JobFigures) => number, kind: 'delivered' | 'lost') =>
    Math.max(...labels.map((label) => pick(of(label, kind))));
  const each = (pick: (job: JobFigures) => number | string, kind: 'delivered' | 'lost') =>
    labels.map((label) => `${label} ${pick(of(label, kind))}`).join(', ');
  const share = (job: JobFigures) => job.usd / (priceMicros / 1e6);
  const worstShare = (kind: 'delivered' | 'lost') => Math.max(...labels.map((label) => share(of(label, kind))));
  const costNotes = (kind: 'delivered' | 'lost') =>
    labels
      .map((label) => {
        const job = of(label, kind);
        return `${label} $${job.usd.toFixed(7)} (${job.usage.stateTransitions} transitions, ${job.usage.lambdaInvocations} invocations, ${round(job.usage.lambdaGbSeconds, 2)} GB-s, ${round(job.usage.writeUnits, 1)} WRU, ${round(job.usage.readUnits, 1)} RRU)`;
      })
      .join('; ');
  const validLags = lags.filter((lag) => Number.isFinite(lag));
  return [
    atMost(
      {
        metric: 'providers.fal.transitions_per_job',
        value: worst((job) => job.transitions, 'delivered'),
        unit: 'transitions',
        notes: `largest over fal taking ${labels.join(', ')} (webhook delivered): ${each((job) => job.transitions, 'delivered')}; counted by the local Step Functions`,
      },
      12,
    ),
    {
      metric: 'providers.fal.transitions_per_job_webhook_lost',
      value: worst((job) => job.transitions, 'lost'),
      unit: 'transitions',
      notes: `the webhook lost, found by the wait's status checks: ${each((job) => job.transitions, 'lost')}`,
    },
    atMost(
      {
        metric: 'providers.fal.image_runs_per_job',
        value: worst((job) => job.imageRuns, 'delivered'),
        unit: 'runs',
        notes: `image-function invocations of the execution (RunEngine: submit, then result with recognition), largest over ${labels.join(', ')}: ${each((job) => job.imageRuns, 'delivered')}; the submit's own API function is one more. All Task invocations: ${each((job) => job.invocations, 'delivered')}`,
      },
      2,
    ),
    {
      metric: 'providers.fal.image_runs_per_job_webhook_lost',
      value: worst((job) => job.imageRuns, 'lost'),
      unit: 'runs',
      notes: `the webhook lost: ${each((job) => job.imageRuns, 'lost')}; all Task invocations: ${each((job) => job.invocations, 'lost')}`,
    },
    atMost(
      {
        metric: 'providers.fal.result_lag_ms',
        value: round(percentile(validLags, 0.95)),
        unit: 'ms',
        notes: `p95 of ${validLags.length} jobs (fal taking 5 s at time scale 0.1), from the double's webhook going out to the end of SettleCharge; median ${round(percentile(validLags, 0.5))}, max ${round(Math.max(...validLags))}`,
      },
      1000,
    ),
    atMost(
      {
        metric: 'providers.fal.aws_cost_share',
        value: round(worstShare('delivered'), 5),
        unit: 'ratio',
        notes: `AWS cost of one job ÷ its price ($${(priceMicros / 1e6).toFixed(2)}), docs/cost.md's model, largest over the waits: ${costNotes('delivered')}`,
      },
      0.002,
    ),
    {
      metric: 'providers.fal.aws_cost_share_webhook_lost',
      value: round(worstShare('lost'), 5),
      unit: 'ratio',
      notes: `the webhook lost: ${costNotes('lost')}`,
    },
  ];
};
