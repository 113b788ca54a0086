/**
 * Read first: what an API key may do (docs/api.md, "Scopes"). As Stripe's restricted keys and GitHub's
 * fine-grained tokens, each key carries scopes, and each API-key route of the route table
 * (functions/deployment/routes.ts) names the one scope it needs; the one middleware stack refuses a call outside
 * its key's scopes with 403 INSUFFICIENT_SCOPE before any work.
 *
 * Keys are minted only by a person in the portal and by the operator's CLI. A key stored before scopes
 * existed has none on record: it reads as LEGACY_KEY_SCOPES, everything it could do but billing.
 */
import { InsufficientScopeError, InvalidRequestError } from '../errors';

export const API_SCOPES = ['images', 'profiles', 'jobs', 'account:read', 'billing'] as const;
export type ApiScope = (typeof API_SCOPES)[number];

/** What each scope allows, for the portal's key page, the CLI's usage and the docs. */
export const SCOPE_MEANING: Record<ApiScope, string> = {
  images: 'image operations (edit, generate, enhance, remix), direct uploads, the model list',
  profiles: 'create, preflight, list, tag, read and delete profiles',
  jobs: 'list, poll, cancel jobs and their callback deliveries; the webhook signing secret and test events',
  'account:read': 'the balance, limits and ledger',
  billing: 'top-ups and the billing settings (auto-recharge may only be lowered or turned off with a key)',
};

/** An account's first key and `npm start`'s development key: everything. */
export const ALL_SCOPES: readonly ApiScope[] = API_SCOPES;

/** A new key's scopes when none are chosen (the CLI without --scopes, the portal's preselection): no billing. */
export const DEFAULT_KEY_SCOPES: readonly ApiScope[] = ['images', 'profiles', 'jobs', 'account:read'];

/** A key stored before keys had scopes keeps what it could do, but billing (issue 41). */
export const LEGACY_KEY_SCOPES: readonly ApiScope[] = DEFAULT_KEY_SCOPES;

export const isApiScope = (text: string): text is ApiScope => (API_SCOPES as readonly string[]).includes(text);

/** The scopes as stored: known ones only (a scope from a later deploy is ignored, not a failure), in canonical order. */
export const storedScopes = (stored: readonly string[] | undefined | null): readonly ApiScope[] =>
  stored === undefined || stored === null ? LEGACY_KEY_SCOPES : API_SCOPES.filter((scope) => stored.includes(scope));

/** Scopes a person or the operator asked for: known, at least one, each once, in canonical order. */
export const chosenScopes = (requested: readonly string[]): readonly ApiScope[] => {
  const unknown = requested.filter((scope) => !isApiScope(scope));
  if (unknown.length > 0)
    throw new InvalidRequestError(`Unknown scope ${unknown.join(', ')}; the scopes are ${API_SCOPES.join(', ')}.`);
  if (requested.length === 0)
    throw new InvalidRequestError(`A key needs at least one scope of ${API_SCOPES.join(', ')}.`);
  return API_SCOPES.filter((scope) => requested.includes(scope));
};

/** Throws 403 INSUFFICIENT_SCOPE, naming the scope, unless the key carries it. */
export const requireScope = (granted: readonly ApiScope[], needed: ApiScope): void => {
  if (!granted.includes(needed)) throw new InsufficientScopeError(needed);
};
