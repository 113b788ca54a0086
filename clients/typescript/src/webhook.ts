/**
 * Verifying a callback, before parsing it (the signatures cover the bytes as sent). A callback carries two:
 *
 * - Standard Webhooks (https://www.standardwebhooks.com): `webhook-id`, `webhook-timestamp`, and
 *   `webhook-signature`, a space-separated list of `v1,<base64 HMAC-SHA256 of "id.timestamp.body">`,
 *   keyed with the base64 after the secret's `whsec_` prefix. One per live secret: during a rotation the
 *   old and the new secret both verify. The timestamp must be within the tolerance, so a captured
 *   callback cannot be replayed later.
 * - The spec's `X-Service-Signature: sha256=<hex HMAC-SHA256 of the body>`, keyed with the secret
 *   string. It carries no time, so it is used only when the Standard Webhooks headers are absent.
 *
 * Digests are compared in constant time.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

export type WebhookScheme = 'standard-webhooks' | 'x-service-signature';

export class WebhookVerificationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WebhookVerificationError';
  }
}

type HeaderBag = Headers | Record<string, string | string[] | undefined>;

const header = (headers: HeaderBag, name: string): string | undefined => {
  if (headers instanceof Headers) return headers.get(name) ?? undefined;
  const entry = Object.entries(headers).find(([key]) => key.toLowerCase() === name);
  const value = entry?.[1];
  return Array.isArray(value) ? value[0] : value;
};

const equal = (a: Buffer, b: Buffer) => a.length === b.length && timingSafeEqual(a, b);

const standardKey = (secret: string) =>
  Buffer.from(secret.startsWith('whsec_') ? secret.slice('whsec_'.length) : secret, 'base64');

/** Which scheme verified the callback; throws WebhookVerificationError when none does. */
export const verifyWebhook = (
  rawBody: string | Uint8Array,
  headers: HeaderBag,
  secrets: string | readonly string[],
  options: { toleranceSeconds?: number; now?: () => number } = {},
): WebhookScheme => {
  const keys = typeof secrets === 'string' ? [secrets] : secrets;
  if (keys.length === 0 || keys.some((key) => key === ''))
    throw new WebhookVerificationError('no signing secret given');
  const body = typeof rawBody === 'string' ? Buffer.from(rawBody, 'utf8') : Buffer.from(rawBody);
  const signatures = header(headers, 'webhook-signature');
  if (signatures !== undefined) {
    const id = header(headers, 'webhook-id');
    const timestamp = header(headers, 'webhook-timestamp');
    if (!id || !timestamp || !/^\d+$/.test(timestamp))
      throw new WebhookVerificationError('webhook-id or webhook-timestamp is missing or malformed');
    const nowSeconds = Math.floor((options.now ?? Date.now)() / 1000);
    if (Math.abs(nowSeconds - Number(timestamp)) > (options.toleranceSeconds ?? 300))
      throw new WebhookVerificationError('webhook-timestamp is outside the tolerance');
    const offered = signatures
      .split(' ')
      .filter((entry) => entry.startsWith('v1,'))
      .map((entry) => Buffer.from(entry.slice(3), 'base64'));
    const signed = Buffer.concat([Buffer.from(`${id}.${timestamp}.`, 'utf8'), body]);
    for (const key of keys) {
      const expected = createHmac('sha256', standardKey(key)).update(signed).digest();
      if (offered.some((signature) => equal(signature, expected))) return 'standard-webhooks';
    }
    throw new WebhookVerificationError('no webhook-signature matches');
  }
  const spec = header(headers, 'x-service-signature');
  if (spec === undefined) throw new WebhookVerificationError('the callback carries no signature');
  if (!/^sha256=[0-9a-f]{64}$/.test(spec)) throw new WebhookVerificationError('X-Service-Signature is malformed');
  const offered = Buffer.from(spec.slice('sha256='.length), 'hex');
  for (const key of keys) {
    if (equal(offered, createHmac('sha256', key).update(body).digest())) return 'x-service-signature';
  }
  throw new WebhookVerificationError('X-Service-Signature does not match');
};
