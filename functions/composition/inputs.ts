/** Image inputs: fetched through the SSRF guard and decoded with sharp (the HEIC decoder on demand). */
import { imageFetcher } from '../adapters/images/image-fetch';
import { decodeImageInput } from '../adapters/images/image-input';
import { settings } from './core';

export const decodeInput = (value: string, label: string, signal?: AbortSignal) =>
  decodeImageInput(value, label, { fetchBytes: imageFetcher({ allowLoopback: settings().ALLOW_LOOPBACK_URLS, signal }) });
