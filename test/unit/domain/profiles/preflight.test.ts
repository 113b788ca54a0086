/**
 * The preflight within API Gateway's 29 s, and remembering photos: photos not reached by the deadline are
 * `not_checked` (not failed), the answer leaves at the deadline whatever a read is doing, and a photo read
 * once is not read again while the name of its bytes (PreflightCache.keyOf) stays the same; a failing
 * cache is a miss, and a photo that could not be fetched is not remembered.
 */
import { InvalidRequestError } from '../../../../functions/domain/errors';
import type { DetectedFace } from '../../../../functions/domain/faces';
import {
  type PhotoRead,
  type PreflightCache,
  type PreflightDeps,
  preflight,
} from '../../../../functions/domain/profiles/preflight';

const unit = (seed: number): number[] => {
  const values = Array.from({ length: 8 }, (_, index) => Math.sin(seed * 0.01 + index) + 2);
  const norm = Math.hypot(...values);
  return values.map((value) => value / norm);
};

const face = (seed: number): DetectedFace => ({
  box: { x: 100, y: 100, width: 300, height: 300 },
  landmarks: [
    [200, 200],
    [300, 200],
  ],
  detectorScore: 0.95,
  kind: 'person',
  faceConfidence: 0.99,
  embedding: unit(seed),
  sharpness: 0.05,
  yawDegrees: 0,
  pitchDegrees: 0,
  luminance: 0.5,
});

/** A photo is its URL's last number: its pixels, measures and face depend on it only. */
const fakeDeps = (options: { hang?: (url: string) => boolean; missing?: (url: string) => boolean } = {}) => {
  const fetched: string[] = [];
  const deps: PreflightDeps = {
    fetchPhoto: async (source, label, signal) => {
      fetched.push(source);
      if (options.missing?.(source)) throw new InvalidRequestError(`${label} could not be fetched.`);
      if (options.hang?.(source))
        await new Promise((_, reject) => signal.addEventListener('abort', () => reject(new Error('aborted'))));
      return Buffer.from(source);
    },
    decodePhoto: async (bytes) => ({ data: bytes, format: 'jpeg', width: 1024, height: 1024 }),
    measure: async (photo) => ({
      differenceHash: Number(/(\d+)$/.exec(photo.data.toString())![1]!)
        .toString(16)
        .padStart(16, 'f')
        .replace(/./g, (digit, index) => (index % 2 ? digit : 'a')),
      sharpness: 500,
      blurry: false,
      greyscale: false,
    }),
    faces: { analyze: async (image) => [face(Number(/(\d+)$/.exec(image.toString())![1]))] },
    settings: { photoConcurrency: 2, budgetMs: 200 },
  };
  return { deps, fetched };
};

const memoryCache = (): PreflightCache & { records: Map<string, PhotoRead> } => {
  const records = new Map<string, PhotoRead>();
  return {
    records,
    // An upload's name; a URL has none.
    keyOf: async (source) => (source.startsWith('upload:') ? `${source}#etag` : undefined),
    get: async (_, key) => records.get(key),
    put: async (_, key, read) => {
      records.set(key, structuredClone(read));
    },
  };
};

const sources = (count: number, from = 0) => Array.from({ length: count }, (_, index) => `upload:upl_${from + index}`);

describe('the preflight within its budget', () => {
  it('reports the photos it did not reach as not_checked, and answers at the deadline', async () => {
    const { deps } = fakeDeps({ hang: (url) => Number(url.slice(-1)) >= 4 });
    const started = Date.now();
    const report = await preflight(deps, { accountId: 'acc_1', imageUrls: sources(7), trainingTier: 'fast' });
    expect(Date.now() - started).toBeLessThan(1000);
    expect(report.photos.map((photo) => photo.status)).toEqual([
      'checked',
      'checked',
      'checked',
      'checked',
      'not_checked',
      'not_checked',
      'not_checked',
    ]);
    expect(report.photos[5]).toEqual({
      index: 5,
      url: 'upload:upl_5',
      status: 'not_checked',
      fetched: false,
      error: null,
      format: null,
      width: null,
      height: null,
      face: null,
      warnings: [],
    });
    expect(report.accepted).toBe(false);
    // Not a failure of the set: the four checked are enough for the tier, and no photo is said unusable.
    expect(report.problems).toEqual([
      "3 of 7 photos were not checked within the preflight's 0.2 s (image_urls[4], image_urls[5], image_urls[6]); send the preflight again: the photos already checked are remembered.",
    ]);
  });

  it('answers at the deadline even when a read ignores it', async () => {
    const { deps } = fakeDeps();
    deps.faces = { analyze: () => new Promise(() => undefined) };
    const started = Date.now();
    const report = await preflight(deps, { accountId: 'acc_1', imageUrls: sources(3), trainingTier: 'fast' });
    expect(Date.now() - started).toBeLessThan(1000);
    expect(report.photos.every((photo) => photo.status === 'not_checked')).toBe(true);
  });
});

describe('photos remembered by the name of their bytes', () => {
  it('reads only the photos it has not read before, and answers the same for the rest', async () => {
    const cache = memoryCache();
    const first = fakeDeps();
    const before = await preflight(
      { ...first.deps, cache },
      { accountId: 'acc_1', imageUrls: sources(5), trainingTier: 'fast' },
    );
    expect(first.fetched).toHaveLength(5);
    expect(cache.records.size).toBe(5);

    const second = fakeDeps();
    const after = await preflight(
      { ...second.deps, cache },
      { accountId: 'acc_1', imageUrls: [...sources(5), 'upload:upl_5'], trainingTier: 'fast' },
    );
    expect(second.fetched).toEqual(['upload:upl_5']);
    expect(after.photos.slice(0, 5)).toEqual(before.photos);
    expect(after.photos[5]).toMatchObject({ status: 'checked', fetched: true, format: 'jpeg' });
  });

  it('reads every time what has no name without reading it (a URL)', async () => {
    const cache = memoryCache();
    const urls = ['https://example.com/1', 'https://example.com/2'];
    await preflight({ ...fakeDeps().deps, cache }, { accountId: 'acc_1', imageUrls: urls, trainingTier: 'fast' });
    const again = fakeDeps();
    await preflight({ ...again.deps, cache }, { accountId: 'acc_1', imageUrls: urls, trainingTier: 'fast' });
    expect(again.fetched).toEqual(urls);
    expect(cache.records.size).toBe(0);
  });

  it('does not remember a photo it could not fetch, and treats a failing cache as a miss', async () => {
    const cache = memoryCache();
    const missing = fakeDeps({ missing: (url) => url.endsWith('_1') });
    const report = await preflight(
      { ...missing.deps, cache },
      { accountId: 'acc_1', imageUrls: sources(2), trainingTier: 'fast' },
    );
    expect(report.photos[1]).toMatchObject({ status: 'checked', fetched: false });
    expect([...cache.records.keys()]).toEqual(['upload:upl_0#etag']);

    const broken: PreflightCache = {
      keyOf: async (source) => source,
      get: async () => {
        throw new Error('table unavailable');
      },
      put: async () => {
        throw new Error('table unavailable');
      },
    };
    const reads = fakeDeps();
    const answer = await preflight(
      { ...reads.deps, cache: broken },
      { accountId: 'acc_1', imageUrls: sources(2), trainingTier: 'fast' },
    );
    expect(reads.fetched).toHaveLength(2);
    expect(answer.photos.map((photo) => photo.status)).toEqual(['checked', 'checked']);
  });
});
