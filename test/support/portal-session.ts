/**
 * A person signed in to the portal, as a browser is: an invitation accepted over HTTP, the session cookie
 * and its CSRF token, and an API key the person made there with the scopes chosen. What only a person may
 * agree to (turning auto-recharge on, saving a card) is done through `portal`.
 */
import { services } from '../../bin/local-aws/services';
import { DynamoPortal } from '../../functions/adapters/dynamo/portal-repository';
import { API_SCOPES } from '../../functions/domain/accounts/scopes';
import { invite } from '../../functions/domain/portal/portal';
import { newId } from '../../functions/domain/shared/ids';
import { SESSION_COOKIE } from '../../functions/portal/handler';
import type { TestRuntime } from './runtime';

// biome-ignore lint/suspicious/noExplicitAny: answers are read by path in assertions
type Json = Record<string, any>;

export interface PortalPerson {
  accountId: string;
  /** A key the person made in the portal, with every scope unless others were asked for. */
  apiKey: string;
  portal(method: string, route: string, body?: unknown): Promise<{ status: number; body: Json }>;
}

export const signedInPerson = async (
  runtime: TestRuntime,
  options: { creditMicros?: number; scopes?: readonly string[] } = {},
): Promise<PortalPerson> => {
  const email = `dev-${newId('acc')}@example.com`;
  const { token } = await invite(
    { portal: new DynamoPortal(services().table, newId), clock: Date.now },
    { email, creditMicros: options.creditMicros ?? 0 },
  );
  const signUp = await fetch(`${runtime.url}/portal/api/signup`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ invitation: token, email, password: 'a long enough passphrase' }),
  });
  if (signUp.status !== 200) throw new Error(`sign-up answered ${signUp.status}: ${await signUp.text()}`);
  const cookie = new RegExp(`${SESSION_COOKIE}=[^;]+`).exec(signUp.headers.get('set-cookie') ?? '')?.[0] ?? '';
  const session = (await signUp.json()) as Json;
  const portal = async (method: string, route: string, body?: unknown) => {
    const response = await fetch(`${runtime.url}/portal/api/${route}`, {
      method,
      headers: {
        Cookie: cookie,
        ...(method !== 'GET' && { 'X-CSRF-Token': session.csrf_token }),
        ...(body !== undefined && { 'Content-Type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as Json };
  };
  const key = await portal('POST', 'keys', { name: 'test', scopes: options.scopes ?? API_SCOPES });
  if (key.status !== 200) throw new Error(`the portal made no key: ${JSON.stringify(key.body)}`);
  return { accountId: session.account_id, apiKey: key.body.api_key, portal };
};
