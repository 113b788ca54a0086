/** What a key may do: the scopes as stored, as chosen, and the check (scopes.ts), and each route's scope. */
import { ROUTES } from '../../../../functions/deployment/routes';
import { API_SCOPES, chosenScopes, requireScope, storedScopes } from '../../../../functions/domain/accounts/scopes';

describe('scopes', () => {
  it('reads a key stored without scopes as everything but billing, and drops a scope it does not know', () => {
    expect(storedScopes(undefined)).toEqual(['images', 'profiles', 'jobs', 'account:read']);
    expect(storedScopes(null)).toEqual(['images', 'profiles', 'jobs', 'account:read']);
    expect(storedScopes(['billing', 'admin:everything', 'images'])).toEqual(['images', 'billing']);
  });
  it('takes chosen scopes in canonical order and refuses none or an unknown one', () => {
    expect(chosenScopes(['jobs', 'images', 'jobs'])).toEqual(['images', 'jobs']);
    expect(() => chosenScopes([])).toThrow('at least one');
    expect(() => chosenScopes(['admin'])).toThrow('Unknown scope admin');
  });
  it('refuses a key without the scope with INSUFFICIENT_SCOPE naming it', () => {
    expect(() => requireScope(['images'], 'billing')).toThrow(expect.objectContaining({ code: 'INSUFFICIENT_SCOPE' }));
    expect(() => requireScope(['images'], 'billing')).toThrow('billing');
    expect(() => requireScope(['billing'], 'billing')).not.toThrow();
  });
  it('has every API-key route name a scope, and every scope serve a route; billing only the billing routes', () => {
    const scoped = ROUTES.filter((route) => route.auth !== 'none');
    expect(new Set(scoped.map((route) => route.scope))).toEqual(new Set(API_SCOPES));
    expect(scoped.filter((route) => route.scope === 'billing').map((route) => `${route.method} ${route.path}`)).toEqual(
      ['POST /account/top-ups', 'GET /account/top-ups', 'GET /account/billing', 'PUT /account/billing'],
    );
  });
});
