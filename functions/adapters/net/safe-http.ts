/**
 * Outbound HTTP for URLs that users give us (image inputs, profile photos, callbacks). Built on
 * node:http/https rather than fetch because only they take a `lookup` hook, which is where the SSRF
 * guard checks the address actually connected to (see ssrf-guard.ts).
 *
 * One deadline covers the whole exchange (DNS, connect, TLS, headers, body, every redirect). The body is
 * capped while it streams. Every redirect target goes through the same URL checks and guarded lookup
 * as the first URL. Every error message is safe to show to the API caller: it names the URL's host,
 * never a resolved IP or a system error text (the original error is kept as `cause` for logs).
 */
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { performance } from 'node:perf_hooks';
import tls from 'node:tls';
import { assertUrlAllowed, BlockedAddressError, createGuardedLookup, type ResolveAll } from './ssrf-guard';

export { BlockedAddressError };

export interface SafeRequestOptions {
  url: string;
  method: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: Buffer | string;
  /** Total deadline: DNS, connect, headers, body and redirects together. */
  timeoutMs: number;
  maxResponseBytes: number;
  /** Development only: admit loopback addresses. */
  allowLoopback?: boolean;
  /** Default 3 for GET, 0 for POST. When the budget is spent the redirect response itself is returned. */
  maxRedirects?: number;
  requireHttps?: boolean;
  /** Development and tests only: one more CA to trust for https (e.g. a loopback receiver's own). */
  extraCa?: string;
  signal?: AbortSignal;
  /** Replaces DNS resolution (tests). The guard still checks every address it returns. */
  resolve?: ResolveAll;
}

export interface SafeResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
  latencyMs: number;
}

export type FetchFailureReason =
  | 'bad-url'
  | 'dns'
  | 'connection-refused'
  | 'connection-reset'
  | 'unreachable'
  | 'tls'
  | 'http-status'
  | 'cancelled'
  | 'network';

export class FetchTimeoutError extends Error {
  readonly code = 'FETCH_TIMEOUT';

  constructor(
    readonly host: string,
    readonly timeoutMs: number,
  ) {
    super(`The request to ${host} did not complete within ${timeoutMs} ms.`);
    this.name = 'FetchTimeoutError';
  }
}

export class ResponseTooLargeError extends Error {
  readonly code = 'RESPONSE_TOO_LARGE';

  constructor(
    readonly host: string,
    readonly maxBytes: number,
  ) {
    super(`The response from ${host} is larger than ${maxBytes} bytes.`);
    this.name = 'ResponseTooLargeError';
  }
}

export class FetchFailedError extends Error {
  readonly code = 'FETCH_FAILED';

  constructor(
    message: string,
    readonly reason: FetchFailureReason,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'FetchFailedError';
  }
}

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
const CROSS_ORIGIN_DROPPED_HEADERS = ['authorization', 'cookie', 'proxy-authorization'];

export async function safeRequest(options: SafeRequestOptions): Promise<SafeResponse> {
  const startedAt = performance.now();
  const maxRedirects = options.maxRedirects ?? (options.method === 'GET' ? 3 : 0);
  const lookup = createGuardedLookup({ allowLoopback: options.allowLoopback, resolve: options.resolve });
  let url = checkedUrl(options.url, undefined, options);
  let hop: Hop = { method: options.method, headers: lowerCaseKeys(options.headers ?? {}), body: options.body };

  const controller = new AbortController();
  const timer = setTimeout(
    () => controller.abort(new FetchTimeoutError(url.host, options.timeoutMs)),
    options.timeoutMs,
  );
  const onCallerAbort = () =>
    controller.abort(new FetchFailedError(`The request to ${url.host} was cancelled.`, 'cancelled'));
  if (options.signal?.aborted) onCallerAbort();
  options.signal?.addEventListener('abort', onCallerAbort, { once: true });

  try {
    for (let redirects = 0; ; redirects += 1) {
      const response = await exchange(url, hop, lookup, options.maxResponseBytes, controller.signal, options.extraCa);
      const location = response.headers.location;
      if (!REDIRECT_STATUSES.has(response.status) || location === undefined || redirects >= maxRedirects) {
        return { ...response, latencyMs: performance.now() - startedAt };
      }
      const next = checkedUrl(location, url, options);
      hop = redirectedHop(hop, response.status, url.origin === next.origin);
      url = next;
    }
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener('abort', onCallerAbort);
  }
}

export interface FetchBytesOptions {
  timeoutMs: number;
  maxBytes: number;
  allowLoopback?: boolean;
  signal?: AbortSignal;
  resolve?: ResolveAll;
}

/** GET of an image URL: any answer but 2xx is a FetchFailedError naming the status. */
export async function fetchBytes(
  url: string,
  options: FetchBytesOptions,
): Promise<{ body: Buffer; contentType: string | undefined }> {
  const response = await safeRequest({
    url,
    method: 'GET',
    headers: { accept: 'image/*' },
    timeoutMs: options.timeoutMs,
    maxResponseBytes: options.maxBytes,
    allowLoopback: options.allowLoopback,
    signal: options.signal,
    resolve: options.resolve,
  });
  if (response.status < 200 || response.status > 299) {
    const host = new URL(url).host;
    const detail = REDIRECT_STATUSES.has(response.status) ? ' (too many redirects)' : '';
    throw new FetchFailedError(`The URL on ${host} answered HTTP ${response.status}${detail}.`, 'http-status');
  }
  return { body: response.body, contentType: response.headers['content-type'] };
}

interface Hop {
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  body: Buffer | string | undefined;
}

type RawResponse = Omit<SafeResponse, 'latencyMs'>;

function checkedUrl(raw: string, base: URL | undefined, options: SafeRequestOptions): URL {
  let url: URL;
  try {
    url = new URL(raw, base);
  } catch (error) {
    throw new FetchFailedError(
      base ? `The redirect from ${base.host} is not a valid URL.` : 'The URL is not valid.',
      'bad-url',
      {
        cause: error,
      },
    );
  }
  const allowed = options.requireHttps ? ['https:'] : ['http:', 'https:'];
  if (!allowed.includes(url.protocol)) {
    const what = base ? `The redirect from ${base.host} leads to` : 'The URL uses';
    throw new FetchFailedError(
      `${what} the scheme ${url.protocol}; only ${allowed.join(' and ')} URLs are allowed.`,
      'bad-url',
    );
  }
  assertUrlAllowed(url, { allowLoopback: options.allowLoopback });
  return url;
}

/** 303, and 301/302 after a POST, continue as a GET without body (what browsers do); 307/308 repeat as is. */
function redirectedHop(hop: Hop, status: number, sameOrigin: boolean): Hop {
  const becomesGet = status === 303 || ((status === 301 || status === 302) && hop.method === 'POST');
  const dropped = new Set([
    ...(sameOrigin ? [] : CROSS_ORIGIN_DROPPED_HEADERS),
    ...(becomesGet ? ['content-type', 'content-length'] : []),
  ]);
  const headers = Object.fromEntries(Object.entries(hop.headers).filter(([name]) => !dropped.has(name)));
  return becomesGet ? { method: 'GET', headers, body: undefined } : { ...hop, headers };
}

function exchange(
  url: URL,
  hop: Hop,
  lookup: LookupFunction,
  maxResponseBytes: number,
  signal: AbortSignal,
  extraCa?: string,
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    let settled = false;
    let response: http.IncomingMessage | undefined;
    const settle = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      signal.removeEventListener('abort', onAbort);
      outcome();
    };
    const fail = (error: unknown) =>
      settle(() => {
        request.destroy();
        response?.destroy();
        reject(error);
      });
    const onAbort = () => fail(signal.reason);

    const onResponse = (res: http.IncomingMessage) => {
      response = res;
      const declaredBytes = Number(res.headers['content-length'] ?? 0);
      if (declaredBytes > maxResponseBytes) return fail(new ResponseTooLargeError(url.host, maxResponseBytes));
      const chunks: Buffer[] = [];
      let receivedBytes = 0;
      res.on('data', (chunk: Buffer) => {
        receivedBytes += chunk.length;
        if (receivedBytes > maxResponseBytes) return fail(new ResponseTooLargeError(url.host, maxResponseBytes));
        chunks.push(chunk);
      });
      res.on('end', () =>
        settle(() => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) })),
      );
      res.on('error', (error) => fail(networkError(error, url)));
      res.on('close', () => {
        if (!res.complete)
          fail(
            new FetchFailedError(
              `The connection to ${url.host} closed before the response was complete.`,
              'connection-reset',
            ),
          );
      });
    };

    const headers = { ...hop.headers };
    if (hop.body !== undefined) headers['content-length'] = String(Buffer.byteLength(hop.body));
    const requestOptions: https.RequestOptions = {
      method: hop.method,
      headers,
      lookup,
      agent: false,
      ...(extraCa ? { ca: [...tls.rootCertificates, extraCa] } : {}),
    };
    const request =
      url.protocol === 'https:'
        ? https.request(url, requestOptions, onResponse)
        : http.request(url, requestOptions, onResponse);
    signal.addEventListener('abort', onAbort, { once: true });
    request.on('error', (error) => fail(signal.aborted ? signal.reason : networkError(error, url)));
    request.end(hop.body);
  });
}

/** Maps a socket-level error to a message that names the host and nothing else. */
function networkError(error: NodeJS.ErrnoException, url: URL): Error {
  if (error instanceof BlockedAddressError) return error;
  const cause = { cause: error };
  switch (error.code) {
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
    case 'EAI_NODATA':
    case 'EAI_NONAME':
      return new FetchFailedError(`The host ${url.hostname} could not be resolved.`, 'dns', cause);
    case 'ECONNREFUSED':
      return new FetchFailedError(`The connection to ${url.host} was refused.`, 'connection-refused', cause);
    case 'ECONNRESET':
    case 'EPIPE':
      return new FetchFailedError(`The connection to ${url.host} was reset.`, 'connection-reset', cause);
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
    case 'ETIMEDOUT':
      return new FetchFailedError(`The host ${url.host} is unreachable.`, 'unreachable', cause);
  }
  if (/CERT|SSL|TLS|SELF_SIGNED|UNABLE_TO_VERIFY/.test(error.code ?? '')) {
    return new FetchFailedError(`The TLS connection to ${url.host} could not be verified.`, 'tls', cause);
  }
  return new FetchFailedError(`The request to ${url.host} failed.`, 'network', cause);
}

function lowerCaseKeys(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]));
}
