/**
 * Counts the HTTP requests the process sends through `node:http` (the AWS SDK clients), by destination,
 * through the `http.client.request.start` diagnostics
 * channel. The local runtime runs every back end in this process, so this shows what one API call costs
 * the emulators (`fetch` uses undici, not `node:http`: the bench's own client requests are not counted).
 */
import diagnosticsChannel from 'node:diagnostics_channel';
import type { ClientRequest } from 'node:http';

export interface HttpCounter {
  reset(): void;
  /** Destination name (or `host:port` when unnamed) → requests since the last reset. */
  snapshot(): Record<string, number>;
  stop(): void;
}

/** `names`: endpoint URL → name (`http://127.0.0.1:4567` → `dynamodb`). */
export const countLocalHttp = (names: Record<string, string>): HttpCounter => {
  const byHost = new Map(Object.entries(names).map(([url, label]) => [new URL(url).host, label]));
  let counts: Record<string, number> = {};
  const onStart = (message: unknown) => {
    const request = (message as { request: ClientRequest }).request;
    const host = String(request.getHeader('host') ?? request.host);
    const label = byHost.get(host) ?? host;
    counts[label] = (counts[label] ?? 0) + 1;
  };
  diagnosticsChannel.subscribe('http.client.request.start', onStart);
  return {
    reset: () => {
      counts = {};
    },
    snapshot: () => ({ ...counts }),
    stop: () => diagnosticsChannel.unsubscribe('http.client.request.start', onStart),
  };
};
