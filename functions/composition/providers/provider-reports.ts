/**
 * A queued provider reporting back (domain/workflow/reports.ts): the webhook route's dependencies (the link
 * secret for our token in the URL, SendTaskSuccess, the provider to stop a request no job holds) and
 * AwaitEngine's (the job, the provider's status for the fallback). Neither touches an image: both go
 * through the provider's queue half (provider-work.ts), which ships without sharp.
 */
import { SendTaskSuccessCommand } from '@aws-sdk/client-sfn';
import { HttpEngineError } from '../../adapters/engine/providers/provider-http';
import type { QueuedProvider } from '../../adapters/engine/providers/queued-provider';
import { NotFoundError } from '../../domain/errors';
import { type Job, workTicket } from '../../domain/jobs/job';
import type { AwaitDeps, ReportDeps } from '../../domain/workflow/reports';
import { clock, log, once, settings } from '../core';
import { jobs } from '../data';
import { downloadSecret } from '../secrets';
import { sfn } from '../state-machines';
import { queuedProvider } from './provider-work';

/** One status round of the fallback must fit well within AwaitEngine's function timeout. */
const STATUS_LIMIT_MS = 20_000;
const CANCEL_LIMIT_MS = 10_000;

/** Step Functions' answers for a token no task waits on any more (a retried wait stores a new one). */
const GONE_TASK_ERRORS = new Set(['InvalidToken', 'TaskDoesNotExist', 'TaskTimedOut']);

/** The provider a webhook's path names: 404 for one that is unknown or does not queue. */
export const reportingProvider = (id: string): QueuedProvider => {
  const provider = queuedProvider(id);
  if (!provider) throw new NotFoundError(`No queued provider ${id} reports here.`);
  return provider;
};

export const awaitDeps = once(
  (): AwaitDeps => ({
    clock,
    jobs: jobs(),
    settings: { asyncBudgetMs: settings().ASYNC_BUDGET_SECONDS * 1000 },
    finishedRequests: async (ticket) => {
      const provider = queuedProvider(ticket.engine);
      if (!provider) return [];
      try {
        return await provider.finishedRequests(ticket, AbortSignal.timeout(STATUS_LIMIT_MS));
      } catch (error) {
        // The provider no longer knows a request (a 4xx other than a rate limit): RunEngine decides; else "none yet".
        const status = error instanceof HttpEngineError ? error.status : undefined;
        return status !== undefined && status >= 400 && status < 500 && status !== 408 && status !== 429 ? 'lost' : [];
      }
    },
  }),
);

/** The provider's model of a job: its ticket's, else its route's when the route names this provider. */
const modelOf = (job: Job, id: string): string | undefined => {
  const ticket = workTicket(job);
  if (ticket?.engine === id) return ticket.model;
  const route = settings().MODEL_ROUTES[job.work?.engine.baseModel ?? ''];
  return route?.provider === id ? route.model : undefined;
};

const resume = async (taskToken: string): Promise<void> => {
  try {
    await sfn().send(new SendTaskSuccessCommand({ taskToken, output: '{}' }));
  } catch (error) {
    if (!(error instanceof Error && GONE_TASK_ERRORS.has(error.name))) throw error;
  }
};

const reportDepsOf = once(() => new Map<string, ReportDeps>());

/** The webhook route's dependencies for the provider its path names (reportingProvider found it). */
export const reportDeps = (id: string): ReportDeps => {
  const known = reportDepsOf().get(id);
  if (known) return known;
  const made: ReportDeps = {
    clock,
    jobs: jobs(),
    reportSecret: downloadSecret(),
    resume,
    cancelRequest: async (job, requestId) => {
      const model = modelOf(job, id);
      const provider = queuedProvider(id);
      if (model === undefined || !provider) return;
      await provider.cancelRequest(model, requestId, AbortSignal.timeout(CANCEL_LIMIT_MS)).catch((error: unknown) =>
        log().warn('could not ask the provider to stop a request nobody will use', {
          provider: id,
          job_id: job.jobId,
          request_id: requestId,
          error: error instanceof Error ? error.message : String(error),
        }),
      );
    },
    log: (message, fields) => log().warn(message, fields),
  };
  reportDepsOf().set(id, made);
  return made;
};
