/**
 * `npm start`: the service on this machine, no AWS account needed.
 * Configuration (flags win over environment): --port / PORT (default 3000), --data-dir / DATA_DIR
 * (default .data), --host / HOST (default 127.0.0.1), --log-level / LOG_LEVEL (default info),
 * --time-scale / TIME_SCALE (multiplies state machine waits, retry intervals and training durations;
 * default 0.1, so a Quick Train takes about 18 s here instead of 3 minutes).
 * --assets (`npm run start:assets`): serve the synthesised artefacts instead of the sources; the stack is
 * synthesised for this machine's architecture first, and again only when a source changes.
 * The development settings in this process's environment (EXTRA_TRUSTED_CA_FILE, CALLBACK_RETRY_SCALE…:
 * LOCAL_ENV_SETTINGS in functions/deployment/env-names.ts, listed in the README) reach every function, in
 * both modes alike.
 */
// The local tools run on Node 20 (the deployed functions on Node 22): the SDK's notice is noise here.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { listPriceOf } from '../functions/adapters/engine/providers/list-prices';
import { BACKEND_ENV, PROVIDER_ENV } from '../functions/deployment/env-names';
import { ROUTE_TARGETS } from '../functions/deployment/providers';
import { allowRoutesBelowCost } from '../functions/deployment/settings';
import { BASE_MODELS } from '../functions/domain/catalog/catalog';
import { engineNameOf, parseModelRoutes } from '../functions/domain/catalog/model-routes';
import { checkRouteCosts } from '../functions/domain/catalog/route-margins';
import { ROOT_DIR, startLocalRuntime } from './local-aws/runtime';

const DEV_ACCOUNT_CREDIT_MICROS = 100_000_000;
const DEFAULT_TIME_SCALE = 0.1;

/** What the start did about work a previous run left open (bin/local-aws/reconcile.ts). */
const reconciledLines = ({
  resumedJobs,
  failedJobs,
  failedProfiles,
}: {
  resumedJobs: string[];
  failedJobs: string[];
  failedProfiles: string[];
}) =>
  resumedJobs.length + failedJobs.length + failedProfiles.length === 0
    ? []
    : [
        `Left open by the previous run: ${resumedJobs.length} async job(s) resumed, ${failedJobs.length} synchronous job(s) and ` +
          `${failedProfiles.length} training(s) failed with their reservations released.`,
      ];

/**
 * Which engine serves each base model (MODEL_ROUTES, else ENGINE): printed with the ready line. Parsing
 * here also stops a start whose route table names an unknown model or provider, before anything runs.
 */
const engineLines = (environment: NodeJS.ProcessEnv): string[] => {
  const routes = parseModelRoutes(environment[PROVIDER_ENV.modelRoutes], ROUTE_TARGETS);
  checkRouteCosts(routes, listPriceOf, allowRoutesBelowCost(environment));
  const fallback =
    environment[BACKEND_ENV.engine] === 'http'
      ? `http engine (${environment[BACKEND_ENV.engineUrl] ?? 'no ENGINE_URL'})`
      : 'sandbox';
  return ['Models:', ...BASE_MODELS.map(({ id }) => `  ${id.padEnd(20)} ${engineNameOf(routes, id, fallback)}`)];
};

const main = async () => {
  const startedAt = performance.now();
  const models = engineLines(process.env);
  const { values } = parseArgs({
    options: {
      port: { type: 'string' },
      'data-dir': { type: 'string' },
      host: { type: 'string' },
      'log-level': { type: 'string' },
      'time-scale': { type: 'string' },
      assets: { type: 'boolean' },
    },
  });
  const port = Number(values.port ?? process.env.PORT ?? 3000);
  const timeScale = Number(values['time-scale'] ?? process.env.TIME_SCALE ?? DEFAULT_TIME_SCALE);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new Error(`--port must be a port number, not ${values.port ?? process.env.PORT}`);
  if (!(timeScale > 0)) throw new Error('--time-scale must be a positive number');
  const logLevel = values['log-level'] ?? process.env.LOG_LEVEL ?? 'info';
  if (!['debug', 'info', 'warn', 'error', 'silent'].includes(logLevel))
    throw new Error(`--log-level must be debug, info, warn, error or silent`);
  const dataDir = path.resolve(ROOT_DIR, values['data-dir'] ?? process.env.DATA_DIR ?? '.data');

  const runtime = await startLocalRuntime({
    dataDir,
    port,
    host: values.host ?? process.env.HOST ?? '127.0.0.1',
    logLevel: logLevel as 'info',
    timeScale,
    devAccountCreditMicros: DEV_ACCOUNT_CREDIT_MICROS,
    assets: values.assets ?? false,
  });
  // Lets `npm run admin` find this runtime's DynamoDB and S3 while it runs (the data directory is locked).
  const runtimeFile = path.join(dataDir, 'runtime.json');
  fs.writeFileSync(
    runtimeFile,
    `${JSON.stringify(
      {
        pid: process.pid,
        url: runtime.url,
        dynamodbEndpoint: runtime.endpoints.dynamodb,
        s3Endpoint: runtime.endpoints.s3,
      },
      null,
      2,
    )}\n`,
  );
  const devAccount = runtime.devAccount;
  if (!devAccount) throw new Error('The local runtime made no development account.');
  const key = devAccount.apiKey;
  process.stdout.write(
    [
      '',
      `Service ready on ${runtime.url}${values.assets ? ' (from the synthesised assets)' : ''} in ${Math.round(performance.now() - startedAt)} ms (data in ${dataDir})`,
      `Development account ${devAccount.accountId}`,
      `API key: ${key}`,
      ...reconciledLines(runtime.reconciled),
      ...(runtime.backfill
        ? [
            `Some READY profiles lack a face template of ${runtime.backfill.modelId}: the backfill started ` +
              '(npm run admin -- reembed-profiles --status).',
          ]
        : []),
      ...models,
      '',
      `  curl -s -H 'X-API-Key: ${key}' ${runtime.url}/v2/service/webhook-secret`,
      '',
      'Ctrl-C stops every back end.',
      '',
    ].join('\n'),
  );

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    process.stdout.write(`\n${signal}: stopping…\n`);
    fs.rmSync(runtimeFile, { force: true });
    runtime.close().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error(error);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
};

main().catch((error: unknown) => {
  console.error(`npm start failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
