/**
 * Where fal's output files may be downloaded from, and how: fal answers each image as a URL on its CDN
 * (https://fal.media/files/…, https://v3.fal.media/files/…), and a result pointing anywhere else (an
 * internal address, another site) fails the job rather than have the service fetch it. The download
 * goes through the guarded client (adapters/net/safe-http.ts: the SSRF guard checks the address actually
 * connected to), capped in size, without redirects (a redirect could leave the allow-list) and without the key.
 */
import { HOSTED_PROVIDERS } from '../../../../deployment/providers';
import { isLoopbackUrl } from '../../../../domain/shared/loopback';
import { BlockedAddressError, ResponseTooLargeError, safeRequest } from '../../../net/safe-http';
import type { MediaPolicy } from '../provider';
import { type Fetch, HttpEngineError } from '../provider-http';
import { PROVIDER } from './queue';

/** fal's own media hosts (FAL_MEDIA_HOSTS' default, in its row): its CDN and its subdomains (v2, v3, v3b…). */
export const FAL_MEDIA_HOSTS_DEFAULT: readonly string[] = HOSTED_PROVIDERS.fal.queue.mediaHosts.default;

/** An output image: a 4096×4096 PNG of noise is ~50 MB; nothing fal answers for an image is larger. */
export const FAL_MAX_OUTPUT_BYTES = 64 * 1024 * 1024;

/** One download attempt's own limit; the transport's attempt timeout and the caller's signal bound it too. */
const DOWNLOAD_TIMEOUT_MS = 120_000;

const matches = (host: string, pattern: string): boolean =>
  pattern.startsWith('*.') ? host.endsWith(pattern.slice(1)) && host.length > pattern.length - 1 : host === pattern;

/** `url` when fal may serve it: https on an allowed host, or (ALLOW_LOOPBACK_URLS) the queue's or a loopback host. */
export const allowedMediaUrl = (url: string, policy: MediaPolicy, queueUrl: string): string => {
  let parsed: URL | undefined;
  try {
    parsed = new URL(url);
  } catch {
    parsed = undefined;
  }
  const host = parsed?.hostname.toLowerCase();
  const development =
    policy.allowLoopback && parsed !== undefined && (parsed.host === new URL(queueUrl).host || isLoopbackUrl(parsed));
  const allowed =
    parsed !== undefined &&
    host !== undefined &&
    ((parsed.protocol === 'https:' && policy.hosts.some((pattern) => matches(host, pattern.toLowerCase()))) ||
      development);
  if (allowed) return url;
  throw new HttpEngineError(
    `fal answered an output URL outside its media hosts (${parsed?.host ?? 'not a URL'}; allowed: ${policy.hosts.join(', ')}): not downloaded`,
    { retryable: false },
  );
};

export const tooLarge = (url: string): HttpEngineError =>
  new HttpEngineError(`${PROVIDER} output ${url} is larger than ${FAL_MAX_OUTPUT_BYTES} bytes: not downloaded`, {
    retryable: false,
  });

/** A fetch on the guarded client: GET only, no redirect, the size capped while it streams. */
export const guardedFetch =
  (allowLoopback: boolean): Fetch =>
  async (input, init) => {
    const url = String(input instanceof Request ? input.url : input);
    try {
      const response = await safeRequest({
        url,
        method: 'GET',
        timeoutMs: DOWNLOAD_TIMEOUT_MS,
        maxResponseBytes: FAL_MAX_OUTPUT_BYTES,
        maxRedirects: 0,
        allowLoopback,
        ...(init?.signal && { signal: init.signal }),
      });
      const headers = new Headers();
      for (const [name, value] of Object.entries(response.headers)) {
        if (typeof value === 'string') headers.set(name, value);
      }
      return new Response(new Uint8Array(response.body), { status: response.status, headers });
    } catch (error) {
      // Not worth another attempt: the same file is as large, the same address as blocked.
      if (error instanceof ResponseTooLargeError) throw tooLarge(url);
      if (error instanceof BlockedAddressError)
        throw new HttpEngineError(`${PROVIDER} output ${url}: ${error.message}`, { retryable: false, cause: error });
      throw error;
    }
  };
