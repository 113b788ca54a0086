/**
 * The page's client of /portal/api: one function per route, each with the type of its answer. It sends the
 * session cookie (same origin) and, on every request that changes something, the session's CSRF token;
 * an answer that says the session has ended forgets it and shows the sign-in form.
 */
import { go } from './navigation';
import type {
  Account,
  Billing,
  BillingSettings,
  BillingSettingsUpdate,
  IssuedKey,
  JobDeliveries,
  JobPage,
  Key,
  LedgerPage,
  Money,
  Profile,
  Redelivery,
  ScopeChoice,
  Session,
  Spend,
  TopUp,
  TopUpCreated,
  TopUpPage,
  WebhookSecret,
  WebhookTest,
} from './types';

/** Where the portal is served, e.g. `/prod/portal` on AWS: the page names it on its body. */
const base = document.body.getAttribute('data-base') ?? '';

let session: Session | null = null;

/** The signed-in developer, once the page knows one. */
export const currentSession = (): Session | null => session;

/** A refusal by the portal API, with the service's stable error code. */
export class ApiError extends Error {
  constructor(
    message: string,
    readonly code: string | undefined,
  ) {
    super(message);
  }
}

/** The service's error body: `detail` is a message, or pydantic's list of problems for a 422. */
interface ErrorBody {
  detail?: string | Array<{ msg: string }>;
  code?: string;
}

const apiUrl = (path: string): string => `${base}/api/${path}`;

const parse = (text: string): unknown => {
  try {
    return text ? JSON.parse(text) : null;
  } catch {
    return null;
  }
};

const failureMessage = (status: number, body: ErrorBody): string => {
  const { detail } = body;
  if (Array.isArray(detail)) return detail.map((problem) => problem.msg).join('; ');
  return detail || `The request failed (${status}).`;
};

/**
 * One request. The answer is typed, not parsed: the API is this page's own back end, deployed with it, and
 * the shapes are those of types.ts.
 */
const call = async <T>(method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, body?: unknown): Promise<T> => {
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  if (method !== 'GET' && session) headers['X-CSRF-Token'] = session.csrf_token;
  const response = await fetch(apiUrl(path), {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
    credentials: 'same-origin',
  });
  const data = parse(await response.text());
  if (response.ok) return data as T;
  const failure = (data ?? {}) as ErrorBody;
  if (response.status === 401 && failure.code === 'SESSION_REQUIRED') {
    session = null;
    go('#/signin');
  }
  throw new ApiError(failureMessage(response.status, failure), failure.code);
};

const remember = (answer: Session): Session => {
  session = answer;
  return answer;
};

/** `ledger?limit=20`, and the cursor of the page before when there is one. */
const paged = (path: string, cursor: string | null): string =>
  `${path}?limit=20${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;

const segment = encodeURIComponent;

export const api = {
  signUp: (body: { invitation: string; email: string; password: string; name: string | undefined }) =>
    call<Session>('POST', 'signup', body).then(remember),
  signIn: (body: { email: string; password: string }) => call<Session>('POST', 'signin', body).then(remember),
  signOut: () =>
    call<unknown>('POST', 'signout').then(() => {
      session = null;
    }),
  session: () => call<Session>('GET', 'session').then(remember),

  account: () => call<Account>('GET', 'account'),
  spend: (days: number) => call<Spend>('GET', `spend?days=${days}`),
  ledger: (cursor: string | null) => call<LedgerPage>('GET', paged('ledger', cursor)),

  billing: () => call<Billing>('GET', 'billing'),
  topUps: (cursor: string | null) => call<TopUpPage>('GET', paged('top-ups', cursor)),
  topUp: (topUpId: string) => call<TopUp>('GET', `top-ups/${segment(topUpId)}`),
  createTopUp: (amount: string, saveCard: boolean) =>
    call<TopUpCreated>('POST', 'top-ups', { amount, save_card: saveCard }),

  billingSettings: () => call<BillingSettings>('GET', 'billing/settings'),
  updateBillingSettings: (body: BillingSettingsUpdate) => call<BillingSettings>('PUT', 'billing/settings', body),

  keys: () => call<{ keys: Key[]; scopes: ScopeChoice[] }>('GET', 'keys'),
  /** `scopes` omitted: the default (every scope but billing). */
  createKey: (name: string, scopes?: string[]) => call<IssuedKey>('POST', 'keys', { name, scopes }),
  revokeKey: (keyId: string) => call<unknown>('POST', `keys/${segment(keyId)}/revoke`),

  jobs: (cursor: string | null) => call<JobPage>('GET', paged('jobs', cursor)),
  deliveries: (jobId: string) => call<JobDeliveries>('GET', `jobs/${segment(jobId)}/deliveries`),
  redeliver: (jobId: string) => call<Redelivery>('POST', `jobs/${segment(jobId)}/deliveries/redeliver`, {}),

  webhookSecret: () => call<WebhookSecret>('GET', 'webhook-secret'),
  rotateWebhookSecret: () => call<WebhookSecret>('POST', 'webhook-secret/rotate'),
  testWebhook: (url: string) => call<WebhookTest>('POST', 'webhook-test', { url }),

  profiles: () => call<{ profiles: Profile[] }>('GET', 'profiles'),
  deleteProfile: (profileId: string) => call<unknown>('DELETE', `profiles/${segment(profileId)}`),
  /** The picture is an image the browser loads itself, with the cookie. */
  profilePictureUrl: (profileId: string) => apiUrl(`profiles/${segment(profileId)}/picture`),
  /** How many reference crops training kept, and each as an image (rank 0 the best). */
  referenceCount: (profileId: string) =>
    call<{ count: number }>('GET', `profiles/${segment(profileId)}/references`).then((answer) => answer.count),
  referenceUrl: (profileId: string, rank: number) => apiUrl(`profiles/${segment(profileId)}/references/${rank}`),
  trainingPrices: () => call<{ standard: Money; fast: Money }>('GET', 'training-prices'),
};
