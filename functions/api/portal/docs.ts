import { createHash } from 'node:crypto';
import { apiHandler } from '../../entry/http/api-handler';
import { text } from '../../entry/http/responses';
import { API_TITLE } from '../openapi/document';

/**
 * The reference page. Both URLs are relative, so the page works under any stage prefix and API version:
 * from `…/v2/service/docs` they resolve to `…/v2/service/openapi.json` and `…/v2/service/docs/scalar.js`.
 * Scalar's default fonts come from a CDN and its AI agent and developer tools call scalar.com, so all three are
 * turned off: the page loads nothing from anywhere but this API. Its API client ("Test Request") is hidden:
 * from the sandboxed page (below) a call to the API is cross-origin, and the API answers no CORS preflight.
 */
/**
 * The page runs sandboxed (below), where reading `localStorage` or `sessionStorage` throws, and Scalar reads
 * them as it loads (its theme, its client's state): it gets storage that lasts as long as the page.
 */
const MEMORY_STORAGE = `for (const name of ['localStorage', 'sessionStorage']) { const items = new Map(); Object.defineProperty(window, name, { configurable: true, value: { get length() { return items.size; }, key: (i) => [...items.keys()][i] ?? null, getItem: (k) => items.has(String(k)) ? items.get(String(k)) : null, setItem: (k, v) => { items.set(String(k), String(v)); }, removeItem: (k) => { items.delete(String(k)); }, clear: () => items.clear() } }); }`;
const BOOT = `Scalar.createApiReference('#app', { url: 'openapi.json', withDefaultFonts: false, showDeveloperTools: 'never', agent: { disabled: true }, telemetry: false, hideClientButton: true, hideTestRequestButton: true });`;

export const DOCS_PAGE = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>${API_TITLE}: API reference</title>
  </head>
  <body>
    <div id="app"></div>
    <noscript>This page needs JavaScript. The OpenAPI document is at <a href="openapi.json">openapi.json</a>.</noscript>
    <script>${MEMORY_STORAGE}</script>
    <script src="docs/scalar.js"></script>
    <script>${BOOT}</script>
  </body>
</html>
`;

/**
 * The page shares its origin with the developer portal (`/portal`), and Scalar is a large third-party
 * renderer: a flaw in it must not reach the portal's session. So the page is sandboxed (`sandbox
 * allow-scripts`, without `allow-same-origin`): the browser gives it an opaque origin of its own, so its
 * script reads no cookie and no storage of this origin (the playground's key is in sessionStorage), cannot
 * touch a portal window, and its requests to /portal are cross-site (the session cookie is SameSite, the
 * portal refuses cross-site writes and answers no CORS). Its one inline script is allowed by hash, its
 * requests go to this API only (openapi.json answers CORS for any origin), and nothing may frame it.
 */
export const DOCS_CSP = [
  "default-src 'none'",
  `script-src 'self' ${[MEMORY_STORAGE, BOOT].map((script) => `'sha256-${createHash('sha256').update(script).digest('base64')}'`).join(' ')}`,
  // Scalar sets style attributes and injects its theme as <style> elements.
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
  'sandbox allow-scripts allow-popups allow-downloads',
].join('; ');

/** GET /v2/service/docs: the API reference, rendered in the browser from openapi.json. */
const lambdaHandler = async () =>
  text(DOCS_PAGE, 'text/html; charset=utf-8', {
    'Cache-Control': 'public, max-age=300',
    'Content-Security-Policy': DOCS_CSP,
    'X-Content-Type-Options': 'nosniff',
    'X-Frame-Options': 'DENY',
    'Referrer-Policy': 'no-referrer',
  });

export const handler = apiHandler(lambdaHandler, { auth: 'none' });
