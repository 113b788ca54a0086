/** The training-set preflight: photos fetched through the SSRF guard, decoded and measured with sharp, faces analysed. */
import { imageFetcher } from '../adapters/images/image-fetch';
import { decodeImageInput, MAX_INPUT_BYTES } from '../adapters/images/image-input';
import { readImageSource } from '../adapters/images/image-source';
import { measurePhoto } from '../adapters/images/photo-analysis';
import type { PreflightDeps } from '../domain/profiles/preflight';
import { once, settings } from './core';
import { faceAnalyzer } from './faces';

const noFetch = async (): Promise<Buffer> => {
  throw new Error('a fetched photo is decoded from its bytes');
};

export const preflightDeps = once(
  (): PreflightDeps => ({
    fetchPhoto: (url, label, signal) =>
      readImageSource(
        url,
        label,
        { fetchBytes: imageFetcher({ allowLoopback: settings().ALLOW_LOOPBACK_URLS, signal }) },
        MAX_INPUT_BYTES,
      ),
    // The bytes go through the same guard as any input; as base64, its one form for bytes in hand.
    decodePhoto: (bytes, label) => decodeImageInput(bytes.toString('base64'), label, { fetchBytes: noFetch }),
    measure: measurePhoto,
    get faces() {
      return faceAnalyzer();
    },
    settings: { photoConcurrency: 4 },
  }),
);
