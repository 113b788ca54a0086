/**
 * Read first: the two callback signatures. Every delivery carries both, computed from the same secret
 * string that `GET /v2/service/webhook-secret` answers.
 *
 * 1. `X-Service-Signature` (the spec's): exactly GitHub's `X-Hub-Signature-256` format, `sha256=`
 *    followed by the 64 lowercase hex digits of HMAC-SHA256(key = the secret string as UTF-8, raw body).
 *    It holds one value, so during a rotation window it is made with the CURRENT secret only.
 * 2. Standard Webhooks (https://www.standardwebhooks.com/): `webhook-id`, `webhook-timestamp` (integer
 *    seconds) and `webhook-signature`, a space-separated list of `v1,<base64 HMAC-SHA256(key,
 *    "${id}.${timestamp}.${body}")>`, one per live secret, current first.
 *
 * The Standard Webhooks key is not the secret string: it is the bytes the text after `whsec_` encodes in
 * base64, as `new Webhook(secret)` of the `standardwebhooks` package derives it. Secrets issued since
 * Standard Webhooks support are standard base64, which that constructor (and the other languages'
 * libraries) read as is. Secrets issued before were base64url: Node's base64 decoder reads both
 * alphabets and yields the same 32 bytes, but the library's constructor refuses `-` and `_`, so a
 * receiver holding such a secret converts it to the standard alphabet first (docs/callbacks.md) or rotates.
 *
 * The HMAC covers the bytes as sent: a receiver must verify before parsing, because re-serialised JSON
 * (other whitespace, other key order) is a different body. The `sha256=` verification accepts only the
 * exact format (no uppercase hex, no surrounding whitespace, no other algorithm), like
 * @octokit/webhooks-methods, and compares in constant time (shared/hmac.ts); it returns false for anything malformed
 * and never throws.
 *
 * Signing uses node:crypto (shared/hmac.ts) rather than the package's `Webhook.sign`: the key derivation has to be ours
 * anyway (the package's constructor throws on the base64url secrets already issued), both headers then
 * come from one primitive, and the tests verify the output with the package itself.
 */
import { hmacMatches, hmacSha256 } from '../shared/hmac';

const PREFIX = 'sha256=';
const SIGNATURE_FORMAT = /^sha256=[0-9a-f]{64}$/;

/** The prefix Standard Webhooks libraries strip before base64-decoding a secret. */
export const STANDARD_WEBHOOKS_SECRET_PREFIX = 'whsec_';
const BASE64_EITHER_ALPHABET = /^(?:[A-Za-z0-9+/]+|[A-Za-z0-9_-]+)={0,2}$/;

export const SIGNATURE_HEADERS = {
  service: 'X-Service-Signature',
  id: 'webhook-id',
  timestamp: 'webhook-timestamp',
  signature: 'webhook-signature',
} as const;

/** The secrets a delivery is signed with: the current one, and the previous one while its rotation window is open. */
export interface SigningSecrets {
  current: string;
  previous?: string;
}

export function signCallbackBody(rawBody: string | Buffer, secret: string): string {
  if (secret === '') throw new RangeError('a callback signing secret must not be empty');
  return PREFIX + hmacSha256(secret, rawBody).toString('hex');
}

export function verifyCallbackSignature(rawBody: string | Buffer, header: string | undefined, secret: string): boolean {
  if (typeof header !== 'string' || !SIGNATURE_FORMAT.test(header)) return false;
  if (typeof secret !== 'string' || secret === '') return false;
  if (typeof rawBody !== 'string' && !Buffer.isBuffer(rawBody)) return false;
  return hmacMatches(secret, rawBody, Buffer.from(header.slice(PREFIX.length), 'hex'));
}

/** The HMAC key `new Webhook(secret)` derives: the base64 after `whsec_` decoded (either alphabet, see above). */
export function standardWebhooksKey(secret: string): Buffer {
  const encoded = secret.startsWith(STANDARD_WEBHOOKS_SECRET_PREFIX)
    ? secret.slice(STANDARD_WEBHOOKS_SECRET_PREFIX.length)
    : secret;
  if (!BASE64_EITHER_ALPHABET.test(encoded))
    throw new RangeError('a Standard Webhooks secret must be base64 after its whsec_ prefix');
  return Buffer.from(encoded, 'base64');
}

/** One `v1,<base64>` entry of `webhook-signature`. */
export function signStandardWebhook(id: string, timestampSeconds: number, rawBody: string, secret: string): string {
  const signed = `${id}.${timestampSeconds}.${rawBody}`;
  return `v1,${hmacSha256(standardWebhooksKey(secret), signed).toString('base64')}`;
}

/**
 * The signature headers of one attempt. `id` is the delivery id (the same on every retry); `atMs` is the
 * attempt's time, so `webhook-timestamp` moves from one attempt to the next.
 */
export function callbackSignatureHeaders(input: {
  id: string;
  atMs: number;
  body: string;
  secrets: SigningSecrets;
}): Record<string, string> {
  const timestampSeconds = Math.floor(input.atMs / 1000);
  const { current, previous } = input.secrets;
  const live = previous === undefined || previous === current ? [current] : [current, previous];
  return {
    [SIGNATURE_HEADERS.service]: signCallbackBody(input.body, current),
    [SIGNATURE_HEADERS.id]: input.id,
    [SIGNATURE_HEADERS.timestamp]: String(timestampSeconds),
    [SIGNATURE_HEADERS.signature]: live
      .map((secret) => signStandardWebhook(input.id, timestampSeconds, input.body, secret))
      .join(' '),
  };
}
