/** Image inputs: fetched through the SSRF guard, read from the caller's direct uploads, decoded with sharp (the HEIC decoder on demand). */
import { imageFetcher } from '../../adapters/images/image-fetch';
import { decodeImageInput } from '../../adapters/images/image-input';
import { uploadStore } from '../../adapters/s3/uploads';
import { readUpload } from '../../domain/images/uploads';
import { clock, settings } from '../core';
import { objects } from '../storage';

/** `accountId`: the caller, whose direct uploads the input may reference; without it, uploads are refused. */
export const decodeInput = (value: string, label: string, signal?: AbortSignal, accountId?: string) =>
  decodeImageInput(value, label, {
    fetchBytes: imageFetcher({ allowLoopback: settings().ALLOW_LOOPBACK_URLS, signal }),
    readUpload:
      accountId === undefined
        ? undefined
        : (uploadId) => readUpload({ uploads: uploadStore(objects()), clock }, accountId, uploadId),
  });
