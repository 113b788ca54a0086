/**
 * The client's types are generated from the service's OpenAPI document (functions/api/openapi/document.ts)
 * by openapi-typescript. `npm run generate -w clients/typescript` rewrites src/schema.d.ts; the repository's
 * test suite fails when the committed file differs from what the current document generates.
 */
import { openApiDocument } from '../../../functions/api/openapi/document';

/**
 * openapi-typescript's CommonJS build, typed by hand: its declarations combine `export =` with named
 * exports, which the repository's TypeScript 7 reads without the named ones. It prints through the
 * TypeScript 5 compiler API, installed for this package alone (clients/typescript/package.json).
 */
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { default: openapiTS, astToString } = require('openapi-typescript') as {
  default: (schema: object) => Promise<unknown>;
  astToString(ast: unknown): string;
};

const HEADER =
  "/** Generated from the service's OpenAPI document by openapi-typescript: do not edit (npm run generate -w clients/typescript). */\n\n";

export const generatedSchema = async (): Promise<string> => {
  return HEADER + astToString(await openapiTS(openApiDocument()));
};
