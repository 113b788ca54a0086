/**
 * @jest-environment ./test/faces/onnx-environment.js
 */
/**
 * Progress and ETA, watched by polling as a client would: a slow sandbox job and a Quick Train, each
 * rising monotonically to 1, with an ETA while it runs.
 */
import { base64Jpeg } from '../support/images';
import { useTrainingWorld } from '../support/training';

// A Quick Train takes as long as its face work (about a second); the test-only delay keeps it
// IN_PROGRESS for 4 s more, long enough to watch its progress rise.
const world = useTrainingWorld({
  count: 5,
  format: 'jpeg',
  runtime: { timeScale: 0.02, env: { TRAINING_DELAY_SECONDS: '4' } },
});

interface Sample {
  status: string;
  progress: number;
  eta_seconds: number | null;
}

/** Polls every 100 ms until the status is terminal; answers every sample. */
const watch = async (path: string, apiKey: string, terminal: readonly string[]): Promise<Sample[]> => {
  const samples: Sample[] = [];
  const deadline = Date.now() + 60_000;
  for (;;) {
    const sample = (await (await world.runtime.call('GET', path, { apiKey })).json()) as Sample;
    samples.push(sample);
    if (terminal.includes(sample.status)) return samples;
    if (Date.now() > deadline) throw new Error(`${path} still ${sample.status}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
};

const expectRisingToOne = (samples: Sample[]) => {
  const progress = samples.map((sample) => sample.progress);
  expect(progress).toEqual([...progress].sort((a, b) => a - b));
  expect(progress.at(-1)).toBe(1);
  expect(new Set(progress.filter((value) => value > 0 && value < 1)).size).toBeGreaterThanOrEqual(2);
  expect(samples.some((sample) => sample.eta_seconds !== null && sample.eta_seconds > 0)).toBe(true);
  expect(samples.at(-1)!.eta_seconds).toBe(0);
};

describe('progress and ETA', () => {
  it('rise to 1 on a slow sandbox job, written at most every 2 s', async () => {
    const account = await world.runtime.newAccount();
    const submitted = await world.runtime.call('POST', '/v2/service/enhance', {
      apiKey: account.apiKey,
      body: { image: await base64Jpeg(), async: true, prompt: 'sandbox:slow=7' },
    });
    const { job_id: jobId } = (await submitted.json()) as { job_id: string };
    const samples = await watch(`/v2/service/jobs/${jobId}`, account.apiKey, ['succeeded', 'failed']);
    expect(samples.at(-1)!.status).toBe('succeeded');
    expectRisingToOne(samples);
    // 7 s of reports, a write at most every 2 s: no more than 5 values before 1.
    expect(
      new Set(samples.map((sample) => sample.progress).filter((value) => value > 0 && value < 1)).size,
    ).toBeLessThanOrEqual(5);
  }, 60_000);

  it('rise to 1 on a Quick Train', async () => {
    const account = await world.runtime.newAccount(10_000_000);
    const created = await world.runtime.call('POST', '/v2/service/profiles/add', {
      apiKey: account.apiKey,
      body: { image_urls: world.photoUrls, training_tier: 'fast' },
    });
    const { profile_id: profileId } = (await created.json()) as { profile_id: string };
    const samples = await watch(`/v2/service/profiles/${profileId}/status`, account.apiKey, ['READY', 'ERROR']);
    expect(samples.at(-1)!.status).toBe('READY');
    expectRisingToOne(samples);
  }, 60_000);
});
