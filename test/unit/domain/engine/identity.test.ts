/**
 * Who is expected (named, or present in the operation's inputs), and the identity check after the engine:
 * the report, the retries of outputs missing someone when another attempt can help (a face drawn that is no
 * expected subject's), the best attempt delivered, what the retries made (charged) and cost, and the window
 * a retry must end in.
 */
import type {
  CandidateProfile,
  DecodedImage,
  EngineOutcome,
  EngineRequest,
  ImageEngine,
} from '../../../../functions/domain/engine/engine';
import { checkIdentity, expectedCandidates } from '../../../../functions/domain/engine/identity';
import type { DetectedFace } from '../../../../functions/domain/faces';
import { FAKE_FACE_MODEL, fakeFace, fakeFaceAnalyzer } from '../../../support/fakes';

const A = [1, 0, 0];
const B = [0, 1, 0];
const NOBODY = [0, 0, 1];
const candidate = (profileId: string, mean: number[], kind: DetectedFace['kind'] = 'person'): CandidateProfile => ({
  profileId,
  face: { modelId: FAKE_FACE_MODEL, kind, mean, referenceKeys: [`profiles/${profileId}/0.jpg`] },
});
const image = (name: string): DecodedImage =>
  ({ data: Buffer.from(name), format: 'png', width: 10, height: 10 }) as DecodedImage;

/** Images are named; the analyser answers the faces listed for a name. */
const analyser = (faces: Record<string, number[][]>) =>
  fakeFaceAnalyzer((data) => (faces[data.toString()] ?? []).map((mean) => fakeFace(mean)));

const request = (overrides: Partial<EngineRequest> = {}): EngineRequest => ({
  operation: 'edit',
  prompt: '',
  images: [],
  width: 64,
  height: 64,
  outputFormat: 'png',
  numOutputImages: 2,
  baseModel: 'base-a-2',
  candidates: [candidate('prf_a', A), candidate('prf_b', B)],
  namedInPrompt: [],
  workKey: 'job_1',
  accountId: 'acc_1',
  ...overrides,
});

describe('who is expected', () => {
  const faces = analyser({ 'photo of a': [A], 'photo of b': [B], green: [] });

  it('edit: named, plus present in any input', async () => {
    const expected = await expectedCandidates(
      faces,
      request({ images: [image('green'), image('photo of b')], namedInPrompt: [] }),
    );
    expect(expected.map((c) => c.profileId)).toEqual(['prf_b']);
  });

  it('a faceless input expects nobody from profile_ids', async () => {
    const expected = await expectedCandidates(faces, request({ operation: 'enhance', images: [image('green')] }));
    expect(expected).toEqual([]);
  });

  it('generate: named only, and no input is analysed', async () => {
    const counting = analyser({});
    const expected = await expectedCandidates(
      counting,
      request({ operation: 'generate', images: [], namedInPrompt: ['prf_b'] }),
    );
    expect(expected.map((c) => c.profileId)).toEqual(['prf_b']);
    expect(counting.analysed).toEqual([]);
  });

  it('remix: present in input_image, never in the style reference', async () => {
    const expected = await expectedCandidates(
      faces,
      request({ operation: 'remix', images: [image('photo of a'), image('photo of b')] }),
    );
    expect(expected.map((c) => c.profileId)).toEqual(['prf_a']);
  });

  it('analyses faces only until every candidate is found, and no input after that', async () => {
    const crowd = analyser({ 'a in a crowd': [A, NOBODY, NOBODY, NOBODY], 'photo of b': [B] });
    const onlyA = await expectedCandidates(
      crowd,
      request({ images: [image('a in a crowd'), image('photo of b')], candidates: [candidate('prf_a', A)] }),
    );
    expect(onlyA.map((c) => c.profileId)).toEqual(['prf_a']);
    expect(crowd.facesAnalysed()).toBe(1);
    expect(crowd.analysed.map(String)).toEqual(['a in a crowd']);
  });

  it('a candidate who is not there costs every face of every searched input', async () => {
    const crowd = analyser({ 'a in a crowd': [A, NOBODY, NOBODY], 'photo of b': [B] });
    const expected = await expectedCandidates(
      crowd,
      request({
        images: [image('a in a crowd'), image('photo of b')],
        candidates: [candidate('prf_a', A), candidate('prf_c', [0, 0.6, -0.8])],
      }),
    );
    expect(expected.map((c) => c.profileId)).toEqual(['prf_a']);
    expect(crowd.facesAnalysed()).toBe(4);
  });

  it('keeps the request order, named and present together', async () => {
    const expected = await expectedCandidates(
      faces,
      request({ images: [image('photo of a')], namedInPrompt: ['prf_b'] }),
    );
    expect(expected.map((c) => c.profileId)).toEqual(['prf_a', 'prf_b']);
  });

  describe('the subject’s pose in the input, which picks its references (reference-choice.ts)', () => {
    const turned = (mean: number[]) => ({ ...fakeFace(mean), yawDegrees: 33, pitchDegrees: -6 });
    const posedAnalyser = fakeFaceAnalyzer((data) => (data.toString() === 'a turned' ? [turned(A)] : []));
    const withBank = (profileId: string, mean: number[]): CandidateProfile => {
      const plain = candidate(profileId, mean);
      if (!plain.face) throw new Error('a candidate with a face');
      const referencePoses = [{ yawDegrees: 0, pitchDegrees: 0, luminance: 0.5 }];
      return { ...plain, face: { ...plain.face, referencePoses } };
    };

    it('a subject present in the input keeps the head pose of its face there, when its references have poses', async () => {
      const [a] = await expectedCandidates(
        posedAnalyser,
        request({ images: [image('a turned')], candidates: [withBank('prf_a', A)] }),
      );
      expect(a?.inputPose).toEqual({ yawDegrees: 33, pitchDegrees: -6 });
      const [quick] = await expectedCandidates(
        posedAnalyser,
        request({ images: [image('a turned')], candidates: [candidate('prf_a', A)] }),
      );
      expect(quick).toEqual(candidate('prf_a', A));
    });

    it('a subject named in an edit is looked for when its references have poses, and not otherwise', async () => {
      const named = { images: [image('a turned')], namedInPrompt: ['prf_a'] };
      const [posed] = await expectedCandidates(
        posedAnalyser,
        request({ ...named, candidates: [withBank('prf_a', A)] }),
      );
      expect(posed?.inputPose).toEqual({ yawDegrees: 33, pitchDegrees: -6 });
      const counting = fakeFaceAnalyzer(() => [turned(A)]);
      const [plain] = await expectedCandidates(counting, request({ ...named, candidates: [candidate('prf_a', A)] }));
      expect(plain?.inputPose).toBeUndefined();
      expect(counting.analysed).toEqual([]);
    });

    it('a subject not in the input has no pose (its references go frontal first)', async () => {
      const [a] = await expectedCandidates(
        posedAnalyser,
        request({ images: [image('someone else')], namedInPrompt: ['prf_a'], candidates: [withBank('prf_a', A)] }),
      );
      expect(a?.profileId).toBe('prf_a');
      expect(a?.inputPose).toBeUndefined();
    });
  });
});

const BY_REFERENCES = { prf_a: 'references', prf_b: 'references' };

/** An engine that answers scripted outputs, call after call, and records what it was asked. */
const scriptedEngine = (calls: string[][], costMicros = 1000) => {
  const asked: EngineRequest[] = [];
  const engine: ImageEngine = {
    run: async (req): Promise<EngineOutcome> => {
      asked.push(req);
      const next = calls.shift() ?? [];
      return {
        kind: 'images',
        images: next.slice(0, req.numOutputImages).map((name) => Buffer.from(name)),
        usage: { outputTokens: 0, megapixels: 0, providerCostMicros: costMicros },
      };
    },
  };
  return { engine, asked };
};

/** Checks outputs named `outputs` with retries answered, call after call, by `retries`. */
const checkWith = (
  faces: ReturnType<typeof analyser>,
  retries: string[][],
  outputs: string[],
  mode: 'report' | 'retry' | 'off' = 'retry',
) => {
  const { engine, asked } = scriptedEngine(retries);
  return checkIdentity(
    { engine, faces },
    request(),
    outputs.map((name) => Buffer.from(name)),
    mode,
  ).then((checked) => ({ checked, asked }));
};

describe('the identity check', () => {
  const faces = analyser({
    'a and b': [A, B],
    'only a': [A],
    'a and a stranger': [A, NOBODY],
    'only b': [B],
    'b and a stranger': [B, NOBODY],
    stranger: [NOBODY],
    'a again': [A],
    'b again': [B],
    'from behind': [],
  });

  it('reports, per output, the expected subjects kept and missing, with similarity on each face', async () => {
    const { engine, asked } = scriptedEngine([]);
    const checked = await checkIdentity(
      { engine, faces },
      request(),
      [Buffer.from('a and b'), Buffer.from('only a')],
      'report',
    );
    expect(checked.identity).toEqual({
      expected: ['prf_a', 'prf_b'],
      outputs: [
        { outputIndex: 0, kept: ['prf_a', 'prf_b'], missing: [], attempts: 1, carriedBy: BY_REFERENCES },
        { outputIndex: 1, kept: ['prf_a'], missing: ['prf_b'], attempts: 1, carriedBy: BY_REFERENCES },
      ],
    });
    expect(checked.recognition.knownSubjects).toEqual({ prf_a: 2, prf_b: 1 });
    expect(checked.recognition.recognizedFaces.every((face) => face.similarity === 1 && face.billed)).toBe(true);
    expect(asked).toEqual([]);
  });

  it('with retry, makes again only the outputs missing someone, and delivers the better attempt', async () => {
    const { checked, asked } = await checkWith(faces, [['a and b']], ['a and b', 'a and a stranger']);
    expect(asked).toHaveLength(1);
    expect(asked[0]).toMatchObject({ numOutputImages: 1, workKey: 'job_1:identity-1' });
    expect(checked.images.map(String)).toEqual(['a and b', 'a and b']);
    expect(checked.identity.outputs[1]).toEqual({
      outputIndex: 1,
      kept: ['prf_a', 'prf_b'],
      missing: [],
      attempts: 2,
      carriedBy: BY_REFERENCES,
    });
    expect(checked.identity.retriedOutputs).toBe(1);
    expect(checked.recognition.knownSubjects).toEqual({ prf_a: 2, prf_b: 2 });
    expect(checked.retries).toEqual({
      calls: 1,
      outputs: 1,
      usage: { outputTokens: 0, megapixels: 0, providerCostMicros: 1000 },
      providerCostMicros: 1000,
    });
  });

  it('stops after two retries and keeps the best attempt, never a worse one', async () => {
    const { checked, asked } = await checkWith(
      faces,
      [['stranger'], ['b and a stranger']],
      ['a and a stranger', 'a and b'],
    );
    expect(asked).toHaveLength(2);
    // 'a and a stranger' and 'b and a stranger' keep one each: the first attempt stays (it came first, equal standing).
    expect(checked.images.map(String)).toEqual(['a and a stranger', 'a and b']);
    expect(checked.identity.outputs[0]).toEqual({
      outputIndex: 0,
      kept: ['prf_a'],
      missing: ['prf_b'],
      attempts: 3,
      carriedBy: BY_REFERENCES,
    });
    expect(checked.retries).toMatchObject({ calls: 2, outputs: 2 });
    expect(checked.identity.retriedOutputs).toBe(2);
  });

  it('retries only where it can help: a face that is no expected subject, never an output without one', async () => {
    // A stranger drawn in place of the subject: retried. The subject seen from behind (no face at all), or
    // an output whose only faces are the subjects it kept: delivered as they are, nothing charged again.
    const { checked, asked } = await checkWith(faces, [['a and b']], ['from behind', 'only a', 'stranger']);
    expect(asked).toHaveLength(1);
    expect(asked[0]?.numOutputImages).toBe(1);
    expect(checked.identity.outputs.map((output) => output.attempts)).toEqual([1, 1, 2]);
    expect(checked.identity.retriedOutputs).toBe(1);
  });

  it('does not retry with report or off, nor when nobody is expected', async () => {
    for (const mode of ['report', 'off'] as const) {
      const { engine, asked } = scriptedEngine([['a and b']]);
      await checkIdentity({ engine, faces }, request(), [Buffer.from('stranger')], mode);
      expect(asked).toEqual([]);
    }
    const { engine, asked } = scriptedEngine([['a and b']]);
    const checked = await checkIdentity({ engine, faces }, request({ candidates: [] }), [Buffer.from('x')], 'retry');
    expect(asked).toEqual([]);
    expect(checked.identity).toEqual({
      expected: [],
      outputs: [{ outputIndex: 0, kept: [], missing: [], attempts: 1 }],
    });
  });

  it('says per output how each subject was carried: by the LoRA of the attempt delivered, else by references', async () => {
    // The first run carried prf_a by its LoRA; the retry (an engine without one) made output 1 again, better.
    const { engine } = scriptedEngine([['a and b']]);
    const checked = await checkIdentity(
      { engine, faces },
      request(),
      [Buffer.from('a and b'), Buffer.from('a and a stranger')],
      'retry',
      { carriedByLora: ['prf_a'] },
    );
    expect(checked.identity.outputs.map((output) => output.carriedBy)).toEqual([
      { prf_a: 'lora', prf_b: 'references' },
      BY_REFERENCES,
    ]);
  });

  it('delivers the best so far when the job no longer wants retries or its budget is spent', async () => {
    const { engine, asked } = scriptedEngine([['a and b']]);
    await checkIdentity({ engine, faces }, request(), [Buffer.from('stranger')], 'retry', {
      stillWanted: async () => false,
    });
    const spent = AbortSignal.abort();
    await checkIdentity({ engine, faces }, request(), [Buffer.from('stranger')], 'retry', { retrySignal: spent });
    expect(asked).toEqual([]);
  });

  it('starts a retry only when an attempt as long as the longest so far ends inside the window', async () => {
    let now = 0;
    const clock = () => now;
    const asked: number[] = [];
    // Each call takes 4 s on the clock; the window closes at 9 s, the first call took 4 s.
    const engine: ImageEngine = {
      run: async () => {
        asked.push(now);
        now += 4_000;
        return { kind: 'images', images: [Buffer.from('stranger')], usage: { outputTokens: 0, megapixels: 0 } };
      },
    };
    now = 4_000;
    const checked = await checkIdentity({ engine, faces }, request(), [Buffer.from('stranger')], 'retry', {
      window: { endsAt: 9_000, firstCallMs: 4_000, clock },
    });
    // 4 s + 4 s ≤ 9 s: one retry; 8 s + 4 s > 9 s: not a second. The best so far is delivered.
    expect(asked).toEqual([4_000]);
    expect(checked.identity.outputs[0]?.attempts).toBe(2);
    expect(checked.retries).toMatchObject({ calls: 1, outputs: 1 });
  });

  it('a retry still running when the window closes is abandoned: the first attempt is delivered, the retry not charged', async () => {
    const engine: ImageEngine = {
      run: (_req, signal) =>
        new Promise((_resolve, reject) => signal?.addEventListener('abort', () => reject(signal.reason))),
    };
    const checked = await checkIdentity({ engine, faces }, request(), [Buffer.from('stranger')], 'retry', {
      window: { endsAt: Date.now() + 50, firstCallMs: 0, clock: Date.now },
    });
    expect(checked.images.map(String)).toEqual(['stranger']);
    expect(checked.identity.outputs[0]?.attempts).toBe(1);
    expect(checked.retries).toMatchObject({ calls: 0, outputs: 0 });
  });

  it("hands each retry's run the call's keepTicket, so a retry's queued work is stored and can be stopped", async () => {
    const kept: string[] = [];
    const handed: unknown[] = [];
    const { engine } = scriptedEngine([['stranger'], ['a and b']]);
    const checked = await checkIdentity(
      {
        engine: {
          run: async (req, signal, progress, keepTicket) => {
            handed.push(keepTicket);
            await keepTicket?.({ engine: 'fal', requests: [{ id: `req-${handed.length}` }] } as never);
            return engine.run(req, signal, progress);
          },
        },
        faces,
      },
      request(),
      [Buffer.from('a and a stranger')],
      'retry',
      { keepTicket: async (ticket) => void kept.push(ticket.requests[0]?.id ?? '') },
    );
    expect(checked.retries.calls).toBe(2);
    expect(handed.every((given) => typeof given === 'function')).toBe(true);
    expect(kept).toEqual(['req-1', 'req-2']);
  });

  /** One output showing `face`, checked against a cat's animal template. */
  const checkCat = async (face: DetectedFace) => {
    const { engine } = scriptedEngine([]);
    return checkIdentity(
      { engine, faces: fakeFaceAnalyzer(() => [face]) },
      request({ candidates: [candidate('prf_cat', A, 'animal')] }),
      [Buffer.from('cat')],
      'report',
    );
  };

  it('an animal match is reported, not billed', async () => {
    const checked = await checkCat(fakeFace(A, 'animal'));
    expect(checked.recognition.recognizedFaces).toEqual([
      expect.objectContaining({ profileId: 'prf_cat', billed: false, similarity: 1 }),
    ]);
    expect(checked.recognition.knownSubjects).toEqual({});
    expect(checked.identity.outputs[0]?.kept).toEqual(['prf_cat']);
  });

  it('a detection neither clearly human nor clearly not is nobody', async () => {
    const checked = await checkCat({ ...fakeFace(A, 'animal'), faceConfidence: 0.1 });
    expect(checked.recognition.recognizedFaces).toEqual([]);
  });
});
