/**
 * What making a profile's template of the current face model costs the request that names it (issue 44,
 * functions/domain/profiles/templates.ts `embedProfile`): its stored photos analysed by the real analyser
 * (warm: its sessions made before), judged and averaged, for a profile of 10 and of 50 photos, and of 10
 * photos at 2048 px. The photos are held in memory: the S3 reads (one GET per photo, in parallel) are not
 * counted. Compared with the request's template budget (TEMPLATE_BUDGET_SECONDS, 20 s).
 */
import sharp from 'sharp';
import { TEST_MODEL_ID } from '../functions/adapters/faces/face-models';
import { createOnnxFaceAnalyzer } from '../functions/adapters/faces/onnx-face-analyzer';
import { embedProfile } from '../functions/domain/profiles/templates';
import { subjectPhoto } from '../test/support/photos';
import { type BenchResult, median, progress, round, timed } from './harness';

export const name = 'templates';

const RUNS = 3;
const BUDGET_MS = 20_000;

export const run = async (): Promise<BenchResult[]> => {
  process.env.ORT_DISABLE_TELEMETRY = '1';
  const faces = createOnnxFaceAnalyzer({ modelId: TEST_MODEL_ID });
  await faces.load();
  const results: BenchResult[] = [];
  for (const [label, count, sidePx] of [
    ['photos_10', 10, 0],
    ['photos_50', 50, 0],
    ['photos_10_2048px', 10, 2048],
  ] as const) {
    const photos: Buffer[] = [];
    for (let index = 0; index < count; index += 1) {
      const photo = await subjectPhoto(index, 'jpeg');
      photos.push(sidePx === 0 ? photo : await sharp(photo).resize(sidePx, sidePx).jpeg({ quality: 92 }).toBuffer());
    }
    const keys = photos.map((_, index) => `photo-${index}`);
    const deps = { faces, photos: { load: async () => photos }, settings: { photoConcurrency: 1 } };
    const profile = { photoKeys: keys, trainingTier: 'fast' as const, face: null, moreFaces: [] };
    const samples: number[] = [];
    for (let runIndex = 0; runIndex < RUNS; runIndex += 1) {
      const { ms, value } = await timed(() => embedProfile(deps, profile));
      if (!value.ok) throw new Error(`no template: ${value.message}`);
      samples.push(ms);
    }
    const ms = median(samples);
    progress(name, `${label}: ${round(ms)} ms`);
    results.push(
      {
        metric: `templates.on_demand.${label}.median_ms`,
        value: round(ms),
        unit: 'ms',
        target: `≤ ${BUDGET_MS} (the request's template budget)`,
        pass: ms <= BUDGET_MS,
        notes: `median of ${RUNS}; photos in memory (S3 reads not counted), analyser warm`,
      },
      { metric: `templates.on_demand.${label}.per_photo_ms`, value: round(ms / count), unit: 'ms' },
    );
  }
  return results;
};
