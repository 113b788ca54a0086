import type { ReleaseInput } from '../../../../functions/domain/billing/ledger';
import type { EngineTicket } from '../../../../functions/domain/engine/engine';
import type { Job } from '../../../../functions/domain/jobs/job';
import type { Profile } from '../../../../functions/domain/profiles/profile';
import {
  type AbandonedWorkDeps,
  closeAbandonedWork,
  type ExecutionState,
  GRACE_MS,
} from '../../../../functions/domain/workflow/abandoned';
import { aJob } from '../../../support/builders/jobs';
import { aProfile } from '../../../support/builders/profiles';

const NOW = Date.parse('2026-11-23T12:00:00Z');
const OLD = NOW - GRACE_MS - 1;

const job = (overrides: Partial<Job>): Job =>
  aJob('acc_1', { jobId: 'job_1', status: 'running', createdAt: OLD, startedAt: OLD, ...overrides });

const profile = (overrides: Partial<Profile>): Profile =>
  aProfile('acc_1', { profileId: 'prf_1', status: 'IN_PROGRESS', createdAt: OLD, updatedAt: OLD, ...overrides });

/** One open job or profile in the store, the execution in the given state; returns what was released. */
const run = async (stored: { job?: Job; profile?: Profile }, execution: ExecutionState) => {
  const released: ReleaseInput[] = [];
  const cancels: (EngineTicket | null)[] = [];
  const deps: AbandonedWorkDeps = {
    clock: () => NOW,
    graceMs: GRACE_MS,
    jobs: { get: async () => stored.job },
    profiles: { get: async () => stored.profile },
    ledger: {
      release: async (input) => {
        released.push(input);
        return { applied: true, chargeState: 'released' };
      },
    },
    executionState: async () => execution,
    cancelEngineWork: async (ticket) => void cancels.push(ticket),
  };
  const open = stored.job
    ? [{ kind: 'job' as const, accountId: 'acc_1', id: stored.job.jobId }]
    : [{ kind: 'profile' as const, accountId: 'acc_1', id: 'prf_1' }];
  const closed = await closeAbandonedWork(deps, open);
  return { closed, released, cancels };
};

const FAL_TICKET: EngineTicket = {
  engine: 'fal',
  model: 'fal-ai/flux-2',
  requests: [{ id: 'req_1' }],
  submittedAt: OLD,
};

describe('closing abandoned work', () => {
  it('refunds a synchronous job older than a function can live: its caller is gone', async () => {
    const { closed, released } = await run({ job: job({ mode: 'sync' }) }, 'missing');
    expect(closed.jobs).toEqual(['job_1']);
    expect(released).toMatchObject([
      { ends: { kind: 'job', id: 'job_1', end: { status: 'failed', error: { code: 'INTERNAL_ERROR' } } } },
    ]);
  });

  it('leaves a synchronous job that may still be running', async () => {
    expect((await run({ job: job({ mode: 'sync', createdAt: NOW - 60_000 }) }, 'missing')).released).toEqual([]);
  });

  it('refunds an async job whose execution never started (the submit died after its reservation)', async () => {
    const { released } = await run({ job: job({ status: 'pending' }) }, 'missing');
    expect(released).toMatchObject([{ ends: { end: { status: 'failed', error: { code: 'TIMEOUT' } } } }]);
  });

  it('leaves an async job whose execution still runs, however old: its steps enforce the budget', async () => {
    const { released, cancels } = await run({ job: job({ engineTickets: [FAL_TICKET] }) }, 'running');
    expect({ released, cancels }).toEqual({ released: [], cancels: [] });
  });

  it('asks the provider to stop the work the ticket of a job it closes names', async () => {
    const { closed, cancels } = await run({ job: job({ engineTickets: [FAL_TICKET] }) }, 'ended');
    expect(closed.jobs).toEqual(['job_1']);
    expect(cancels).toEqual([FAL_TICKET]);
  });

  it('asks the provider of every ticket the job opened and not known finished to stop it', async () => {
    const retry: EngineTicket = { ...FAL_TICKET, requests: [{ id: 'req_retry' }] };
    const finished: EngineTicket = { ...FAL_TICKET, requests: [{ id: 'req_done' }] };
    const { cancels } = await run(
      { job: job({ mode: 'sync', engineTickets: [FAL_TICKET, finished, retry], engineReported: ['req_done'] }) },
      'missing',
    );
    expect(cancels).toEqual([FAL_TICKET, retry]);
  });

  it('leaves a job that is already terminal', async () => {
    expect((await run({ job: job({ status: 'succeeded' }) }, 'ended')).released).toEqual([]);
  });

  it('fails a training whose execution has ended without it, releasing its charge', async () => {
    const { closed, released } = await run({ profile: profile({}) }, 'ended');
    expect(closed.profiles).toEqual(['prf_1']);
    expect(released).toMatchObject([{ ends: { kind: 'profile', id: 'prf_1', end: { status: 'ERROR' } } }]);
  });

  it('leaves a training that is still running, or too recent to judge', async () => {
    expect((await run({ profile: profile({}) }, 'running')).released).toEqual([]);
    expect((await run({ profile: profile({ createdAt: NOW - 1000 }) }, 'missing')).released).toEqual([]);
  });
});
