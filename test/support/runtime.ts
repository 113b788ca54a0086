/**
 * One local runtime per test file: the same handlers, state machines and back ends `npm start` runs,
 * in a fresh data directory.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type LocalRuntime, type LocalRuntimeOptions, startLocalRuntime } from '../../bin/local-aws/runtime';
import { services } from '../../bin/local-aws/services';
import { DEVELOPMENT_ENV } from '../../functions/deployment/env-names';
import * as Accounts from '../../functions/domain/accounts/accounts';
import { answerChecker } from './openapi-conformance';
import { RECEIVER_CA_FILE } from './receiver';

export interface TestRuntime extends LocalRuntime {
  dataDir: string;
  /** A new account with its own key and the given opening credit (micro-USD). */
  newAccount(creditMicros?: number): Promise<{ accountId: string; apiKey: string; keyId: string }>;
  /** Calls the service like a client would. */
  call(
    method: string,
    route: string,
    options?: { apiKey?: string; body?: unknown; rawBody?: string | Buffer; headers?: Record<string, string> },
  ): Promise<Response>;
}

export const startTestRuntime = async (options: Partial<LocalRuntimeOptions> = {}): Promise<TestRuntime> => {
  const dataDir = options.dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'service-test-'));
  const check = answerChecker();
  const undocumented: string[] = [];
  const runtime = await startLocalRuntime({
    onAnswer: (answer) => {
      const problem = check(answer);
      if (problem !== undefined) undocumented.push(problem);
    },
    logLevel: 'silent',
    devAccountCreditMicros: 10_000_000,
    timeScale: 0.001,
    // `TEST_RUNTIME=assets` runs a suite against the synthesised artefacts instead of the sources.
    assets: process.env.TEST_RUNTIME === 'assets',
    ...options,
    // Handed to the runtime as options, not through this process's environment as a user's would be:
    // test/assets/development-settings.test.ts proves that path, with the service as a child process.
    env: { [DEVELOPMENT_ENV.extraTrustedCaFile]: RECEIVER_CA_FILE, ...options.env },
    dataDir,
  });
  return {
    ...runtime,
    dataDir,
    // Against the artefacts, a call a function's role may not make fails the file: the grants must cover
    // everything the suite does (bin/local-aws/iam.ts).
    close: async () => {
      await runtime.close();
      const denials = runtime.iam?.denials ?? [];
      if (denials.length > 0)
        throw new Error(
          `local IAM refused ${denials.length} call(s) the template does not grant:\n${denials.join('\n')}`,
        );
      // Every answer the file received must be as the OpenAPI document says (openapi-conformance.ts).
      if (undocumented.length > 0)
        throw new Error(
          `${undocumented.length} answer(s) differ from the OpenAPI document:\n${[...new Set(undocumented)].join('\n')}`,
        );
    },
    newAccount: async (creditMicros = 10_000_000) => {
      const { account, key } = await Accounts.open(services(), {
        name: 'test',
        openingCreditMicros: creditMicros,
      });
      return { accountId: account.accountId, apiKey: key.apiKey, keyId: key.keyId };
    },
    call: (method, route, callOptions = {}) =>
      fetch(`${runtime.url}${route}`, {
        method,
        headers: {
          ...(callOptions.apiKey ? { 'X-API-Key': callOptions.apiKey } : {}),
          ...(callOptions.body !== undefined ? { 'Content-Type': 'application/json' } : {}),
          ...callOptions.headers,
        },
        body: callOptions.rawBody ?? (callOptions.body !== undefined ? JSON.stringify(callOptions.body) : undefined),
      }),
  };
};

/**
 * A test that reaches into the handlers' process (a moved clock, an injected fault): against the
 * synthesised assets (`TEST_RUNTIME=assets`) the handlers run in their own workers, so it is skipped there.
 */
export const inProcessOnly = process.env.TEST_RUNTIME === 'assets' ? it.skip : it;
export const describeInProcessOnly = process.env.TEST_RUNTIME === 'assets' ? describe.skip : describe;

/** GET `route` with the API key, as a client reads it: the answer's JSON body. */
export const getJson = async <T>(runtime: TestRuntime, route: string, apiKey: string): Promise<T> =>
  (await (await runtime.call('GET', route, { apiKey })).json()) as T;
