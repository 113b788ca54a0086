/** The answer of the documentation route that serves the OpenAPI document (responses/index.ts). */
import * as v from 'valibot';

/** The OpenAPI document itself, as far as its own description goes (it is validated as OpenAPI 3.1 in the tests). */
export const OpenApiDocumentSchema = v.pipe(
  v.looseObject({
    openapi: v.literal('3.1.0'),
    info: v.looseObject({ title: v.string(), version: v.string() }),
    paths: v.record(v.string(), v.unknown()),
  }),
  v.title('OpenApiDocument'),
);
