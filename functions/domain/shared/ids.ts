import { randomBytes } from 'node:crypto';

/**
 * Identifiers: a readable prefix, then a ULID (48-bit millisecond time + 80 random bits, Crockford
 * base32, lower case). Time-ordered so that ledger entries and jobs sort by creation, unguessable,
 * URL-safe and valid inside `[[…]]` profile references.
 */
export type IdPrefix = 'acc' | 'key' | 'job' | 'prf' | 'led' | 'dlv' | 'tup';

const ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz';

export type IdSource = (prefix: IdPrefix) => string;

export const ulid = (epochMs: number, random: Buffer = randomBytes(10)): string => {
  let time = '';
  let remaining = epochMs;
  for (let i = 0; i < 10; i += 1) {
    time = ALPHABET[remaining % 32] + time;
    remaining = Math.floor(remaining / 32);
  }
  let bits = 0n;
  for (const byte of random) bits = (bits << 8n) | BigInt(byte);
  let tail = '';
  for (let i = 0; i < 16; i += 1) {
    tail = ALPHABET[Number(bits & 31n)] + tail;
    bits >>= 5n;
  }
  return time + tail;
};

export const newId: IdSource = (prefix) => `${prefix}_${ulid(Date.now())}`;

/** The smallest id of `prefix` made at `epochMs` or later sorts at or after this (ids are time-ordered). */
export const earliestIdAt = (prefix: IdPrefix, epochMs: number): string =>
  `${prefix}_${ulid(epochMs, Buffer.alloc(10))}`;

/**
 * A long random secret (256 bits) with a readable prefix. base64url by default (API keys); webhook
 * secrets are standard base64 with padding, the encoding Standard Webhooks libraries decode.
 */
export const newSecret = (prefix: string, encoding: 'base64url' | 'base64' = 'base64url'): string =>
  `${prefix}_${randomBytes(32).toString(encoding)}`;
