/** Request shape of POST /uploads: the exact size and type the presigned PUT will accept. */
import * as v from 'valibot';
import { MAX_UPLOAD_BYTES, UPLOAD_CONTENT_TYPES } from '../../domain/images/uploads';

export const CreateUploadRequestSchema = v.object({
  size_bytes: v.pipe(
    v.number(),
    v.integer(),
    v.minValue(1),
    v.maxValue(MAX_UPLOAD_BYTES),
    v.description(
      `The exact size of the file, 1 to ${MAX_UPLOAD_BYTES} bytes (50 MiB); the upload URL accepts no other length.`,
    ),
  ),
  content_type: v.pipe(
    v.picklist(UPLOAD_CONTENT_TYPES),
    v.description('The file’s type; sent back as the Content-Type of the PUT.'),
  ),
});
export type CreateUploadRequest = v.InferOutput<typeof CreateUploadRequestSchema>;
