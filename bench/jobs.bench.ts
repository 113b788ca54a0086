/**
 * Asynchronous jobs on the local runtime with the engine excluded (issue): submit and poll latency
 * (p50/p99) and throughput at 50 concurrent clients, and the DynamoDB operations per submit and per poll
 * (target: a poll is one read once the key lookup is cached).
 *
 * The engine the services use is replaced by an instant fake that answers one tiny precomputed JPEG, so
 * what is measured is the service around it: the gateway, auth, validation, the input guard, the input
 * put (the local S3), the reservation transaction (the local DynamoDB store), the workflow start
 * (the local Step Functions endpoint) and, in the background, the workflow itself.
 *
 * 1. Load: 50 clients, each in a closed loop (next request when the previous answer is read), over
 *    HTTP with keep-alive: POST /v2/service/enhance (64x48 JPEG, async) for SUBMIT_SECONDS, then wait
 *    until every job's workflow has finished, then GET each job's poll_url for POLL_SECONDS. Twice:
 *    each client on an account of its own (the multi-tenant case, `jobs.submit.*`, `jobs.poll.*`), then
 *    all 50 on one account (`jobs.one_account.*`), where every reservation writes the same account item.
 * 2. Counts, one request at a time, in a steady state (key lookup cached): DynamoDB commands per submit
 *    (workflow start stubbed, so the workflow's own traffic does not mix in), per poll, and per job in
 *    the workflow (submit to end of execution, minus the submit's share).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { type LocalRuntime, startLocalRuntime } from '../bin/local-aws/runtime';
import { services } from '../bin/local-aws/services';
import { DynamoLedger } from '../functions/adapters/dynamo/ledger-repository';
import * as Accounts from '../functions/domain/accounts/accounts';
import { PINNED_PRICES } from '../functions/domain/catalog/catalog';
import type { EngineRequest, ImageEngine } from '../functions/domain/engine/engine';
import type { ImageDeps } from '../functions/domain/images/deps';
import { newId } from '../functions/domain/shared/ids';
import { atMost, type BenchResult, percentile, progress, round } from './harness';
import { costUsd, dynamoUnits, type Usage } from './support/cost-model';
import { countDynamoOps, difference, type OpCounter, type OpCounts, perUnit } from './support/dynamo-ops';
import { countLocalHttp, type HttpCounter } from './support/local-http';

export const name = 'jobs';

const CLIENTS = 50;
const SUBMIT_SECONDS = 8;
const POLL_SECONDS = 6;
const WARMUPS = 10;
const COUNTED_SUBMITS = 40;
const COUNTED_POLLS = 100;
const COUNTED_WORKFLOW_JOBS = 20;
const DRAIN_TIMEOUT_MS = 60_000;
const DEV_CREDIT_MICROS = 1_000_000_000_000;
const KEY_CACHE_SECONDS = 30; // API_KEY_CACHE_SECONDS default (functions/deployment/settings.ts)

interface JobHandle {
  job_id: string;
  status: string;
  poll_url: string;
}

interface Client {
  url: string;
  apiKey: string;
  body: string;
  accountId: string;
}

export const run = async (): Promise<BenchResult[]> => {
  const tinyJpeg = await sharp({
    create: { width: 64, height: 48, channels: 3, background: { r: 150, g: 110, b: 80 } },
  })
    .jpeg({ quality: 80 })
    .toBuffer();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-jobs-'));
  progress(name, 'starting the local runtime (timeScale 0.001), engine replaced by an instant fake');
  // The 50 clients share the development account: its request limit and its cap of running jobs (which
  // would hold 30 of them waiting, asking again every 10 ms at this time scale) are lifted, so that what
  // is measured is the service; the limiter's own cost is counted below (rate_limit_ops_per_*).
  const runtime = await startLocalRuntime({
    dataDir,
    logLevel: 'silent',
    devAccountCreditMicros: DEV_CREDIT_MICROS,
    timeScale: 0.001,
    env: { RATE_LIMIT_PER_MINUTE: '1000000', MAX_RUNNING_JOBS: '100000' },
  });
  try {
    const devAccount = runtime.devAccount;
    if (!devAccount) throw new Error('the local runtime made no development account');
    excludeEngine(services().images, tinyJpeg);
    const counter = countDynamoOps(services().table);
    const http = countLocalHttp({
      [runtime.endpoints.dynamodb]: 'dynamodb (local store)',
      [runtime.endpoints.s3]: 's3 (local)',
      [runtime.endpoints.stepFunctions]: 'step functions',
      [runtime.endpoints.sqs]: 'sqs',
    });
    const body = JSON.stringify({
      image: tinyJpeg.toString('base64'),
      async: true,
      response_mode: 'urls',
      output_format: 'jpg',
    });
    const client: Client = { url: runtime.url, apiKey: devAccount.apiKey, body, accountId: devAccount.accountId };
    const ownAccounts: Client[] = [];
    for (let index = 0; index < CLIENTS; index += 1) {
      const { account, key } = await Accounts.open(services(), {
        name: `bench client ${index + 1}`,
        openingCreditMicros: DEV_CREDIT_MICROS,
      });
      ownAccounts.push({ url: runtime.url, apiKey: key.apiKey, body, accountId: account.accountId });
    }
    try {
      return await measure(runtime, { ownAccounts, oneAccount: client }, counter, http);
    } finally {
      http.stop();
    }
  } finally {
    await runtime.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
};

/** Every engine call (the synchronous path's and RunEngine's engines are both replaced) answers at once. */
const excludeEngine = (images: ImageDeps, output: Buffer): void => {
  const fakeEngine: ImageEngine = {
    run: async (request: EngineRequest) => ({
      kind: 'images',
      images: Array.from({ length: request.numOutputImages }, () => output),
      knownSubjects: {},
      usage: { outputTokens: 0, megapixels: ((request.width * request.height) / 1e6) * request.numOutputImages },
    }),
  };
  Object.defineProperty(images, 'engine', { value: fakeEngine, configurable: true });
  Object.defineProperty(services().engineStep, 'engine', { value: fakeEngine, configurable: true });
  if (services().engineStep.engine !== fakeEngine) throw new Error('the workflow does not see the fake engine');
};

// ---- HTTP clients ----

const submit = async (client: Client): Promise<{ ms: number; status: number; handle?: JobHandle; error?: string }> => {
  const start = performance.now();
  const response = await fetch(`${client.url}/v2/service/enhance`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'X-API-Key': client.apiKey },
    body: client.body,
  });
  const text = await response.text();
  const ms = performance.now() - start;
  return response.status === 202
    ? { ms, status: 202, handle: JSON.parse(text) as JobHandle }
    : { ms, status: response.status, error: text.slice(0, 200) };
};

const poll = async (
  client: Client,
  handle: JobHandle,
): Promise<{ ms: number; status: number; jobStatus?: string; error?: string }> => {
  const start = performance.now();
  const response = await fetch(`${client.url}${handle.poll_url}`, { headers: { 'X-API-Key': client.apiKey } });
  const text = await response.text();
  const ms = performance.now() - start;
  return response.status === 200
    ? { ms, status: 200, jobStatus: (JSON.parse(text) as { status: string }).status }
    : { ms, status: response.status, error: text.slice(0, 200) };
};

interface LoadOutcome {
  samples: number[];
  wallMs: number;
  errors: Map<string, number>;
}

/** `clients` closed loops for `seconds`; each call returns its latency, or an error label. */
const closedLoop = async (
  clients: number,
  seconds: number,
  call: (client: number) => Promise<{ ms: number; error?: string }>,
): Promise<LoadOutcome> => {
  const samples: number[] = [];
  const errors = new Map<string, number>();
  const start = performance.now();
  const end = start + seconds * 1000;
  await Promise.all(
    Array.from({ length: clients }, async (_, index) => {
      while (performance.now() < end) {
        const outcome = await call(index);
        if (outcome.error) errors.set(outcome.error, (errors.get(outcome.error) ?? 0) + 1);
        else samples.push(outcome.ms);
      }
    }),
  );
  return { samples, wallMs: performance.now() - start, errors };
};

const errorNote = (errors: Map<string, number>): string =>
  errors.size === 0 ? '' : `; errors: ${[...errors].map(([error, count]) => `${count}× ${error}`).join(' | ')}`;

const loadResults = (
  prefix: string,
  outcome: LoadOutcome,
  what: string,
  unitName: string,
  p99LimitMs?: number,
): BenchResult[] => {
  const { samples, wallMs, errors } = outcome;
  if (samples.length === 0) throw new Error(`${prefix}: no request succeeded${errorNote(errors)}`);
  const failed = [...errors.values()].reduce((sum, count) => sum + count, 0);
  const spread = `${samples.length} ${unitName} by ${CLIENTS} clients in ${round(wallMs / 1000, 1)} s; min ${round(Math.min(...samples))}, max ${round(Math.max(...samples))} ms`;
  return [
    { metric: `${prefix}.p50_ms`, value: round(percentile(samples, 0.5)), unit: 'ms', notes: `${what}; ${spread}` },
    p99LimitMs === undefined
      ? { metric: `${prefix}.p99_ms`, value: round(percentile(samples, 0.99)), unit: 'ms' }
      : atMost({ metric: `${prefix}.p99_ms`, value: round(percentile(samples, 0.99)), unit: 'ms' }, p99LimitMs),
    {
      metric: `${prefix}.throughput_per_s`,
      value: round(samples.length / (wallMs / 1000)),
      unit: '1/s',
      notes: `completed ${unitName} / wall time${errorNote(errors)}`,
    },
    { metric: `${prefix}.errors`, value: failed, unit: 'count', target: '= 0', pass: failed === 0 },
  ];
};

// ---- the measurement ----

const measure = async (
  runtime: LocalRuntime,
  clients: { ownAccounts: Client[]; oneAccount: Client },
  counter: OpCounter,
  http: HttpCounter,
): Promise<BenchResult[]> => {
  const client = clients.oneAccount;
  progress(name, `warming up: ${WARMUPS} submits and polls`);
  for (let index = 0; index < WARMUPS; index += 1) {
    const submitted = await submit(clients.ownAccounts[index % CLIENTS]);
    if (!submitted.handle) throw new Error(`warm-up submit answered ${submitted.status}: ${submitted.error}`);
    await runtime.stepFunctions.waitForExecution(submitted.handle.job_id);
    const polled = await poll(clients.ownAccounts[index % CLIENTS], submitted.handle);
    if (polled.jobStatus !== 'succeeded')
      throw new Error(`warm-up job ${submitted.handle.job_id} ended ${polled.jobStatus ?? polled.error}`);
  }

  const own = await loadPhase(runtime, (index) => clients.ownAccounts[index], counter, 'each on its own account');
  const ledgers = await auditLedgers(clients.ownAccounts, [
    ...clients.ownAccounts.slice(0, WARMUPS),
    ...own.handles.map((handle) => handle.client),
  ]);
  const shared = await loadPhase(runtime, () => client, counter, 'all on one account');

  // 3. steady-state counts, one request at a time.
  progress(
    name,
    `counting DynamoDB operations: ${COUNTED_SUBMITS} submits, ${COUNTED_POLLS} polls, ${COUNTED_WORKFLOW_JOBS} jobs end to end`,
  );
  const counted = await countSteadyState(runtime, client, counter, http, shared.handles);

  const completedPerSecond = own.handles.length / ((own.submitLoad.wallMs + own.drainMs) / 1000);
  const oneAccountNote =
    'the same load with all 50 clients on one account: every reservation writes its account item (bench/README.md)';
  return [
    ...loadResults(
      'jobs.submit',
      own.submitLoad,
      'POST /v2/service/enhance, 64x48 JPEG, async: true → 202, 50 clients each on its own account; workflows running meanwhile',
      'submits',
      250,
    ),
    ...stageResults(own.stages, percentile(own.submitLoad.samples, 0.5)),
    ...commandLatencyResults(own.loadLatencies),
    {
      metric: 'jobs.workflow.completed_per_s',
      value: round(completedPerSecond),
      unit: '1/s',
      notes: `${own.handles.length} jobs submitted and run to SUCCEEDED in ${round((own.submitLoad.wallMs + own.drainMs) / 1000, 1)} s (the last workflows ended ${round(own.drainMs / 1000, 1)} s after the submits stopped)`,
    },
    atMost(
      {
        metric: 'jobs.load.dynamodb_ops_per_job',
        value: round(own.loadOps.commands / own.handles.length, 2),
        unit: 'ops',
        notes: `submit + workflow under load, all commands / jobs: ${perUnit(own.loadOps.byCommand, own.handles.length)}; by item: ${perUnit(own.loadOps.byItem, own.handles.length)}; HTTP attempts ${own.loadOps.attempts} for ${own.loadOps.commands} commands`,
      },
      7.5,
    ),
    ledgers,
    ...loadResults(
      'jobs.poll',
      own.pollLoad,
      'GET poll_url of a finished job → 200 succeeded with a download link, 50 clients each on its own account',
      'polls',
      50,
    ),
    ...loadResults('jobs.one_account.submit', shared.submitLoad, oneAccountNote, 'submits').filter(
      (result) => !result.metric.endsWith('throughput_per_s'),
    ),
    ...loadResults('jobs.one_account.poll', shared.pollLoad, oneAccountNote, 'polls').filter(
      (result) => !result.metric.endsWith('throughput_per_s'),
    ),
    ...counted,
  ];
};

/** One load: submits by 50 closed-loop clients (the workflows running meanwhile), their workflows drained, then polls of the finished jobs. */
const loadPhase = async (
  runtime: LocalRuntime,
  clientFor: (index: number) => Client,
  counter: OpCounter,
  who: string,
) => {
  // 1. submits under load; the workflows run in the background meanwhile (the CPU is shared, as it is here).
  progress(name, `submit: ${CLIENTS} clients, ${who}, for ${SUBMIT_SECONDS} s`);
  counter.reset();
  const handles: Array<JobHandle & { client: Client }> = [];
  const stages = timeSubmitStages(services().images);
  let submitLoad: LoadOutcome;
  try {
    submitLoad = await closedLoop(CLIENTS, SUBMIT_SECONDS, async (index) => {
      const outcome = await submit(clientFor(index));
      if (outcome.handle) handles.push({ ...outcome.handle, client: clientFor(index) });
      return outcome.error ? { ms: outcome.ms, error: `${outcome.status} ${outcome.error}` } : outcome;
    });
  } finally {
    stages.restore();
  }
  const loadLatencies = counter.snapshot().latencies;
  const drainStart = performance.now();
  progress(name, `${handles.length} jobs submitted; waiting for their workflows`);
  const executions = await withTimeout(
    Promise.all(handles.map((handle) => runtime.stepFunctions.waitForExecution(handle.job_id))),
    DRAIN_TIMEOUT_MS,
    'the submitted jobs did not finish',
  );
  const drainMs = performance.now() - drainStart;
  const loadOps = counter.snapshot();
  const unsucceeded = executions.filter((execution) => execution.status !== 'SUCCEEDED');
  if (unsucceeded.length > 0)
    throw new Error(
      `${unsucceeded.length} job workflows did not succeed, e.g. ${unsucceeded[0].error}: ${unsucceeded[0].cause}`,
    );

  // 2. polls of finished jobs under load, each by the client (account) that submitted it.
  progress(name, `poll: ${CLIENTS} clients, ${who}, for ${POLL_SECONDS} s over ${handles.length} finished jobs`);
  let next = 0;
  const pollLoad = await closedLoop(CLIENTS, POLL_SECONDS, async () => {
    const handle = handles[next++ % handles.length];
    const outcome = await poll(handle.client, handle);
    if (outcome.error) return { ms: outcome.ms, error: `${outcome.status} ${outcome.error}` };
    return outcome.jobStatus === 'succeeded' ? outcome : { ms: outcome.ms, error: `job ${outcome.jobStatus}` };
  });
  return { submitLoad, pollLoad, handles, drainMs, loadOps, loadLatencies, stages: stages.samples };
};

/**
 * After the multi-tenant load has drained: every account's books. Exact means the entries add up to the
 * balance, every job the bench was answered 202 for has exactly one reservation and one close (a
 * settlement: every job succeeded), and there is no other charge: nothing lost, nothing charged twice.
 */
const auditLedgers = async (accounts: Client[], acceptedBy: Client[]): Promise<BenchResult> => {
  const audit = new DynamoLedger(services().table, newId);
  const problems: string[] = [];
  for (const account of accounts) {
    const accepted = acceptedBy.filter((client) => client === account).length;
    const entries = await audit.allEntries(account.accountId);
    const balance = await audit.balance(account.accountId);
    const total = entries.reduce((sum, entry) => sum + entry.amountMicros, 0);
    const byOwner = new Map<string, string[]>();
    for (const entry of entries)
      if (entry.owner) byOwner.set(entry.owner.id, [...(byOwner.get(entry.owner.id) ?? []), entry.kind]);
    const wrongOwners = [...byOwner.values()].filter((kinds) => kinds.sort().join(',') !== 'reserve,settle').length;
    if (total !== balance || byOwner.size !== accepted || wrongOwners > 0) {
      problems.push(
        `${account.accountId}: entries ${total} vs balance ${balance}, ${byOwner.size} charged jobs for ${accepted} accepted, ${wrongOwners} not reserved and settled once`,
      );
    }
  }
  return {
    metric: 'jobs.ledger.accounts_exact',
    value: accounts.length - problems.length,
    unit: 'accounts',
    target: `= ${accounts.length}`,
    pass: problems.length === 0,
    notes:
      problems.length === 0
        ? `every account after the multi-tenant load: entries sum to the balance, one reservation and one settlement per accepted job (${acceptedBy.length}), no other charge`
        : problems.slice(0, 3).join('; '),
  };
};

// ---- where a submit's time goes under load ----

const SUBMIT_STAGES = [
  { key: 'decode', label: 'input guard (decodeImageInput)' },
  { key: 'input_put', label: 'input put to the local S3' },
  { key: 'reserve', label: 'reservation transaction (TransactWriteItems on the local store)' },
  { key: 'workflow_start', label: 'StartExecution on the local Step Functions' },
] as const;
type SubmitStage = (typeof SUBMIT_STAGES)[number]['key'];

/** Times the ports a submit calls, in place on the services' image deps, until `restore()`. */
const timeSubmitStages = (images: ImageDeps) => {
  const samples: Record<SubmitStage, number[]> = { decode: [], input_put: [], reserve: [], workflow_start: [] };
  const timedCall =
    <A extends unknown[], R>(stage: SubmitStage, call: (...args: A) => Promise<R>) =>
    async (...args: A): Promise<R> => {
      const start = performance.now();
      try {
        return await call(...args);
      } finally {
        samples[stage].push(performance.now() - start);
      }
    };
  const original = {
    decodeInput: images.decodeInput,
    inputs: images.inputs,
    ledger: images.ledger,
    workflows: images.workflows,
  };
  // New objects, never the shared ones: the workflow's deps hold `inputs` and the ledger too.
  images.decodeInput = timedCall('decode', original.decodeInput);
  images.inputs = { ...original.inputs, save: timedCall('input_put', original.inputs.save) };
  images.ledger = new Proxy(original.ledger, {
    get: (target, property) => {
      const value: unknown = Reflect.get(target, property, target);
      if (typeof value !== 'function') return value;
      const bound = (...args: unknown[]): unknown => value.apply(target, args);
      return property === 'reserve' ? timedCall('reserve', async (...args: unknown[]) => bound(...args)) : bound;
    },
  });
  images.workflows = { startImageJob: timedCall('workflow_start', original.workflows.startImageJob) };
  return {
    samples,
    restore: () => Object.assign(images, original),
  };
};

const stageResults = (samples: Record<SubmitStage, number[]>, submitP50: number): BenchResult[] => {
  const results: BenchResult[] = SUBMIT_STAGES.map(({ key, label }) => ({
    metric: `jobs.submit.stage.${key}.p50_ms`,
    value: round(percentile(samples[key], 0.5)),
    unit: 'ms',
    notes: `${label}, under load; p99 ${round(percentile(samples[key], 0.99))} ms`,
  }));
  const accounted = SUBMIT_STAGES.reduce((sum, { key }) => sum + percentile(samples[key], 0.5), 0);
  results.push({
    metric: 'jobs.submit.stage.other.p50_ms',
    value: round(Math.max(0, submitP50 - accounted)),
    unit: 'ms',
    notes: 'submit p50 minus the stages’ p50s: gateway, auth, JSON body and validation, waiting for the event loop',
  });
  return results;
};

/** Client-side latency of each DynamoDB command during the submit load (waiting for the event loop included). */
const commandLatencyResults = (latencies: Record<string, number[]>): BenchResult[] =>
  Object.entries(latencies)
    .filter(([, samples]) => samples.length > 0)
    .sort((a, b) => a[0].localeCompare(b[0]))
    .map(([command, samples]) => ({
      metric: `jobs.load.dynamodb.${command}.p50_ms`,
      value: round(percentile(samples, 0.5)),
      unit: 'ms',
      notes: `${samples.length} calls during the submit load (submits and workflows), client side; p99 ${round(percentile(samples, 0.99))} ms`,
    }));

const withTimeout = <T>(promise: Promise<T>, ms: number, message: string): Promise<T> => {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    promise.finally(() => clearTimeout(timer)),
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`${message} within ${ms / 1000} s`)), ms);
    }),
  ]);
};

/** Key lookups in a window: the cache is refreshed by a read once every KEY_CACHE_SECONDS. */
const keyReads = (counts: OpCounts): number => counts.byItem['GetItem APIKEY'] ?? 0;
/** The per-account request counter (functions/domain/accounts/rate-limit.ts): one UpdateItem per authenticated request. */
const limiterOps = (counts: OpCounts): number => counts.byItem['UpdateItem WINDOW'] ?? 0;
/** A key's last-used time (functions/adapters/dynamo/key-use.ts): at most one UpdateItem a minute per key and function, like the key cache's refresh. */
const keyUseWrites = (counts: OpCounts): number => counts.byItem['UpdateItem KEYUSE'] ?? 0;

const countSteadyState = async (
  runtime: LocalRuntime,
  client: Client,
  counter: OpCounter,
  http: HttpCounter,
  finished: JobHandle[],
): Promise<BenchResult[]> => {
  const images = services().images;
  // Submits: the workflow start stubbed (it is a Step Functions call, no DynamoDB), so no workflow writes mix in.
  const realWorkflows = images.workflows;
  images.workflows = { startImageJob: async () => undefined };
  let submitCounts: OpCounts;
  let submitSeconds: number;
  let submitHttp: Record<string, number>;
  let submitCpu: NodeJS.CpuUsage;
  try {
    await submit(client); // the key lookup cached, if it had expired
    counter.reset();
    http.reset();
    submitCpu = process.cpuUsage();
    const start = performance.now();
    for (let index = 0; index < COUNTED_SUBMITS; index += 1) {
      const outcome = await submit(client);
      if (!outcome.handle) throw new Error(`counted submit answered ${outcome.status}: ${outcome.error}`);
    }
    submitSeconds = (performance.now() - start) / 1000;
    submitCpu = process.cpuUsage(submitCpu);
    submitCounts = counter.snapshot();
    submitHttp = http.snapshot();
  } finally {
    images.workflows = realWorkflows;
  }

  await poll(client, finished[0]);
  counter.reset();
  http.reset();
  let cpu = process.cpuUsage();
  let start = performance.now();
  for (let index = 0; index < COUNTED_POLLS; index += 1) {
    const outcome = await poll(client, finished[index % finished.length]);
    if (outcome.jobStatus !== 'succeeded')
      throw new Error(`counted poll: ${outcome.status} ${outcome.jobStatus ?? outcome.error}`);
  }
  const pollSeconds = (performance.now() - start) / 1000;
  const pollCpu = process.cpuUsage(cpu);
  const pollCounts = counter.snapshot();
  const pollHttp = http.snapshot();

  // Whole jobs, one at a time: submit, workflow to the end. The workflow's share is the rest.
  counter.reset();
  http.reset();
  cpu = process.cpuUsage();
  start = performance.now();
  for (let index = 0; index < COUNTED_WORKFLOW_JOBS; index += 1) {
    const outcome = await submit(client);
    if (!outcome.handle) throw new Error(`counted job submit answered ${outcome.status}: ${outcome.error}`);
    const execution = await runtime.stepFunctions.waitForExecution(outcome.handle.job_id);
    if (execution.status !== 'SUCCEEDED')
      throw new Error(`counted job ${outcome.handle.job_id}: ${execution.status} ${execution.error}`);
  }
  const jobSeconds = (performance.now() - start) / 1000;
  const jobCpu = process.cpuUsage(cpu);
  const jobCounts = counter.snapshot();
  const jobHttp = http.snapshot();
  const submitShare: OpCounts = {
    byCommand: scale(submitCounts.byCommand, COUNTED_WORKFLOW_JOBS / COUNTED_SUBMITS),
    byItem: scale(submitCounts.byItem, COUNTED_WORKFLOW_JOBS / COUNTED_SUBMITS),
    commands: (submitCounts.commands * COUNTED_WORKFLOW_JOBS) / COUNTED_SUBMITS,
    attempts: (submitCounts.attempts * COUNTED_WORKFLOW_JOBS) / COUNTED_SUBMITS,
    latencies: {},
  };
  const workflowCounts = difference(withoutKeyReads(jobCounts), withoutKeyReads(submitShare));

  const allowedKeyReads = (seconds: number) => Math.ceil(seconds / KEY_CACHE_SECONDS);
  const pollJobReads = pollCounts.byItem['GetItem JOB'] ?? 0;
  const pollOthers =
    pollCounts.commands - pollJobReads - keyReads(pollCounts) - limiterOps(pollCounts) - keyUseWrites(pollCounts);
  const pollPass =
    pollJobReads === COUNTED_POLLS &&
    pollOthers === 0 &&
    keyReads(pollCounts) <= allowedKeyReads(pollSeconds) &&
    keyUseWrites(pollCounts) <= Math.ceil(pollSeconds / 60);
  const steadyOps = (counts: OpCounts, per: number) =>
    (counts.commands - keyReads(counts) - limiterOps(counts) - keyUseWrites(counts)) / per;
  const keyNote = (counts: OpCounts, seconds: number) =>
    `key lookups (GetItem APIKEY, one per ${KEY_CACHE_SECONDS} s cache period) in the ${round(seconds, 1)} s window: ${keyReads(counts)}; last-used writes (UpdateItem KEYUSE, at most one a minute): ${keyUseWrites(counts)}`;

  return [
    {
      metric: 'jobs.submit.dynamodb_ops_per_submit',
      value: round(steadyOps(submitCounts, COUNTED_SUBMITS), 2),
      unit: 'ops',
      notes: `${COUNTED_SUBMITS} sequential submits, key cached; by command: ${perUnit(withoutKeyReads(submitCounts).byCommand, COUNTED_SUBMITS)}; by item: ${perUnit(withoutKeyReads(submitCounts).byItem, COUNTED_SUBMITS)}; ${keyNote(submitCounts, submitSeconds)}`,
    },
    {
      metric: 'jobs.poll.dynamodb_ops_per_poll',
      value: round(steadyOps(pollCounts, COUNTED_POLLS), 2),
      unit: 'ops',
      target: '= 1 GetItem',
      pass: pollPass,
      notes: `${COUNTED_POLLS} sequential polls of finished jobs, key cached; by item: ${perUnit(withoutKeyReads(pollCounts).byItem, COUNTED_POLLS)}; ${keyNote(pollCounts, pollSeconds)}`,
    },
    ...(
      [
        ['submit', submitCounts, COUNTED_SUBMITS],
        ['poll', pollCounts, COUNTED_POLLS],
      ] as const
    ).map(([what, counts, per]) =>
      atMost(
        {
          metric: `jobs.${what}.rate_limit_ops_per_${what}`,
          value: round(limiterOps(counts) / per, 2),
          unit: 'ops',
          notes:
            "the per-account request counter (one UpdateItem of the account's minute), beside the request's own operations",
        },
        1,
      ),
    ),
    {
      metric: 'jobs.workflow.dynamodb_ops_per_job',
      value: round(workflowCounts.commands / COUNTED_WORKFLOW_JOBS, 2),
      unit: 'ops',
      notes: `${COUNTED_WORKFLOW_JOBS} jobs run one at a time, minus the submit's share; by item: ${perUnit(workflowCounts.byItem, COUNTED_WORKFLOW_JOBS)}; ${round((jobSeconds * 1000) / COUNTED_WORKFLOW_JOBS)} ms per job submit-to-end`,
    },
    costOfAsyncJob(submitCounts, workflowCounts, pollCounts, jobHttp),
    ...cpuResults([
      ['submit', submitSeconds, submitCpu, COUNTED_SUBMITS, 'sequential submits, workflow start stubbed'],
      ['poll', pollSeconds, pollCpu, COUNTED_POLLS, 'sequential polls of finished jobs'],
      ['job', jobSeconds, jobCpu, COUNTED_WORKFLOW_JOBS, 'whole jobs one at a time, submit to the end of the workflow'],
    ]),
    {
      metric: 'jobs.submit.local_http_requests_per_submit',
      value: round(sum(submitHttp) / COUNTED_SUBMITS, 1),
      unit: 'requests',
      notes: `what one submit costs the in-process emulators (workflow start stubbed): ${perUnit(submitHttp, COUNTED_SUBMITS, 1)}`,
    },
    {
      metric: 'jobs.poll.local_http_requests_per_poll',
      value: round(sum(pollHttp) / COUNTED_POLLS, 1),
      unit: 'requests',
      notes: perUnit(pollHttp, COUNTED_POLLS, 1),
    },
    {
      metric: 'jobs.local_http_requests_per_job',
      value: round(sum(jobHttp) / COUNTED_WORKFLOW_JOBS, 1),
      unit: 'requests',
      notes: `submit and workflow together: ${perUnit(jobHttp, COUNTED_WORKFLOW_JOBS, 1)}`,
    },
    {
      metric: 'jobs.dynamodb_retries',
      value:
        submitCounts.attempts -
        submitCounts.commands +
        (pollCounts.attempts - pollCounts.commands) +
        (jobCounts.attempts - jobCounts.commands),
      unit: 'count',
      notes: 'HTTP attempts beyond one per command in the counted windows (SDK retries)',
    },
  ];
};

/**
 * One client, one call at a time: its latency, and the process's CPU per call (service, emulators and the
 * bench's client together, all on this process's one event loop). At 50 closed-loop clients the loop is
 * the bottleneck, so a call waits about 50 × that CPU (Little's law): the bound on the loads above.
 */
const cpuResults = (windows: Array<[string, number, NodeJS.CpuUsage, number, string]>): BenchResult[] =>
  windows.flatMap(([what, seconds, cpu, count, description]) => {
    const cpuMs = (cpu.user + cpu.system) / 1000 / count;
    return [
      {
        metric: `jobs.${what}.one_client_ms`,
        value: round((seconds * 1000) / count, 1),
        unit: 'ms',
        notes: `${count} ${description}, mean latency`,
      },
      {
        metric: `jobs.${what}.cpu_ms_per_${what}`,
        value: round(cpuMs, 2),
        unit: 'ms',
        notes: `process CPU (user + system, every thread) / ${count}; ${CLIENTS} clients on one loop would wait about ${round(CLIENTS * cpuMs)} ms a ${what}`,
      },
    ];
  });

const sum = (record: Record<string, number>): number =>
  Object.values(record).reduce((total, count) => total + count, 0);

const scale = (record: Record<string, number>, factor: number): Record<string, number> =>
  Object.fromEntries(Object.entries(record).map(([key, value]) => [key, value * factor]));

/** Polls a client makes of a job before it has finished, in this model (docs/cost.md). */
const POLLS_PER_JOB = 2;
/**
 * The states an async job's execution enters on its happy path: MarkRunning, HasPlace, RunEngine,
 * DidTheEngineSucceed, SettleCharge, QueueCallback (statemachines/image-job.asl.json).
 */
const HAPPY_PATH_TRANSITIONS = 6;
/** Lambda GB-seconds of one job, from the template's memory and durations measured locally (docs/cost.md). */
const JOB_GB_SECONDS = 2 * 0.3 + 2 * 0.5 + 3 * (0.5 * 0.05) + POLLS_PER_JOB * (0.5 * 0.05);

/** The AWS cost of one async enhance job of one image, from its counted operations, as a share of its price. */
const costOfAsyncJob = (
  submit: OpCounts,
  workflow: OpCounts,
  poll: OpCounts,
  http: Record<string, number>,
): BenchResult => {
  const units = [
    dynamoUnits(submit, COUNTED_SUBMITS),
    dynamoUnits(workflow, COUNTED_WORKFLOW_JOBS),
    dynamoUnits(poll, COUNTED_POLLS / POLLS_PER_JOB),
  ];
  const usage: Usage = {
    apiRequests: 1 + POLLS_PER_JOB,
    lambdaInvocations: 5 + POLLS_PER_JOB,
    lambdaGbSeconds: JOB_GB_SECONDS,
    stateTransitions: HAPPY_PATH_TRANSITIONS,
    writeUnits: units.reduce((total, unit) => total + unit.writeUnits, 0),
    readUnits: units.reduce((total, unit) => total + unit.readUnits, 0),
    s3Requests: (http['s3 (local)'] ?? 0) / COUNTED_WORKFLOW_JOBS,
    traces: 1 + POLLS_PER_JOB,
    logBytes: 10 * 600,
  };
  const usd = costUsd(usage);
  const share = (100 * usd) / (PINNED_PRICES.perImageMicros / 1e6);
  return {
    ...atMost(
      {
        metric: 'jobs.cost.async_job_share_of_price_pct',
        value: round(share, 3),
        unit: '%',
        notes: `$${usd.toFixed(7)} per job: ${round(usage.writeUnits, 1)} WRU, ${round(usage.readUnits, 1)} RRU, ${round(usage.s3Requests, 1)} S3 requests (counted); ${usage.stateTransitions} transitions, ${round(usage.lambdaGbSeconds, 2)} GB-s, ${usage.apiRequests} API requests (docs/cost.md)`,
      },
      0.2,
    ),
  };
};

/**
 * The counts without what every authenticated request pays apart from its own work: the periodic
 * key-cache refresh and last-used write (which belong to no request in particular) and the rate limiter's
 * counter (reported on its own, `*.rate_limit_ops_per_*`).
 */
const withoutKeyReads = (counts: OpCounts): OpCounts => {
  const keys = keyReads(counts);
  const limiter = limiterOps(counts) + keyUseWrites(counts);
  const byItem = { ...counts.byItem };
  delete byItem['GetItem APIKEY'];
  delete byItem['UpdateItem WINDOW'];
  delete byItem['UpdateItem KEYUSE'];
  const byCommand = { ...counts.byCommand };
  for (const [command, less] of [
    ['GetItem', keys],
    ['UpdateItem', limiter],
  ] as const) {
    if (less === 0) continue;
    byCommand[command] = (byCommand[command] ?? 0) - less;
    if (byCommand[command] === 0) delete byCommand[command];
  }
  return {
    byCommand,
    byItem,
    commands: counts.commands - keys - limiter,
    attempts: counts.attempts,
    latencies: counts.latencies,
  };
};
