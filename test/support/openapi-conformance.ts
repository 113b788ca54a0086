/**
 * Every answer an integration test receives is checked against the OpenAPI document: its route and
 * status must be documented, its media type declared, and a JSON body must match the declared schema.
 * The test runtime (runtime.ts) collects the problems and fails the file when it closes, so the
 * document cannot drift from what the service answers, in either runtime.
 */
import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import type { GatewayAnswer } from '../../bin/local-aws/gateway';
import { openApiDocument } from '../../functions/api/openapi/document';

type Json = Record<string, unknown>;

const pointer = (...segments: string[]): string =>
  segments.map((segment) => segment.replace(/~/g, '~0').replace(/\//g, '~1')).join('/');

const headerValue = (headers: GatewayAnswer['headers'], name: string): string | undefined => {
  const entry = Object.entries(headers).find(([key]) => key.toLowerCase() === name.toLowerCase());
  return entry === undefined ? undefined : Array.isArray(entry[1]) ? entry[1][0] : entry[1];
};

export const answerChecker = (document: Json = openApiDocument()) => {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  ajv.addSchema(document, 'openapi.json');
  const validators = new Map<string, ValidateFunction>();
  const validatorAt = (ref: string) => {
    let validate = validators.get(ref);
    if (!validate) {
      validate = ajv.compile({ $ref: ref });
      validators.set(ref, validate);
    }
    return validate;
  };
  const paths = document.paths as Record<
    string,
    Record<string, { responses: Record<string, { content?: Record<string, unknown> }> }>
  >;

  /** What is wrong with one answer, or undefined when it is as documented. */
  return (answer: GatewayAnswer): string | undefined => {
    // The document is the public API's; the portal (/portal) is a page and its own back end, tested apart.
    if (!/^\/v\d+\/service\//.test(answer.resource)) return undefined;
    const where = `${answer.method} ${answer.resource} → ${answer.status}`;
    const method = answer.method.toLowerCase();
    const response = paths[answer.resource]?.[method]?.responses[String(answer.status)];
    if (!response) return `${where}: this status is not in the OpenAPI document`;
    if (headerValue(answer.headers, 'X-Request-Id') === undefined) return `${where}: no X-Request-Id`;
    if (!response.content)
      return answer.body.length === 0 ? undefined : `${where}: a body where the document declares none`;
    const mediaType = headerValue(answer.headers, 'Content-Type')?.split(';')[0]?.trim() ?? '';
    if (!(mediaType in response.content))
      return `${where}: ${mediaType || 'no Content-Type'} is not among ${Object.keys(response.content).join(', ')}`;
    if (mediaType !== 'application/json') return undefined;
    let body: unknown;
    try {
      body = JSON.parse(answer.body.toString('utf8'));
    } catch {
      return `${where}: the body is not JSON`;
    }
    const validate = validatorAt(
      `openapi.json#/${pointer('paths', answer.resource, method, 'responses', String(answer.status), 'content', mediaType, 'schema')}`,
    );
    if (validate(body)) return undefined;
    return `${where}: ${ajv.errorsText(validate.errors)} in ${JSON.stringify(body).slice(0, 400)}`;
  };
};
