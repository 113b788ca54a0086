import type { EngineOutcome, ProgressReport } from '../../functions/domain/engine/engine';
import { progressOf } from '../../functions/domain/jobs/job';
import { trainingProgress } from '../../functions/domain/profiles/profile';
import { PROGRESS_WRITE_INTERVAL_MS } from '../../functions/domain/workflow/rounds';
import { runEngine, type WorkflowDeps } from '../../functions/domain/workflow/steps';
import { FakeLedger, fakeFaceAnalyzer, fakeJobs } from '../support/fakes';
import { aJob } from '../support/fixtures';

const NOW = Date.parse('2026-11-23T12:00:00.000Z');

describe('a job’s progress and ETA', () => {
  const running = { status: 'running' as const, startedAt: NOW, progress: 0.25, progressAt: NOW + 10_000 };

  it('extrapolate the pace so far: a quarter in 10 s leaves 30 s', () => {
    expect(progressOf(running, NOW + 10_000)).toEqual({ progress: 0.25, etaSeconds: 30 });
  });

  it('count the time since the last report against the ETA, down to 0', () => {
    expect(progressOf(running, NOW + 25_000)).toEqual({ progress: 0.25, etaSeconds: 15 });
    expect(progressOf(running, NOW + 90_000)).toEqual({ progress: 0.25, etaSeconds: 0 });
  });

  it('say nothing of the time left before a report, while pending, or once failed', () => {
    expect(progressOf({ ...running, progress: null, progressAt: null }, NOW)).toEqual({
      progress: 0,
      etaSeconds: null,
    });
    expect(progressOf({ ...running, status: 'pending', startedAt: null }, NOW)).toEqual({
      progress: 0.25,
      etaSeconds: null,
    });
    expect(progressOf({ ...running, status: 'failed' }, NOW)).toEqual({ progress: 0.25, etaSeconds: null });
  });

  it('are 1 and 0 once succeeded', () => {
    expect(progressOf({ ...running, status: 'succeeded' }, NOW)).toEqual({ progress: 1, etaSeconds: 0 });
  });
});

describe('a training’s progress and ETA', () => {
  const training = { status: 'IN_PROGRESS' as const, trainingStartedAt: NOW, trainingSeconds: 100 };

  it('follow the expected duration: halfway through is 0.55, 50 s left', () => {
    expect(trainingProgress(training, NOW + 50_000)).toEqual({ progress: 0.55, etaSeconds: 50 });
  });

  it('never reach 1 before READY', () => {
    expect(trainingProgress(training, NOW + 500_000)).toEqual({ progress: 0.99, etaSeconds: 0 });
    expect(trainingProgress({ ...training, status: 'READY' }, NOW)).toEqual({ progress: 1, etaSeconds: 0 });
  });

  it('have no ETA before training starts or when its duration is unknown', () => {
    expect(trainingProgress({ ...training, status: 'QUEUING' }, NOW)).toEqual({ progress: 0.1, etaSeconds: null });
    expect(trainingProgress({ ...training, trainingSeconds: null }, NOW)).toEqual({ progress: 0.1, etaSeconds: null });
  });
});

describe('progress writes', () => {
  beforeEach(() => jest.useFakeTimers({ now: NOW }));
  afterEach(() => jest.useRealTimers());

  it('write the first report at once, then the latest at most every 2 s', async () => {
    const ledger = new FakeLedger({ acc_1: 1_000_000 });
    const jobs = fakeJobs(ledger);
    const writes: number[] = [];
    const recording = {
      ...jobs,
      recordProgress: async (_a: string, _j: string, progress: number) => void writes.push(progress),
    };
    const job = aJob(
      'acc_1',
      {
        status: 'running',
        startedAt: NOW,
        work: {
          engine: {
            operation: 'generate',
            prompt: 'x',
            width: 1024,
            height: 1024,
            outputFormat: 'jpg',
            numOutputImages: 1,
            baseModel: 'base-c-2',
            candidates: [],
            namedInPrompt: [],
          },
          inputs: [],
          priced: { operation: 'enhance', numOutputImages: 1 },
        },
      },
      NOW,
    );
    await ledger.reserve({ accountId: 'acc_1', amountMicros: 100_000, creates: { kind: 'job', job }, at: NOW });
    let report: ProgressReport = () => undefined;
    let answer: (outcome: EngineOutcome) => void = () => undefined;
    const deps: WorkflowDeps = {
      clock: () => Date.now(),
      jobs: recording,
      ledger,
      engine: {
        run: (_request, _signal, progress) =>
          new Promise((resolve) => {
            report = progress!;
            answer = resolve;
          }),
      },
      faces: fakeFaceAnalyzer(),
      profiles: { findMany: async () => [] },
      inputs: { load: async () => [] },
      outputs: { save: async () => ['outputs/acc_1/job/1.jpg'] },
      link: async () => 'https://api.test/dl',
      enqueueCallback: async () => undefined,
      cancelEngineWork: async () => undefined,
      settings: { asyncBudgetMs: 30 * 60 * 1000, maxRunningJobs: 20 },
    };
    const step = runEngine(deps, job, 15 * 60 * 1000);
    await jest.advanceTimersByTimeAsync(1);
    report(0.1);
    report(0.2);
    report(0.3);
    expect(writes).toEqual([0.1]);
    await jest.advanceTimersByTimeAsync(PROGRESS_WRITE_INTERVAL_MS);
    expect(writes).toEqual([0.1, 0.3]);
    report(0.25);
    await jest.advanceTimersByTimeAsync(PROGRESS_WRITE_INTERVAL_MS);
    expect(writes).toEqual([0.1, 0.3]);
    answer({
      kind: 'images',
      images: [Buffer.from('x')],
      usage: { outputTokens: 0, megapixels: 1 },
    });
    await expect(step).resolves.toMatchObject({ outcome: 'succeeded' });
  });
});
