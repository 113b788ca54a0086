/**
 * Read first: fal's completion webhook, checked exactly as fal documents it
 * (https://docs.fal.ai/model-apis/model-endpoints/webhooks, "Verifying Your Webhook"; retrieved for issue 32):
 * - the queue submit names the URL in the `fal_webhook` query parameter (@fal-ai/client 1.10.1 src/queue.js:
 *   `query: webhookUrl ? { fal_webhook: webhookUrl } : undefined`), and fal POSTs each request's end there
 *   with `{ request_id, gateway_request_id, status: "OK" | "ERROR", payload, error }`, retrying a delivery
 *   that is not answered 2xx (10 times over 2 hours), so duplicates are normal;
 * - each POST carries `X-Fal-Webhook-Request-Id`, `X-Fal-Webhook-User-Id`, `X-Fal-Webhook-Timestamp` (Unix
 *   seconds) and `X-Fal-Webhook-Signature` (hex): an ED25519 signature of the request id, the user id, the
 *   timestamp and the hex SHA-256 of the raw body, joined by "\n";
 * - the public keys are the JSON Web Key Set at https://rest.alpha.fal.ai/.well-known/jwks.json (OKP / Ed25519
 *   keys, `x` base64url); the headers name no key, so every key of the set is tried; the set may be cached;
 * - a timestamp more than 300 s from now is refused (a replay of a captured delivery).
 * The set is fetched through the guarded client (adapters/net/safe-http.ts), https only (a loopback http
 * address only with ALLOW_LOOPBACK_URLS, where the local double serves its own set), and cached; a signature
 * no cached key verifies fetches the set again, at most once a minute (fal may have rotated its keys).
 */
import { createHash, createPublicKey, type KeyObject, verify } from 'node:crypto';
import * as v from 'valibot';
import { HOSTED_PROVIDERS } from '../../../../deployment/providers';
import { safeRequest } from '../../../net/safe-http';

/** Where fal publishes its webhook keys unless FAL_JWKS_URL says otherwise (its row). */
export const FAL_JWKS_URL_DEFAULT: string = HOSTED_PROVIDERS.fal.queue.webhookKeysUrl.default;

/** fal's tolerance: a delivery whose timestamp is further than this from now is refused. */
export const FAL_WEBHOOK_TOLERANCE_SECONDS = 300;

export const FAL_WEBHOOK_HEADERS = {
  requestId: 'x-fal-webhook-request-id',
  userId: 'x-fal-webhook-user-id',
  timestamp: 'x-fal-webhook-timestamp',
  signature: 'x-fal-webhook-signature',
} as const;

/** The message fal signs: request id, user id, timestamp and the hex SHA-256 of the body, joined by newlines. */
export const falWebhookMessage = (requestId: string, userId: string, timestamp: string, body: Buffer): Buffer =>
  Buffer.from([requestId, userId, timestamp, createHash('sha256').update(body).digest('hex')].join('\n'), 'utf8');

/** One key of fal's set, as JWK (RFC 8037: OKP, Ed25519). Other kinds of key in the set are skipped. */
const JwkSchema = v.object({ kty: v.string(), crv: v.optional(v.string()), x: v.optional(v.string()) });
const JwksSchema = v.object({ keys: v.array(v.unknown()) });

/** The Ed25519 public keys of a JWKS document (the rest ignored). */
export const ed25519Keys = (document: unknown): KeyObject[] => {
  const parsed = v.safeParse(JwksSchema, document);
  if (!parsed.success) throw new Error('the JWKS document has no `keys` list');
  return parsed.output.keys.flatMap((candidate) => {
    const key = v.safeParse(JwkSchema, candidate);
    if (!key.success || key.output.kty !== 'OKP' || key.output.crv !== 'Ed25519' || !key.output.x) return [];
    try {
      return [createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: key.output.x }, format: 'jwk' })];
    } catch {
      return [];
    }
  });
};

/** Why a delivery is refused (logged; the answer is 401 whatever the reason). */
export type FalWebhookRefusal =
  | 'missing-header'
  | 'request-id-mismatch'
  | 'bad-timestamp'
  | 'old-timestamp'
  | 'bad-signature'
  | 'no-key-verifies';

export type FalWebhookCheck =
  | { ok: true; requestId: string; userId: string }
  | { ok: false; reason: FalWebhookRefusal };

const HEX_SIGNATURE = /^[0-9a-fA-F]{128}$/;

/**
 * The delivery checked against `keys` at `nowMs`: every header present, the timestamp within the tolerance,
 * and one key verifying the signature of the message fal describes. The body is the raw bytes received.
 */
export const checkFalWebhook = (
  headers: Readonly<Record<string, string | undefined>>,
  body: Buffer,
  keys: readonly KeyObject[],
  nowMs: number,
): FalWebhookCheck => {
  const requestId = headers[FAL_WEBHOOK_HEADERS.requestId];
  const userId = headers[FAL_WEBHOOK_HEADERS.userId];
  const timestamp = headers[FAL_WEBHOOK_HEADERS.timestamp];
  const signature = headers[FAL_WEBHOOK_HEADERS.signature];
  if (!requestId || !userId || !timestamp || !signature) return { ok: false, reason: 'missing-header' };
  if (!/^\d{1,12}$/.test(timestamp)) return { ok: false, reason: 'bad-timestamp' };
  if (Math.abs(nowMs / 1000 - Number(timestamp)) > FAL_WEBHOOK_TOLERANCE_SECONDS)
    return { ok: false, reason: 'old-timestamp' };
  if (!HEX_SIGNATURE.test(signature)) return { ok: false, reason: 'bad-signature' };
  const message = falWebhookMessage(requestId, userId, timestamp, body);
  const signed = Buffer.from(signature, 'hex');
  if (!keys.some((key) => verify(null, message, key, signed))) return { ok: false, reason: 'no-key-verifies' };
  return { ok: true, requestId, userId };
};

/** How long a fetched set is used before it is fetched again, and how soon an unknown signer may refetch it. */
const JWKS_CACHE_MS = 24 * 3600 * 1000;
const JWKS_REFETCH_MIN_MS = 60_000;
const JWKS_TIMEOUT_MS = 5_000;
const JWKS_MAX_BYTES = 64 * 1024;

export interface FalWebhookVerifierOptions {
  jwksUrl: string;
  allowLoopback: boolean;
  clock: () => number;
  /** Replaces the guarded fetch of the set (unit tests). */
  fetchJwks?: (url: string) => Promise<unknown>;
}

/** Fetches the set through the guarded client: https (loopback http only in development), small, no redirect. */
const guardedJwks =
  (allowLoopback: boolean) =>
  async (url: string): Promise<unknown> => {
    const answer = await safeRequest({
      url,
      method: 'GET',
      headers: { accept: 'application/json' },
      timeoutMs: JWKS_TIMEOUT_MS,
      maxResponseBytes: JWKS_MAX_BYTES,
      maxRedirects: 0,
      requireHttps: !allowLoopback,
      allowLoopback,
    });
    if (answer.status !== 200) throw new Error(`fal's JWKS answered HTTP ${answer.status}`);
    return JSON.parse(answer.body.toString('utf8')) as unknown;
  };

/**
 * A verifier that keeps fal's keys in memory (per function instance): fetched on first use, again after a
 * day, and again (at most once a minute) when no cached key verifies a delivery.
 */
export const falWebhookVerifier = (options: FalWebhookVerifierOptions) => {
  const fetchJwks = options.fetchJwks ?? guardedJwks(options.allowLoopback);
  let cached: { keys: KeyObject[]; at: number } | undefined;
  let loading: Promise<KeyObject[]> | undefined;
  const load = (): Promise<KeyObject[]> => {
    loading ??= fetchJwks(options.jwksUrl)
      .then((document) => {
        const keys = ed25519Keys(document);
        cached = { keys, at: options.clock() };
        return keys;
      })
      .finally(() => {
        loading = undefined;
      });
    return loading;
  };
  return async (headers: Readonly<Record<string, string | undefined>>, body: Buffer): Promise<FalWebhookCheck> => {
    const now = options.clock();
    const fresh = cached !== undefined && now - cached.at < JWKS_CACHE_MS;
    const keys = fresh && cached ? cached.keys : await load();
    const checked = checkFalWebhook(headers, body, keys, now);
    if (checked.ok || checked.reason !== 'no-key-verifies') return checked;
    if (cached !== undefined && now - cached.at < JWKS_REFETCH_MIN_MS) return checked;
    return checkFalWebhook(headers, body, await load(), now);
  };
};

/** fal's delivery body (the docs' examples: OK with the endpoint's output, ERROR with `error` and the detail). */
export const FalWebhookBodySchema = v.object({
  request_id: v.pipe(v.string(), v.minLength(1)),
  gateway_request_id: v.optional(v.nullable(v.string())),
  status: v.picklist(['OK', 'ERROR']),
  payload: v.optional(v.unknown()),
  error: v.optional(v.nullable(v.string())),
  payload_error: v.optional(v.nullable(v.string())),
});
export type FalWebhookBody = v.InferOutput<typeof FalWebhookBodySchema>;
