/**
 * Direct uploads: an input too large to send inline (the gateway refuses bodies over 6 MB) is PUT to the
 * bucket first, then referenced as `upload:<upload_id>` wherever an image input is accepted. The reference
 * has a colon, which base64 never has, and a scheme that is not http(s), so it is never mistaken for
 * either other form (adapters/images/image-source.ts).
 *
 * The PUT URL signs the exact size and type announced, so S3 itself refuses anything else; the bytes are
 * then checked like any input when they are used. An upload belongs to the account that created it (its
 * key is under the account) and serves for 24 h after it arrived; past that, or from another account, it
 * is not found.
 */
import type { Caller } from '../accounts/accounts';
import type { Clock } from '../shared/clock';
import { toIso } from '../shared/clock';

export const UPLOAD_CONTENT_TYPES = ['image/jpeg', 'image/png', 'image/webp', 'image/heic', 'image/heif'] as const;
export type UploadContentType = (typeof UPLOAD_CONTENT_TYPES)[number];

export const MAX_UPLOAD_BYTES = 50 * 1024 * 1024;
export const UPLOAD_URL_LIFETIME_SECONDS = 15 * 60;
export const UPLOAD_LIFETIME_MS = 24 * 60 * 60 * 1000;
export const UPLOAD_REFERENCE_PREFIX = 'upload:';
/** `upload:` then an id as newId('upl') makes it. */
export const UPLOAD_REFERENCE = /^upload:(upl_[A-Za-z0-9_-]{1,64})$/;

export interface UploadStore {
  presignPut(
    accountId: string,
    uploadId: string,
    contentType: UploadContentType,
    sizeBytes: number,
    expiresInSeconds: number,
  ): Promise<string>;
  /**
   * When the upload arrived and a name for its bytes (S3's ETag: a second PUT to the same URL changes it),
   * without the bytes; undefined when there is no such object under the account.
   */
  stat(accountId: string, uploadId: string): Promise<{ uploadedAt: number | undefined; version?: string } | undefined>;
  /** Undefined when there is no such object under the account. */
  read(accountId: string, uploadId: string): Promise<{ bytes: Buffer; uploadedAt: number | undefined } | undefined>;
}

export interface UploadDeps {
  uploads: UploadStore;
  newId(prefix: string): string;
  clock: Clock;
}

export interface UploadTicket {
  upload_id: string;
  reference: string;
  upload_url: string;
  upload_method: 'PUT';
  upload_headers: { 'Content-Type': UploadContentType };
  upload_url_expires_at: string;
  expires_at: string;
}

/** POST /uploads: a PUT URL for exactly `sizeBytes` of `contentType`, and the reference to use afterwards. */
export const createUpload = async (
  deps: UploadDeps,
  caller: Caller,
  request: { sizeBytes: number; contentType: UploadContentType },
): Promise<UploadTicket> => {
  const uploadId = deps.newId('upl');
  const now = deps.clock();
  const url = await deps.uploads.presignPut(
    caller.accountId,
    uploadId,
    request.contentType,
    request.sizeBytes,
    UPLOAD_URL_LIFETIME_SECONDS,
  );
  return {
    upload_id: uploadId,
    reference: `${UPLOAD_REFERENCE_PREFIX}${uploadId}`,
    upload_url: url,
    upload_method: 'PUT',
    upload_headers: { 'Content-Type': request.contentType },
    upload_url_expires_at: toIso(now + UPLOAD_URL_LIFETIME_SECONDS * 1000),
    // At the latest: the 24 h run from the moment the bytes arrive, which is before the URL expires.
    expires_at: toIso(now + UPLOAD_URL_LIFETIME_SECONDS * 1000 + UPLOAD_LIFETIME_MS),
  };
};

const expired = (deps: Pick<UploadDeps, 'clock'>, uploadedAt: number | undefined) =>
  uploadedAt !== undefined && deps.clock() >= uploadedAt + UPLOAD_LIFETIME_MS;

/** The bytes of the account's upload, or undefined when it does not exist (for this account) or has expired. */
export const readUpload = async (
  deps: Pick<UploadDeps, 'uploads' | 'clock'>,
  accountId: string,
  uploadId: string,
): Promise<Buffer | undefined> => {
  const upload = await deps.uploads.read(accountId, uploadId);
  if (!upload || expired(deps, upload.uploadedAt)) return undefined;
  return upload.bytes;
};

/** Why an `upload:` entry cannot be used, worded for the caller; the entry is named by whoever reports it. */
export const uploadNotFoundReason = (uploadId: string) =>
  `upload ${uploadId} not found (uploads belong to the account that made them, must be PUT before use, and expire 24 h after they arrive).`;

/**
 * A name for the bytes an `upload:` source stands for now (its id and version), or undefined for any other
 * source, or an upload the account cannot use.
 */
export const uploadVersion = async (
  deps: Pick<UploadDeps, 'uploads' | 'clock'>,
  accountId: string,
  source: string,
): Promise<string | undefined> => {
  const uploadId = UPLOAD_REFERENCE.exec(source)?.[1];
  if (!uploadId) return undefined;
  const upload = await deps.uploads.stat(accountId, uploadId);
  if (!upload?.version || expired(deps, upload.uploadedAt)) return undefined;
  return `${uploadId}#${upload.version.replace(/"/g, '')}`;
};

/**
 * The `upload:` entries of a list of sources that the account cannot use: unknown, another account's,
 * never PUT, or expired. Looked up without reading the bytes, all at once, so a request that names
 * uploads can be refused before anything is created. Other entries (URLs) are not looked at.
 */
export const missingUploads = async (
  deps: Pick<UploadDeps, 'uploads' | 'clock'>,
  accountId: string,
  sources: readonly string[],
): Promise<Array<{ index: number; uploadId: string }>> => {
  const referenced = sources.flatMap((source, index) => {
    const uploadId = UPLOAD_REFERENCE.exec(source)?.[1];
    return uploadId ? [{ index, uploadId }] : [];
  });
  const found = await Promise.all(
    referenced.map(async ({ uploadId }) => {
      const upload = await deps.uploads.stat(accountId, uploadId);
      return upload !== undefined && !expired(deps, upload.uploadedAt);
    }),
  );
  return referenced.filter((_, position) => !found[position]);
};
