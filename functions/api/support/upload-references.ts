import { uploadDeps } from '../../composition/images/uploads';
import { missingUploads, uploadNotFoundReason } from '../../domain/images/uploads';
import { RequestValidationError, valueErrorDetail } from '../../entry/http/validation';

/**
 * `upload:` entries of a body field that the caller cannot use (unknown, another account's, never PUT,
 * expired) are refused at once, a 422 naming each entry like every other invalid field, before anything
 * is reserved or fetched: a profile's photos are read later, by its training, where a missing one could
 * only end the training in ERROR. Only the objects' metadata is read here, not their bytes.
 */
export const assertUploadsFound = async (accountId: string, field: string, sources: readonly string[]) => {
  const missing = await missingUploads(uploadDeps(), accountId, sources);
  if (missing.length === 0) return;
  throw new RequestValidationError(
    missing.map(({ index, uploadId }) =>
      valueErrorDetail(['body', field, index], `${field}[${index}]: ${uploadNotFoundReason(uploadId)}`, sources[index]),
    ),
  );
};
