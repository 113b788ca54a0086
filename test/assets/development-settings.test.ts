/**
 * Read first: a development setting put in the environment of `npm start` or `npm run start:assets`
 * reaches every function, in both runtimes alike. The service is started the way a user starts it: a
 * child process with the variables in its environment. startTestRuntime is no proof of that: it hands
 * its settings to the runtime as options (test/support/runtime.ts), a path no user takes, which is why
 * the e2e and callbacks suites delivered to the test receiver while a user's start:assets did not.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ensureAssets } from '../../bin/assets/build';
import { readTemplate } from '../../bin/assets/template';
import { DEVELOPMENT_ENV, LOCAL_ENV_SETTINGS } from '../../functions/deployment/env-names';
import { PROVIDER_VARIABLES } from '../../functions/deployment/providers';
import { ConfigSchema } from '../../functions/deployment/settings';
import { octokitVerify } from '../support/octokit-verify';
import { RECEIVER_CA_FILE, startReceiver } from '../support/receiver';

const ROOT_DIR = path.resolve(__dirname, '../..');
// A cold synthesis of the stack (start:assets makes it when a source changed) takes minutes on 2 cores.
const START_TIMEOUT_MS = 600_000;
const TEST_TIMEOUT_MS = 60_000;

/** What a developer exports before starting the service: trust the receiver's CA, retry at once, one send a minute. */
const DEVELOPER_ENVIRONMENT = {
  EXTRA_TRUSTED_CA_FILE: RECEIVER_CA_FILE,
  CALLBACK_RETRY_SCALE: '0',
  OUTBOUND_SENDS_PER_MINUTE: '1',
};

interface Service {
  child: ChildProcess;
  url: string;
  apiKey: string;
  dataDir: string;
}

/** `bin/local.ts` as `npm start` and `npm run start:assets` run it, with `environment` added to this process's. */
const startService = async (flags: string[], environment: Record<string, string>): Promise<Service> => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'service-settings-'));
  // tsx as a loader in this one process (its CLI would run the service in a child that a signal to it misses).
  const args = ['--import', 'tsx', path.join(ROOT_DIR, 'bin/local.ts'), '--port', '0', '--data-dir', dataDir];
  const child = spawn(process.execPath, [...args, '--log-level', 'silent', '--time-scale', '0.01', ...flags], {
    cwd: ROOT_DIR,
    env: { ...process.env, ...environment },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let output = '';
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const ready = /Service ready on (http:\/\/\S+)/.exec(output);
      if (ready && /API key: (\S+)/.test(output)) resolve(ready[1]!);
    });
    child.once('exit', (code) => reject(new Error(`the service exited (${code}) before it was ready: ${output}`)));
  });
  return { child, url, apiKey: /API key: (\S+)/.exec(output)![1]!, dataDir };
};

const stopService = async ({ child, dataDir }: Service) => {
  if (child.exitCode === null && child.signalCode === null) {
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.kill('SIGTERM');
    await exited;
  }
  fs.rmSync(dataDir, { recursive: true, force: true });
};

/** Asks `read` again until `done` holds, or fails with the last value after the deadline. */
const pollUntil = async <T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 30_000): Promise<T> => {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`still not done after ${timeoutMs} ms: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
};

interface DeliveryLog {
  attempts: Array<{ attempt: number; response_status: number | null; error: string | null; last: boolean }>;
}

describe.each([
  ['npm run start:assets', ['--assets']],
  ['npm start', []],
])('%s with development settings in its environment', (_command, flags) => {
  let service: Service;
  const call = (method: string, route: string, body?: unknown) =>
    fetch(`${service.url}${route}`, {
      method,
      headers: { 'X-API-Key': service.apiKey, ...(body !== undefined && { 'Content-Type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });

  beforeAll(async () => {
    service = await startService(flags, DEVELOPER_ENVIRONMENT);
  }, START_TIMEOUT_MS);
  afterAll(() => (service ? stopService(service) : undefined));
  jest.setTimeout(TEST_TIMEOUT_MS);

  it("delivers a job's callback, signed, to an https receiver with a self-signed certificate, retrying at once", async () => {
    const receiver = await startReceiver([500, 200]);
    try {
      const submitted = await call('POST', '/v2/service/generate', {
        prompt: 'a lighthouse at dusk',
        async: true,
        response_mode: 'urls',
        callback_url: receiver.url,
      });
      expect(submitted.status).toBe(202);
      const { job_id: jobId } = (await submitted.json()) as { job_id: string };

      // Each attempt is recorded with what happened (a certificate the deliverer does not trust is `network`).
      const log = await pollUntil(
        async () => (await (await call('GET', `/v2/service/jobs/${jobId}/deliveries`)).json()) as DeliveryLog,
        ({ attempts }) =>
          attempts.some((attempt) => attempt.last) || attempts.some((attempt) => attempt.error !== null),
      );
      expect(log.attempts).toMatchObject([
        { attempt: 1, response_status: 500, error: null, last: false },
        { attempt: 2, response_status: 200, error: null, last: true },
      ]);

      const callback = receiver.received[1]!;
      const { webhook_signing_secret: secret } = (await (await call('GET', '/v2/service/webhook-secret')).json()) as {
        webhook_signing_secret: string;
      };
      const signature = String(callback.headers['x-service-signature']);
      expect(JSON.parse(callback.body)).toMatchObject({ job_id: jobId, status: 'succeeded' });
      expect(
        octokitVerify([
          { secret, payload: callback.body, signature },
          { secret: `${secret}x`, payload: callback.body, signature },
        ]),
      ).toEqual([true, false]);
    } finally {
      await receiver.close();
    }
  });

  it("sends a webhook test to that receiver, and no second one past the environment's OUTBOUND_SENDS_PER_MINUTE", async () => {
    const receiver = await startReceiver([204]);
    try {
      const first = await call('POST', '/v2/service/webhook-test', { url: receiver.url });
      expect(first.status).toBe(200);
      expect(await first.json()).toMatchObject({ delivered: true, response_status: 204, error: null });
      expect((await call('POST', '/v2/service/webhook-test', { url: receiver.url })).status).toBe(429);
      expect(receiver.received).toHaveLength(1);
    } finally {
      await receiver.close();
    }
  });
});

describe('the development settings', () => {
  let templateVariables: Set<string>;
  beforeAll(async () => {
    const { functions } = readTemplate((await ensureAssets()).templateFile);
    templateVariables = new Set(functions.flatMap((fn) => Object.keys(fn.environment)));
  }, START_TIMEOUT_MS);

  it('reach no deployed function: the stack sets none of them', () => {
    expect(Object.values(DEVELOPMENT_ENV).filter((name) => templateVariables.has(name))).toEqual([]);
  });

  it('with the stack and the local wiring, cover every setting the functions read', () => {
    const unhandled = [...Object.keys(ConfigSchema.entries), ...PROVIDER_VARIABLES].filter(
      (name) => !templateVariables.has(name) && !(LOCAL_ENV_SETTINGS as readonly string[]).includes(name),
    );
    // What bin/local-aws/runtime.ts sets itself: the back ends, the region, the download key; and the
    // backends', providers' and Stripe's secret ARNs, which only a stack with backends, routes or
    // `-c stripe=true` (CDK context) sets.
    expect(unhandled.sort()).toEqual([
      'AWS_REGION',
      'DOWNLOAD_TOKEN_SECRET',
      'DYNAMODB_ENDPOINT',
      'ENGINE_TOKEN_SECRET_ARN',
      'FAL_KEY_SECRET_ARN',
      'GEMINI_API_KEY_SECRET_ARN',
      'OPENAI_API_KEY_SECRET_ARN',
      'S3_ENDPOINT',
      'SECRETS_MANAGER_ENDPOINT',
      'SFN_ENDPOINT',
      'SQS_ENDPOINT',
      'STRIPE_SECRET_KEY_SECRET_ARN',
      'STRIPE_WEBHOOK_SECRET_SECRET_ARN',
      'TRAINER_TOKEN_SECRET_ARN',
    ]);
  });
});
