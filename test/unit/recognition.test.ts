/**
 * Recognition after the engine (functions/domain/engine/recognition.ts) on a fake face analyser: what is
 * counted, for whom, and what the caller pays for it on the synchronous path and in the workflow's
 * RunEngine step. The matching rules themselves (threshold, margin) are proven in test/unit/faces.test.ts.
 */
import type { Caller } from '../../functions/domain/accounts/accounts';
import { findBaseModel } from '../../functions/domain/catalog/catalog';
import type { CandidateFace, CandidateProfile } from '../../functions/domain/engine/engine';
import { recogniseSubjects } from '../../functions/domain/engine/recognition';
import type { DetectedFace } from '../../functions/domain/faces';
import type { ImageCommand } from '../../functions/domain/images/command';
import { submit } from '../../functions/domain/images/submit';
import { runEngine, type WorkflowDeps } from '../../functions/domain/workflow/steps';
import {
  FAKE_FACE_MODEL,
  type FakeImageWorld,
  FakeLedger,
  fakeEngine,
  fakeFace,
  fakeFaceAnalyzer,
  fakeImageWorld,
  fakeJobs,
} from '../support/fakes';
import { aJob, aProfile } from '../support/fixtures';

const ACCOUNT = 'acc_unit';
const caller: Caller = { accountId: ACCOUNT, keyId: 'key_unit' };

/** Three people, orthogonal: each face is exactly one template's mean. */
const ME = [1, 0, 0];
const PARTNER = [0, 1, 0];
const STRANGER = [0, 0, 1];

const face = (mean: number[], overrides: Partial<CandidateFace> = {}): CandidateFace => ({
  modelId: FAKE_FACE_MODEL,
  kind: 'person',
  mean,
  referenceKeys: ['profiles/acc_unit/prf/reference-0.jpg'],
  ...overrides,
});
const candidate = (profileId: string, mean: number[] | null): CandidateProfile => ({
  profileId,
  face: mean && face(mean),
});

/** An analyser that finds in output `i` the faces of `facesByOutput[i]` (outputs are `output <i>`). */
const analyserOf = (facesByOutput: DetectedFace[][]) =>
  fakeFaceAnalyzer((image) => facesByOutput[Number(image.toString().replace('output ', ''))] ?? []);
const outputs = (count: number) => Array.from({ length: count }, (_, index) => Buffer.from(`output ${index}`));

describe('recognising the candidates in the outputs', () => {
  it('sums each profile over the outputs it appears in', async () => {
    const analyser = analyserOf([[fakeFace(ME)], [fakeFace(ME), fakeFace(PARTNER)], []]);
    const { knownSubjects } = await recogniseSubjects(analyser, outputs(3), [
      candidate('prf_me', ME),
      candidate('prf_p', PARTNER),
    ]);
    expect(knownSubjects).toEqual({ prf_me: 2, prf_p: 1 });
  });

  it('answers each recognition counted with its output and the face’s box in whole pixels', async () => {
    const at = (mean: number[], box: DetectedFace['box']): DetectedFace => ({ ...fakeFace(mean), box });
    const analyser = analyserOf([
      [at(ME, { x: 10.4, y: 20.6, width: 100.2, height: 120.5 })],
      [at(STRANGER, { x: 0, y: 0, width: 50, height: 50 }), at(PARTNER, { x: -3.2, y: 5, width: 80, height: 90 })],
    ]);
    const recognition = await recogniseSubjects(analyser, outputs(2), [
      candidate('prf_me', ME),
      candidate('prf_p', PARTNER),
    ]);
    expect(recognition).toEqual({
      recognizedFaces: [
        { outputIndex: 0, profileId: 'prf_me', box: { x: 10, y: 21, width: 101, height: 120 } },
        { outputIndex: 1, profileId: 'prf_p', box: { x: 0, y: 5, width: 77, height: 90 } },
      ],
      knownSubjects: { prf_me: 1, prf_p: 1 },
    });
  });

  it('keeps one face per profile and output, the one closest to its template, as it counts one', async () => {
    const close = { ...fakeFace([0.99, 0.14, 0]), box: { x: 400, y: 0, width: 60, height: 60 } };
    const exact = { ...fakeFace(ME), box: { x: 0, y: 0, width: 60, height: 60 } };
    const analyser = analyserOf([[close, exact]]);
    const { recognizedFaces, knownSubjects } = await recogniseSubjects(analyser, outputs(1), [candidate('prf_me', ME)]);
    expect(recognizedFaces).toEqual([{ outputIndex: 0, profileId: 'prf_me', box: exact.box }]);
    expect(knownSubjects).toEqual({ prf_me: 1 });
  });

  it('matches only the request’s candidates: a face of a profile not referenced is not counted', async () => {
    const analyser = analyserOf([[fakeFace(PARTNER)]]);
    expect((await recogniseSubjects(analyser, outputs(1), [candidate('prf_me', ME)])).recognizedFaces).toEqual([]);
  });

  it('counts no one for a face that matches no candidate, nor for an animal’s face', async () => {
    const analyser = analyserOf([[fakeFace(STRANGER)], [fakeFace(ME, 'animal')]]);
    expect((await recogniseSubjects(analyser, outputs(2), [candidate('prf_me', ME)])).recognizedFaces).toEqual([]);
  });

  it('never matches a candidate without a face template, nor one made by another face model', async () => {
    const analyser = analyserOf([[fakeFace(ME), fakeFace(PARTNER)]]);
    const oldModel: CandidateProfile = { profileId: 'prf_p', face: face(PARTNER, { modelId: 'older-faces/0' }) };
    expect(await recogniseSubjects(analyser, outputs(1), [candidate('prf_me', null), oldModel])).toEqual({
      recognizedFaces: [],
      knownSubjects: {},
    });
  });

  it('analyses nothing when no candidate can be matched', async () => {
    const analyser = analyserOf([[fakeFace(ME)]]);
    const none = { recognizedFaces: [], knownSubjects: {} };
    expect(await recogniseSubjects(analyser, outputs(2), [candidate('prf_me', null)])).toEqual(none);
    expect(await recogniseSubjects(analyser, outputs(2), [])).toEqual(none);
    expect(analyser.analysed).toEqual([]);
  });
});

describe('what recognition bills', () => {
  let world: FakeImageWorld;
  const me = { ...aProfile(ACCOUNT, { profileId: 'prf_me' }), face: face(ME) };
  const partner = { ...aProfile(ACCOUNT, { profileId: 'prf_p' }), face: face(PARTNER) };
  beforeEach(() => {
    world = fakeImageWorld(ACCOUNT, 10_000_000);
    world.deps.profiles = {
      findMany: async (_accountId, ids) => [me, partner].filter((profile) => ids.includes(profile.profileId)),
      get: async () => undefined,
    };
  });

  const generate = (overrides: Partial<ImageCommand> = {}): ImageCommand => ({
    operation: 'generate',
    prompt: '[[prf_me]] on a hill',
    inputs: [],
    profileIds: [],
    output: { baseModel: 'base-c-2', resolution: '2K' },
    numOutputImages: 2,
    responseMode: 'bytes',
    async: false,
    ...overrides,
  });
  const enhance = (overrides: Partial<ImageCommand> = {}): ImageCommand => ({
    operation: 'enhance',
    prompt: '',
    inputs: [{ label: 'image', value: 'a photo' }],
    profileIds: ['prf_me'],
    output: 'pinned',
    numOutputImages: 2,
    responseMode: 'bytes',
    async: false,
    ...overrides,
  });
  /** What the account paid for its one job: the reservation and the settlement, summed. */
  const paidBy = (ledger: FakeLedger) =>
    -ledger.entries.filter((entry) => entry.owner?.kind === 'job').reduce((sum, entry) => sum + entry.amountMicros, 0);
  const finalOf = () => paidBy(world.ledger);

  it('a synchronous generate pays the identity surcharge once per output the named subject is recognised in', async () => {
    world.deps.faces = analyserOf([[fakeFace(ME)], [fakeFace(STRANGER)]]);
    const outcome = await submit(world.deps, caller, generate(), { baseUrl: 'https://api.test' });
    expect(outcome).toMatchObject({ kind: 'result', result: { knownSubjects: { prf_me: 1 } } });
    const plain = await finalPriceWithout();
    expect(finalOf()).toBe(plain + SURCHARGE_MICROS);
  });

  it('a synchronous enhance moves only the outputs showing a candidate to the 0.15 rate', async () => {
    world.deps.faces = analyserOf([[fakeFace(ME)], []]);
    await submit(world.deps, caller, enhance(), { baseUrl: 'https://api.test' });
    expect(finalOf()).toBe(150_000 + 120_000);
  });

  it('a profile named in the prompt but not recognised in the outputs is not billed', async () => {
    world.deps.faces = analyserOf([[], [fakeFace(STRANGER)]]);
    const outcome = await submit(world.deps, caller, enhance({ profileIds: ['prf_me', 'prf_p'] }), {
      baseUrl: 'https://api.test',
    });
    expect(outcome).toMatchObject({ result: { knownSubjects: {} } });
    expect(finalOf()).toBe(2 * 120_000);
  });

  /** What the same generate settles at with no one recognised. */
  const finalPriceWithout = async () => {
    const other = fakeImageWorld(ACCOUNT, 10_000_000);
    other.deps.profiles = world.deps.profiles;
    await submit(other.deps, caller, generate(), { baseUrl: 'https://api.test' });
    return paidBy(other.ledger);
  };
});

/** The surcharge of base-c-2, from the catalog. */
const SURCHARGE_MICROS = findBaseModel('base-c-2')?.identitySurchargeMicros ?? Number.NaN;

describe('the workflow’s RunEngine step', () => {
  it('recognises the stored candidates, read again from their profiles, in the outputs', async () => {
    const ledger = new FakeLedger({ [ACCOUNT]: 10_000_000 });
    const job = aJob(ACCOUNT, {
      status: 'running',
      work: {
        engine: {
          operation: 'enhance',
          prompt: '',
          width: 2048,
          height: 1536,
          outputFormat: 'jpg',
          numOutputImages: 2,
          baseModel: 'base-c-2',
          candidates: [{ profileId: 'prf_me' }, { profileId: 'prf_gone' }],
          namedInPrompt: [],
        },
        inputs: [],
        priced: { operation: 'enhance', numOutputImages: 2 },
      },
    });
    await ledger.reserve({ accountId: ACCOUNT, amountMicros: 240_000, creates: { kind: 'job', job }, at: Date.now() });
    const engine = fakeEngine();
    const read: string[][] = [];
    const me = { ...aProfile(ACCOUNT, { profileId: 'prf_me' }), face: face(ME) };
    const deps: WorkflowDeps = {
      clock: () => Date.now(),
      jobs: fakeJobs(ledger),
      ledger,
      engine,
      faces: analyserOf([[fakeFace(ME)], [fakeFace(ME)]]),
      profiles: {
        findMany: async (_accountId, ids) => {
          read.push([...ids]);
          return [me];
        },
      },
      inputs: { load: async () => [] },
      outputs: { save: async (_accountId, jobId) => [`outputs/${ACCOUNT}/${jobId}/0.jpg`] },
      link: async () => 'https://api.test/dl',
      enqueueCallback: async () => undefined,
      cancelEngineWork: async () => undefined,
      settings: { asyncBudgetMs: 30 * 60 * 1000, maxRunningJobs: 20 },
    };
    const run = await runEngine(deps, job, 15 * 60 * 1000);
    expect(read).toEqual([['prf_me', 'prf_gone']]);
    expect(engine.requests[0].candidates).toEqual([{ profileId: 'prf_me', face: face(ME) }]);
    expect(run).toMatchObject({ outcome: 'succeeded', knownSubjects: { prf_me: 2 } });
  });
});
