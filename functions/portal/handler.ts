/**
 * Read first: the developer portal's one function (ANY /portal and /portal/{proxy+}): the page, its
 * script and style, and the JSON API the page calls under /portal/api. One function rather than one per
 * endpoint: it is a back end for one page, and each route costs the stack about nine of its 500 resources.
 *
 * Every /portal/api route but sign-up and sign-in needs the session cookie (domain/portal/portal.ts);
 * every one that changes something needs the session's CSRF token in `X-CSRF-Token` and, when the browser
 * sends them, a same-origin `Origin` and `Sec-Fetch-Site`: middlewares check both (./middlewares.ts), in the
 * stack every HTTP function runs in, whose error mapper answers every failure. `X-API-Key` is never read
 * here. What a route does is a use case of the domain, the same one the public API calls, scoped to the
 * session's account.
 */

import * as v from 'valibot';
import { LedgerQuerySchema } from '../api/schemas/account';
import { BillingSettingsRequestSchema, TopUpRequestSchema, TopUpsQuerySchema } from '../api/schemas/billing';
import { RedeliverRequestSchema, WebhookTestRequestSchema } from '../api/schemas/callbacks';
import { ListJobsQuerySchema } from '../api/schemas/jobs';
import { applyBillingSettings } from '../api/support/billing-settings';
import { assertBodyUrlReachable, assertCallbackUrlReachable } from '../api/support/callback-url';
import { openTopUp } from '../api/support/top-up';
import { billingPageDeps, billingSettingsDeps, topUps } from '../composition/account/billing';
import { clock, once, settings } from '../composition/core';
import { portalDeps } from '../composition/portal/portal';
import { presignedOrigin } from '../composition/storage';
import { Accounts, Callbacks, Jobs, NotFoundError, Profiles, Statement } from '../domain';
import { API_SCOPES, chosenScopes, DEFAULT_KEY_SCOPES, SCOPE_MEANING } from '../domain/accounts/scopes';
import { billingSettings } from '../domain/billing/auto-billing';
import { billingPage, getTopUp, listTopUps } from '../domain/billing/top-ups';
import { TRAINING_PRICE_MICROS } from '../domain/catalog/pricing';
import { type IssuedSession, type Session, signIn, signOut, signUp } from '../domain/portal/portal';
import { moneyBody } from '../domain/shared/money';
import { httpHandler, type Internal } from '../entry/http/api-handler';
import { type ApiResult, accepted, binary, created, ok, text } from '../entry/http/responses';
import { parseOrThrow } from '../entry/http/validation';
import { portalCsp } from './csp';
import {
  csrfToken,
  openRoute,
  type PortalInternal,
  portalRequest,
  portalRouting,
  type Route,
  route,
  SESSION_COOKIE,
  sameOrigin,
  sessionCookie,
} from './middlewares';
import { PORTAL_SCRIPT, PORTAL_STYLE, portalPage } from './ui/page';

export { SESSION_COOKIE };

const SignUpSchema = v.object({
  invitation: v.pipe(v.string(), v.minLength(1), v.maxLength(200)),
  email: v.pipe(v.string(), v.maxLength(320)),
  password: v.string(),
  name: v.optional(v.pipe(v.string(), v.maxLength(120))),
});
const SignInSchema = v.object({
  email: v.pipe(v.string(), v.maxLength(320)),
  password: v.pipe(v.string(), v.maxLength(1024)),
});
const NewKeySchema = v.object({
  name: v.pipe(
    v.string(),
    v.trim(),
    v.minLength(1, 'name must not be empty.'),
    v.maxLength(80, 'name has at most 80 characters.'),
  ),
  /** Omitted: the default (every scope but billing). */
  scopes: v.optional(v.pipe(v.array(v.string()), v.maxLength(API_SCOPES.length * 2))),
});

/** The scopes a person may choose on the key page, what each allows and whether it is preselected. */
const SCOPE_CHOICES = API_SCOPES.map((scope) => ({
  scope,
  meaning: SCOPE_MEANING[scope],
  default: DEFAULT_KEY_SCOPES.includes(scope),
}));
const SpendQuerySchema = v.object({
  days: v.optional(
    v.pipe(
      v.string(),
      v.regex(/^\d{1,3}$/, 'days must be a whole number from 1 to 90.'),
      v.transform(Number),
      v.minValue(1),
      v.maxValue(90),
    ),
    '30',
  ),
});

/**
 * `__Host-` requires `Path=/` (and forbids Domain): a path is no boundary within an origin anyway, which is why
 * the docs page is sandboxed (functions/api/portal/docs.ts). Strict: the page needs the cookie only on its own
 * requests, never on a navigation from elsewhere.
 */
const COOKIE_BASE = 'Path=/; HttpOnly; Secure; SameSite=Strict';

const withSession = (issued: IssuedSession): ApiResult =>
  ok(sessionBody(issued.session), {
    'Set-Cookie': `${SESSION_COOKIE}=${issued.sessionId}; ${COOKIE_BASE}; Max-Age=${Math.floor((issued.session.expiresAt - issued.session.createdAt) / 1000)}`,
  });

const sessionBody = (session: Session) => ({
  email: session.email,
  account_id: session.accountId,
  csrf_token: session.csrfToken,
  expires_at: new Date(session.expiresAt).toISOString(),
});

const ROUTES: readonly Route[] = [
  openRoute('POST', 'signup', async (request) =>
    withSession(await signUp(portalDeps().auth, parseOrThrow('body', SignUpSchema, request.body))),
  ),
  openRoute('POST', 'signin', async (request) => {
    const body = parseOrThrow('body', SignInSchema, request.body);
    return withSession(await signIn(portalDeps().auth, { ...body, sourceAddress: request.sourceAddress }));
  }),
  route('POST', 'signout', async ({ session }) => {
    await signOut(portalDeps().auth, session);
    return ok({ signed_out: true }, { 'Set-Cookie': `${SESSION_COOKIE}=; ${COOKIE_BASE}; Max-Age=0` });
  }),
  route('GET', 'session', async ({ session }) => ok(sessionBody(session))),
  route('GET', 'account', async ({ caller }) => ok(await Statement.accountSummary(portalDeps().statement, caller))),
  route('GET', 'ledger', async ({ caller, query }) =>
    ok(await Statement.ledger(portalDeps().statement, caller, parseOrThrow('query', LedgerQuerySchema, query))),
  ),
  route('GET', 'spend', async ({ caller, query }) =>
    ok(
      await Statement.spendByDay(portalDeps().statement, caller, {
        days: parseOrThrow('query', SpendQuerySchema, query).days,
        now: clock(),
      }),
    ),
  ),
  // Money in (docs/billing.md): the same top-ups as POST /account/top-ups; Checkout returns to the Billing page.
  route('GET', 'billing', async ({ caller }) => ok(await billingPage(billingPageDeps(), caller))),
  route('GET', 'top-ups', async ({ caller, query }) =>
    ok(await listTopUps({ topUps: topUps() }, caller, parseOrThrow('query', TopUpsQuerySchema, query))),
  ),
  route('GET', 'top-ups/:top_up_id', async ({ caller }, { top_up_id }) =>
    ok(await getTopUp({ topUps: topUps() }, caller, top_up_id)),
  ),
  // A person is present here: this is where a card is kept for automatic charges (`save_card`).
  route('POST', 'top-ups', async ({ caller, body, baseUrl }) =>
    created(await openTopUp(caller, parseOrThrow('body', TopUpRequestSchema, body), baseUrl, 'person')),
  ),
  // Auto-recharge is turned on or raised only here, by the signed-in person (domain/billing/recharge-rules.ts).
  route('GET', 'billing/settings', async ({ caller }) => ok(await billingSettings(billingSettingsDeps(), caller))),
  route('PUT', 'billing/settings', async ({ caller, body }) =>
    ok(await applyBillingSettings(caller, parseOrThrow('body', BillingSettingsRequestSchema, body ?? {}), 'person')),
  ),
  route('GET', 'keys', async ({ caller }) =>
    ok({ keys: await Accounts.listKeys(portalDeps().keys, caller.accountId), scopes: SCOPE_CHOICES }),
  ),
  route('POST', 'keys', async ({ caller, body }) => {
    const parsed = parseOrThrow('body', NewKeySchema, body);
    const scopes = parsed.scopes === undefined ? DEFAULT_KEY_SCOPES : chosenScopes(parsed.scopes);
    const issued = await Accounts.issueKey(portalDeps().keys, caller.accountId, parsed.name, scopes);
    return ok({ key_id: issued.keyId, name: parsed.name, scopes, api_key: issued.apiKey });
  }),
  route('POST', 'keys/:key_id/revoke', async ({ caller }, { key_id }) => {
    await Accounts.revokeKey(portalDeps().keys, caller.accountId, key_id);
    return ok({ key_id, revoked: true });
  }),
  route('GET', 'jobs', async ({ caller, query }) => {
    const parsed = parseOrThrow('query', ListJobsQuerySchema, query);
    return ok(
      await Jobs.list(portalDeps().jobs, caller, {
        limit: parsed.limit,
        cursor: parsed.cursor,
        status: parsed.status,
        operation: parsed.operation,
        createdAfter: parsed.created_after,
      }),
    );
  }),
  route('GET', 'jobs/:job_id/deliveries', async ({ caller }, { job_id }) =>
    ok(await Callbacks.jobDeliveries(portalDeps().deliveries, caller, job_id)),
  ),
  route('POST', 'jobs/:job_id/deliveries/redeliver', async ({ caller, body }, { job_id }) => {
    const parsed = parseOrThrow('body', RedeliverRequestSchema, body ?? {});
    assertCallbackUrlReachable(parsed);
    return accepted(await Callbacks.redeliver(portalDeps().redelivery, caller, job_id, parsed.callback_url));
  }),
  route('GET', 'webhook-secret', async ({ caller }) => ok(await Accounts.webhookSecret(portalDeps().accounts, caller))),
  route('POST', 'webhook-secret/rotate', async ({ caller }) =>
    ok(await Accounts.rotateWebhookSecret(portalDeps().accounts, caller)),
  ),
  route('POST', 'webhook-test', async ({ caller, body }) => {
    const { url } = parseOrThrow('body', WebhookTestRequestSchema, body);
    assertBodyUrlReachable('url', url);
    return ok(await Callbacks.testWebhook(portalDeps().webhookTest, caller, url));
  }),
  route('GET', 'profiles', async ({ caller }) => ok(await Profiles.summaries(portalDeps().profileReads, caller))),
  route('GET', 'profiles/:profile_id/picture', async ({ caller }, { profile_id }) =>
    binary(await Profiles.picture(portalDeps().pictures, caller, profile_id), 'image/jpeg'),
  ),
  // The reference crops training kept, for the profile studio: the public API shows only the picture.
  route('GET', 'profiles/:profile_id/references', async ({ caller }, { profile_id }) =>
    ok({ count: await Profiles.referenceCount(portalDeps().pictures, caller, profile_id) }),
  ),
  route('GET', 'profiles/:profile_id/references/:rank', async ({ caller }, { profile_id, rank }) => {
    if (!/^\d{1,2}$/.test(rank)) throw new NotFoundError(`Profile ${profile_id} has no reference crop ${rank}.`);
    return binary(await Profiles.referenceCrop(portalDeps().pictures, caller, profile_id, Number(rank)), 'image/jpeg');
  }),
  // The training prices by tier, which the public API states nowhere but in the ledger after the fact.
  route('GET', 'training-prices', async () =>
    ok({ standard: moneyBody(TRAINING_PRICE_MICROS.standard), fast: moneyBody(TRAINING_PRICE_MICROS.fast) }),
  ),
  route('DELETE', 'profiles/:profile_id', async ({ caller }, { profile_id }) =>
    ok(await Profiles.remove(portalDeps().profiles, caller, profile_id)),
  ),
];

const pageHeaders = once(() => ({
  'Content-Security-Policy': portalCsp({
    bucketOrigin: presignedOrigin(),
    development: settings().ALLOW_LOOPBACK_URLS,
  }),
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'X-Frame-Options': 'DENY',
}));

/** The page and its two assets; the assets are named by their content hash, so they may be cached for good. */
const servePage = (segments: string[], baseUrl: string): ApiResult | undefined => {
  const [first, ...rest] = segments;
  if (rest.length > 0) return undefined;
  if (first === undefined || first === '' || first === 'index.html') {
    return text(portalPage(new URL(baseUrl).pathname.replace(/\/$/, '')), 'text/html; charset=utf-8', {
      ...pageHeaders(),
      'Cache-Control': 'no-store',
    });
  }
  const immutable = { ...pageHeaders(), 'Cache-Control': 'public, max-age=31536000, immutable' };
  if (first === PORTAL_SCRIPT.name) return text(PORTAL_SCRIPT.body, 'text/javascript; charset=utf-8', immutable);
  if (first === PORTAL_STYLE.name) return text(PORTAL_STYLE.body, 'text/css; charset=utf-8', immutable);
  return undefined;
};

/** The page, or the route the middlewares chose, handed its request and, but for sign-up and sign-in, its session. */
const answer = async (_event: unknown, { target, request, session, caller }: Internal & Partial<PortalInternal>) => {
  if (target?.kind === 'page') return target.page;
  if (!target || !request) throw new Error('the portal routing middlewares did not run');
  if (target.route.kind === 'open') return target.route.open(request);
  if (!session || !caller) throw new Error('the session middleware did not run');
  return target.route.handle({ ...request, session, caller }, target.params);
};

export const handler = httpHandler<PortalInternal>(
  answer,
  [portalRouting(ROUTES, servePage), portalRequest(), sameOrigin(), sessionCookie(), csrfToken()],
  { headers: () => ({ 'Cache-Control': 'no-store', ...pageHeaders() }), limitWindowHeaders: false },
);
