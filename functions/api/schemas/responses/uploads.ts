/** The answer of POST /uploads (responses/index.ts): where to PUT the bytes, and the reference to use after. */
import * as v from 'valibot';
import { UPLOAD_CONTENT_TYPES } from '../../../domain/images/uploads';
import { IsoDateTime } from './common';

export const UploadTicketSchema = v.pipe(
  v.strictObject({
    upload_id: v.string(),
    reference: v.pipe(
      v.string(),
      v.description('Put this where an image input goes (`upload:<upload_id>`), once the PUT has succeeded.'),
    ),
    upload_url: v.pipe(v.string(), v.url(), v.description('PUT the bytes here, with `upload_headers`.')),
    upload_method: v.literal('PUT'),
    upload_headers: v.strictObject({ 'Content-Type': v.picklist(UPLOAD_CONTENT_TYPES) }),
    upload_url_expires_at: IsoDateTime,
    expires_at: v.pipe(
      IsoDateTime,
      v.description('The upload serves for 24 h after it arrives; this is the latest that can be.'),
    ),
  }),
  v.title('UploadTicket'),
  v.examples([
    {
      upload_id: 'upl_01JD3Q8X2M9Z4Y6W5V7T8S9R0P',
      reference: 'upload:upl_01JD3Q8X2M9Z4Y6W5V7T8S9R0P',
      upload_url: 'https://bucket.s3.amazonaws.com/uploads/…?X-Amz-Signature=…',
      upload_method: 'PUT' as const,
      upload_headers: { 'Content-Type': 'image/jpeg' as const },
      upload_url_expires_at: '2026-11-23T12:15:00.000Z',
      expires_at: '2026-11-24T12:15:00.000Z',
    },
  ]),
);
