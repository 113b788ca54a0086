/**
 * Read first: the portal's own middlewares, run after the stack every HTTP function shares
 * (entry/http/api-handler.ts: request context, then the one error mapper), in this order:
 * routing (a page, or a /portal/api route: 404, 405) → the request and its body (413, 422) → same origin for
 * a change (403) → the session cookie for all but sign-up and sign-in (401) → the session's CSRF token for a
 * change (403). Each only throws; the error mapper answers.
 */

import type { APIGatewayProxyEvent } from 'aws-lambda';
import { portalDeps } from '../composition/portal/portal';
import type { Caller } from '../domain/accounts/accounts';
import { NotFoundError, PayloadTooLargeError } from '../domain/errors';
import { checkCsrf, PortalError, resolveSession, type Session } from '../domain/portal/portal';
import { baseUrlOf, bodyText, type HttpMiddleware, MAX_BODY_BYTES } from '../entry/http/api-handler';
import type { ApiResult } from '../entry/http/responses';
import { parseJsonBody } from '../entry/http/validation';

export const SESSION_COOKIE = '__Host-portal_session';

export interface PortalRequest {
  method: string;
  /** After /portal/api, e.g. `jobs/job_1/deliveries`. */
  segments: string[];
  query: Record<string, string>;
  headers: Record<string, string>;
  body: unknown;
  baseUrl: string;
  sourceAddress: string;
  session?: Session;
  caller?: Caller;
}

type Handler = (
  request: PortalRequest & { caller: Caller; session: Session },
  params: Record<string, string>,
) => Promise<ApiResult>;
type OpenHandler = (request: PortalRequest) => Promise<ApiResult>;

/** A route answers without a session (sign-in, sign-up) or for the session's account. */
export type Route = {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** Segments; `:name` matches one segment. */
  pattern: string[];
} & ({ kind: 'open'; open: OpenHandler } | { kind: 'session'; handle: Handler });

export const route = (method: Route['method'], path: string, handle: Handler): Route => ({
  method,
  pattern: path.split('/'),
  kind: 'session',
  handle,
});
export const openRoute = (method: Route['method'], path: string, open: OpenHandler): Route => ({
  method,
  pattern: path.split('/'),
  kind: 'open',
  open,
});

/** What the portal's middlewares learn, for its handler. */
export interface PortalInternal {
  target: { kind: 'page'; page: ApiResult } | { kind: 'api'; route: Route; params: Record<string, string> };
  request: PortalRequest;
  session: Session;
}

type Middleware = HttpMiddleware<Partial<PortalInternal>>;

const match = (pattern: string[], segments: string[]): Record<string, string> | undefined => {
  if (pattern.length !== segments.length) return undefined;
  const params: Record<string, string> = {};
  for (const [index, part] of pattern.entries()) {
    const segment = segments[index];
    if (part.startsWith(':')) params[part.slice(1)] = segment;
    else if (part !== segment) return undefined;
  }
  return params;
};

const segmentsOf = (event: APIGatewayProxyEvent): string[] =>
  (event.path ?? '')
    .replace(/^\/portal\/?/, '')
    .split('/')
    .map((segment) => decodeURIComponent(segment));

/** A page (GET or HEAD, outside /portal/api), or the /portal/api route the method and path name. */
export const portalRouting = (
  routes: readonly Route[],
  servePage: (segments: string[], baseUrl: string) => ApiResult | undefined,
): Middleware => ({
  before: (request) => {
    const { event, internal } = request;
    const segments = segmentsOf(event);
    if (segments[0] !== 'api') {
      const page =
        event.httpMethod === 'GET' || event.httpMethod === 'HEAD'
          ? servePage(segments, baseUrlOf(event, internal.headers))
          : undefined;
      if (!page) throw new NotFoundError('No portal page here.');
      internal.target = { kind: 'page', page };
      return;
    }
    const candidates = routes.flatMap((candidate) => {
      const params = match(candidate.pattern, segments.slice(1));
      return params ? [{ route: candidate, params }] : [];
    });
    const found = candidates.find((candidate) => candidate.route.method === event.httpMethod);
    if (!found) {
      if (candidates.length > 0) throw new PortalError('INVALID_REQUEST', `${event.httpMethod} is not allowed here.`);
      throw new NotFoundError('No portal API route here.');
    }
    internal.target = { kind: 'api', ...found };
  },
});

/** Any body is JSON (an empty one is none); its decoded size is what the limit counts. */
const parseBody = (event: APIGatewayProxyEvent): unknown => {
  if (event.body === null || event.body === undefined || event.body === '') return undefined;
  const raw = bodyText(event);
  if (Buffer.byteLength(raw) > MAX_BODY_BYTES) throw new PayloadTooLargeError(MAX_BODY_BYTES);
  return parseJsonBody(raw);
};

/** The request an API route is handed: its query, headers, JSON body, base URL and source address. */
export const portalRequest = (): Middleware => ({
  before: ({ event, internal }) => {
    if (internal.target?.kind !== 'api') return;
    internal.request = {
      method: event.httpMethod,
      segments: segmentsOf(event).slice(1),
      query: Object.fromEntries(
        Object.entries(event.queryStringParameters ?? {}).flatMap(([key, value]) =>
          value === undefined ? [] : [[key, value]],
        ),
      ),
      headers: internal.headers,
      body: parseBody(event),
      baseUrl: baseUrlOf(event, internal.headers),
      sourceAddress: event.requestContext?.identity?.sourceIp ?? 'unknown',
    };
  },
});

const changes = (target: PortalInternal['target'] | undefined): target is PortalInternal['target'] & { kind: 'api' } =>
  target?.kind === 'api' && target.route.method !== 'GET';

/** A state-changing request from another site is refused before its token is even looked at. */
export const sameOrigin = (): Middleware => ({
  before: ({ event, internal }) => {
    if (!changes(internal.target)) return;
    const site = internal.headers['sec-fetch-site'];
    if (site !== undefined && site !== 'same-origin' && site !== 'none')
      throw new PortalError('CSRF_FAILED', 'Cross-site requests are refused.');
    const origin = internal.headers.origin;
    if (origin !== undefined && origin !== 'null' && origin !== new URL(baseUrlOf(event, internal.headers)).origin)
      throw new PortalError('CSRF_FAILED', 'Cross-site requests are refused.');
  },
});

const cookieValue = (header: string | undefined, name: string): string | undefined =>
  header
    ?.split(';')
    .map((pair) => pair.trim().split('='))
    .find(([key]) => key === name)?.[1];

/**
 * The session the cookie names, for every route but sign-up and sign-in. Its account is the caller; the links
 * in job bodies use the API's base URL, as a poll's do.
 */
export const sessionCookie = (): Middleware => ({
  before: async ({ internal }) => {
    if (internal.target?.kind !== 'api' || internal.target.route.kind !== 'session') return;
    const session = await resolveSession(portalDeps().auth, cookieValue(internal.headers.cookie, SESSION_COOKIE));
    internal.session = session;
    internal.caller = { accountId: session.accountId, keyId: '' };
  },
});

/** A change made in a session carries the session's CSRF token. */
export const csrfToken = (): Middleware => ({
  before: ({ internal }) => {
    if (!changes(internal.target) || !internal.session) return;
    checkCsrf(internal.session, internal.headers['x-csrf-token']);
  },
});
