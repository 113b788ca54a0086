/**
 * Read first: a queued provider reports back (fal's completion webhook), and the workflow waits for it.
 *
 * RunEngine submits the work with a webhook URL that names the job, signed by us (reportToken); the workflow
 * then waits on a task token (AwaitEngine, statemachines/image-job.asl.json) without running anything. Each
 * report is recorded on the job once (the ticket's request ids, a set); the write that completes the set
 * while a token is stored resumes the execution, once:
 * - the webhook route (acceptProviderReport) records the report; if its write completed the set and the job
 *   holds a token, it sends SendTaskSuccess, then marks the job resumed. A duplicate (fal retries) finds its id
 *   recorded: 200, and nothing more unless the reports are complete and no resume went through (the first
 *   one's SendTaskSuccess failed, answered 5xx): then it resumes the job;
 * - AwaitEngine (awaitProviderReport) stores its token and reads the job as it was just before: reports
 *   already complete (the webhook came first), the job ended, or its time up → it ends at once (the error
 *   `NothingToAwait`, caught by the state machine into RunEngine), so exactly one side sees both the token
 *   and the full set. Every write is one item's UpdateItem, so the two cannot both miss each other.
 * A lost webhook: no report within the wait's heartbeat (30 s) moves the workflow to the next wait state, with
 * a heartbeat four times as long (120 s, 480 s: AWAIT_CHECKS_SECONDS), then to a last check 30 s before the
 * job's time is up; each of those first asks the provider where its requests stand and ends at once when
 * they have finished. The token is
 * held by a waiting Task the whole time, so a webhook resumes the job whenever it comes. RunEngine then reads
 * the provider's result as it always has; when fal's status has not caught up with its webhook yet, RunEngine
 * says so (`reported`) and AwaitEngine waits for its next check instead of ending at once, so the two never
 * go round without a wait. A report nobody waits for (the job ended or gone, a request it does not hold) is
 * answered 200 and logged, so the provider stops retrying; a report that outran the job's own submit (running, its call started, no ticket stored yet) is
 * answered 503 so that the provider delivers it again; a report of a request the job does not hold (a submit
 * whose answer was lost: the job has failed by then) is ignored (200) and that request cancelled at the provider
 * (docs/providers.md, "A report for a request the job does not hold").
 */
import type { EngineTicket } from '../engine/engine';
import { DomainError, ServiceUnavailableError } from '../errors';
import { isTerminal, type Job, type JobsRepository, workTicket } from '../jobs/job';
import type { Clock } from '../shared/clock';
import { hmacSha256, sameBytes } from '../shared/hmac';

/** The token in the webhook URL: HMAC-SHA256 of the account and job, with the service's link secret. */
export const reportToken = (accountId: string, jobId: string, secret: string): string =>
  hmacSha256(secret, `provider-report\n${accountId}\n${jobId}`).toString('base64url');

/** The token's text is compared, not its decoded bytes: base64url decoding would admit other spellings. */
export const reportTokenMatches = (accountId: string, jobId: string, token: string, secret: string): boolean =>
  sameBytes(Buffer.from(token), Buffer.from(reportToken(accountId, jobId, secret)));

/** A report whose signature (ours in the URL, or the provider's) does not verify: 401, logged. */
export class InvalidReportSignatureError extends DomainError {
  constructor(readonly reason: string) {
    super('INVALID_API_KEY', 'The report is not signed as the provider signs its webhooks.');
  }
}

/** The ids of a ticket's requests that are real work (a refused submit has none to report). */
export const reportableIds = (ticket: EngineTicket): string[] =>
  ticket.requests.map((request) => request.id).filter((id) => id !== 'refused');

const allReported = (ticket: EngineTicket, reported: readonly string[] | undefined): boolean =>
  reportableIds(ticket).every((id) => reported?.includes(id));

/** AwaitEngine ends at once (the state machine's Catch goes on to RunEngine, which decides). */
export class NothingToAwaitError extends Error {
  override name = 'NothingToAwait';
}

/** The moment past which the job may not wait: its budget, or its cancel_after deadline if sooner. */
const waitEndsAt = (job: Job, budgetMs: number): number => Math.min(job.createdAt + budgetMs, job.cancelAt ?? Infinity);

/**
 * The heartbeats of the wait states before the last (statemachines/image-job.asl.json: AwaitEngine,
 * AwaitEngineAfter30s, AwaitEngineAfter150s; AwaitEngineAfter630s waits until the budget): a status check after
 * 30 s, 150 s and 630 s of waiting, when no webhook has come.
 */
export const AWAIT_CHECKS_SECONDS = [30, 120, 480] as const;

/** The last wait state checks the provider's status this long before the job's time is up (a lost webhook). */
export const FINAL_CHECK_BEFORE_END_SECONDS = 30;

/**
 * What RunEngine hands the wait (statemachines/image-job.asl.json): the time left when the first wait state
 * starts and when each later one starts if no report came (their TimeoutSecondsPath), and the last one's
 * heartbeat (HeartbeatSecondsPath): a final status check FINAL_CHECK_BEFORE_END_SECONDS before the time is up.
 * At least 1 s each (Step Functions' minimum: a wait whose time is up ends at once in its function), and
 * the heartbeat shorter than its timeout.
 */
export const awaitSeconds = (
  leftMs: number,
): { awaitSeconds: number; awaitLaterSeconds: number[]; finalCheckSeconds: number } => {
  const left = Math.max(2, Math.ceil(leftMs / 1000));
  let waited = 0;
  const later = AWAIT_CHECKS_SECONDS.map((heartbeat) => {
    waited += heartbeat;
    return Math.max(2, left - waited);
  });
  const last = later[later.length - 1] ?? left;
  return {
    awaitSeconds: left,
    awaitLaterSeconds: later,
    finalCheckSeconds: Math.max(1, Math.min(last - 1, last - FINAL_CHECK_BEFORE_END_SECONDS)),
  };
};

/** Whether every request of the job's ticket has been reported: RunEngine passes it on as `reported`. */
export const jobReported = (job: Job): boolean => {
  const ticket = workTicket(job);
  return ticket?.webhook === true && allReported(ticket, job.engineReported);
};

export interface AwaitDeps {
  clock: Clock;
  jobs: Pick<JobsRepository, 'awaitEngine' | 'recordEngineReport'>;
  settings: { asyncBudgetMs: number };
  /**
   * The ids of the ticket's requests the provider says have finished (fal's status), or `lost` when the
   * provider refuses the status for good (a 4xx: it no longer knows a request); any other failure is "none yet".
   */
  finishedRequests(ticket: EngineTicket): Promise<string[] | 'lost'>;
}

export interface AwaitStep {
  accountId: string;
  jobId: string;
  taskToken: string;
  /** A later wait state: the heartbeat passed without a report, so the provider's status is asked first. */
  check: boolean;
  /**
   * RunEngine found every report in but the provider's status not finished (fal's status lags its webhook):
   * the reports do not end this wait; the provider's status, at the next check, does.
   */
  reported: boolean;
}

/**
 * AwaitEngine: stores the task token; returns (the task waits) unless there is nothing to wait for, then
 * throws NothingToAwaitError. A later wait state (`check`) first asks the provider where the requests stand
 * and records the finished ones.
 */
export const awaitProviderReport = async (deps: AwaitDeps, step: AwaitStep): Promise<void> => {
  const now = deps.clock();
  const before = await deps.jobs.awaitEngine(step.accountId, step.jobId, step.taskToken, now);
  if (!before) throw new NothingToAwaitError(`job ${step.jobId} not found`);
  const ticket = workTicket(before);
  if (before.status !== 'running' || before.engineRun || !ticket?.webhook)
    throw new NothingToAwaitError('the job is not waiting for a provider');
  if (now >= waitEndsAt(before, deps.settings.asyncBudgetMs)) throw new NothingToAwaitError('the job’s time is up');
  if (!step.reported && allReported(ticket, before.engineReported))
    throw new NothingToAwaitError('the provider has reported');
  if (!step.check) return;
  // No report came within the heartbeat (or the status lagged it): the provider's status, the finished recorded.
  const answer = await deps.finishedRequests(ticket);
  // RunEngine checks again and, the provider refusing it again, fails the job (released, the request stopped).
  if (answer === 'lost') throw new NothingToAwaitError('the provider refuses the status of a request');
  const finished = answer.filter((id) => reportableIds(ticket).includes(id));
  for (const id of finished.filter((id) => !before.engineReported?.includes(id)))
    await deps.jobs.recordEngineReport(step.accountId, step.jobId, id);
  if (reportableIds(ticket).every((id) => finished.includes(id)))
    throw new NothingToAwaitError('the provider’s status says the work is done');
};

export interface ReportDeps {
  clock: Clock;
  jobs: Pick<JobsRepository, 'get' | 'recordEngineReport' | 'markReportResumed'>;
  /** The service's secret for the token in the webhook URL. */
  reportSecret(): Promise<string>;
  /** Resumes the waiting execution; a token no task waits on any more is not an error (a retry stores a new one). */
  resume(taskToken: string): Promise<void>;
  /** Asks the provider to stop a request nobody will use; never throws. */
  cancelRequest(job: Job, requestId: string): Promise<void>;
  log(message: string, fields: Record<string, unknown>): void;
}

/**
 * What the route answers (always 200: a provider retries anything else for hours). `accepted` is false for a
 * report nobody waits for (the job ended, unknown, or not holding the request): logged, nothing resumed.
 */
export type ReportAnswer = { accepted: boolean; duplicate: boolean; resumed: boolean };

const ignored: ReportAnswer = { accepted: false, duplicate: false, resumed: false };
const duplicate: ReportAnswer = { accepted: true, duplicate: true, resumed: false };

/**
 * Resumes the waiting execution once every report is in and a token is stored, unless a resume already went
 * through; the mark is written after SendTaskSuccess answered, so a resume that failed (the route answers
 * 5xx) is tried again by the provider's redelivery, which finds the reports recorded and no mark.
 */
const resumeWhenComplete = async (deps: ReportDeps, job: Job, first: boolean): Promise<ReportAnswer> => {
  const ticket = workTicket(job);
  const token = job.awaitToken;
  const waiting = job.status === 'running' && !job.engineRun && job.reportResumed !== true;
  if (!ticket || !allReported(ticket, job.engineReported) || !token || !waiting)
    return first ? { accepted: true, duplicate: false, resumed: false } : duplicate;
  await deps.resume(token);
  await deps.jobs.markReportResumed(job.accountId, job.jobId);
  return { accepted: true, duplicate: !first, resumed: true };
};

/**
 * The webhook route, after the provider's signature has verified and named `requestId`: the report recorded
 * once, and the execution resumed by the write that completes the job's reports.
 */
export const acceptProviderReport = async (
  deps: ReportDeps,
  report: { accountId: string; jobId: string; token: string; requestId: string; ok: boolean },
): Promise<ReportAnswer> => {
  const { accountId, jobId, requestId } = report;
  if (!reportTokenMatches(accountId, jobId, report.token, await deps.reportSecret()))
    throw new InvalidReportSignatureError('the job token in the URL does not match');
  const fields = { job_id: jobId, request_id: requestId, provider_status: report.ok ? 'OK' : 'ERROR' };
  const job = await deps.jobs.get(accountId, jobId);
  if (!job) {
    // Our token names it, so it was ours: expired and gone. Answered 200 so that the provider stops retrying.
    deps.log('provider report for a job that no longer exists: ignored', fields);
    return ignored;
  }
  const ticket = workTicket(job);
  if (
    !ticket &&
    job.status === 'running' &&
    !job.engineRun &&
    job.engineCallAt !== null &&
    job.engineCallAt !== undefined
  ) {
    // The job's submit is under way and its answer not stored yet (the report outran it): the job may still
    // take this request as its ticket, so nothing is stopped; the provider delivers again (503), and by
    // then the job holds the request (accepted) or has failed (ignored, and the request stopped).
    deps.log('provider report before the job stored its submit: asked to deliver again', fields);
    throw new ServiceUnavailableError(`Job ${jobId} has not stored its provider request yet; deliver again.`);
  }
  if (!ticket || !reportableIds(ticket).includes(requestId)) {
    // A request the job does not hold (a submit whose answer was lost, the job failed): nobody will use its work.
    // Recorded on the job, so the provider's redeliveries are known duplicates and it is stopped once.
    if (job.engineReported?.includes(requestId)) return duplicate;
    const recorded = await deps.jobs.recordEngineReport(accountId, jobId, requestId);
    if (recorded && !recorded.first) return duplicate;
    deps.log('provider report for a request the job does not hold: ignored, asked to stop', fields);
    await deps.cancelRequest(job, requestId);
    return ignored;
  }
  if (isTerminal(job.status) || job.engineRun) {
    if (job.engineReported?.includes(requestId)) return duplicate;
    deps.log('provider report for a job that has ended: ignored', { ...fields, job_status: job.status });
    return ignored;
  }
  const recorded = await deps.jobs.recordEngineReport(accountId, jobId, requestId);
  if (!recorded) {
    deps.log('provider report for a job that no longer exists: ignored', fields);
    return ignored;
  }
  // A duplicate still resumes a job whose earlier resume failed (recorded, not resumed).
  return resumeWhenComplete(deps, recorded.job, recorded.first);
};
