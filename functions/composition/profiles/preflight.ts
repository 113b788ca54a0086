/** The training-set preflight: photos fetched through the SSRF guard or read from the caller's uploads, decoded and measured with sharp, faces analysed. */

import { dynamoPreflightCache } from '../../adapters/dynamo/preflight-cache';
import { imageFetcher } from '../../adapters/images/image-fetch';
import { decodeImageInput, MAX_INPUT_BYTES } from '../../adapters/images/image-input';
import { readImageSource } from '../../adapters/images/image-source';
import { measurePhoto } from '../../adapters/images/photo-analysis';
import { uploadStore } from '../../adapters/s3/uploads';
import { readUpload, uploadVersion } from '../../domain/images/uploads';
import { PREFLIGHT_READ_VERSION, type PreflightDeps } from '../../domain/profiles/preflight';
import { clock, once, settings } from '../core';
import { table } from '../data';
import { faceAnalyzer } from '../faces';
import { objects } from '../storage';

const noFetch = async (): Promise<Buffer> => {
  throw new Error('a fetched photo is decoded from its bytes');
};

export const preflightDeps = once(
  (): PreflightDeps => ({
    fetchPhoto: (source, label, signal, accountId) =>
      readImageSource(
        source,
        label,
        {
          fetchBytes: imageFetcher({ allowLoopback: settings().ALLOW_LOOPBACK_URLS, signal }),
          readUpload: (uploadId) => readUpload({ uploads: uploadStore(objects()), clock }, accountId, uploadId),
        },
        MAX_INPUT_BYTES,
      ),
    // The bytes go through the same guard as any input; as base64, its one form for bytes in hand.
    decodePhoto: (bytes, label) => decodeImageInput(bytes.toString('base64'), label, { fetchBytes: noFetch }),
    measure: measurePhoto,
    get faces() {
      return faceAnalyzer();
    },
    // A photo is remembered by its upload's id and ETag, the face model and the analysis' version.
    cache: {
      ...dynamoPreflightCache(table(), clock),
      keyOf: async (source, accountId) => {
        const version = await uploadVersion({ uploads: uploadStore(objects()), clock }, accountId, source);
        return version && `${faceAnalyzer().modelId}#${PREFLIGHT_READ_VERSION}#${version}`;
      },
    },
    settings: { photoConcurrency: 4, budgetMs: settings().PREFLIGHT_BUDGET_SECONDS * 1000 },
  }),
);
