/**
 * Verify-and-retry on rendered faces, and what the input analysis adds. Every fixture person is enrolled
 * (template: the embedding of their first photo's face; reference crop 256 px) and asked for one output
 * through `checkIdentity` (functions/domain/engine/identity.ts) with `identity_check: "retry"`, on an
 * engine that draws like the provider doubles (test/support/providers/face-render.ts) with a seeded
 * drift rate: a drifted output draws someone else.
 * - `identity.retry.drift_<pct>.kept_rate`: delivered outputs that kept the expected person;
 * - `identity.retry.drift_<pct>.calls_per_output`: images asked of the engine per delivered output
 *   (1 + the retries), target at 20 %: kept ≥ 0.99 with ≤ 1.3 calls;
 * - `identity.input_analysis_ms`: the median time to analyse one 2K input image (what deciding who is
 *   present adds before the engine runs), target ≤ 60 ms.
 */
import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { createOnnxFaceAnalyzer } from '../functions/adapters/faces/onnx-face-analyzer';
import type { CandidateProfile, EngineRequest, ImageEngine } from '../functions/domain/engine/engine';
import { checkIdentity } from '../functions/domain/engine/identity';
import { FIXTURE_PEOPLE, renderOutput, requestSeed } from '../test/support/providers/face-render';
import { atMost, type BenchResult, median, progress, round, timed } from './harness';

export const name = 'identity-retry';

const FIXTURES_DIR = path.join(__dirname, '..', 'test', 'fixtures', 'faces');
const OUTPUT_PX = 768;
const DRIFTS = [0, 20, 50] as const;
const ANALYSIS_SAMPLES = 15;

export const run = async (): Promise<BenchResult[]> => {
  sharp.concurrency(1);
  const analyzer = createOnnxFaceAnalyzer();
  progress(name, 'enrolling the fixture people');
  const people: { person: string; candidate: CandidateProfile; crop: Buffer; photo: Buffer }[] = [];
  for (const [person, photos] of Object.entries(FIXTURE_PEOPLE)) {
    const first = photos[0];
    if (!first) continue;
    const photo = fs.readFileSync(path.join(FIXTURES_DIR, first.file));
    const face = (await analyzer.analyze(photo))[first.face];
    if (!face) continue;
    people.push({
      person,
      photo,
      crop: await analyzer.crop(photo, face, 256),
      candidate: {
        profileId: `prf_${person}`,
        face: { modelId: analyzer.modelId, kind: face.kind, mean: face.embedding, referenceKeys: ['crop'] },
      },
    });
  }

  const results: BenchResult[] = [];
  for (const drift of DRIFTS) {
    progress(name, `retry at ${drift} % drift`);
    let kept = 0;
    let asked = 0;
    for (const { person, candidate, crop } of people) {
      let call = 0;
      const engine: ImageEngine = {
        run: async (request) => {
          const images: Buffer[] = [];
          for (let index = 0; index < request.numOutputImages; index += 1) {
            call += 1;
            const rendered = await renderOutput({
              width: OUTPUT_PX,
              height: OUTPUT_PX,
              format: 'png',
              seed: requestSeed('retry', String(drift), person, String(call)),
              prompt: 'a portrait',
              inputs: [crop],
              driftRate: drift / 100,
            });
            images.push(rendered.data);
          }
          return { kind: 'images', images, usage: { outputTokens: 0, megapixels: 0 } };
        },
      };
      const request: EngineRequest = {
        operation: 'generate',
        prompt: `[[${candidate.profileId}]] a portrait`,
        images: [],
        width: OUTPUT_PX,
        height: OUTPUT_PX,
        outputFormat: 'png',
        numOutputImages: 1,
        baseModel: 'base-a-2',
        candidates: [candidate],
        namedInPrompt: [candidate.profileId],
        workKey: `bench-${person}`,
        accountId: 'acc_bench',
      };
      const first = await engine.run(request, new AbortController().signal);
      if (first.kind !== 'images') throw new Error('the renderer made no image');
      const checked = await checkIdentity({ engine, faces: analyzer }, request, first.images, 'retry');
      kept += checked.identity.outputs.filter((output) => output.missing.length === 0).length;
      asked += call;
    }
    const keptRate = kept / people.length;
    const calls = asked / people.length;
    results.push(
      drift === 20
        ? {
            ...atMost(
              { metric: `identity.retry.drift_${drift}.calls_per_output`, value: round(calls, 3), unit: 'calls' },
              1.3,
            ),
          }
        : { metric: `identity.retry.drift_${drift}.calls_per_output`, value: round(calls, 3), unit: 'calls' },
      drift === 20
        ? {
            metric: `identity.retry.drift_${drift}.kept_rate`,
            value: round(keptRate, 3),
            unit: 'ratio',
            target: '≥ 0.99',
            pass: keptRate >= 0.99,
          }
        : { metric: `identity.retry.drift_${drift}.kept_rate`, value: round(keptRate, 3), unit: 'ratio' },
    );
  }

  progress(name, 'input analysis of 2K images');
  const samples: number[] = [];
  for (let index = 0; index < ANALYSIS_SAMPLES; index += 1) {
    const { photo } = people[index % people.length] ?? { photo: Buffer.alloc(0) };
    const twoK = await sharp(photo).resize(2048, 2048, { fit: 'inside', withoutEnlargement: false }).jpeg().toBuffer();
    samples.push((await timed(() => analyzer.analyze(twoK))).ms);
  }
  results.push(atMost({ metric: 'identity.input_analysis_ms', value: round(median(samples), 1), unit: 'ms' }, 60));
  return results;
};
