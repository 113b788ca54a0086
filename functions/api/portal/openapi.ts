import { type ApiRequest, apiHandler } from '../../entry/http/api-handler';
import { ok } from '../../entry/http/responses';
import { openApiDocument } from '../openapi/document';

/** Built once per cold start: the document depends only on the code. */
const document = openApiDocument();

/** GET /v2/service/openapi.json: the OpenAPI 3.1 document, with this deployment's base URL as its server. */
const lambdaHandler = async ({ baseUrl }: ApiRequest) =>
  ok(
    { ...document, servers: [{ url: baseUrl }] },
    { 'Cache-Control': 'public, max-age=300', 'Access-Control-Allow-Origin': '*' },
  );

export const handler = apiHandler(lambdaHandler, { auth: 'none' });
