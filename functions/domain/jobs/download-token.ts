/**
 * Read first: download links.
 *
 * S3 presigned URLs die with the signing role's session, long before 24 hours, so `download_urls` are
 * our own: `/v2/service/downloads/<token>`, where the token is the object key, the owning account and
 * the expiry, HMAC-SHA256-signed with a service secret. The link is the credential (no API key), so
 * it must be unguessable and unforgeable: any change to the token fails the constant-time comparison.
 * A valid token is answered with a redirect to a fresh short-lived presigned URL.
 */
import { DownloadExpiredError, NotFoundError } from '../errors';
import { hmacMatches, hmacSha256 } from '../shared/hmac';

export const DOWNLOAD_LINK_LIFETIME_MS = 24 * 3600 * 1000;

export interface DownloadGrant {
  objectKey: string;
  accountId: string;
  /** Epoch milliseconds. */
  expiresAt: number;
}

export const signDownloadToken = (grant: DownloadGrant, secret: string): string => {
  const payload = Buffer.from(
    JSON.stringify({ k: grant.objectKey, a: grant.accountId, e: Math.floor(grant.expiresAt / 1000) }),
  ).toString('base64url');
  return `${payload}.${hmacSha256(secret, payload).toString('base64url')}`;
};

/** Tampered or malformed → 404 (nothing is there, as far as the holder can tell); past its expiry → 410. */
export const verifyDownloadToken = (token: string, secret: string, now: number): DownloadGrant => {
  const notFound = new NotFoundError('Download not found.');
  const [payload, signature, extra] = token.split('.');
  if (!payload || !signature || extra !== undefined) throw notFound;
  if (!hmacMatches(secret, payload, Buffer.from(signature, 'base64url'))) throw notFound;
  let claims: unknown;
  try {
    claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
  } catch {
    throw notFound;
  }
  if (!claims || typeof claims !== 'object' || !('k' in claims) || !('a' in claims) || !('e' in claims)) throw notFound;
  const { k, a, e } = claims;
  if (typeof k !== 'string' || typeof a !== 'string' || typeof e !== 'number') throw notFound;
  const grant = { objectKey: k, accountId: a, expiresAt: e * 1000 };
  if (now >= grant.expiresAt) throw new DownloadExpiredError();
  return grant;
};
