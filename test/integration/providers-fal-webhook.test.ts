/**
 * fal reports back (issue 32): an asynchronous job on fal is submitted with `fal_webhook`, the workflow
 * waits on a task token (AwaitEngine) and fal's signed webhook resumes it, once; a lost webhook is covered
 * by the wait's heartbeat and a status check; a delivery that is not fal's is refused. The state machines
 * run at 1/20 of their seconds here, so the heartbeat (30 s) is 1.5 s: a webhook arrives well before it.
 */
import { reportDeps } from '../../functions/composition/providers/provider-reports';
import { pollJob, useProviderRuntime } from '../support/providers/e2e';
import { inProcessOnly } from '../support/runtime';
import { balanceOf } from './images/support';

jest.setTimeout(120_000);

const OPENING_MICROS = 10_000_000;
const PRICE_MICROS = 40_000;

/** The fal user the double signs for (its signer's default): the deployment pins it. */
const FAL_USER_ID = 'double-user';

const world = useProviderRuntime({ CALLBACK_RETRY_SCALE: '0', FAL_USER_ID }, {}, 0.05);

const submit = async (apiKey: string, prompt: string): Promise<string> => {
  const response = await world.runtime.call('POST', '/v2/service/generate', {
    apiKey,
    body: { prompt, base_model: 'base-a-2', async: true },
  });
  expect(response.status).toBe(202);
  return ((await response.json()) as { job_id: string }).job_id;
};

const spent = async (accountId: string) => OPENING_MICROS - (await balanceOf(accountId));

/** The webhook URL fal was given for the job's request, and that request's id. */
const webhookOf = (since: number) => {
  const submission = world.doubles.fal.submissions.slice(since).find((entry) => entry.webhook !== undefined);
  if (!submission?.webhook) throw new Error('no submission named a fal_webhook');
  return { url: submission.webhook, requestId: submission.requestId };
};

const post = (url: string, body: string, headers: Record<string, string>) =>
  fetch(url, { method: 'POST', headers, body });

const deliveriesOf = (requestId: string) =>
  world.doubles.fal.webhookDeliveries.filter((delivery) => delivery.requestId === requestId);

describe('a fal job resumed by fal’s webhook', () => {
  it('completes by its webhook: the URL names the job, the delivery is accepted and resumes the job once', async () => {
    const account = await world.runtime.newAccount(OPENING_MICROS);
    const before = { ...world.doubles.fal.counters };
    const since = world.doubles.fal.submissions.length;
    const jobId = await submit(account.apiKey, 'a harbour at dawn');
    const job = await pollJob(world.runtime, account.apiKey, jobId);
    expect(job.status).toBe('succeeded');
    const { url, requestId } = webhookOf(since);
    expect(new URL(url).pathname).toBe('/v2/service/providers/fal/webhook');
    expect(new URL(url).searchParams.get('job')).toBe(jobId);
    expect(deliveriesOf(requestId).map((delivery) => delivery.status)).toEqual([200]);
    // One status check (RunEngine reading the outcome after the webhook), none while it waited.
    expect(world.doubles.fal.counters.statusPolls - before.statusPolls).toBe(1);
    expect(world.doubles.fal.counters.results - before.results).toBe(1);
    expect(await spent(account.accountId)).toBe(PRICE_MICROS);
  });

  it('resumes once when fal delivers the webhook twice: both answered 200, the result read and charged once', async () => {
    const account = await world.runtime.newAccount(OPENING_MICROS);
    const before = { ...world.doubles.fal.counters };
    const since = world.doubles.fal.submissions.length;
    world.doubles.fal.duplicateNextWebhooks();
    const jobId = await submit(account.apiKey, 'a harbour twice told');
    expect((await pollJob(world.runtime, account.apiKey, jobId)).status).toBe('succeeded');
    const { requestId } = webhookOf(since);
    await waitFor(() => deliveriesOf(requestId).length === 2);
    expect(deliveriesOf(requestId).map((delivery) => delivery.status)).toEqual([200, 200]);
    expect(world.doubles.fal.counters.results - before.results).toBe(1);
    expect(await spent(account.accountId)).toBe(PRICE_MICROS);
  });

  it('completes by the fallback status check when the webhook is lost', async () => {
    const account = await world.runtime.newAccount(OPENING_MICROS);
    const since = world.doubles.fal.submissions.length;
    world.doubles.fal.dropNextWebhooks();
    const jobId = await submit(account.apiKey, 'a harbour nobody reported');
    expect((await pollJob(world.runtime, account.apiKey, jobId, undefined, { timeoutMs: 60_000 })).status).toBe(
      'succeeded',
    );
    expect(deliveriesOf(webhookOf(since).requestId)).toEqual([]);
    expect(await spent(account.accountId)).toBe(PRICE_MICROS);
  });

  it('does not go round when the webhook comes before fal’s status says COMPLETED: it waits for the next check', async () => {
    const account = await world.runtime.newAccount(OPENING_MICROS);
    const before = { ...world.doubles.fal.counters };
    // The status lags the webhook by 1 s; the first heartbeat (30 s here 1.5 s) comes after it has caught up.
    world.doubles.fal.holdNext({ ms: 100, statusLagMs: 1_000 });
    const jobId = await submit(account.apiKey, 'a harbour reported early');
    expect((await pollJob(world.runtime, account.apiKey, jobId)).status).toBe('succeeded');
    // RunEngine reads IN_PROGRESS after the webhook, the wait's check at its heartbeat reads COMPLETED, and
    // RunEngine reads it again: three polls, not one per round of a loop.
    expect(world.doubles.fal.counters.statusPolls - before.statusPolls).toBe(3);
    expect(world.doubles.fal.counters.results - before.results).toBe(1);
    expect(await spent(account.accountId)).toBe(PRICE_MICROS);
  });

  it('refuses deliveries that are not fal’s or not for our fal user, and answers 200 to any report of an ended job', async () => {
    const account = await world.runtime.newAccount(OPENING_MICROS);
    const since = world.doubles.fal.submissions.length;
    const jobId = await submit(account.apiKey, 'a harbour, then forgeries');
    expect((await pollJob(world.runtime, account.apiKey, jobId)).status).toBe('succeeded');
    const { url, requestId } = webhookOf(since);
    const body = JSON.stringify({ request_id: requestId, gateway_request_id: requestId, status: 'OK', payload: {} });
    const signed = world.doubles.fal.signer.headers(requestId, body);
    // Tampered body, missing signature, an old timestamp, another job's token in the URL.
    expect((await post(url, `${body} `, signed)).status).toBe(401);
    const { 'x-fal-webhook-signature': _dropped, ...unsigned } = signed;
    expect((await post(url, body, unsigned)).status).toBe(401);
    const old = world.doubles.fal.signer.headers(requestId, body, { timestamp: Math.floor(Date.now() / 1000) - 301 });
    expect((await post(url, body, old)).status).toBe(401);
    const forgedUrl = new URL(url);
    forgedUrl.searchParams.set('sig', 'not-our-token');
    expect((await post(forgedUrl.toString(), body, signed)).status).toBe(401);
    const otherJob = new URL(url);
    otherJob.searchParams.set('job', 'job_unknown');
    expect((await post(otherJob.toString(), body, signed)).status).toBe(401);
    // Signed by fal, but for another fal user than this deployment's (FAL_USER_ID): 401 in the error shape.
    const otherUser = await post(url, body, world.doubles.fal.signer.headers(requestId, body, { userId: 'u-other' }));
    expect({ status: otherUser.status, body: await otherUser.json() }).toMatchObject({
      status: 401,
      body: { code: 'INVALID_API_KEY', request_id: expect.any(String) },
    });
    // The job has ended: its own report again is a duplicate; another request is ignored; both 200, so fal stops.
    const again = await post(url, body, signed);
    expect({ status: again.status, body: await again.json() }).toEqual({
      status: 200,
      body: { accepted: true, duplicate: true, resumed: false },
    });
    const strangerBody = JSON.stringify({ request_id: 'req-stranger', status: 'OK', payload: {} });
    const stranger = await post(url, strangerBody, world.doubles.fal.signer.headers('req-stranger', strangerBody));
    expect({ status: stranger.status, body: await stranger.json() }).toEqual({
      status: 200,
      body: { accepted: false, duplicate: false, resumed: false },
    });
    // The service asked fal to stop that request (the double knows no such request: the one violation expected).
    const { violations } = world.doubles.fal;
    expect(violations).toEqual(['no request req-stranger']);
    violations.splice(0, violations.length);
    expect(await spent(account.accountId)).toBe(PRICE_MICROS);
  });

  it('is one route for every queued provider: a provider that is unknown or does not queue is 404, nothing recorded', async () => {
    const account = await world.runtime.newAccount(OPENING_MICROS);
    const since = world.doubles.fal.submissions.length;
    const jobId = await submit(account.apiKey, 'a harbour, then other providers');
    expect((await pollJob(world.runtime, account.apiKey, jobId)).status).toBe('succeeded');
    const { url, requestId } = webhookOf(since);
    const body = JSON.stringify({ request_id: requestId, status: 'OK', payload: {} });
    const signed = world.doubles.fal.signer.headers(requestId, body);
    for (const provider of ['openai', 'nobody']) {
      const elsewhere = new URL(url);
      elsewhere.pathname = elsewhere.pathname.replace('/providers/fal/', `/providers/${provider}/`);
      const answer = await post(elsewhere.toString(), body, signed);
      expect({ status: answer.status, body: await answer.json() }).toMatchObject({
        status: 404,
        body: { code: 'NOT_FOUND' },
      });
    }
    // fal's own delivery on its route is still the job's report (a duplicate: the job resumed by the first).
    expect((await post(url, body, signed)).status).toBe(200);
    expect(world.doubles.fal.violations).toEqual([]);
  });

  it('has fal deliver again a report that outran its own submit’s answer, and stops nothing', async () => {
    const account = await world.runtime.newAccount(OPENING_MICROS);
    const before = { ...world.doubles.fal.counters };
    const since = world.doubles.fal.submissions.length;
    // fal finishes at once and reports; the submit's answer reaches the service 600 ms later.
    world.doubles.fal.holdNext({ ms: 0 });
    world.doubles.fal.slowNextSubmit(600);
    const jobId = await submit(account.apiKey, 'a harbour faster than its answer');
    expect((await pollJob(world.runtime, account.apiKey, jobId)).status).toBe('succeeded');
    const { requestId } = webhookOf(since);
    const statuses = deliveriesOf(requestId).map((delivery) => delivery.status);
    expect(statuses[0]).toBe(503);
    expect(statuses.at(-1)).toBe(200);
    expect(statuses.filter((status) => status === 200)).toHaveLength(1);
    expect(world.doubles.fal.counters.cancels - before.cancels).toBe(0);
    expect(world.doubles.fal.counters.results - before.results).toBe(1);
    expect(await spent(account.accountId)).toBe(PRICE_MICROS);
  });

  it('asks fal to stop a request whose submit answer was lost, when its webhook reports it for the ended job', async () => {
    const account = await world.runtime.newAccount(OPENING_MICROS);
    const before = { ...world.doubles.fal.counters };
    const since = world.doubles.fal.submissions.length;
    world.doubles.fal.holdNext({ ms: 300 });
    world.doubles.fal.failNext(500, { afterWork: true });
    const jobId = await submit(account.apiKey, 'a harbour whose answer was lost');
    const job = await pollJob(world.runtime, account.apiKey, jobId);
    expect(job.status).toBe('failed');
    const { requestId } = webhookOf(since);
    // 503 while the step may still store it (the job running), then ignored with a 200, so fal stops delivering;
    // the request is asked to stop once.
    await waitFor(() => deliveriesOf(requestId).some((delivery) => delivery.status === 200));
    const statuses = deliveriesOf(requestId).map((delivery) => delivery.status);
    expect(statuses.at(-1)).toBe(200);
    expect(statuses.slice(0, -1).every((status) => status === 503)).toBe(true);
    const cancelsOf = () =>
      world.doubles.fal.received.filter((request) => request.path.endsWith(`/requests/${requestId}/cancel`));
    await waitFor(() => cancelsOf().length > 0);
    expect(cancelsOf()).toHaveLength(1);
    expect(world.doubles.fal.counters.cancels - before.cancels).toBe(1);
    expect(await spent(account.accountId)).toBe(0);
  });

  inProcessOnly('completes by fal’s redelivery when the first report’s resume (SendTaskSuccess) failed', async () => {
    const account = await world.runtime.newAccount(OPENING_MICROS);
    const before = { ...world.doubles.fal.counters };
    const since = world.doubles.fal.submissions.length;
    const deps = reportDeps('fal');
    const saved = deps.resume;
    let failed = 0;
    let resumed = 0;
    // Step Functions refuses the first resume (throttled): the route answers 5xx and fal delivers again.
    deps.resume = async (token) => {
      if (failed === 0) {
        failed += 1;
        throw Object.assign(new Error('Rate exceeded'), { name: 'ThrottlingException' });
      }
      await saved(token);
      resumed += 1;
    };
    try {
      // Long enough for the workflow to be waiting on its token when fal reports.
      world.doubles.fal.holdNext({ ms: 300 });
      const jobId = await submit(account.apiKey, 'a harbour resumed on the second try');
      const job = await pollJob(world.runtime, account.apiKey, jobId, undefined, { timeoutMs: 10_000 });
      expect(job.status).toBe('succeeded');
      const { requestId } = webhookOf(since);
      expect(failed).toBe(1);
      expect(deliveriesOf(requestId).map((delivery) => delivery.status)).toEqual([500, 200]);
      // Resumed by the redelivery, not left to the wait's next state at its heartbeat (19 minutes on AWS).
      expect(resumed).toBe(1);
      expect(world.doubles.fal.counters.results - before.results).toBe(1);
      expect(await spent(account.accountId)).toBe(PRICE_MICROS);
    } finally {
      deps.resume = saved;
    }
  });
});

const waitFor = async (condition: () => boolean, timeoutMs = 20_000): Promise<void> => {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
};
