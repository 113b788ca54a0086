/** Engine requests and reference stores for the engine adapters' tests: one valid request to change one aspect of. */
import type { ReferenceImages } from '../../../functions/adapters/engine/providers/provider';
import type { CandidateProfile, EngineRequest } from '../../../functions/domain/engine/engine';

/** A generate of one 1024×768 PNG with no candidates, for the job `job_1` of `acc_1`. */
export const anEngineRequest = (overrides: Partial<EngineRequest> = {}): EngineRequest => ({
  workKey: 'job_1',
  accountId: 'acc_1',
  operation: 'generate',
  prompt: 'a lighthouse at dusk',
  images: [],
  width: 1024,
  height: 768,
  outputFormat: 'png',
  numOutputImages: 1,
  baseModel: 'base-a-2',
  candidates: [],
  namedInPrompt: [],
  ...overrides,
});

/** Reference crops held in memory by key; URLs on a test bucket; every shared input at one URL. */
export const referencesIn = (crops: ReadonlyMap<string, Buffer>): ReferenceImages => ({
  load: async (key) => {
    const crop = crops.get(key);
    if (!crop) throw new Error(`no crop ${key}`);
    return crop;
  },
  url: async (key) => `https://bucket.test/${key}`,
  share: async () => 'https://bucket.test/shared',
});

/** A person's profile with a two-dimensional template (`faces/1`) and two reference crops in `acc_1`'s folder. */
export const aNamedCandidate = (profileId = 'prf_named'): CandidateProfile => ({
  profileId,
  face: {
    modelId: 'faces/1',
    kind: 'person',
    mean: [0.6, 0.8],
    referenceKeys: [`profiles/acc_1/${profileId}/reference-0.jpg`, `profiles/acc_1/${profileId}/reference-1.jpg`],
  },
});
