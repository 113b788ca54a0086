/** What a handler returns: a typed result that the HTTP layer serialises (handlers never build responses). */
export type ApiResult =
  | { kind: 'json'; status: number; body: unknown; headers?: Record<string, string> }
  | { kind: 'binary'; status: number; body: Buffer; contentType: string; headers?: Record<string, string> }
  | { kind: 'text'; status: number; body: string; contentType: string; headers?: Record<string, string> }
  | { kind: 'redirect'; location: string };

export const ok = (body: unknown, headers?: Record<string, string>): ApiResult => ({
  kind: 'json',
  status: 200,
  body,
  headers,
});

export const created = (body: unknown, headers?: Record<string, string>): ApiResult => ({
  kind: 'json',
  status: 201,
  body,
  headers,
});

export const accepted = (body: unknown, headers?: Record<string, string>): ApiResult => ({
  kind: 'json',
  status: 202,
  body,
  headers,
});

export const binary = (body: Buffer, contentType: string): ApiResult => ({
  kind: 'binary',
  status: 200,
  body,
  contentType,
});

/** A text document (a page, a script): sent as text, so API Gateway needs no binary media type for it. */
export const text = (body: string, contentType: string, headers?: Record<string, string>): ApiResult => ({
  kind: 'text',
  status: 200,
  body,
  contentType,
  headers,
});

export const redirect = (location: string): ApiResult => ({ kind: 'redirect', location });
