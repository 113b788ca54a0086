/**
 * The time to decode a 12 MP HEIC (issue): the test fixture `gradient-4032x3024.heic`. It is a smooth
 * gradient of 10 KB, so the HEVC bitstream is almost free to parse: a floor, not a photo.
 * `heic-photo.bench.ts` measures a photo-like file of the same size.
 */
import path from 'node:path';
import type { BenchResult } from './harness';
import { measureHeicDecode, ROOT_DIR } from './support/heic';

export const name = 'heic';

export const run = (): Promise<BenchResult[]> =>
  measureHeicDecode({
    module: name,
    metricPrefix: 'heic.gradient',
    file: path.join(ROOT_DIR, 'test/fixtures/images/gradient-4032x3024.heic'),
    description: 'smooth gradient test fixture: cheap for HEVC, a floor rather than a photo',
  });
