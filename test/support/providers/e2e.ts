/**
 * The three provider doubles started together for end-to-end tests of MODEL_ROUTES (issue 24): base-b-2 on
 * the OpenAI double, base-c-2 on the Gemini double, base-a-2 on the fal double, with the environment that
 * routes them, and a client's view of a job (polled with a deadline).
 */
import { findBaseModel } from '../../../functions/domain/catalog/catalog';
import { usdDecimal } from '../../../functions/domain/shared/money';
import { startTestRuntime, type TestRuntime } from '../runtime';
import { type FalDouble, startFalDouble } from './fal-double';
import { type GeminiDouble, startGeminiDouble } from './gemini-double';
import { type OpenAiDouble, openAiDoubleEnvironment, startOpenAiDouble } from './openai-double';

export const ROUTES = {
  'base-b-2': 'openai:gpt-image-2',
  'base-c-2': 'gemini:gemini-3.1-flash-image',
  'base-a-2': 'fal:fal-ai/flux-2',
} as const;
export const ALIASES = { nb2: 'base-c-2', 'gpt-image-2': 'base-b-2' } as const;

export const GEMINI_KEY = 'gemini-double-key';
export const FAL_KEY = 'fal-double-key';

export interface ProviderDoubles {
  openai: OpenAiDouble;
  gemini: GeminiDouble;
  fal: FalDouble;
  /** MODEL_ROUTES, MODEL_ALIASES, each provider's base URL and key. */
  env: Record<string, string>;
  /** Every key the service was given: none may reach a client. */
  keys: string[];
  /** Everything any double found against its provider's published format, and any internal id it was sent. */
  violations(): unknown[];
  close(): Promise<void>;
}

/** How the doubles draw: `driftRate` makes each output show someone else with that seeded probability. */
export interface DoubleDrawing {
  driftRate?: number;
}

export const startProviderDoubles = async (drawing: DoubleDrawing = {}): Promise<ProviderDoubles> => {
  const [openai, gemini, fal] = await Promise.all([
    startOpenAiDouble(drawing),
    startGeminiDouble({ apiKey: GEMINI_KEY, ...drawing }),
    startFalDouble(drawing),
  ]);
  return {
    openai,
    gemini,
    fal,
    env: {
      MODEL_ROUTES: JSON.stringify(ROUTES),
      MODEL_ALIASES: JSON.stringify(ALIASES),
      ...openAiDoubleEnvironment(openai),
      GEMINI_BASE_URL: gemini.baseUrl,
      GEMINI_API_KEY: GEMINI_KEY,
      FAL_QUEUE_URL: fal.baseUrl,
      FAL_KEY,
      FAL_JWKS_URL: fal.jwksUrl,
      // fal's platform API (a training's files deleted: TRAINER=fal), on the double.
      FAL_PLATFORM_URL: fal.platformUrl,
    },
    keys: [openai.apiKey, GEMINI_KEY, FAL_KEY],
    violations: () => [...openai.violations, ...gemini.violations, ...fal.violations],
    close: async () => {
      await Promise.all([openai.close(), gemini.close(), fal.close()]);
    },
  };
};

/**
 * One runtime per test file, with the three doubles as its providers (ROUTES, ALIASES): started before
 * the file's tests, closed after them (the doubles even when the runtime's close fails), and after every
 * test no double may have seen a request that breaks its provider's published format or carries an
 * internal id (`[[`, `prf_`). The doubles draw people as a model would (face-render.ts); `drawing` tunes it.
 */
export const useProviderRuntime = (
  env: Record<string, string> = {},
  drawing: DoubleDrawing = {},
  /** The state machines' time scale, when a file needs another than the test runtime's. */
  timeScale?: number,
): { doubles: ProviderDoubles; runtime: TestRuntime } => {
  const world = {} as { doubles: ProviderDoubles; runtime: TestRuntime };
  beforeAll(async () => {
    world.doubles = await startProviderDoubles(drawing);
    world.runtime = await startTestRuntime({
      env: { ...world.doubles.env, ...env },
      ...(timeScale !== undefined && { timeScale }),
    });
  });
  afterAll(async () => {
    try {
      await world.runtime?.close();
    } finally {
      await world.doubles?.close();
    }
  });
  afterEach(() => {
    expect(world.doubles.violations()).toEqual([]);
  });
  return world;
};

export interface JobStatus {
  job_id: string;
  status: 'pending' | 'running' | 'succeeded' | 'failed';
  operation: string;
  result: { known_subjects: { counts: Record<string, number> }; images: string[]; download_urls: string[] } | null;
  error: { code: string; message: string } | null;
  progress: number;
  cost: { reserved: string; final: string | null } | null;
}

export const jobStatus = async (runtime: TestRuntime, apiKey: string, jobId: string): Promise<JobStatus> => {
  const response = await runtime.call('GET', `/v2/service/jobs/${jobId}`, { apiKey });
  if (response.status !== 200) throw new Error(`GET job ${jobId}: ${response.status} ${await response.text()}`);
  return (await response.json()) as JobStatus;
};

/** Polls like a client (every 20 ms) until `wanted`, or fails after `timeoutMs`; `seen` gets every answer. */
export const pollJob = async (
  runtime: TestRuntime,
  apiKey: string,
  jobId: string,
  wanted: (job: JobStatus) => boolean = (job) => job.status === 'succeeded' || job.status === 'failed',
  { timeoutMs = 30_000, seen }: { timeoutMs?: number; seen?: (job: JobStatus) => void } = {},
): Promise<JobStatus> => {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const job = await jobStatus(runtime, apiKey, jobId);
    seen?.(job);
    if (wanted(job)) return job;
    if (Date.now() > deadline) throw new Error(`job ${jobId} is still ${job.status} after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
};

/** The account's newest job (a synchronous call's too), as GET /jobs lists it. */
export const newestJob = async (runtime: TestRuntime, apiKey: string): Promise<JobStatus> => {
  const response = await runtime.call('GET', '/v2/service/jobs', { apiKey });
  const { jobs } = (await response.json()) as { jobs: JobStatus[] };
  const [newest] = jobs;
  if (!newest) throw new Error('the account has no jobs');
  return newest;
};

/** A download link's bytes (the link redirects to a presigned URL). */
export const download = async (url: string): Promise<Buffer> => {
  const response = await fetch(url);
  if (response.status !== 200) throw new Error(`download ${url}: ${response.status}`);
  return Buffer.from(await response.arrayBuffer());
};

/**
 * What the OpenAI double's answers from index `from` on cost at the catalog's token prices of `model`
 * (output, text input and image input tokens, before its per-image floor), micro-USD.
 */
export const tokenPriceMicros = (model: string, openai: OpenAiDouble, from: number): number => {
  const pricing = findBaseModel(model)?.pricing;
  if (pricing?.metering !== 'tokens') throw new Error(`${model} is not token-metered`);
  const usages = openai.answers
    .slice(from)
    .map(
      (answer) =>
        answer.usage as { output_tokens: number; input_tokens_details: { text_tokens: number; image_tokens: number } },
    );
  const sum = (count: (usage: (typeof usages)[number]) => number) =>
    usages.reduce((total, usage) => total + count(usage), 0);
  return Math.ceil(
    (sum((usage) => usage.output_tokens) * pricing.perThousandOutputTokensMicros +
      sum((usage) => usage.input_tokens_details.text_tokens) * pricing.perThousandInputTextTokensMicros +
      sum((usage) => usage.input_tokens_details.image_tokens) * pricing.perThousandInputImageTokensMicros) /
      1000,
  );
};

/** Output tokens of the OpenAI double's answers from index `from` on. */
export const openAiOutputTokens = (openai: OpenAiDouble, from: number): number =>
  openai.answers
    .slice(from)
    .reduce((sum, answer) => sum + Number((answer.usage as { output_tokens: number }).output_tokens), 0);

/** A job's cost as its status shows it: the reservation (the ceiling) holds at least what was paid. */
export const expectCost = (cost: JobStatus['cost'], final: number): void => {
  expect(cost).toEqual({ reserved: expect.stringMatching(/^\d+\.\d{2,6}$/), final: usdDecimal(final) });
  expect(Number(cost?.reserved)).toBeGreaterThanOrEqual(final / 1_000_000);
};

/** USD string of an amount in micro-USD, as job bodies show it. */
export { usdDecimal as usd } from '../../../functions/domain/shared/money';

/** A client's POST of an image operation (`edit`, `generate`, …) on the file's runtime. */
export const operationCaller =
  (world: { runtime: TestRuntime }) =>
  (operation: string, apiKey: string, body: unknown): Promise<Response> =>
    world.runtime.call('POST', `/v2/service/${operation}`, { apiKey, body });
