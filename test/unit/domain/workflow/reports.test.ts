/**
 * A queued provider reporting back (domain/workflow/reports.ts): the webhook route's report and AwaitEngine's
 * wait meet on the job item, in either order, and the execution is resumed once; duplicates change nothing;
 * a report the job cannot take yet is redelivered, one nobody will use is ignored (200) and stopped once, and a
 * redelivery resumes a job whose first resume failed.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { EngineTicket } from '../../../../functions/domain/engine/engine';
import { ServiceUnavailableError } from '../../../../functions/domain/errors';
import type { Job } from '../../../../functions/domain/jobs/job';
import {
  AWAIT_CHECKS_SECONDS,
  type AwaitDeps,
  acceptProviderReport,
  awaitProviderReport,
  awaitSeconds,
  FINAL_CHECK_BEFORE_END_SECONDS,
  InvalidReportSignatureError,
  jobReported,
  NothingToAwaitError,
  type ReportDeps,
  reportToken,
} from '../../../../functions/domain/workflow/reports';
import { aJob, reserveJob } from '../../../support/builders/jobs';
import { FakeLedger, fakeJobs } from '../../../support/fakes';

const ACCOUNT = 'acc_reports';
const SECRET = 'link-secret';
const BUDGET_MS = 30 * 60 * 1000;

const ticketOf = (...ids: string[]): EngineTicket => ({
  engine: 'fal',
  model: 'fal-ai/flux-2',
  requests: ids.map((id) => ({
    id,
    status: `http://127.0.0.1:9/fal-ai/flux-2/requests/${id}/status`,
    response: `http://127.0.0.1:9/fal-ai/flux-2/requests/${id}`,
    cancel: `http://127.0.0.1:9/fal-ai/flux-2/requests/${id}/cancel`,
    images: 1,
    inputMegapixels: 0,
  })),
  submittedAt: 1_000,
  webhook: true,
});

const world = async (overrides: Partial<Job> = {}) => {
  const ledger = new FakeLedger({ [ACCOUNT]: 10_000_000 });
  const jobs = fakeJobs(ledger);
  let now = Date.now();
  const job = aJob(
    ACCOUNT,
    { status: 'running', startedAt: now, engineCallAt: now, engineTickets: [ticketOf('req-1')], ...overrides },
    now,
  );
  await reserveJob(ledger, job, 40_000);
  const resumed: string[] = [];
  const cancelled: string[] = [];
  /** SendTaskSuccess fails this many more times (Step Functions throttling, a network error). */
  const resumeFailures = { left: 0 };
  const finished = jest.fn<Promise<string[] | 'lost'>, [EngineTicket]>(async () => []);
  const reportDeps: ReportDeps = {
    clock: () => now,
    jobs,
    reportSecret: async () => SECRET,
    resume: async (taskToken) => {
      if (resumeFailures.left > 0) {
        resumeFailures.left -= 1;
        throw new Error('ThrottlingException');
      }
      resumed.push(taskToken);
    },
    cancelRequest: async (_job, requestId) => {
      cancelled.push(requestId);
    },
    log: () => undefined,
  };
  const awaitDeps: AwaitDeps = {
    clock: () => now,
    jobs,
    settings: { asyncBudgetMs: BUDGET_MS },
    finishedRequests: finished,
  };
  const report = (requestId = 'req-1', token = reportToken(ACCOUNT, job.jobId, SECRET)) =>
    acceptProviderReport(reportDeps, { accountId: ACCOUNT, jobId: job.jobId, token, requestId, ok: true });
  const wait = (taskToken: string, step: { check?: boolean; reported?: boolean } = {}) =>
    awaitProviderReport(awaitDeps, {
      accountId: ACCOUNT,
      jobId: job.jobId,
      taskToken,
      check: step.check ?? false,
      reported: step.reported ?? false,
    });
  const stored = async () => (await jobs.get(ACCOUNT, job.jobId)) as Job;
  return {
    ledger,
    job,
    report,
    wait,
    stored,
    resumed,
    cancelled,
    resumeFailures,
    finished,
    advance: (ms: number) => {
      now += ms;
    },
  };
};

describe('a report and the wait meet once, in either order', () => {
  it('token first: the wait waits, and the report resumes it with that token', async () => {
    const w = await world();
    await expect(w.wait('token-1')).resolves.toBeUndefined();
    await expect(w.report()).resolves.toEqual({ accepted: true, duplicate: false, resumed: true });
    expect(w.resumed).toEqual(['token-1']);
    expect((await w.stored()).engineReported).toEqual(['req-1']);
  });

  it('report first: it is recorded without resuming anything, and the wait then ends at once', async () => {
    const w = await world();
    await expect(w.report()).resolves.toEqual({ accepted: true, duplicate: false, resumed: false });
    await expect(w.wait('token-1')).rejects.toBeInstanceOf(NothingToAwaitError);
    expect(w.resumed).toEqual([]);
  });

  it('a duplicate delivery is answered as one, and resumes nothing again', async () => {
    const w = await world();
    await w.wait('token-1');
    await w.report();
    await expect(w.report()).resolves.toEqual({ accepted: true, duplicate: true, resumed: false });
    expect(w.resumed).toEqual(['token-1']);
  });

  it('resumes only when every request of the ticket has reported, with the latest token stored', async () => {
    const w = await world({ engineTickets: [ticketOf('req-1', 'req-2')] });
    await w.wait('token-1');
    await expect(w.report('req-2')).resolves.toEqual({ accepted: true, duplicate: false, resumed: false });
    await w.wait('token-2');
    await expect(w.report('req-1')).resolves.toEqual({ accepted: true, duplicate: false, resumed: true });
    expect(w.resumed).toEqual(['token-2']);
  });

  it('after the job has ended, a recorded report is a duplicate and a new one is ignored (200), not refused', async () => {
    const w = await world({ engineTickets: [ticketOf('req-1', 'req-2')] });
    await w.report('req-1');
    w.ledger.jobs.get(w.job.jobId)!.job.status = 'failed';
    await expect(w.report('req-1')).resolves.toMatchObject({ duplicate: true, resumed: false });
    await expect(w.report('req-2')).resolves.toEqual({ accepted: false, duplicate: false, resumed: false });
    expect(w.resumed).toEqual([]);
  });

  it('ignores (200) a report for a job that no longer exists', async () => {
    const w = await world();
    w.ledger.jobs.delete(w.job.jobId);
    await expect(w.report('req-1')).resolves.toEqual({ accepted: false, duplicate: false, resumed: false });
  });

  it('resumes on the redelivery a job whose first resume failed, and only once', async () => {
    const w = await world();
    await w.wait('token-1');
    w.resumeFailures.left = 1;
    // The resume failed after the report was recorded: the route answers 5xx, and the provider delivers again.
    await expect(w.report('req-1')).rejects.toThrow('ThrottlingException');
    expect((await w.stored()).engineReported).toEqual(['req-1']);
    await expect(w.report('req-1')).resolves.toEqual({ accepted: true, duplicate: true, resumed: true });
    await expect(w.report('req-1')).resolves.toEqual({ accepted: true, duplicate: true, resumed: false });
    expect(w.resumed).toEqual(['token-1']);
  });

  it('refuses a report whose token in the URL is not ours for the job', async () => {
    const w = await world();
    await expect(w.report('req-1', reportToken(ACCOUNT, 'job_other', SECRET))).rejects.toBeInstanceOf(
      InvalidReportSignatureError,
    );
    expect((await w.stored()).engineReported).toBeUndefined();
  });
});

describe('a report for a request the job does not hold', () => {
  it('is redelivered (503) while the job’s own submit is under way, and nothing is stopped', async () => {
    const w = await world({ engineTickets: [] });
    await expect(w.report('req-1')).rejects.toBeInstanceOf(ServiceUnavailableError);
    expect(w.cancelled).toEqual([]);
    expect((await w.stored()).engineReported).toBeUndefined();
  });

  it('of a job that failed (its submit answer lost): ignored and stopped once; redeliveries are duplicates', async () => {
    const w = await world({ status: 'failed', engineTickets: [] });
    await expect(w.report('req-lost')).resolves.toEqual({ accepted: false, duplicate: false, resumed: false });
    await expect(w.report('req-lost')).resolves.toEqual({ accepted: true, duplicate: true, resumed: false });
    expect(w.cancelled).toEqual(['req-lost']);
  });

  it('of a job holding another request: ignored and stopped, the job’s own wait untouched', async () => {
    const w = await world();
    await w.wait('token-1');
    await expect(w.report('req-stranger')).resolves.toMatchObject({ accepted: false, resumed: false });
    expect(w.cancelled).toEqual(['req-stranger']);
    expect(w.resumed).toEqual([]);
    await expect(w.report('req-1')).resolves.toMatchObject({ resumed: true });
  });
});

describe('the wait', () => {
  it('ends at once when the job is not waiting for a provider, or its time is up', async () => {
    await expect((await world({ status: 'succeeded' })).wait('t')).rejects.toThrow('not waiting');
    await expect(
      (await world({ engineTickets: [{ ...ticketOf('r'), webhook: undefined }] })).wait('t'),
    ).rejects.toThrow('not waiting');
    const late = await world();
    late.advance(BUDGET_MS);
    await expect(late.wait('t')).rejects.toThrow('time is up');
    const deadline = await world({ cancelAt: Date.now() + 1_000 });
    deadline.advance(1_000);
    await expect(deadline.wait('t')).rejects.toThrow('time is up');
  });

  it('asks the provider only in a later wait state, records what finished, and ends when all has', async () => {
    const w = await world({ engineTickets: [ticketOf('req-1', 'req-2')] });
    await w.wait('token-1');
    expect(w.finished).not.toHaveBeenCalled();
    w.finished.mockResolvedValueOnce(['req-2']);
    await expect(w.wait('token-2', { check: true })).resolves.toBeUndefined();
    expect((await w.stored()).engineReported).toEqual(['req-2']);
    w.finished.mockResolvedValueOnce(['req-1', 'req-2']);
    await expect(w.wait('token-3', { check: true })).rejects.toThrow('status says the work is done');
    expect((await w.stored()).engineReported).toEqual(['req-1', 'req-2']);
  });

  it('keeps waiting after a report when RunEngine found fal’s status behind it, until a check says done', async () => {
    const w = await world();
    await w.report();
    await expect(w.wait('token-1', { reported: true })).resolves.toBeUndefined();
    w.finished.mockResolvedValueOnce([]);
    await expect(w.wait('token-2', { check: true, reported: true })).resolves.toBeUndefined();
    w.finished.mockResolvedValueOnce(['req-1']);
    await expect(w.wait('token-3', { check: true, reported: true })).rejects.toBeInstanceOf(NothingToAwaitError);
  });

  it('ends when the provider refuses a request’s status for good, so RunEngine decides', async () => {
    const w = await world();
    w.finished.mockResolvedValueOnce('lost');
    await expect(w.wait('token-1', { check: true })).rejects.toThrow('refuses the status');
  });

  it('says `reported` for RunEngine only when every request of a webhook ticket has reported', async () => {
    const w = await world({ engineTickets: [ticketOf('req-1', 'req-2')] });
    expect(jobReported(await w.stored())).toBe(false);
    await w.report('req-1');
    expect(jobReported(await w.stored())).toBe(false);
    await w.report('req-2');
    expect(jobReported(await w.stored())).toBe(true);
  });
});

describe('what RunEngine hands the wait states', () => {
  it('the time left at each state’s start, and a last check 30 s before it runs out', () => {
    expect(awaitSeconds(1_800_000)).toEqual({
      awaitSeconds: 1800,
      awaitLaterSeconds: [1770, 1650, 1170],
      finalCheckSeconds: 1170 - FINAL_CHECK_BEFORE_END_SECONDS,
    });
    // Little time left: every value at least Step Functions' minimum, the heartbeat below the timeout.
    expect(awaitSeconds(10_000)).toEqual({ awaitSeconds: 10, awaitLaterSeconds: [2, 2, 2], finalCheckSeconds: 1 });
    expect(awaitSeconds(-5)).toMatchObject({ awaitSeconds: 2 });
  });

  it('the heartbeats are the state machine’s', () => {
    const machine = JSON.parse(
      fs.readFileSync(path.join(__dirname, '../../../../statemachines/image-job.asl.json'), 'utf8'),
    ) as {
      States: Record<string, { HeartbeatSeconds?: number; HeartbeatSecondsPath?: string; Catch?: { Next: string }[] }>;
    };
    const chain: string[] = ['AwaitEngine'];
    for (;;) {
      const next = machine.States[chain.at(-1)!]?.Catch?.[0]?.Next;
      if (!next || next === 'RunEngine') break;
      chain.push(next);
    }
    expect(chain.slice(0, -1).map((state) => machine.States[state]?.HeartbeatSeconds)).toEqual([
      ...AWAIT_CHECKS_SECONDS,
    ]);
    expect(machine.States[chain.at(-1)!]?.HeartbeatSecondsPath).toBe('$.run.finalCheckSeconds');
  });
});
