import { apiHandler } from '../entry/http/api-handler';
import { text } from '../entry/http/responses';
import { API_TITLE } from './openapi/document';

/**
 * The reference page. Both URLs are relative, so the page works under any stage prefix and API version:
 * from `…/v2/service/docs` they resolve to `…/v2/service/openapi.json` and `…/v2/service/docs/scalar.js`.
 * Scalar's default fonts come from a CDN and its AI agent and developer tools call scalar.com, so all three are
 * turned off: the page loads nothing from anywhere but this API.
 */
const PAGE = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>${API_TITLE}: API reference</title>
  </head>
  <body>
    <div id="app"></div>
    <noscript>This page needs JavaScript. The OpenAPI document is at <a href="openapi.json">openapi.json</a>.</noscript>
    <script src="docs/scalar.js"></script>
    <script>
      Scalar.createApiReference('#app', { url: 'openapi.json', withDefaultFonts: false, showDeveloperTools: 'never', agent: { disabled: true }, telemetry: false });
    </script>
  </body>
</html>
`;

/** GET /v2/service/docs: the API reference, rendered in the browser from openapi.json. */
const lambdaHandler = async () =>
  text(PAGE, 'text/html; charset=utf-8', {
    'Cache-Control': 'public, max-age=300',
    'X-Content-Type-Options': 'nosniff',
  });

export const handler = apiHandler(lambdaHandler, { auth: 'none' });
