/**
 * Read first: HMAC sign-and-compare, one way everywhere (download links, callback signatures, provider
 * report tokens). A MAC is HMAC-SHA256; a presented one is compared in constant time, and one of another
 * length is a plain no (timingSafeEqual would throw on it).
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

/** The HMAC-SHA256 of `data` under `key` (a string is read as UTF-8). */
export const hmacSha256 = (key: string | Buffer, data: string | Buffer): Buffer =>
  createHmac('sha256', key).update(data).digest();

/** Whether two byte strings are equal, in constant time for equal lengths. */
export const sameBytes = (given: Buffer, expected: Buffer): boolean =>
  given.length === expected.length && timingSafeEqual(given, expected);

/** Whether `given` is the HMAC-SHA256 of `data` under `key`. */
export const hmacMatches = (key: string | Buffer, data: string | Buffer, given: Buffer): boolean =>
  sameBytes(given, hmacSha256(key, data));
