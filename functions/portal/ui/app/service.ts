/**
 * Read first: the page's client of the public API (/v2/service, same origin), for the playground and the
 * profile studio. The portal's own API (api.ts) never sees an API key and the public API never sees the
 * session: these calls carry only `X-API-Key`, a key the developer pasted or the page created for them,
 * kept in sessionStorage (this tab only, gone when it closes; never localStorage) and forgotten at sign-out.
 * The answers' types are the TypeScript client's, generated from the OpenAPI document.
 */
import type { components } from '../../../../clients/typescript/src/schema';

type Schemas = components['schemas'];
export type ModelList = Schemas['ModelList'];
export type BaseModel = ModelList['models'][number];
export type ImageResult = Schemas['ImageResult'];
export type JobHandle = Schemas['JobHandle'];
export type JobStatus = Schemas['JobStatus'];
export type JobPage = Schemas['JobPage'];
export type UploadTicket = Schemas['UploadTicket'];
export type PreflightReport = Schemas['PreflightReport'];
export type PreflightPhoto = PreflightReport['photos'][number];
export type ProfileStatus = Schemas['ProfileStatus'];
export type ServiceAccount = Schemas['Account'];
export type Operation = 'edit' | 'generate' | 'enhance' | 'remix';
export type UploadContentType = UploadTicket['upload_headers']['Content-Type'];

/** A face's rectangle in its image's own pixels (a recognised face's in an output, a preflight's in a photo). */
export type Box = ImageResult['recognized_faces'][number]['box'];

/** The origin-relative root of the public API: the portal is served at `<prefix>/portal`, the API at `<prefix>/v2/service`. */
const portalBase = document.body.getAttribute('data-base') ?? '/portal';
export const servicePath = `${portalBase.replace(/\/portal$/, '')}/v2/service`;
/** The same, absolute, as a developer would call it from elsewhere (curl). */
export const serviceUrl = (): string => `${location.origin}${servicePath}`;

const KEY_ITEM = 'portal.playground.api-key';

export const apiKey = {
  get: (): string | null => sessionStorage.getItem(KEY_ITEM),
  set: (key: string): void => sessionStorage.setItem(KEY_ITEM, key),
  forget: (): void => sessionStorage.removeItem(KEY_ITEM),
};

/** A validation problem of a 422, as pydantic writes it. */
interface Problem {
  loc?: Array<string | number>;
  msg: string;
}

/** The API's own refusal: its status, its stable code (absent on a 422) and its detail, shown as they are. */
export class ServiceError extends Error {
  constructor(
    readonly status: number,
    readonly code: string | undefined,
    readonly detail: string,
    readonly requestId: string | undefined,
  ) {
    super(`HTTP ${status}${code ? ` ${code}` : ''}: ${detail}`);
  }
}

const detailOf = (status: number, body: { detail?: unknown }): string => {
  const { detail } = body;
  if (Array.isArray(detail))
    return (detail as Problem[])
      .map((problem) => `${(problem.loc ?? []).join('.')}: ${problem.msg}`.replace(/^: /, ''))
      .join('; ');
  return typeof detail === 'string' && detail ? detail : `The request failed (${status}).`;
};

const parse = (text: string): unknown => {
  try {
    return text ? JSON.parse(text) : null;
  } catch {
    return null;
  }
};

/** One call of the public API with the tab's key; the answer is the API's JSON, or a ServiceError. */
export const serviceCall = async <T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> =>
  (await serviceAnswer<T>(method, path, body)).data;

/** The parsed answer and its headers (a synchronous image answer names its job in `X-Job-Id`). */
const serviceAnswer = async <T>(
  method: 'GET' | 'POST',
  path: string,
  body?: unknown,
): Promise<{ data: T; headers: Headers }> => {
  const key = apiKey.get();
  if (!key) throw new ServiceError(403, 'MISSING_API_KEY', 'Choose an API key for this tab first.', undefined);
  const headers: Record<string, string> = { Accept: 'application/json', 'X-API-Key': key };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const response = await fetch(`${servicePath}${path}`, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
    // The key is the credential: the portal's session cookie is not sent to the public API.
    credentials: 'omit',
  });
  const data = parse(await response.text());
  if (response.ok) return { data: data as T, headers: response.headers };
  const failure = (data ?? {}) as { detail?: unknown; code?: string; request_id?: string };
  throw new ServiceError(response.status, failure.code, detailOf(response.status, failure), failure.request_id);
};

export const UPLOAD_TYPES: readonly UploadContentType[] = [
  'image/jpeg',
  'image/png',
  'image/webp',
  'image/heic',
  'image/heif',
];

const isUploadType = (type: string): type is UploadContentType => (UPLOAD_TYPES as readonly string[]).includes(type);

/**
 * A direct upload: POST /uploads for a presigned PUT of exactly this file, the PUT to the bucket (the
 * service's own storage, which answers CORS), and the `upload:<id>` reference that stands for the file.
 */
export const uploadFile = async (file: File): Promise<string> => {
  const type = file.type === 'image/jpg' ? 'image/jpeg' : file.type;
  if (!isUploadType(type))
    throw new ServiceError(
      422,
      undefined,
      `${file.name}: JPEG, PNG, WebP or HEIC/HEIF only (not ${type || 'unknown'}).`,
      undefined,
    );
  const ticket = await serviceCall<UploadTicket>('POST', '/uploads', { content_type: type, size_bytes: file.size });
  const put = await fetch(ticket.upload_url, {
    method: ticket.upload_method,
    headers: ticket.upload_headers,
    body: file,
    credentials: 'omit',
  });
  if (!put.ok)
    throw new ServiceError(put.status, undefined, `The upload of ${file.name} was refused by the storage.`, undefined);
  return ticket.reference;
};

export const service = {
  account: () => serviceCall<ServiceAccount>('GET', '/account'),
  models: () => serviceCall<ModelList>('GET', '/models'),
  /** The answer, and for a synchronous one the job it was recorded as (`X-Job-Id`), whose cost a poll shows. */
  run: async (operation: Operation, body: Record<string, unknown>) => {
    const { data, headers } = await serviceAnswer<ImageResult | JobHandle>('POST', `/${operation}`, body);
    return { answer: data, jobId: headers.get('X-Job-Id') };
  },
  job: (jobId: string) => serviceCall<JobStatus>('GET', `/jobs/${encodeURIComponent(jobId)}`),
  preflight: (imageUrls: string[], tier: 'standard' | 'fast') =>
    serviceCall<PreflightReport>('POST', '/profiles/preflight', { image_urls: imageUrls, training_tier: tier }),
  addProfile: (body: { image_urls: string[]; training_tier: 'standard' | 'fast'; tag?: string }) =>
    serviceCall<{ profile_id: string }>('POST', '/profiles/add', body),
  profileStatus: (profileId: string) =>
    serviceCall<ProfileStatus>('GET', `/profiles/${encodeURIComponent(profileId)}/status`),
};
