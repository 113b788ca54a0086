/**
 * The queued providers' queue half (adapters/engine/providers/queued.ts), built once per function from the
 * provider's row and settings, for the functions that end a job or hear from a provider: the cancel route,
 * the workflow's RunEngine and ReleaseCharge steps, the sweep of abandoned work (cancelTicketWork), the
 * webhook route and AwaitEngine (provider-reports.ts). No image work: none of them ships sharp.
 */
import { QUEUED_PROVIDERS } from '../../adapters/engine/providers/queued';
import type { QueuedProvider } from '../../adapters/engine/providers/queued-provider';
import { HOSTED_PROVIDERS, isQueuedProvider, type QueuedProviderId } from '../../deployment/providers';
import type { EngineQueue, EngineTicket } from '../../domain/engine/engine';
import { checkedHttpsUrl } from '../../domain/shared/loopback';
import { cancelEngineWork } from '../../domain/workflow/rounds';
import { clock, once, settings } from '../core';
import { providerKey } from '../secrets';

/** Each provider's queue half, built on first use and kept until the composition is reset (core.ts `once`). */
const built = once(() => new Map<QueuedProviderId, QueuedProvider>());

/**
 * The queued provider `id` names (a webhook route's path, a ticket's `engine`), or undefined when no row
 * with a `queue` has that id. Its key is read only when a call needs it.
 */
export const queuedProvider = (id: string): QueuedProvider | undefined => {
  if (!isQueuedProvider(id)) return undefined;
  const known = built().get(id);
  if (known) return known;
  const { title, queue } = HOSTED_PROVIDERS[id];
  const { baseUrl, webhookKeysUrl = queue.webhookKeysUrl.default, webhookUserId } = settings().providers[id];
  const allowLoopback = settings().ALLOW_LOOPBACK_URLS;
  const made = QUEUED_PROVIDERS[id]({
    baseUrl,
    apiKey: providerKey(id, `the ${title} API key`),
    allowLoopback,
    // Checked when a webhook is first verified: a function that only cancels never reads it.
    get webhookKeysUrl() {
      return checkedHttpsUrl(webhookKeysUrl, queue.webhookKeysUrl.env, allowLoopback);
    },
    ...(webhookUserId !== undefined && { webhookUserId }),
    clock,
  });
  built().set(id, made);
  return made;
};

/** Whether this deployment has the provider's key (by value or as a secret): without it, nothing is asked of it. */
export const hasProviderKey = (id: QueuedProviderId): boolean => {
  const { key, keySecretArn } = settings().providers[id];
  return key !== '' || keySecretArn !== undefined;
};

/**
 * Through the ticket's own provider (its `engine` is the provider's id, the ticket holds its requests' URLs)
 * whatever the routes say now. A ticket of another kind, or of a provider this deployment has no key for, is
 * left to end on its own.
 */
const ticketCanceller: Pick<EngineQueue, 'cancel'> = {
  cancel: async (ticket, signal) => {
    if (!isQueuedProvider(ticket.engine) || !hasProviderKey(ticket.engine)) return;
    await queuedProvider(ticket.engine)?.cancel(ticket, signal);
  },
};

/** Asks the ticket's provider to stop its work; never throws (the job's outcome stands either way). */
export const cancelTicketWork = (ticket: EngineTicket | null): Promise<void> =>
  cancelEngineWork(ticketCanceller, ticket);
