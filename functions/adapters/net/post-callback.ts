import type { DeliveryDeps } from '../../domain/callbacks/deliver';
import { FetchTimeoutError, safeRequest } from './safe-http';

/** Receivers answer with a status; their body is read only up to this size and then ignored. */
const MAX_RECEIVER_RESPONSE_BYTES = 64 * 1024;

/** POST through the SSRF guard: an answer is its status; no answer is `timeout` or `network`. */
export const postCallback =
  (options: { allowLoopback: boolean; extraCa?: string }): DeliveryDeps['post'] =>
  async (url, body, headers, timeoutMs) => {
    const started = performance.now();
    try {
      const response = await safeRequest({
        url,
        method: 'POST',
        headers,
        body,
        timeoutMs,
        maxResponseBytes: MAX_RECEIVER_RESPONSE_BYTES,
        allowLoopback: options.allowLoopback,
        requireHttps: true,
        extraCa: options.extraCa,
        maxRedirects: 0,
      });
      return { result: response.status, latencyMs: response.latencyMs };
    } catch (error) {
      return {
        result: error instanceof FetchTimeoutError ? 'timeout' : 'network',
        latencyMs: performance.now() - started,
      };
    }
  };
