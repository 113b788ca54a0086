/**
 * Keys have scopes, over the wire in both runtimes: every API-key route of the route table refuses a key
 * without its scope (403 INSUFFICIENT_SCOPE naming it, in the error shape, before any work: nothing changes,
 * Stripe is not called), a key with it gets through, and a key stored before scopes existed (the previous
 * record shape) does everything but billing.
 */
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { services } from '../../bin/local-aws/services';
import { ITEM_TYPE, keys } from '../../functions/adapters/dynamo/table';
import { ROUTES, routePath } from '../../functions/deployment/routes';
import { API_KEY_PREFIX, hashApiKey } from '../../functions/domain/accounts/accounts';
import { API_SCOPES } from '../../functions/domain/accounts/scopes';
import { newId, newSecret } from '../../functions/domain/shared/ids';
import { signedInPerson } from '../support/portal-session';
import { useStripeRuntime } from '../support/stripe-runtime';

jest.setTimeout(120_000);

const world = useStripeRuntime({ API_KEY_CACHE_SECONDS: '0' });

// biome-ignore lint/suspicious/noExplicitAny: answers are read by path in assertions; their shape is checked against the OpenAPI schema
type Json = Record<string, any>;

const call = async (apiKey: string, method: string, route: string, body?: unknown) => {
  const response = await world.runtime.call(method, route, { apiKey, body });
  return { status: response.status, body: (await response.json()) as Json };
};

/** A route's path with made-up path parameters: the scope is checked before the route looks anything up. */
const pathOf = (route: (typeof ROUTES)[number]) => routePath('v2', route).replace(/\{[a-z_]+\}/g, 'x_1');

const API_KEY_ROUTES = ROUTES.filter((route) => route.auth !== 'none');

describe('a key without the scope a route needs', () => {
  it.each(API_SCOPES.map((scope) => [scope]))(
    'is refused on every %s route with 403 INSUFFICIENT_SCOPE',
    async (scope) => {
      const person = await signedInPerson(world.runtime, {
        creditMicros: 10_000_000,
        scopes: API_SCOPES.filter((other) => other !== scope),
      });
      const routes = API_KEY_ROUTES.filter((route) => route.scope === scope);
      expect(routes.length).toBeGreaterThan(0);
      const stripeCalls = world.stripe.requests.length;
      for (const route of routes) {
        const answer = await call(person.apiKey, route.method, pathOf(route), route.method === 'GET' ? undefined : {});
        expect({ route: `${route.method} ${route.path}`, status: answer.status, code: answer.body.code }).toEqual({
          route: `${route.method} ${route.path}`,
          status: 403,
          code: 'INSUFFICIENT_SCOPE',
        });
        expect(answer.body.detail).toContain(scope);
        expect(typeof answer.body.request_id).toBe('string');
      }
      // Nothing was done: no Stripe call, the balance and the settings as they were.
      expect(world.stripe.requests.length).toBe(stripeCalls);
      const billing = await person.portal('GET', 'billing/settings');
      expect(billing.body.auto_recharge).toMatchObject({ enabled: false, amount: null });
      expect((await person.portal('GET', 'account')).body.balance.micro_usd).toBe(10_000_000);
    },
  );

  it('changes nothing: PUT /account/billing without billing leaves the settings', async () => {
    const person = await signedInPerson(world.runtime, { scopes: ['images', 'account:read'] });
    const refused = await call(person.apiKey, 'PUT', '/v2/service/account/billing', {
      webhook_url: 'https://example.com/hook',
    });
    expect(refused).toMatchObject({ status: 403, body: { code: 'INSUFFICIENT_SCOPE' } });
    expect((await person.portal('GET', 'billing/settings')).body.webhook_url).toBeNull();
  });
});

describe('a key with the scope', () => {
  it('gets through: images and jobs, not billing', async () => {
    const person = await signedInPerson(world.runtime, { creditMicros: 10_000_000, scopes: ['images', 'jobs'] });
    expect((await call(person.apiKey, 'GET', '/v2/service/models')).status).toBe(200);
    expect((await call(person.apiKey, 'GET', '/v2/service/jobs')).status).toBe(200);
    expect((await call(person.apiKey, 'GET', '/v2/service/account')).status).toBe(403);
    const keys = (await person.portal('GET', 'keys')).body;
    expect(keys.keys[0].scopes).toEqual(['images', 'jobs']);
    expect(keys.scopes.map((choice: Json) => choice.scope)).toEqual(API_SCOPES);
  });

  it('is made with the default scopes (no billing) when the person chooses none, and refuses an unknown scope', async () => {
    const person = await signedInPerson(world.runtime);
    const made = await person.portal('POST', 'keys', { name: 'defaults' });
    expect(made.body.scopes).toEqual(['images', 'profiles', 'jobs', 'account:read']);
    expect((await call(made.body.api_key, 'GET', '/v2/service/account/billing')).status).toBe(403);
    expect((await person.portal('POST', 'keys', { name: 'odd', scopes: ['admin'] })).status).toBe(400);
    expect((await person.portal('POST', 'keys', { name: 'none', scopes: [] })).status).toBe(400);
  });

  it('an account’s first key (the operator’s create-account) has every scope', async () => {
    const account = await world.runtime.newAccount();
    expect((await call(account.apiKey, 'GET', '/v2/service/account/billing')).status).toBe(200);
  });
});

describe('a key stored before keys had scopes', () => {
  /** The key's two items exactly as the previous code wrote them: no `scopes`. */
  const legacyKey = async () => {
    const account = await world.runtime.newAccount(10_000_000);
    const apiKey = newSecret(API_KEY_PREFIX);
    const keyId = newId('key');
    const record = {
      keyId,
      accountId: account.accountId,
      name: null,
      keyHash: hashApiKey(apiKey),
      createdAt: Date.now(),
      revokedAt: null,
      requestsPerMinute: null,
      runningJobs: null,
    };
    const { table } = services();
    for (const item of [
      { ...keys.apiKeyLookup(record.keyHash), type: ITEM_TYPE.apiKeyLookup, ...record },
      { ...keys.apiKey(account.accountId, keyId), type: ITEM_TYPE.apiKey, ...record },
    ])
      await table.doc.send(new PutCommand({ TableName: table.name, Item: item }));
    return { ...account, apiKey };
  };

  it('does everything it could, but billing', async () => {
    const key = await legacyKey();
    expect((await call(key.apiKey, 'POST', '/v2/service/generate', { prompt: 'a lighthouse at dawn' })).status).toBe(
      200,
    );
    expect((await call(key.apiKey, 'GET', '/v2/service/jobs')).status).toBe(200);
    expect((await call(key.apiKey, 'GET', '/v2/service/profiles/ids')).status).toBe(200);
    expect((await call(key.apiKey, 'GET', '/v2/service/account')).status).toBe(200);
    expect((await call(key.apiKey, 'GET', '/v2/service/webhook-secret')).status).toBe(200);
    for (const [method, route] of [
      ['GET', '/v2/service/account/billing'],
      ['PUT', '/v2/service/account/billing'],
      ['GET', '/v2/service/account/top-ups'],
      ['POST', '/v2/service/account/top-ups'],
    ] as const)
      expect(await call(key.apiKey, method, route, method === 'GET' ? undefined : { amount: '10.00' })).toMatchObject({
        status: 403,
        body: { code: 'INSUFFICIENT_SCOPE' },
      });
  });
});
