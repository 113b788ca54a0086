import { InvalidRequestError } from '../../domain/errors';
import {
  BlockedAddressError,
  FetchFailedError,
  FetchTimeoutError,
  fetchBytes,
  ResponseTooLargeError,
} from '../net/safe-http';
import { MAX_INPUT_BYTES } from './image-input';

const INPUT_FETCH_TIMEOUT_MS = 20_000;

/**
 * Fetches an image URL through the SSRF guard. Its failures are the caller's to fix (an unreachable,
 * private or oversized URL), so they become 400s; the decoder names the input that failed.
 */
export const imageFetcher =
  (options: { allowLoopback: boolean; signal?: AbortSignal }) =>
  async (url: string): Promise<Buffer> => {
    try {
      return (
        await fetchBytes(url, {
          timeoutMs: INPUT_FETCH_TIMEOUT_MS,
          maxBytes: MAX_INPUT_BYTES,
          allowLoopback: options.allowLoopback,
          signal: options.signal,
        })
      ).body;
    } catch (error) {
      if (options.signal?.aborted) throw options.signal.reason;
      if (
        error instanceof FetchTimeoutError ||
        error instanceof ResponseTooLargeError ||
        error instanceof FetchFailedError ||
        error instanceof BlockedAddressError
      ) {
        throw new InvalidRequestError(error.message);
      }
      throw error;
    }
  };
