/**
 * @jest-environment ./test/faces/onnx-environment.js
 *
 * Money exact at a real provider (issue 31), black box through the OpenAI double (base-b-2 on
 * gpt-image-2): a request reserves the most it can cost (its ceiling: OpenAI's published output tokens
 * for the size and quality × the count, plus its input tokens), settles what the provider reports, never
 * more than the reservation, and releases the rest, so the balance is never below zero; a balance below
 * the ceiling is a 402 that names it; an answer without `usage` settles at the reservation; and 50 jobs
 * racing on one account end exact to the micro-dollar.
 */
import { services } from '../../bin/local-aws/services';
import { findBaseModel } from '../../functions/domain/catalog/catalog';
import { ceilingPrice, type PricedRequest } from '../../functions/domain/catalog/pricing';
import { formatUsd, parseUsd } from '../../functions/domain/shared/money';
import { type JobStatus, jobStatus, newestJob, pollJob, usd, useProviderRuntime } from '../support/providers/e2e';
import { balanceOf, expectError, expectOk } from './images/support';

const world = useProviderRuntime();

const call = (operation: string, apiKey: string, body: unknown) =>
  world.runtime.call('POST', `/v2/service/${operation}`, { apiKey, body });

const PROMPT = 'a lighthouse';

/** The ceiling of a base-b-2 generate of `n` images at 1024×1024 (no input image, no profile). */
const ceilingOf = (quality: 'low' | 'medium' | 'high', n: number): number => {
  const request: PricedRequest = {
    operation: 'generate',
    output: { baseModel: 'base-b-2', resolution: '1K', width: 1024, height: 1024, quality },
    numOutputImages: n,
  };
  return ceilingPrice(request, { recognisable: 0, sent: { promptBytes: Buffer.byteLength(PROMPT), images: 0 } });
};

const generate = (apiKey: string, quality: 'low' | 'medium' | 'high', n: number, extra: object = {}) =>
  call('generate', apiKey, { prompt: PROMPT, base_model: 'base-b-2', quality, num_output_images: n, ...extra });

/** What base-b-2 charges for the usage of the OpenAI double's answer `index` (its tokens, at least the floor). */
const priceOfAnswer = (index: number, n: number): number => {
  const pricing = findBaseModel('base-b-2')?.pricing;
  if (pricing?.metering !== 'tokens') throw new Error('base-b-2 is token-metered');
  const usage = world.doubles.openai.answers[index]?.usage as {
    output_tokens: number;
    input_tokens_details: { text_tokens: number; image_tokens: number };
  };
  const metered = Math.ceil(
    (usage.output_tokens * pricing.perThousandOutputTokensMicros +
      usage.input_tokens_details.text_tokens * pricing.perThousandInputTextTokensMicros +
      usage.input_tokens_details.image_tokens * pricing.perThousandInputImageTokensMicros) /
      1000,
  );
  return Math.max(n * pricing.floorPerImageMicros, metered);
};

const micros = (text: string | null | undefined): number => {
  const value = text === null || text === undefined ? undefined : parseUsd(text);
  if (value === undefined) throw new Error(`not an amount: ${text}`);
  return value;
};

describe('a 4-image `quality: high` base-b-2 job on a small balance', () => {
  const ceiling = ceilingOf('high', 4);

  it('is a 402 that names the ceiling when the balance is below it, with nothing reserved or created', async () => {
    const account = await world.runtime.newAccount(ceiling - 1);
    const before = world.doubles.openai.received.length;
    const body = await expectError(await generate(account.apiKey, 'high', 4), 402, 'INSUFFICIENT_BALANCE');
    expect(body.detail).toContain(`can cost up to ${formatUsd(ceiling)}`);
    expect(body.detail).toContain(`The balance is ${formatUsd(ceiling - 1)}.`);
    expect(await balanceOf(account.accountId)).toBe(ceiling - 1);
    expect((await services().ledger.recentEntries(account.accountId, 10)).map((entry) => entry.kind)).toEqual([
      'credit',
    ]);
    expect(world.doubles.openai.received.length).toBe(before);
  });

  it('async too: a 402 naming the ceiling, and no job', async () => {
    const account = await world.runtime.newAccount(ceiling - 1);
    const body = await expectError(
      await generate(account.apiKey, 'high', 4, { async: true }),
      402,
      'INSUFFICIENT_BALANCE',
    );
    expect(body.detail).toContain(formatUsd(ceiling));
    const list = await world.runtime.call('GET', '/v2/service/jobs', { apiKey: account.apiKey });
    expect(((await list.json()) as { jobs: unknown[] }).jobs).toEqual([]);
  });

  it('with the ceiling exactly: reserves it, settles what OpenAI reported (less), releases the rest, never below zero', async () => {
    const account = await world.runtime.newAccount(ceiling);
    const answersBefore = world.doubles.openai.answers.length;
    const answer = await expectOk(await generate(account.apiKey, 'high', 4));
    expect(answer.images).toHaveLength(4);
    const price = priceOfAnswer(answersBefore, 4);
    expect(price).toBeLessThan(ceiling);
    const job = await newestJob(world.runtime, account.apiKey);
    expect(job.cost).toEqual({ reserved: usd(ceiling), final: usd(price) });
    expect(await balanceOf(account.accountId)).toBe(ceiling - price);
  });

  it('a provider reporting more than the published counts: settled at the reservation, the balance at zero, not below', async () => {
    const account = await world.runtime.newAccount(ceiling);
    const answersBefore = world.doubles.openai.answers.length;
    world.doubles.openai.outputTokensFactor = 100;
    try {
      await expectOk(await generate(account.apiKey, 'high', 4));
    } finally {
      world.doubles.openai.outputTokensFactor = 1;
    }
    expect(priceOfAnswer(answersBefore, 4)).toBeGreaterThan(ceiling);
    const job = await newestJob(world.runtime, account.apiKey);
    expect(job.cost).toEqual({ reserved: usd(ceiling), final: usd(ceiling) });
    expect(await balanceOf(account.accountId)).toBe(0);
  });
});

describe('`usage` missing from OpenAI’s answer', () => {
  it('a synchronous job settles at its reservation (fail closed)', async () => {
    const ceiling = ceilingOf('medium', 2);
    const account = await world.runtime.newAccount(1_000_000);
    world.doubles.openai.reportUsage = false;
    try {
      await expectOk(await generate(account.apiKey, 'medium', 2));
    } finally {
      world.doubles.openai.reportUsage = true;
    }
    const job = await newestJob(world.runtime, account.apiKey);
    expect(job.cost).toEqual({ reserved: usd(ceiling), final: usd(ceiling) });
    expect(await balanceOf(account.accountId)).toBe(1_000_000 - ceiling);
  });

  it('an asynchronous job settles at its reservation too', async () => {
    const ceiling = ceilingOf('low', 3);
    const account = await world.runtime.newAccount(1_000_000);
    world.doubles.openai.reportUsage = false;
    let job: JobStatus;
    try {
      const response = await generate(account.apiKey, 'low', 3, { async: true });
      expect(response.status).toBe(202);
      const { job_id: jobId } = (await response.json()) as { job_id: string };
      job = await pollJob(world.runtime, account.apiKey, jobId);
    } finally {
      world.doubles.openai.reportUsage = true;
    }
    expect(job).toMatchObject({ status: 'succeeded', cost: { reserved: usd(ceiling), final: usd(ceiling) } });
    expect(await balanceOf(account.accountId)).toBe(1_000_000 - ceiling);
  });
});

describe('50 jobs racing on one account', () => {
  it('end exact to the micro-dollar, each within its reservation, and the balance read at any moment is ≥ 0', async () => {
    const shapes = Array.from({ length: 50 }, (_, index) => ({
      quality: (['low', 'medium', 'high'] as const)[index % 3] ?? 'low',
      n: (index % 4) + 1,
      async: index % 2 === 1,
    }));
    // Enough for about half the ceilings: the rest must be refused, not overdrawn.
    const opening = Math.round(shapes.reduce((sum, shape) => sum + ceilingOf(shape.quality, shape.n), 0) / 2);
    const account = await world.runtime.newAccount(opening);

    const readings: number[] = [];
    let racing = true;
    const watcher = (async () => {
      while (racing) {
        readings.push(await balanceOf(account.accountId));
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    })();

    const outcomes = await Promise.all(
      shapes.map(async (shape) => {
        const response = await generate(account.apiKey, shape.quality, shape.n, shape.async ? { async: true } : {});
        if (response.status === 402) return { refused: true, jobId: null };
        if (shape.async) {
          expect(response.status).toBe(202);
          const { job_id: jobId } = (await response.json()) as { job_id: string };
          const job = await pollJob(world.runtime, account.apiKey, jobId, undefined, { timeoutMs: 120_000 });
          expect(job.status).toBe('succeeded');
          return { refused: false, jobId };
        }
        await expectOk(response);
        return { refused: false, jobId: null };
      }),
    );
    racing = false;
    await watcher;

    // How many are refused depends on how many reservations overlap: where the runtime serialises the
    // calls (start:assets), each job settles below its ceiling before the next reserves, and all may fit.
    // What may not depend on it: nothing overdrawn, and every micro-dollar accounted for (below).
    const refused = outcomes.filter((outcome) => outcome.refused).length;
    expect(refused).toBeLessThan(50);
    expect(Math.min(...readings)).toBeGreaterThanOrEqual(0);

    // Every job the account has, as the API reports it: what it reserved and what it paid.
    const listed = await world.runtime.call('GET', '/v2/service/jobs?limit=100', { apiKey: account.apiKey });
    const { jobs } = (await listed.json()) as { jobs: JobStatus[] };
    expect(jobs).toHaveLength(50 - refused);
    let paid = 0;
    for (const { job_id: jobId } of jobs) {
      const job = await jobStatus(world.runtime, account.apiKey, jobId);
      expect(job.status).toBe('succeeded');
      const final = micros(job.cost?.final);
      expect(final).toBeLessThanOrEqual(micros(job.cost?.reserved));
      paid += final;
    }
    const balance = await balanceOf(account.accountId);
    expect(balance).toBeGreaterThanOrEqual(0);
    expect(balance).toBe(opening - paid);
    // The ledger agrees to the micro-dollar: its entries sum to the balance, each job's to minus its price.
    const entries = await services().ledger.recentEntries(account.accountId, 1000);
    expect(entries.reduce((sum, entry) => sum + entry.amountMicros, 0)).toBe(balance);
    const byJob = new Map<string, number>();
    for (const entry of entries)
      if (entry.owner?.kind === 'job') byJob.set(entry.owner.id, (byJob.get(entry.owner.id) ?? 0) + entry.amountMicros);
    expect(byJob.size).toBe(jobs.length);
    expect([...byJob.values()].reduce((sum, amount) => sum - amount, 0)).toBe(paid);
  }, 240_000);
});
