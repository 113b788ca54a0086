import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { SCALAR_SCRIPT } from '../../deployment/routes';
import { apiHandler } from '../../entry/http/api-handler';
import { text } from '../../entry/http/responses';

/**
 * Scalar's standalone build. In the Lambda asset it lies beside the bundle (RouteDefinition.files copies
 * it there at synth); run from the sources, it is read from the installed package.
 */
const scriptPath = (): string => {
  const besideBundle = path.join(__dirname, path.basename(SCALAR_SCRIPT));
  return fs.existsSync(besideBundle) ? besideBundle : createRequire(__filename).resolve(SCALAR_SCRIPT);
};

const script = fs.readFileSync(scriptPath(), 'utf8');

/** GET /v2/service/docs/scalar.js: the reference page's renderer, cached by browsers for a day. */
const lambdaHandler = async () =>
  text(script, 'text/javascript; charset=utf-8', {
    'Cache-Control': 'public, max-age=86400',
    'X-Content-Type-Options': 'nosniff',
  });

export const handler = apiHandler(lambdaHandler, { auth: 'none' });
