import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { openApiDocument, routeKey } from '../../../../functions/api/openapi/document';
import {
  API_VERSIONS,
  ROUTES,
  type RouteDefinition,
  routePath,
  routeVersions,
} from '../../../../functions/deployment/routes';
import { answerChecker } from '../../../support/openapi-conformance';

type Operation = {
  security?: unknown[];
  deprecated?: boolean;
  responses: Record<string, unknown>;
  requestBody?: unknown;
};
const document = openApiDocument() as { paths: Record<string, Record<string, Operation>> } & Record<string, unknown>;
const operationOf = (version: (typeof API_VERSIONS)[number], route: RouteDefinition) =>
  document.paths[routePath(version, route)]?.[route.method.toLowerCase()];

const jobStatus = {
  job_id: 'job_1',
  status: 'succeeded',
  operation: 'generate',
  created_at: '2026-11-23T12:00:00.000Z',
  result: {
    known_subjects: { counts: {} },
    recognized_faces: [],
    images: [],
    download_urls: ['http://127.0.0.1:3000/v2/service/downloads/dl_1'],
  },
  error: null,
  completed_at: '2026-11-23T12:00:09.000Z',
  progress: 1,
  eta_seconds: 0,
  cost: { reserved: '0.04', final: '0.04' },
};
const answer = (body: unknown, overrides: Partial<Parameters<ReturnType<typeof answerChecker>>[0]> = {}) => ({
  method: 'GET',
  resource: '/v2/service/jobs/{job_id}',
  status: 200,
  headers: { 'Content-Type': 'application/json', 'X-Request-Id': 'r1' },
  body: Buffer.from(JSON.stringify(body)),
  ...overrides,
});

describe('the OpenAPI document', () => {
  it('is a valid OpenAPI 3.1 document', () => {
    const output = execFileSync(process.execPath, [path.join(__dirname, '../../../support/validate-openapi.mjs')], {
      input: JSON.stringify(document),
    });
    const result = JSON.parse(output.toString('utf8')) as { valid: boolean; version: string; errors: unknown };
    expect(result).toEqual({ valid: true, version: '3.1', errors: [] });
  });

  it('has every route of the route table under each API version it is mounted on, the older ones deprecated', () => {
    for (const route of ROUTES) {
      for (const version of API_VERSIONS) {
        const operation = operationOf(version, route);
        const mounted = routeVersions(route).includes(version);
        expect({ route: routeKey(route), version, documented: operation !== undefined }).toEqual({
          route: routeKey(route),
          version,
          documented: mounted,
        });
        if (mounted) expect(operation?.deprecated ?? false).toBe(version !== 'v2');
      }
    }
    // Only routes added after /v1 was deprecated are /v2 only.
    expect(ROUTES.filter((route) => !routeVersions(route).includes('v1')).map((route) => route.path)).toEqual([
      '/account/top-ups',
      '/account/top-ups',
      '/account/billing',
      '/account/billing',
      '/billing/stripe/webhook',
    ]);
  });

  it('asks for the API key everywhere except on routes that carry their own credential', () => {
    for (const route of ROUTES) {
      expect({ route: routeKey(route), open: operationOf('v2', route)?.security?.length === 0 }).toEqual({
        route: routeKey(route),
        open: route.auth === 'none',
      });
    }
  });

  it('lists the status codes the spec gives for each endpoint', () => {
    const codes = (method: string, path: string) =>
      Object.keys(document.paths[`/v2/service${path}`]![method]!.responses);
    expect(codes('post', '/edit')).toEqual(
      expect.arrayContaining(['200', '202', '400', '401', '402', '403', '404', '422', '500', '503', '504']),
    );
    expect(codes('get', '/jobs/{job_id}')).toEqual(
      expect.arrayContaining(['200', '401', '403', '404', '410', '422', '500', '503']),
    );
    expect(codes('get', '/webhook-secret')).toEqual(expect.arrayContaining(['200', '401', '403']));
    expect(codes('post', '/profiles/add')).toEqual(
      expect.arrayContaining(['200', '401', '402', '403', '404', '422', '500']),
    );
    expect(codes('post', '/profiles/tags')).toEqual(expect.arrayContaining(['200', '401', '403', '422', '500']));
  });

  it('refuses to build without a description of every route', () => {
    expect(() =>
      openApiDocument([
        ...ROUTES,
        { method: 'GET', group: 'images', path: '/undocumented', handler: 'x', scope: 'images', access: {} },
      ]),
    ).toThrow('GET /undocumented');
  });
});

describe('checking an answer against the document', () => {
  const check = answerChecker(document);

  it('accepts an answer as documented', () => {
    expect(check(answer(jobStatus))).toBeUndefined();
  });

  it('refuses a body with a field the document does not have', () => {
    expect(check(answer({ ...jobStatus, priority: 'high' }))).toMatch(/must NOT have additional properties/);
  });

  it('refuses a body missing a field', () => {
    const { completed_at: _dropped, ...rest } = jobStatus;
    expect(check(answer(rest))).toMatch(/must have required property 'completed_at'/);
  });

  it('refuses a status the route does not document', () => {
    expect(check(answer(jobStatus, { status: 418 }))).toMatch(/not in the OpenAPI document/);
  });

  it('refuses a media type the route does not declare', () => {
    expect(check(answer(jobStatus, { headers: { 'Content-Type': 'text/plain', 'X-Request-Id': 'r1' } }))).toMatch(
      /text\/plain is not among application\/json/,
    );
  });

  it('refuses an answer without X-Request-Id', () => {
    expect(check(answer(jobStatus, { headers: { 'Content-Type': 'application/json' } }))).toMatch(/no X-Request-Id/);
  });

  it('takes either validation errors or the error body for a 422', () => {
    const at422 = { status: 422, resource: '/v2/service/edit', method: 'POST' };
    expect(check(answer({ detail: 'No image.', code: 'NO_IMAGE_GENERATED', request_id: 'r1' }, at422))).toBeUndefined();
    expect(
      check(answer({ detail: [{ loc: ['body', 'images'], msg: 'Field required', type: 'missing' }] }, at422)),
    ).toBeUndefined();
    expect(check(answer({ detail: 42 }, at422))).toMatch(/oneOf/);
  });
});
