/**
 * The developer portal's back end over HTTP, as a browser and an attacker would call it: invitations,
 * sign-in and its limit, the session cookie, CSRF, expiry and sign-out, keys, and the wall between the
 * portal's session and the public API's keys. Both runtimes.
 */
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { services } from '../../bin/local-aws/services';
import { DynamoPortal } from '../../functions/adapters/dynamo/portal-repository';
import { keys } from '../../functions/adapters/dynamo/table';
import { invite, SIGN_IN_LIMITS, sha256 } from '../../functions/domain/portal/portal';
import { newId } from '../../functions/domain/shared/ids';
import { SESSION_COOKIE } from '../../functions/portal/handler';
import { buildPortalAssets } from '../../functions/portal/ui/build';
import { startTestRuntime, type TestRuntime } from '../support/runtime';

let runtime: TestRuntime;

beforeAll(async () => {
  runtime = await startTestRuntime({ env: { API_KEY_CACHE_SECONDS: '0' } });
});
afterAll(() => runtime.close());

// biome-ignore lint/suspicious/noExplicitAny: answers are read by path in assertions; their shape is checked against the OpenAPI schema
type Json = Record<string, any>;
const PASSWORD = 'a long enough passphrase';

const invitation = async (email: string, creditMicros = 5_000_000) =>
  (await invite({ portal: new DynamoPortal(services().table, newId), clock: Date.now }, { email, creditMicros })).token;

/** A browser's view: the cookie it keeps and the CSRF token the page read. */
interface Browser {
  cookie: string;
  csrf: string;
  sessionId: string;
}

const portal = (
  method: string,
  route: string,
  options: { browser?: Browser; body?: unknown; csrf?: string | null; headers?: Record<string, string> } = {},
) =>
  fetch(`${runtime.url}/portal/api/${route}`, {
    method,
    headers: {
      ...(options.body !== undefined ? { 'Content-Type': 'application/json' } : {}),
      ...(options.browser ? { Cookie: options.browser.cookie } : {}),
      ...(options.browser && options.csrf !== null && method !== 'GET'
        ? { 'X-CSRF-Token': options.csrf ?? options.browser.csrf }
        : {}),
      ...options.headers,
    },
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });

const browserOf = async (response: Response): Promise<Browser> => {
  expect(response.status).toBe(200);
  const setCookie = response.headers.get('set-cookie')!;
  const sessionId = new RegExp(`${SESSION_COOKIE}=([^;]+)`).exec(setCookie)![1]!;
  const body = (await response.json()) as Json;
  return { cookie: `${SESSION_COOKIE}=${sessionId}`, csrf: body.csrf_token, sessionId };
};

const signUp = async (email = `dev-${newId('acc')}@example.com`) => {
  const token = await invitation(email);
  return {
    email,
    browser: await browserOf(
      await portal('POST', 'signup', { body: { invitation: token, email, password: PASSWORD } }),
    ),
  };
};

describe('invitations', () => {
  it('opens an account with the invited credit, sets a Secure HttpOnly SameSite=Strict cookie, and works once', async () => {
    const email = `Dev-${newId('acc')}@Example.com`;
    const token = await invitation(email.toLowerCase(), 7_500_000);
    const response = await portal('POST', 'signup', {
      body: { invitation: token, email, password: PASSWORD, name: 'Acme' },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('set-cookie')).toMatch(
      new RegExp(`^${SESSION_COOKIE}=[A-Za-z0-9_-]{43}; Path=/; HttpOnly; Secure; SameSite=Strict; Max-Age=43200$`),
    );
    const browser = await browserOf(response.clone());
    const account = (await (await portal('GET', 'account', { browser })).json()) as Json;
    expect(account).toMatchObject({ name: 'Acme', balance: { usd: '7.50', micro_usd: 7_500_000 } });

    const again = await portal('POST', 'signup', { body: { invitation: token, email, password: PASSWORD } });
    expect(again.status).toBe(400);
    expect(((await again.json()) as Json).code).toBe('INVITATION_INVALID');
  });

  it('refuses an unknown or expired invitation, another e-mail, and a short password', async () => {
    const email = `dev-${newId('acc')}@example.com`;
    const token = await invitation(email);
    const refusal = async (body: Json) => {
      const response = await portal('POST', 'signup', { body });
      return { status: response.status, body: (await response.json()) as Json };
    };
    expect(await refusal({ invitation: 'made-up', email, password: PASSWORD })).toMatchObject({
      status: 400,
      body: { code: 'INVITATION_INVALID' },
    });
    expect(await refusal({ invitation: token, email: 'someone-else@example.com', password: PASSWORD })).toMatchObject({
      status: 400,
      body: { code: 'INVITATION_INVALID' },
    });
    expect(await refusal({ invitation: token, email, password: 'short' })).toMatchObject({
      status: 400,
      body: { code: 'INVALID_REQUEST' },
    });
    expect(await refusal({ invitation: token, email })).toMatchObject({
      status: 422,
      body: { detail: [{ loc: ['body', 'password'], type: 'missing' }] },
    });

    await services().table.doc.send(
      new UpdateCommand({
        TableName: services().table.name,
        Key: keys.invitation(sha256(token)),
        UpdateExpression: 'SET expiresAt = :past',
        ExpressionAttributeValues: { ':past': Date.now() - 1 },
      }),
    );
    expect(await refusal({ invitation: token, email, password: PASSWORD })).toMatchObject({
      status: 400,
      body: { code: 'INVITATION_INVALID' },
    });
  });

  it('lets exactly one of two simultaneous acceptances in', async () => {
    const email = `dev-${newId('acc')}@example.com`;
    const token = await invitation(email);
    const statuses = await Promise.all(
      [1, 2, 3].map(() =>
        portal('POST', 'signup', { body: { invitation: token, email, password: PASSWORD } }).then((r) => r.status),
      ),
    );
    expect(statuses.sort()).toEqual([200, 400, 400]);
  });
});

describe('sign-in and sessions', () => {
  it('signs in with the e-mail in any case and the password, and refuses a wrong one without saying which part', async () => {
    const { email } = await signUp();
    const wrong = await portal('POST', 'signin', { body: { email, password: `${PASSWORD}!` } });
    expect(wrong.status).toBe(401);
    expect(await wrong.json()).toMatchObject({
      code: 'INVALID_CREDENTIALS',
      detail: 'The e-mail address or the password is not right.',
    });
    const unknown = await portal('POST', 'signin', { body: { email: 'nobody@example.com', password: PASSWORD } });
    expect(await unknown.json()).toMatchObject({
      code: 'INVALID_CREDENTIALS',
      detail: 'The e-mail address or the password is not right.',
    });
    const browser = await browserOf(
      await portal('POST', 'signin', { body: { email: email.toUpperCase(), password: PASSWORD } }),
    );
    expect(await (await portal('GET', 'session', { browser })).json()).toMatchObject({
      email,
      csrf_token: browser.csrf,
    });
  });

  it('limits sign-in attempts per e-mail (429 with Retry-After), even with the right password', async () => {
    const { email } = await signUp();
    // Windows are fixed minutes: twice the limit and one more cross at most one boundary, so one is refused.
    const statuses: number[] = [];
    let limited: Response | undefined;
    for (let attempt = 0; attempt <= 2 * SIGN_IN_LIMITS.perEmailPerMinute && !limited; attempt += 1) {
      const answer = await portal('POST', 'signin', { body: { email, password: PASSWORD } });
      statuses.push(answer.status);
      if (answer.status === 429) limited = answer;
    }
    expect(statuses.slice(0, -1).every((status) => status === 200)).toBe(true);
    expect(statuses.length).toBeGreaterThan(SIGN_IN_LIMITS.perEmailPerMinute);
    expect(limited).toBeDefined();
    expect(Number(limited!.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(((await limited!.json()) as Json).code).toBe('RATE_LIMITED');
  });

  it('needs a session for everything but sign-up and sign-in, and a signed-out session is gone', async () => {
    expect(await (await portal('GET', 'account')).json()).toMatchObject({ code: 'SESSION_REQUIRED' });
    expect((await portal('GET', 'keys', { headers: { Cookie: `${SESSION_COOKIE}=forged` } })).status).toBe(401);
    const { browser } = await signUp();
    const out = await portal('POST', 'signout', { browser });
    expect(out.status).toBe(200);
    expect(out.headers.get('set-cookie')).toMatch(/Max-Age=0/);
    expect((await portal('GET', 'account', { browser })).status).toBe(401);
  });

  it('ends a session at its absolute expiry and after two idle hours', async () => {
    const expire = async (browser: Browser, attribute: 'expiresAt' | 'lastSeenAt', at: number) =>
      services().table.doc.send(
        new UpdateCommand({
          TableName: services().table.name,
          Key: keys.portalSession(sha256(browser.sessionId)),
          UpdateExpression: `SET ${attribute} = :at`,
          ExpressionAttributeValues: { ':at': at },
        }),
      );
    const first = (await signUp()).browser;
    await expire(first, 'expiresAt', Date.now() - 1);
    expect((await portal('GET', 'session', { browser: first })).status).toBe(401);
    const second = (await signUp()).browser;
    await expire(second, 'lastSeenAt', Date.now() - 2 * 3600 * 1000 - 1);
    expect((await portal('GET', 'session', { browser: second })).status).toBe(401);
  });

  it('refuses a change without the session’s CSRF token, or from another site, and changes nothing', async () => {
    const { browser } = await signUp();
    const without = await portal('POST', 'keys', { browser, csrf: null, body: { name: 'x' } });
    expect(without.status).toBe(403);
    expect(((await without.json()) as Json).code).toBe('CSRF_FAILED');
    expect((await portal('POST', 'keys', { browser, csrf: 'A'.repeat(43), body: { name: 'x' } })).status).toBe(403);
    expect(
      (await portal('POST', 'keys', { browser, body: { name: 'x' }, headers: { Origin: 'https://evil.example' } }))
        .status,
    ).toBe(403);
    expect(
      (await portal('POST', 'keys', { browser, body: { name: 'x' }, headers: { 'Sec-Fetch-Site': 'cross-site' } }))
        .status,
    ).toBe(403);
    expect(((await (await portal('GET', 'keys', { browser })).json()) as Json).keys).toEqual([]);
  });
});

describe('keys, and the wall between the portal and the API', () => {
  it('creates a named key shown once, lists it with its last use, and revokes it so the API answers 401', async () => {
    const { browser } = await signUp();
    const created = (await (await portal('POST', 'keys', { browser, body: { name: 'ci runner' } })).json()) as Json;
    expect(created).toEqual({
      key_id: expect.stringMatching(/^key_/),
      name: 'ci runner',
      scopes: ['images', 'profiles', 'jobs', 'account:read'],
      api_key: expect.stringMatching(/^isk_/),
    });
    const listed = () => portal('GET', 'keys', { browser }).then((r) => r.json() as Promise<Json>);
    expect((await listed()).keys).toEqual([
      {
        key_id: created.key_id,
        name: 'ci runner',
        scopes: ['images', 'profiles', 'jobs', 'account:read'],
        created_at: expect.any(String),
        last_used_at: null,
        revoked_at: null,
      },
    ]);
    expect(JSON.stringify(await listed())).not.toContain(created.api_key);

    expect((await runtime.call('GET', '/v2/service/account', { apiKey: created.api_key })).status).toBe(200);
    expect((await listed()).keys[0].last_used_at).toEqual(expect.any(String));

    expect((await portal('POST', `keys/${created.key_id}/revoke`, { browser })).status).toBe(200);
    expect((await listed()).keys[0].revoked_at).toEqual(expect.any(String));
    expect((await runtime.call('GET', '/v2/service/account', { apiKey: created.api_key })).status).toBe(401);
    expect((await portal('POST', 'keys/key_unknown/revoke', { browser })).status).toBe(404);
    expect((await portal('POST', 'keys', { browser, body: { name: '' } })).status).toBe(422);
  });

  it('grants nothing to an API key in the portal, and nothing to a session on the public API', async () => {
    const { browser } = await signUp();
    const { api_key: apiKey } = (await (await portal('POST', 'keys', { browser, body: { name: 'k' } })).json()) as Json;
    const withKey = await fetch(`${runtime.url}/portal/api/account`, { headers: { 'X-API-Key': apiKey } });
    expect(withKey.status).toBe(401);
    const withCookie = await fetch(`${runtime.url}/v2/service/account`, { headers: { Cookie: browser.cookie } });
    expect(withCookie.status).toBe(403);
    expect(((await withCookie.json()) as Json).code).toBe('MISSING_API_KEY');
  });

  it('shows an account only its own jobs, deliveries and profiles', async () => {
    const mine = await signUp();
    const theirs = await runtime.newAccount();
    const submitted = await runtime.call('POST', '/v2/service/generate', {
      apiKey: theirs.apiKey,
      body: { prompt: 'a lighthouse', async: true },
    });
    const { job_id: jobId } = (await submitted.json()) as Json;
    expect(((await (await portal('GET', 'jobs', { browser: mine.browser })).json()) as Json).jobs).toEqual([]);
    expect((await portal('GET', `jobs/${jobId}/deliveries`, { browser: mine.browser })).status).toBe(404);
    expect(
      (
        await portal('POST', `jobs/${jobId}/deliveries/redeliver`, {
          browser: mine.browser,
          body: { callback_url: 'https://127.0.0.1:9/x' },
        })
      ).status,
    ).toBe(404);
    expect((await portal('GET', 'profiles/prf_nobody/picture', { browser: mine.browser })).status).toBe(404);
    expect((await portal('DELETE', 'profiles/prf_nobody', { browser: mine.browser })).status).toBe(404);
  });

  it('answers the account, ledger, spend, webhook secret and a webhook test as the API does', async () => {
    const { browser } = await signUp();
    expect(await (await portal('GET', 'ledger?limit=1', { browser })).json()).toMatchObject({
      entries: [{ kind: 'credit', amount: { micro_usd: 5_000_000 } }],
      next_cursor: null,
    });
    const spend = (await (await portal('GET', 'spend?days=7', { browser })).json()) as Json;
    expect(spend.days).toHaveLength(7);
    expect(spend.days.at(-1).credited.micro_usd).toBe(5_000_000);
    expect((await portal('GET', 'spend?days=0', { browser })).status).toBe(422);
    const secret = (await (await portal('GET', 'webhook-secret', { browser })).json()) as Json;
    expect(secret.webhook_signing_secret).toMatch(/^whsec_/);
    const rotated = (await (await portal('POST', 'webhook-secret/rotate', { browser })).json()) as Json;
    expect(rotated.webhook_signing_secret).not.toBe(secret.webhook_signing_secret);
    expect(
      await (await portal('POST', 'webhook-test', { browser, body: { url: 'https://127.0.0.1:9/x' } })).json(),
    ).toMatchObject({ delivered: false, error: 'network' });
    expect((await portal('POST', 'webhook-test', { browser, body: { url: 'http://example.com' } })).status).toBe(422);
  });
});

describe('the page', () => {
  it('serves the page and its hashed assets with a strict content security policy', async () => {
    const page = await fetch(`${runtime.url}/portal`);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(page.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    const html = await page.text();
    const [script] = [...html.matchAll(/src="([^"]+\.js)"/g)].map((match) => match[1]!);
    const [style] = [...html.matchAll(/href="([^"]+\.css)"/g)].map((match) => match[1]!);
    expect(script).toMatch(/^\/portal\/app-[0-9a-f]{12}\.js$/);
    const asset = await fetch(`${runtime.url}${script}`);
    expect(asset.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(asset.headers.get('cache-control')).toContain('immutable');
    expect((await fetch(`${runtime.url}${style}`)).status).toBe(200);
    expect((await fetch(`${runtime.url}/portal/nothing-here.js`)).status).toBe(404);
    expect((await fetch(`${runtime.url}/portal/api/nothing-here`)).status).toBe(404);
    expect((await fetch(`${runtime.url}/portal/api/keys`, { method: 'PUT' })).status).toBe(400);
  });

  it('serves the script and style that esbuild makes of functions/portal/ui/app, and no inline script', async () => {
    // Against the artefacts, this proves the synthesised portal function carries the same bytes.
    const built = buildPortalAssets();
    const html = await (await fetch(`${runtime.url}/portal`)).text();
    const scripts = [...html.matchAll(/<script\b[^>]*>([^<]*)<\/script>/g)];
    expect(scripts.map((match) => match[1])).toEqual(['']);
    const script = /src="([^"]+\.js)"/.exec(html)![1]!;
    const style = /href="([^"]+\.css)"/.exec(html)![1]!;
    expect(await (await fetch(`${runtime.url}${script}`)).text()).toBe(built.script);
    expect(await (await fetch(`${runtime.url}${style}`)).text()).toBe(built.style);
  });

  it('answers a malformed body in the service’s shape, never a crash', async () => {
    const response = await fetch(`${runtime.url}/portal/api/signin`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: '{"email":',
    });
    expect(response.status).toBe(422);
    expect(((await response.json()) as Json).detail[0].type).toBe('json_invalid');
  });
});
