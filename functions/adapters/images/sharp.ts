/**
 * sharp, loaded when an image is first touched rather than when a function starts: its native libvips
 * binding takes about 80–100 ms to load, which a request that never decodes an image (a validation error,
 * an idempotent replay, a job read) should not pay, nor the init of a function whose route may not need
 * it. Every image adapter gets sharp from here (`const sharp = await loadSharp()`); types come from
 * `import type`, which loads nothing. `require`, not `import()`: a dynamic import of a CommonJS package
 * goes through Node's ESM loader, which parses the package for its exports and costs ~80 ms more.
 */
import type SharpModule from 'sharp';

let loading: Promise<typeof SharpModule> | undefined;

export const loadSharp = (): Promise<typeof SharpModule> => {
  loading ??= Promise.resolve().then(() => require('sharp') as typeof SharpModule);
  return loading;
};
