/**
 * fal's queue without image work, as the queued-provider contract has it (../queued-provider.ts): its webhook
 * deliveries read and verified (webhook.ts), the status of a ticket's requests and the cancels (queue.ts).
 * The engine half (submit with `fal_webhook`, check, result, cancel) is fal.ts.
 */
import * as v from 'valibot';
import { InvalidRequestError } from '../../../../domain/errors';
import { defaultTransport } from '../provider-http';
import type { QueuedProviderAdapter } from '../queued-provider';
import { cancelFalTicket, FAL_ENGINE, falFinishedRequests } from './queue';
import { FalWebhookBodySchema, falWebhookVerifier } from './webhook';

/** fal's app of a model (`owner/app`): its queue's request URLs name only that (fal.ts). */
const appOf = (model: string): string => model.split('/').slice(0, 2).join('/');

export const falQueuedProvider: QueuedProviderAdapter = (access) => {
  const queue = { apiKey: access.apiKey, queueUrl: access.baseUrl, transport: defaultTransport(access.transport) };
  let verify: ReturnType<typeof falWebhookVerifier> | undefined;
  return {
    // The raw body is what fal signed: it is checked before any parsing.
    readReport: async (headers, rawBody) => {
      verify ??= falWebhookVerifier({
        jwksUrl: access.webhookKeysUrl,
        allowLoopback: access.allowLoopback,
        clock: access.clock,
      });
      const checked = await verify(headers, rawBody);
      if (!checked.ok) return { verified: false, reason: checked.reason };
      // Signed by fal, but for our account only if its user is ours (FAL_USER_ID, when the operator pins it).
      if (access.webhookUserId !== undefined && checked.userId !== access.webhookUserId)
        return { verified: false, reason: 'the signed user id is not this deployment’s fal user' };
      let json: unknown;
      try {
        json = JSON.parse(rawBody.toString('utf8'));
      } catch {
        throw new InvalidRequestError('The body is not JSON.');
      }
      const body = v.safeParse(FalWebhookBodySchema, json);
      if (!body.success) throw new InvalidRequestError(`The body is not a fal webhook: ${v.summarize(body.issues)}`);
      if (body.output.request_id !== checked.requestId)
        return { verified: false, reason: 'the body names another request than the signed header' };
      return { verified: true, requestId: checked.requestId, succeeded: body.output.status === 'OK' };
    },
    finishedRequests: (ticket, signal) => falFinishedRequests(ticket, queue, signal),
    cancel: (ticket, signal) => cancelFalTicket(ticket, queue, signal),
    // fal's request URLs, as its submit answers them: {queue}/{owner}/{app}/requests/{id}[/status|/cancel].
    cancelRequest: async (model, requestId, signal) => {
      const base = `${access.baseUrl.replace(/\/+$/, '')}/${appOf(model)}/requests/${encodeURIComponent(requestId)}`;
      const request = {
        id: requestId,
        status: `${base}/status`,
        response: base,
        cancel: `${base}/cancel`,
        images: 1,
        inputMegapixels: 0,
      };
      await cancelFalTicket({ engine: FAL_ENGINE, requests: [request], submittedAt: access.clock() }, queue, signal);
    },
  };
};
