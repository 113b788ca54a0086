/**
 * Recognition after the engine (functions/domain/engine/recognition.ts) on a fake face analyser: what is
 * counted, for whom, and what the caller pays for it on the synchronous path and in the workflow's
 * RunEngine step. The matching rules themselves (threshold, margin) are proven in
 * test/unit/domain/faces/matching.test.ts.
 */
import { findBaseModel } from '../../../../functions/domain/catalog/catalog';
import type { CandidateFace, CandidateProfile } from '../../../../functions/domain/engine/engine';
import { recogniseSubjects } from '../../../../functions/domain/engine/recognition';
import type { DetectedFace } from '../../../../functions/domain/faces';
import type { ImageCommand } from '../../../../functions/domain/images/command';
import { submit } from '../../../../functions/domain/images/submit';
import { runEngine } from '../../../../functions/domain/workflow/steps';
import { imageCommand, UNIT_ACCOUNT, unitCaller } from '../../../support/builders/commands';
import { aJob, engineWork, reserveJob, workflowDeps } from '../../../support/builders/jobs';
import { aProfile } from '../../../support/builders/profiles';
import {
  FAKE_FACE_MODEL,
  type FakeImageWorld,
  FakeLedger,
  fakeEngine,
  fakeFace,
  fakeFaceAnalyzer,
  fakeImageWorld,
  fakeJobs,
} from '../../../support/fakes';

const ACCOUNT = UNIT_ACCOUNT;
const caller = unitCaller;

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

/**
 * An analyser that finds in output `i` the faces of `facesByOutput[i]` (outputs are `output <i>`), and in
 * an input (decoded from its value, e.g. `the photo`) the faces `facesByInput` gives it (none unless given).
 */
const analyserOf = (facesByOutput: DetectedFace[][], facesByInput: Record<string, DetectedFace[]> = {}) =>
  fakeFaceAnalyzer((image) => {
    const text = image.toString();
    return text.startsWith('output ')
      ? (facesByOutput[Number(text.slice('output '.length))] ?? [])
      : (facesByInput[text] ?? []);
  });
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
        {
          outputIndex: 0,
          profileId: 'prf_me',
          box: { x: 10, y: 21, width: 101, height: 120 },
          similarity: 1,
          billed: true,
        },
        { outputIndex: 1, profileId: 'prf_p', box: { x: 0, y: 5, width: 77, height: 90 }, similarity: 1, billed: true },
      ],
      knownSubjects: { prf_me: 1, prf_p: 1 },
    });
  });

  it('keeps one face per profile and output, the one closest to its template, as it counts one', async () => {
    const close = { ...fakeFace([0.99, 0.14, 0]), box: { x: 400, y: 0, width: 60, height: 60 } };
    const exact = { ...fakeFace(ME), box: { x: 0, y: 0, width: 60, height: 60 } };
    const analyser = analyserOf([[close, exact]]);
    const { recognizedFaces, knownSubjects } = await recogniseSubjects(analyser, outputs(1), [candidate('prf_me', ME)]);
    expect(recognizedFaces).toEqual([
      { outputIndex: 0, profileId: 'prf_me', box: exact.box, similarity: 1, billed: true },
    ]);
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

  const generate = (overrides: Partial<ImageCommand> = {}) =>
    imageCommand('generate', { prompt: '[[prf_me]] on a hill', numOutputImages: 2, ...overrides });
  const enhance = (overrides: Partial<ImageCommand> = {}) =>
    imageCommand('enhance', { profileIds: ['prf_me'], numOutputImages: 2, ...overrides });
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
    // The candidate is in the photo, so it is sent to the engine; only the first output still shows it.
    const analyser = analyserOf([[fakeFace(ME)], []], { 'the photo': [fakeFace(ME)] });
    world.deps.faces = analyser;
    const outcome = await submit(world.deps, caller, enhance(), { baseUrl: 'https://api.test' });
    expect(analyser.analysed.map(String)).toEqual(['the photo', 'output 0', 'output 1']);
    expect(world.engine.requests.map((request) => request.candidates)).toEqual([
      [{ profileId: 'prf_me', face: face(ME) }],
    ]);
    expect(outcome).toMatchObject({
      kind: 'result',
      result: {
        knownSubjects: { prf_me: 1 },
        identity: {
          expected: ['prf_me'],
          outputs: [
            { outputIndex: 0, kept: ['prf_me'], missing: [], attempts: 1 },
            { outputIndex: 1, kept: [], missing: ['prf_me'], attempts: 1 },
          ],
        },
      },
    });
    expect(finalOf()).toBe(150_000 + 120_000);
  });

  it('a synchronous enhance whose photo does not show the candidate sends it nothing and bills no output at 0.15, whatever the outputs show', async () => {
    const analyser = analyserOf([[fakeFace(ME)], [fakeFace(ME)]], { 'the photo': [fakeFace(STRANGER)] });
    world.deps.faces = analyser;
    const outcome = await submit(world.deps, caller, enhance(), { baseUrl: 'https://api.test' });
    expect(world.engine.requests.map((request) => request.candidates)).toEqual([[]]);
    expect(outcome).toMatchObject({
      kind: 'result',
      result: {
        knownSubjects: {},
        recognizedFaces: [],
        identity: {
          expected: [],
          outputs: [
            { outputIndex: 0, kept: [], missing: [], attempts: 1 },
            { outputIndex: 1, kept: [], missing: [], attempts: 1 },
          ],
        },
      },
    });
    expect(finalOf()).toBe(2 * 120_000);
  });

  it('a profile referenced and present in the photo but not recognised in the outputs is not billed', async () => {
    // Both are in the photo, so both are expected; neither is in an output.
    world.deps.faces = analyserOf([[], [fakeFace(STRANGER)]], { 'the photo': [fakeFace(ME), fakeFace(PARTNER)] });
    const outcome = await submit(world.deps, caller, enhance({ profileIds: ['prf_me', 'prf_p'] }), {
      baseUrl: 'https://api.test',
    });
    expect(world.engine.requests.map((request) => request.candidates.map(({ profileId }) => profileId))).toEqual([
      ['prf_me', 'prf_p'],
    ]);
    expect(outcome).toMatchObject({ result: { knownSubjects: {}, recognizedFaces: [] } });
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
      work: engineWork({ numOutputImages: 2, candidates: [{ profileId: 'prf_me' }, { profileId: 'prf_gone' }] }),
    });
    await reserveJob(ledger, job, 240_000);
    const engine = fakeEngine();
    const read: string[][] = [];
    const me = { ...aProfile(ACCOUNT, { profileId: 'prf_me' }), face: face(ME) };
    const deps = workflowDeps({
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
    });
    const run = await runEngine(deps, job, 15 * 60 * 1000);
    expect(read).toEqual([['prf_me', 'prf_gone']]);
    expect(engine.requests[0].candidates).toEqual([{ profileId: 'prf_me', face: face(ME) }]);
    expect(run).toMatchObject({ outcome: 'succeeded', knownSubjects: { prf_me: 2 } });
  });
});
