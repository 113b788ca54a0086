/**
 * A queued provider reporting back (domain/workflow/reports.ts): the webhook route's dependencies (fal's
 * keys, the link secret for our token in the URL, SendTaskSuccess) and AwaitEngine's (the job, fal's status
 * for the fallback). Neither touches an image: both ship without sharp (fal/queue.ts and fal/webhook.ts).
 */
import { SendTaskSuccessCommand } from '@aws-sdk/client-sfn';
import { cancelFalTicket, FAL_ENGINE, falFinishedRequests } from '../adapters/engine/providers/fal/queue';
import { falWebhookVerifier } from '../adapters/engine/providers/fal/webhook';
import { HttpEngineError } from '../adapters/engine/providers/provider-http';
import { PROVIDER_ENV } from '../deployment/env-names';
import type { Job } from '../domain/jobs/job';
import { checkedHttpsUrl } from '../domain/shared/loopback';
import type { AwaitDeps, ReportDeps } from '../domain/workflow/reports';
import { clock, log, once, settings } from './core';
import { jobs } from './data';
import { downloadSecret } from './links';
import { providerKey } from './secrets';
import { sfn } from './workflows';

const falKey = once(() => providerKey('fal', 'the fal API key'));
const falAccess = () => ({ apiKey: falKey(), queueUrl: settings().providers.fal.baseUrl });

/** One status round of the fallback must fit well within AwaitEngine's function timeout. */
const STATUS_LIMIT_MS = 20_000;
const CANCEL_LIMIT_MS = 10_000;

/** Step Functions' answers for a token no task waits on any more (a retried wait stores a new one). */
const GONE_TASK_ERRORS = new Set(['InvalidToken', 'TaskDoesNotExist', 'TaskTimedOut']);

export const awaitDeps = once(
  (): AwaitDeps => ({
    clock,
    jobs: jobs(),
    settings: { asyncBudgetMs: settings().ASYNC_BUDGET_SECONDS * 1000 },
    finishedRequests: async (ticket) => {
      if (ticket.engine !== FAL_ENGINE) return [];
      try {
        return await falFinishedRequests(ticket, falAccess(), AbortSignal.timeout(STATUS_LIMIT_MS));
      } catch (error) {
        // fal no longer knows a request (a 4xx other than a rate limit): RunEngine decides; else "none yet".
        const status = error instanceof HttpEngineError ? error.status : undefined;
        return status !== undefined && status >= 400 && status < 500 && status !== 408 && status !== 429 ? 'lost' : [];
      }
    },
  }),
);

/** fal's app of a job's model (`owner/app`): its queue URLs name only that (fal/fal.ts). */
const falAppOf = (job: Job): string | undefined => {
  const model = job.engineTicket?.model ?? settings().MODEL_ROUTES[job.work?.engine.baseModel ?? '']?.model;
  return model?.split('/').slice(0, 2).join('/');
};

export const reportDeps = once(
  (): ReportDeps => ({
    clock,
    jobs: jobs(),
    reportSecret: downloadSecret(),
    resume: async (taskToken) => {
      try {
        await sfn().send(new SendTaskSuccessCommand({ taskToken, output: '{}' }));
      } catch (error) {
        if (!(error instanceof Error && GONE_TASK_ERRORS.has(error.name))) throw error;
      }
    },
    cancelRequest: async (job, requestId) => {
      const app = falAppOf(job);
      if (!app) return;
      const { queueUrl } = falAccess();
      const base = `${queueUrl.replace(/\/+$/, '')}/${app}/requests/${encodeURIComponent(requestId)}`;
      const ticket = {
        engine: FAL_ENGINE,
        requests: [
          {
            id: requestId,
            status: `${base}/status`,
            response: base,
            cancel: `${base}/cancel`,
            images: 1,
            inputMegapixels: 0,
          },
        ],
        submittedAt: clock(),
      };
      await cancelFalTicket(ticket, falAccess(), AbortSignal.timeout(CANCEL_LIMIT_MS)).catch((error: unknown) =>
        log().warn('could not ask fal to stop a request nobody will use', {
          job_id: job.jobId,
          request_id: requestId,
          error: error instanceof Error ? error.message : String(error),
        }),
      );
    },
    log: (message, fields) => log().warn(message, fields),
  }),
);

export const falWebhookCheck = once(() =>
  falWebhookVerifier({
    // A local double serves the key set in development (the loopback-URL rule).
    jwksUrl: checkedHttpsUrl(
      settings()[PROVIDER_ENV.falJwksUrl],
      PROVIDER_ENV.falJwksUrl,
      settings().ALLOW_LOOPBACK_URLS,
    ),
    allowLoopback: settings().ALLOW_LOOPBACK_URLS,
    clock,
  }),
);
