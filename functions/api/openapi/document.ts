/**
 * Read first: the OpenAPI 3.1 document is generated, never written by hand. Paths come from the route
 * table (every route under every API version), request and response schemas from the valibot schemas the
 * handlers validate with (functions/api/schemas/), through @valibot/to-json-schema (JSON Schema 2020-12,
 * the dialect of OpenAPI 3.1), and the rest from OPERATION_DOCS. A route the table serves without an
 * entry there stops the build of the document: the tests build it, so the suite fails first.
 *
 * Request schemas are converted in their input form (what a client sends: `limit` is a string of digits
 * in the query), response schemas as they are (they have no transformations).
 */
import { type JsonSchema, toJsonSchema } from '@valibot/to-json-schema';
import type * as v from 'valibot';
import {
  type ApiVersion,
  CURRENT_API_VERSION,
  ROUTES,
  type RouteDefinition,
  routePath,
  routeVersions,
} from '../../deployment/routes';
import { API_SCOPES } from '../../domain/accounts/scopes';
import { API_ERROR_CODES } from '../../domain/errors';
import { ErrorBodySchema, ValidationErrorBodySchema } from '../schemas/responses';
import {
  type ErrorStatus,
  OPERATION_DOCS,
  type OperationDoc,
  type ResponseHeader,
  type SuccessAnswer,
} from './operations';

export const OPENAPI_VERSION = '3.1.0';
export const API_TITLE = 'Identity-preserving image service';
export const API_DOCUMENT_VERSION = '2.0.0';

type Json = Record<string, unknown>;

/**
 * The JSON Schema of a valibot schema, without the `$schema` key (the document sets the dialect once).
 * A lazy schema picks its form by the input (profiles' photo sources); its getter answers, given no input,
 * the schema of every form, inlined here. The converter still collects that form under `$defs`, which
 * nothing then references (the document has no `$defs` of its own to point at), so it is dropped.
 */
const jsonSchemaOf = (schema: v.GenericSchema, typeMode: 'input' | 'ignore'): Json => {
  const {
    $schema: _dialect,
    $defs: _inlined,
    ...rest
  } = toJsonSchema(schema, {
    target: 'draft-2020-12',
    typeMode,
    errorMode: 'ignore',
    overrideSchema: ({ valibotSchema }) =>
      valibotSchema.type === 'lazy'
        ? (jsonSchemaOf((valibotSchema as v.LazySchema<v.GenericSchema>).getter(undefined), typeMode) as JsonSchema)
        : undefined,
  }) as JsonSchema & { $schema?: string };
  if (JSON.stringify(rest).includes('"#/$defs/')) throw new Error('a schema refers to a definition the document lacks');
  return rest as Json;
};

const ERROR_MEANING: Record<ErrorStatus, string> = {
  400: 'Invalid request (a rule of the base-model catalog, `CONTENT_MODERATION`, `MIXED_PROFILE_MODEL_VERSIONS`, `PROFILE_NOT_READY`, `IDEMPOTENCY_KEY_REUSED`).',
  401: 'Unknown or revoked API key (`INVALID_API_KEY`).',
  402: 'The balance does not cover the reservation (`INSUFFICIENT_BALANCE`): for an image operation, the most it can cost (its ceiling), which `detail` names with the balance; nothing is created. `BALANCE_IN_DEBT`: a refund or a lost payment dispute took more than the balance held, and no new work starts until a top-up or a credit has repaid it.',
  403: 'No `X-API-Key` header (`MISSING_API_KEY`).',
  404: 'Not found, including another account’s resource (`NOT_FOUND`).',
  409: 'The job cannot be canceled: it has ended, or it is a synchronous call (`JOB_NOT_CANCELABLE`).',
  410: 'Expired (`JOB_EXPIRED` 24 h after completion, `DOWNLOAD_EXPIRED`).',
  413: 'The body is too large (`PAYLOAD_TOO_LARGE`); send large images by URL or as a direct upload.',
  422: 'Validation failed (the validation error body), or `NO_IMAGE_GENERATED` (the error body; not charged).',
  429: 'Over the account’s request rate (`RATE_LIMITED`); see `Retry-After`.',
  500: 'Internal error (`INTERNAL_ERROR`); a failed engine call is refunded.',
  503: 'Temporarily unavailable (`SERVICE_UNAVAILABLE`); retry with backoff.',
  504: 'The synchronous budget of 600 s ran out (`TIMEOUT`); the reservation is released. Resubmit with `async: true`.',
};

const HEADERS: Record<ResponseHeader | 'X-Request-Id' | 'Retry-After', Json> = {
  'X-Request-Id': { description: 'Identifies this answer; quote it to support.', schema: { type: 'string' } },
  'Idempotent-Replayed': {
    description: '`true` when the answer replays an earlier submit with the same `client_request_id`.',
    schema: { type: 'string', enum: ['true'] },
  },
  'X-Job-Id': {
    description:
      'The job a synchronous answer was recorded as (every image request is a job): `GET /jobs/{job_id}` shows its cost.',
    schema: { type: 'string' },
  },
  'X-Service-Deprecation-Date': {
    description: 'The default `output_format` became `jpg` on this date.',
    schema: { type: 'string', examples: ['2026-05-08'] },
  },
  'Retry-After': { description: 'Seconds until the request can be retried.', schema: { type: 'integer' } },
};

const headerRefs = (names: readonly (keyof typeof HEADERS)[]): Json =>
  Object.fromEntries(names.map((name) => [name, { $ref: `#/components/headers/${name}` }]));

const schemaRef = (name: string) => ({ $ref: `#/components/schemas/${name}` });

/** Registers a titled response schema as a component and answers its reference; untitled ones are inlined. */
type Namer = (schema: v.GenericSchema) => Json;

const successResponse = (answer: SuccessAnswer, named: Namer): Json => {
  const headers = headerRefs(['X-Request-Id', ...('json' in answer ? (answer.headers ?? []) : [])]);
  if ('json' in answer)
    return {
      description: answer.description,
      headers,
      content: { 'application/json': { schema: named(answer.json) } },
    };
  if ('media' in answer)
    return {
      description: answer.description,
      headers,
      content: { [answer.media]: { schema: { type: 'string', contentMediaType: answer.media } } },
    };
  return {
    description: answer.description,
    headers: {
      ...headers,
      Location: { description: 'Where the image is.', schema: { type: 'string', format: 'uri' } },
    },
  };
};

const errorResponse = (status: ErrorStatus): Json => {
  const schema =
    status === 422 ? { oneOf: [schemaRef('ValidationErrorBody'), schemaRef('ErrorBody')] } : schemaRef('ErrorBody');
  return {
    description: ERROR_MEANING[status],
    headers: headerRefs(status === 429 ? ['X-Request-Id', 'Retry-After'] : ['X-Request-Id']),
    content: { 'application/json': { schema } },
  };
};

const parameters = (where: 'query' | 'path', schema: OperationDoc['query']): Json[] =>
  Object.entries(schema?.entries ?? {}).map(([name, entry]) => {
    const optional = entry.type === 'optional';
    return {
      name,
      in: where,
      required: where === 'path' || !optional,
      schema: jsonSchemaOf(entry as v.GenericSchema, 'input'),
    };
  });

/** Every route refuses a body over the limit (413) and can fail (500, 503); an API-key route also checks the key and the rate. */
const ANY_ROUTE_ERRORS: readonly ErrorStatus[] = [413, 500, 503];
const API_KEY_ROUTE_ERRORS: readonly ErrorStatus[] = [401, 403, 429];

const errorsOf = (route: RouteDefinition, doc: OperationDoc): ErrorStatus[] =>
  [...new Set([...doc.errors, ...ANY_ROUTE_ERRORS, ...(route.auth === 'none' ? [] : API_KEY_ROUTE_ERRORS)])].sort(
    (a, b) => a - b,
  );

/**
 * What a route's key must carry (routes.ts): `x-required-scope`, a line of the description, and the scope in
 * its security requirement (OpenAPI 3.1 lets an apiKey scheme list role names there). A route without an API
 * key has none.
 */
const scopeOf = (route: RouteDefinition, description: string | undefined): Json =>
  route.auth === 'none'
    ? { ...(description && { description }), security: [] }
    : {
        description: `${description ? `${description}\n\n` : ''}Requires an API key with the \`${route.scope}\` scope (403 \`INSUFFICIENT_SCOPE\` otherwise).`,
        'x-required-scope': route.scope,
        security: [{ ApiKey: [route.scope] }],
      };

const operation = (route: RouteDefinition, version: ApiVersion, doc: OperationDoc, named: Namer): Json => ({
  operationId: version === CURRENT_API_VERSION ? doc.operationId : `${doc.operationId}_${version}`,
  // The older version's copies are grouped apart, so the reference lists each operation once at the top.
  tags: [version === CURRENT_API_VERSION ? doc.tag : DEPRECATED_TAG],
  summary: doc.summary,
  ...scopeOf(route, doc.description),
  ...(version !== CURRENT_API_VERSION && { deprecated: true }),
  parameters: [...parameters('path', doc.params), ...parameters('query', doc.query)],
  ...(doc.body && {
    requestBody: {
      required: doc.bodyOptional !== true,
      content: {
        'application/json': {
          schema: jsonSchemaOf(doc.body, 'input'),
          ...(doc.bodyExample !== undefined && { example: doc.bodyExample }),
        },
      },
    },
  }),
  responses: {
    ...Object.fromEntries(
      Object.entries(doc.success).map(([status, answer]) => [status, successResponse(answer, named)]),
    ),
    ...Object.fromEntries(errorsOf(route, doc).map((status) => [String(status), errorResponse(status)])),
  },
});

const DEPRECATED_TAG = 'Deprecated: /v1';

/** The key of a route in OPERATION_DOCS. */
export const routeKey = (route: Pick<RouteDefinition, 'method' | 'path'>): string => `${route.method} ${route.path}`;

export const openApiDocument = (routes: readonly RouteDefinition[] = ROUTES): Json => {
  const components = new Map<string, Json>();
  const named: Namer = (schema) => {
    const converted = jsonSchemaOf(schema, 'ignore');
    if (typeof converted.title !== 'string') return converted;
    components.set(converted.title, converted);
    return schemaRef(converted.title);
  };
  const paths: Record<string, Json> = {};
  for (const route of routes) {
    const doc = OPERATION_DOCS[routeKey(route)];
    if (!doc)
      throw new Error(`route ${routeKey(route)} has no entry in OPERATION_DOCS (functions/api/openapi/operations.ts)`);
    for (const version of routeVersions(route)) {
      const path = routePath(version, route);
      paths[path] = { ...paths[path], [route.method.toLowerCase()]: operation(route, version, doc, named) };
    }
  }
  components.set('ErrorBody', jsonSchemaOf(ErrorBodySchema, 'ignore'));
  components.set('ValidationErrorBody', jsonSchemaOf(ValidationErrorBodySchema, 'ignore'));
  return {
    openapi: OPENAPI_VERSION,
    info: {
      title: API_TITLE,
      version: API_DOCUMENT_VERSION,
      description:
        'Edits, generates, enhances and restyles images, keeping the identity of trained subjects. Every request ' +
        'carries `X-API-Key`; work is paid from a prepaid balance. `/v1/service` serves the same operations as ' +
        '`/v2/service`, marked deprecated, except those added since (billing), which are `/v2/service` only. Error codes: ' +
        API_ERROR_CODES.map((code) => `\`${code}\``).join(', ') +
        '.',
    },
    jsonSchemaDialect: 'https://json-schema.org/draft/2020-12/schema',
    security: [{ ApiKey: [] }],
    tags: [
      ...[...new Set(Object.values(OPERATION_DOCS).map((doc) => doc.tag))].map((name) => ({ name })),
      {
        name: DEPRECATED_TAG,
        description:
          'The same operations under `/v1/service`; answers carry `Deprecation: true` and a `Link` to the `/v2` path.',
      },
    ],
    paths,
    components: {
      securitySchemes: {
        ApiKey: {
          type: 'apiKey',
          in: 'header',
          name: 'X-API-Key',
          description: `The account’s API key. Each key carries scopes (${API_SCOPES.map((scope) => `\`${scope}\``).join(', ')}) and each operation names the one it needs; a call outside them is 403 \`INSUFFICIENT_SCOPE\`.`,
        },
      },
      headers: HEADERS,
      schemas: Object.fromEntries([...components].sort(([a], [b]) => a.localeCompare(b))),
    },
  };
};
