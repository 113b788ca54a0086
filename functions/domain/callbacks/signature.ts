/**
 * Read first: the callback signature. The header is exactly GitHub's `X-Hub-Signature-256` format,
 * `sha256=` followed by the 64 lowercase hex digits of HMAC-SHA256(secret, raw body bytes).
 *
 * The HMAC covers the bytes as sent: a receiver must verify before parsing, because re-serialised JSON
 * (other whitespace, other key order) is a different body. Verification accepts only the exact format
 * (no uppercase hex, no surrounding whitespace, no other algorithm), like @octokit/webhooks-methods,
 * and compares the digests with timingSafeEqual so the time taken reveals nothing about the expected
 * value. It returns false for anything malformed and never throws.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

const PREFIX = 'sha256=';
const SIGNATURE_FORMAT = /^sha256=[0-9a-f]{64}$/;

export function signCallbackBody(rawBody: string | Buffer, secret: string): string {
  if (secret === '') throw new RangeError('a callback signing secret must not be empty');
  return PREFIX + createHmac('sha256', secret).update(rawBody).digest('hex');
}

export function verifyCallbackSignature(rawBody: string | Buffer, header: string | undefined, secret: string): boolean {
  if (typeof header !== 'string' || !SIGNATURE_FORMAT.test(header)) return false;
  if (typeof secret !== 'string' || secret === '') return false;
  if (typeof rawBody !== 'string' && !Buffer.isBuffer(rawBody)) return false;
  const expected = createHmac('sha256', secret).update(rawBody).digest();
  const received = Buffer.from(header.slice(PREFIX.length), 'hex');
  return received.length === expected.length && timingSafeEqual(received, expected);
}
