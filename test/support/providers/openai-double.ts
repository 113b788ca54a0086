/**
 * A local stand-in for OpenAI's Images API on 127.0.0.1 (port 0): POST /v1/images/generations (JSON) and
 * POST /v1/images/edits (multipart/form-data), answering ImagesResponse with real images made by sharp at the
 * size asked, or OpenAI's ErrorResponse. Start it in a test and hand `baseUrl` to the service as OPENAI_BASE_URL
 * (openAiDoubleEnvironment), in this process or another.
 *
 * What it checks, and against what (every violation is answered 400 invalid_request_error, as OpenAI does, and
 * recorded in `violations` so a test can assert there were none):
 * - Request bodies against OpenAI's published OpenAPI document, github.com/openai/openai-openapi openapi.json at
 *   commit f85dbe223d40e1a31cba812ab2d755c7e98a92a3 (2026-08-21, info.version 2.3.0), excerpted in
 *   openai-images.openapi.json (see its $comment, incl. the one widening: quality xhigh/max): JSON bodies
 *   against CreateImageRequest, multipart bodies against CreateImageEditRequest after parsing (a file part
 *   becomes a `binary:` marker string, which is what `format: binary` accepts here; repeated `image[]` parts
 *   become the `image` array; numeric and boolean fields are read as the schema types them). Unknown
 *   parameters are rejected too (`unevaluatedProperties: false` around the published schema), as OpenAI
 *   answers "Unknown parameter".
 * - From the same document's descriptions: size `auto` or WIDTHxHEIGHT with edges divisible by 16 and ratio
 *   within 1:3..3:1, and the pixel/edge limits OpenAI's image guide gives (655,360..8,294,400 px, edge ≤ 3840;
 *   quoted by docs.anyfast.ai's gpt-image-2 page); each image part png, webp or jpg (by content type and bytes).
 * - From issue 24: `xhigh` and `max` only with the gpt-image-2.5 models.
 * - Authorization: Bearer <key> (401 invalid_api_key otherwise, as OpenAI answers).
 * Answers are ImagesResponse (tests validate them with `validateImagesResponse`); a refusal is OpenAI's
 * 400 `moderation_blocked` shape as seen in the wild (type image_generation_user_error).
 *
 * The images draw the people of the input images as a model would, never their pixels (face-render.ts,
 * with its prompt triggers `[double:drift]` and `[double:no-face]`). A request whose text (prompt, file
 * names, any field) carries `[[` or `prf_` is answered as usual but recorded in `violations`: no internal
 * id may reach a provider.
 */
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { internalIdsIn, renderOutput, requestSeed } from './face-render';
import document from './openai-images.openapi.json';

const SCHEMAS = '#/components/schemas/';
const MARKER = 'binary:';

const ajv = new Ajv2020({ allErrors: true, strict: true });
addFormats(ajv);
ajv.addFormat('binary', { type: 'string', validate: (value: string) => value.startsWith(MARKER) });
ajv.addFormat('unixtime', { type: 'number', validate: (value: number) => Number.isInteger(value) && value >= 0 });
// Annotations of the OpenAPI document that check nothing.
ajv.addVocabulary([
  'example',
  'x-oaiMeta',
  'x-oaiTypeLabel',
  'x-stainless-const',
  'openapi',
  'info',
  'paths',
  'components',
]);

/**
 * `nullable: true` is an OpenAPI 3.0 word the 3.1 document keeps: it is read as 3.0 meant it (null allowed),
 * written the 2020-12 way (ajv's own reading needs `type` beside it, which the anyOf properties lack).
 */
const nullableAsNull = (node: unknown): unknown => {
  if (Array.isArray(node)) return node.map(nullableAsNull);
  if (typeof node !== 'object' || node === null) return node;
  const { nullable, ...rest } = node as Record<string, unknown>;
  const copy = Object.fromEntries(Object.entries(rest).map(([key, value]) => [key, nullableAsNull(value)]));
  if (nullable !== true) return copy;
  if (Array.isArray(copy.anyOf)) return { ...copy, anyOf: [...copy.anyOf, { type: 'null' }] };
  return {
    ...copy,
    ...(typeof copy.type === 'string' && { type: [copy.type, 'null'] }),
    ...(Array.isArray(copy.enum) && { enum: [...copy.enum, null] }),
  };
};
ajv.addSchema(nullableAsNull(document) as object, 'openai-images');
const strict = (name: string) =>
  ajv.compile({ type: 'object', $ref: `openai-images${SCHEMAS}${name}`, unevaluatedProperties: false });
const validateGeneration = strict('CreateImageRequest');
const validateEdit = strict('CreateImageEditRequest');
const validateImages = ajv.compile({ $ref: `openai-images${SCHEMAS}ImagesResponse` });
const validateError = ajv.compile({ $ref: `openai-images${SCHEMAS}ErrorResponse` });

/** For tests: errors of `answer` against the published ImagesResponse (empty when it conforms). */
export const validateImagesResponse = (answer: unknown): string[] =>
  validateImages(answer) ? [] : ajv.errorsText(validateImages.errors).split(', ');

/** For tests: errors of `answer` against the published ErrorResponse. */
export const validateErrorResponse = (answer: unknown): string[] =>
  validateError(answer) ? [] : ajv.errorsText(validateError.errors).split(', ');

export interface ReceivedFile {
  field: string;
  filename: string;
  contentType: string;
  data: Buffer;
}

export interface OpenAiReceived {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  /** The JSON body, or the multipart body as an object (files as `binary:` markers). */
  body: Record<string, unknown>;
  /** Multipart file parts in order. */
  files: ReceivedFile[];
}

export interface Violation {
  path: string;
  errors: string[];
}

export type Scripted =
  /** The normal answer (to script a later one). */
  | { kind: 'images' }
  | { kind: 'fail'; status: number; retryAfter?: string; message?: string }
  | { kind: 'refuse'; code?: 'moderation_blocked' | 'content_policy_violation'; message?: string }
  | { kind: 'reject'; status?: number; message?: string; code?: string }
  | { kind: 'fewer' }
  | { kind: 'raw'; status: number; text: string }
  /** The images are made (and would be billed: `counters.unanswered`), then the answer is this 5xx instead. */
  | { kind: 'work-then-fail'; status: number }
  /** The request is received and never answered (a client-side timeout's provider). */
  | { kind: 'hang' };

export interface OpenAiDouble {
  /** Ends in /v1, as OPENAI_BASE_URL does. */
  baseUrl: string;
  apiKey: string;
  received: OpenAiReceived[];
  /** Every ImagesResponse sent, in order. */
  answers: Record<string, unknown>[];
  violations: Violation[];
  /** `refusedKeys`: requests answered 401 for their key; `unanswered`: requests whose work was done (and billed) but whose images never reached the client. */
  counters: { generations: number; edits: number; images: number; refusedKeys: number; unanswered: number };
  /** Held before every answer (for aborts). */
  delayMs: number;
  /** Answers taken one per request in order; a request with none scripted gets images. */
  script: Scripted[];
  /** false: answers leave `usage` out (optional in ImagesResponse), as a token-metered job must survive. */
  reportUsage: boolean;
  /** Multiplies the output tokens reported (1 by default): above the published counts, to test the ceiling. */
  outputTokensFactor: number;
  failNext(status: number, options?: { retryAfter?: string; message?: string }): void;
  /** Revokes the key: from now on it is answered 401 invalid_api_key (as OpenAI does), and `next` is the key. */
  revokeKey(next: string): void;
  refuseNext(code?: 'moderation_blocked' | 'content_policy_violation', message?: string): void;
  close(): Promise<void>;
}

export interface OpenAiDoubleOptions {
  apiKey?: string;
  /**
   * Draw the people of the input images as a model would (face-render.ts: another photo of the person, or
   * the face redrawn, anywhere in a seeded scene; default true); false draws the scene alone.
   */
  drawFaces?: boolean;
  /** Each output draws someone else with this probability (seeded; face-render.ts), 0 by default. */
  driftRate?: number;
}

export const openAiDoubleEnvironment = (double: Pick<OpenAiDouble, 'baseUrl' | 'apiKey'>) => ({
  OPENAI_BASE_URL: double.baseUrl,
  OPENAI_API_KEY: double.apiKey,
});

export const OPENAI_DOUBLE_REFUSAL =
  'Your request was rejected by the safety system. If you believe this is an error, contact us at help.openai.com and include the request ID req_double. safety_violations=[violence].';

const SIZE_LIMITS = { multiple: 16, maxEdge: 3840, maxRatio: 3, minPixels: 655_360, maxPixels: 8_294_400 };
const EXTRA_QUALITIES = new Set(['xhigh', 'max']);
const IMAGE_TYPES: Record<string, Buffer> = {
  'image/png': Buffer.from([0x89, 0x50, 0x4e, 0x47]),
  'image/jpeg': Buffer.from([0xff, 0xd8, 0xff]),
  'image/webp': Buffer.from('RIFF'),
};

const EXTENSIONS: Record<string, string[]> = {
  'image/png': ['png'],
  'image/jpeg': ['jpg', 'jpeg'],
  'image/webp': ['webp'],
};

/** Output tokens the double reports per image: proportional to the pixels, scaled by quality. */
export const doubleOutputTokens = (width: number, height: number, quality: string | undefined): number => {
  const factor: Record<string, number> = { low: 0.25, medium: 1, high: 4, xhigh: 6, max: 12 };
  return Math.ceil(((width * height) / 4096) * (factor[quality ?? 'auto'] ?? 2));
};

const errorBody = (message: string, type: string, param: string | null, code: string | null) => ({
  error: { message, type, param, code },
});

const send = (response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
  response.writeHead(status, { 'content-type': 'application/json', ...headers });
  response.end(typeof body === 'string' ? body : JSON.stringify(body));
};

/** Field types as the edit schema declares them, so multipart strings become what OpenAI would read. */
const typeOf = (schema: unknown): string[] => {
  if (typeof schema !== 'object' || schema === null) return [];
  const node = schema as { type?: string; anyOf?: unknown[]; $ref?: string };
  if (node.$ref) return typeOf(document.components.schemas[node.$ref.slice(SCHEMAS.length) as 'PartialImages']);
  return [...(node.type ? [node.type] : []), ...(node.anyOf ?? []).flatMap(typeOf)];
};
const EDIT_FIELDS = document.components.schemas.CreateImageEditRequest.properties as Record<string, unknown>;

const coerce = (field: string, value: string): unknown => {
  const types = typeOf(EDIT_FIELDS[field]);
  if (types.includes('integer') && /^-?\d+$/.test(value)) return Number(value);
  if (types.includes('number') && value.trim() !== '' && Number.isFinite(Number(value))) return Number(value);
  if (types.includes('boolean') && (value === 'true' || value === 'false')) return value === 'true';
  return value;
};

const parseMultipart = async (
  raw: Buffer,
  contentType: string,
): Promise<{ body: Record<string, unknown>; files: ReceivedFile[]; errors: string[] }> => {
  const form = await new Response(raw, { headers: { 'content-type': contentType } }).formData();
  const body: Record<string, unknown> = {};
  const files: ReceivedFile[] = [];
  const errors: string[] = [];
  for (const [field, value] of form.entries()) {
    let entry: unknown;
    if (typeof value === 'string') entry = coerce(field.replace(/\[\]$/, ''), value);
    else {
      const data = Buffer.from(await value.arrayBuffer());
      files.push({ field, filename: value.name, contentType: value.type, data });
      entry = `${MARKER}${value.type}:${data.length}:${value.name}`;
    }
    if (field.endsWith('[]')) {
      const name = field.slice(0, -2);
      const list = body[name];
      body[name] = Array.isArray(list) ? [...list, entry] : [entry];
    } else if (field in body) errors.push(`/${field} sent more than once`);
    else body[field] = entry;
  }
  return { body, files, errors };
};

const sizeErrors = (size: unknown): string[] => {
  if (size === undefined || size === null || size === 'auto') return [];
  const match = typeof size === 'string' ? /^(\d+)x(\d+)$/.exec(size) : null;
  if (!match) return [`/size '${String(size)}' is not WIDTHxHEIGHT`];
  const [width, height] = [Number(match[1]), Number(match[2])];
  const { multiple, maxEdge, maxRatio, minPixels, maxPixels } = SIZE_LIMITS;
  const errors: string[] = [];
  if (width % multiple !== 0 || height % multiple !== 0) errors.push(`/size ${size}: edges must divide by 16`);
  if (Math.max(width, height) > maxRatio * Math.min(width, height)) errors.push(`/size ${size}: ratio beyond 3:1`);
  if (Math.max(width, height) > maxEdge) errors.push(`/size ${size}: edge above ${maxEdge}`);
  if (width * height < minPixels || width * height > maxPixels) errors.push(`/size ${size}: pixels out of range`);
  return errors;
};

const sizeOf = (size: unknown): { width: number; height: number } => {
  const match = typeof size === 'string' ? /^(\d+)x(\d+)$/.exec(size) : null;
  return match ? { width: Number(match[1]), height: Number(match[2]) } : { width: 1024, height: 1024 };
};

export const startOpenAiDouble = async (options: OpenAiDoubleOptions = {}): Promise<OpenAiDouble> => {
  let apiKey = options.apiKey ?? 'sk-double';
  const revoked = new Set<string>();
  const drawFaces = options.drawFaces ?? true;
  let rendered = 0;
  const timers = new Set<NodeJS.Timeout>();

  const double: Omit<OpenAiDouble, 'baseUrl' | 'close'> = {
    apiKey,
    received: [],
    answers: [],
    violations: [],
    counters: { generations: 0, edits: 0, images: 0, refusedKeys: 0, unanswered: 0 },
    delayMs: 0,
    script: [],
    reportUsage: true,
    outputTokensFactor: 1,
    failNext: (status, { retryAfter, message } = {}) =>
      double.script.push({ kind: 'fail', status, retryAfter, message }),
    refuseNext: (code = 'moderation_blocked', message = OPENAI_DOUBLE_REFUSAL) =>
      double.script.push({ kind: 'refuse', code, message }),
    revokeKey: (next) => {
      revoked.add(apiKey);
      apiKey = next;
      double.apiKey = next;
    },
  };

  let closed = false;
  const later = (response: ServerResponse, action: () => void) => {
    if (closed || response.destroyed) return;
    if (double.delayMs <= 0) return action();
    const timer = setTimeout(() => {
      timers.delete(timer);
      if (!response.destroyed) action();
    }, double.delayMs);
    timers.add(timer);
  };

  const reject = (response: ServerResponse, path: string, errors: string[], param: string | null = null) => {
    double.violations.push({ path, errors });
    send(response, 400, errorBody(`Invalid request: ${errors.join('; ')}`, 'invalid_request_error', param, null));
  };

  const handle = async (path: string, headers: IncomingHttpHeaders, raw: Buffer, response: ServerResponse) => {
    const contentType = headers['content-type'] ?? '';
    const generation = path === '/v1/images/generations';
    if (!generation && path !== '/v1/images/edits') {
      return send(response, 404, errorBody(`Invalid URL (POST ${path})`, 'invalid_request_error', null, null));
    }
    if (headers.authorization !== `Bearer ${apiKey}`) {
      // A revoked key is the operator's to replace, not the adapter's mistake: answered, not a violation.
      if (!revoked.has(String(headers.authorization).replace(/^Bearer /, '')))
        double.violations.push({ path, errors: ['Authorization is not Bearer <the API key>'] });
      double.counters.refusedKeys += 1;
      return send(
        response,
        401,
        errorBody('Incorrect API key provided.', 'invalid_request_error', null, 'invalid_api_key'),
      );
    }
    let body: Record<string, unknown> = {};
    let files: ReceivedFile[] = [];
    const errors: string[] = [];
    if (generation) {
      if (!contentType.startsWith('application/json')) errors.push(`content-type ${contentType} is not JSON`);
      try {
        body = JSON.parse(raw.toString('utf8'));
      } catch {
        errors.push('body is not JSON');
      }
    } else if (!contentType.startsWith('multipart/form-data')) {
      errors.push(`content-type ${contentType} is not multipart/form-data`);
    } else {
      const parsed = await parseMultipart(raw, contentType);
      ({ body, files } = parsed);
      errors.push(...parsed.errors);
    }
    double.received.push({ method: 'POST', path, headers, body, files });

    const validate = generation ? validateGeneration : validateEdit;
    if (errors.length === 0 && !validate(body)) errors.push(...ajv.errorsText(validate.errors).split(', '));
    errors.push(...sizeErrors(body.size));
    if (typeof body.quality === 'string' && EXTRA_QUALITIES.has(body.quality)) {
      if (typeof body.model !== 'string' || !body.model.startsWith('gpt-image-2.5')) {
        errors.push(`/quality ${body.quality} is only for the gpt-image-2.5 models`);
      }
    }
    for (const file of files) {
      const magic = IMAGE_TYPES[file.contentType];
      if (!file.filename) errors.push(`/${file.field} part has no filename`);
      if (!magic) errors.push(`/${file.field} part has content type '${file.contentType}', not png, webp or jpeg`);
      else if (!file.data.subarray(0, magic.length).equals(magic))
        errors.push(`/${file.field} bytes are not ${file.contentType}`);
      // OpenAI's SDKs name a part from its file; a name that says another format than the bytes is a mislabel.
      const extension = /\.([a-z0-9]+)$/i.exec(file.filename)?.[1]?.toLowerCase();
      if (file.filename && !(extension && EXTENSIONS[file.contentType]?.includes(extension)))
        errors.push(`/${file.field} part is named '${file.filename}' but its content type is '${file.contentType}'`);
    }
    if (errors.length > 0) return reject(response, path, errors);
    const leaked = internalIdsIn(body);
    if (leaked.length > 0)
      double.violations.push({ path, errors: leaked.map((where) => `internal id sent: ${where}`) });

    if (generation) double.counters.generations += 1;
    else double.counters.edits += 1;
    const scripted = double.script.shift();
    if (scripted?.kind === 'fail') {
      const message =
        scripted.message ?? `The server had an error while processing your request (HTTP ${scripted.status}).`;
      const type = scripted.status === 429 ? 'requests' : 'server_error';
      return later(response, () =>
        send(
          response,
          scripted.status,
          errorBody(message, type, null, scripted.status === 429 ? 'rate_limit_exceeded' : null),
          scripted.retryAfter !== undefined ? { 'retry-after': scripted.retryAfter } : {},
        ),
      );
    }
    if (scripted?.kind === 'refuse') {
      return later(response, () =>
        send(
          response,
          400,
          errorBody(
            scripted.message ?? OPENAI_DOUBLE_REFUSAL,
            'image_generation_user_error',
            null,
            scripted.code ?? 'moderation_blocked',
          ),
        ),
      );
    }
    if (scripted?.kind === 'reject') {
      return later(response, () =>
        send(
          response,
          scripted.status ?? 400,
          errorBody(scripted.message ?? 'Invalid request.', 'invalid_request_error', null, scripted.code ?? null),
        ),
      );
    }
    if (scripted?.kind === 'raw') return later(response, () => send(response, scripted.status, scripted.text));
    if (scripted?.kind === 'hang') {
      double.counters.unanswered += 1;
      return;
    }

    const n = typeof body.n === 'number' ? body.n : 1;
    const made = scripted?.kind === 'fewer' ? Math.max(0, n - 1) : n;
    const { width, height } = sizeOf(body.size);
    const format = typeof body.output_format === 'string' ? body.output_format : 'png';
    const quality = typeof body.quality === 'string' ? body.quality : undefined;
    const prompt = typeof body.prompt === 'string' ? body.prompt : '';
    const inputs = drawFaces ? files.map((file) => file.data) : [];
    const images: Buffer[] = [];
    for (let index = 0; index < made; index += 1) {
      rendered += 1;
      const seed = requestSeed('openai', rendered, prompt, ...inputs);
      const drawFormat = format === 'jpeg' || format === 'webp' ? format : 'png';
      const { data } = await renderOutput({
        width,
        height,
        format: drawFormat,
        seed,
        prompt,
        inputs,
        driftRate: options.driftRate,
      });
      images.push(data);
    }
    double.counters.images += made;
    const textTokens = Math.ceil(prompt.length / 4) + 6;
    const imageTokens = files.length * 512;
    const outputTokens = Math.ceil(made * doubleOutputTokens(width, height, quality) * double.outputTokensFactor);
    const answer: Record<string, unknown> = {
      created: Math.floor(Date.now() / 1000),
      data: images.map((image) => ({ b64_json: image.toString('base64') })),
      background: 'opaque',
      output_format: format,
      // ImagesResponse lists only these values for size and quality: others are left out, never invented.
      ...(['1024x1024', '1024x1536', '1536x1024'].includes(`${width}x${height}`) && { size: `${width}x${height}` }),
      ...(quality && ['low', 'medium', 'high'].includes(quality) && { quality }),
      ...(double.reportUsage && {
        usage: {
          input_tokens: textTokens + imageTokens,
          output_tokens: outputTokens,
          total_tokens: textTokens + imageTokens + outputTokens,
          input_tokens_details: { text_tokens: textTokens, image_tokens: imageTokens },
        },
      }),
    };
    if (scripted?.kind === 'work-then-fail') {
      double.counters.unanswered += 1;
      return later(response, () =>
        send(
          response,
          scripted.status,
          errorBody(
            `The server had an error while processing your request (HTTP ${scripted.status}).`,
            'server_error',
            null,
            null,
          ),
        ),
      );
    }
    double.answers.push(answer);
    later(response, () => send(response, 200, answer));
  };

  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const path = (request.url ?? '').split('?')[0] ?? '';
      if (request.method !== 'POST') {
        return send(response, 405, errorBody('Method not allowed', 'invalid_request_error', null, null));
      }
      handle(path, request.headers, Buffer.concat(chunks), response).catch((error: unknown) => {
        if (!response.headersSent) {
          send(response, 500, errorBody(`double failed: ${String(error)}`, 'server_error', null, null));
        }
      });
    });
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('OpenAI double: not listening on TCP');

  return Object.assign(double, {
    baseUrl: `http://127.0.0.1:${address.port}/v1`,
    close: async () => {
      closed = true;
      for (const timer of timers) clearTimeout(timer);
      server.closeAllConnections();
      await new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())));
    },
  });
};
