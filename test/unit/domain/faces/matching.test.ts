import {
  buildTemplate,
  consistency,
  type DetectedFace,
  type FaceKind,
  matchRules,
  normalisedMean,
  type RecognitionCandidate,
  recognise,
} from '../../../../functions/domain/faces';

const MODEL = 'model-a/1';
const rules = { modelId: MODEL, threshold: 0.7, margin: 0.1 };

/** A unit vector at `degrees` from the x axis in the x-y plane, plus an optional z part (then normalised). */
const direction = (degrees: number, z = 0): number[] => {
  const radians = (degrees * Math.PI) / 180;
  return normalisedMean([[Math.cos(radians), Math.sin(radians), z, 0]]);
};

const face = (embedding: number[], kind: FaceKind = 'person'): Pick<DetectedFace, 'kind' | 'embedding'> => ({
  kind,
  embedding,
});
const candidate = (profileId: string, degrees: number, kind: FaceKind = 'person', modelId = MODEL) => ({
  profileId,
  template: buildTemplate(modelId, [face(direction(degrees), kind)]),
});

describe('a face template', () => {
  it('keeps every embedding and their normalised mean', () => {
    const template = buildTemplate(MODEL, [face([1, 0, 0, 0]), face([0, 1, 0, 0])]);
    expect(template).toMatchObject({
      modelId: MODEL,
      kind: 'person',
      embeddings: [
        [1, 0, 0, 0],
        [0, 1, 0, 0],
      ],
    });
    template.mean.forEach((value, index) => {
      expect(value).toBeCloseTo([Math.SQRT1_2, Math.SQRT1_2, 0, 0][index], 12);
    });
  });

  it('refuses faces of two kinds', () => {
    expect(() => buildTemplate(MODEL, [face([1, 0, 0, 0]), face([1, 0, 0, 0], 'animal')])).toThrow(/one kind/);
  });

  it('refuses no faces', () => {
    expect(() => buildTemplate(MODEL, [])).toThrow();
  });
});

describe('recognising profiles in outputs', () => {
  const alice = candidate('alice', 0);
  const bob = candidate('bob', 90);

  it('counts a face close to a template', () => {
    expect(recognise([[face(direction(20))]], [alice, bob], rules)).toEqual({ alice: 1 });
  });

  it('counts nobody below the threshold', () => {
    // Halfway between them and out of their plane: cosine 0.5 to each.
    expect(recognise([[face(direction(45, 1))]], [alice, bob], rules)).toEqual({});
  });

  it('counts nobody when the best candidate is not clear of the next by the margin', () => {
    const twin = candidate('twin', 10);
    // 5° from both: similar enough to each, but 0 apart.
    expect(recognise([[face(direction(5))]], [alice, twin], rules)).toEqual({});
    // The same face is counted when only one of them is a candidate.
    expect(recognise([[face(direction(5))]], [alice], rules)).toEqual({ alice: 1 });
  });

  it('gives one face to one profile only', () => {
    const close = candidate('close', 30);
    const counts = recognise([[face(direction(2))]], [alice, close], rules);
    expect(counts).toEqual({ alice: 1 });
  });

  it('counts a profile once per output however many faces look like it', () => {
    const outputs = [[face(direction(0)), face(direction(15)), face(direction(-15))]];
    expect(recognise(outputs, [alice, bob], rules)).toEqual({ alice: 1 });
  });

  it('counts two people in one output', () => {
    expect(recognise([[face(direction(5)), face(direction(85))]], [alice, bob], rules)).toEqual({ alice: 1, bob: 1 });
  });

  it('sums the counts over the outputs', () => {
    const outputs = [[face(direction(0))], [face(direction(88)), face(direction(3))], [], [face(direction(45))]];
    expect(recognise(outputs, [alice, bob], rules)).toEqual({ alice: 2, bob: 1 });
  });

  it("never counts an animal face for a person's profile", () => {
    expect(recognise([[face(direction(0), 'animal')]], [alice], rules)).toEqual({});
  });

  it("never counts a person's face for an animal's profile", () => {
    const cat = candidate('cat', 0, 'animal');
    expect(recognise([[face(direction(0))]], [cat], rules)).toEqual({});
    expect(recognise([[face(direction(0), 'animal')]], [cat], rules)).toEqual({ cat: 1 });
  });

  it('does not let an animal candidate take the margin from a person candidate', () => {
    const cat = candidate('cat', 1, 'animal');
    expect(recognise([[face(direction(0))]], [alice, cat], rules)).toEqual({ alice: 1 });
  });

  it('never compares a template made by another model', () => {
    const old = candidate('alice', 0, 'person', 'model-b/1');
    expect(recognise([[face(direction(0))]], [old], rules)).toEqual({});
  });

  it('compares the template mean, not a single training photo', () => {
    const spread: RecognitionCandidate = {
      profileId: 'alice',
      template: buildTemplate(MODEL, [face(direction(-40)), face(direction(40))]),
    };
    // 40° from each photo (cosine 0.77) but 0° from their mean.
    expect(recognise([[face(direction(0))]], [spread], { ...rules, threshold: 0.99 })).toEqual({ alice: 1 });
  });

  it('uses the calibrated constants by default', () => {
    const defaults = matchRules(MODEL);
    expect(defaults.modelId).toBe(MODEL);
    expect(defaults.threshold).toBeGreaterThan(0);
    expect(defaults.margin).toBeGreaterThan(0);
  });
});

describe('the consistency of a training set', () => {
  const same = (degrees: number) => face(direction(degrees));

  it('finds no outlier among photos of one person', () => {
    expect(consistency([same(0), same(10), same(-10), same(5)], 0.8)).toMatchObject({
      outliers: [],
      hasMajority: true,
    });
  });

  it('flags the photo of someone else', () => {
    const result = consistency([same(0), same(10), face(direction(0, 5)), same(-10), same(5)], 0.8);
    expect(result.outliers).toEqual([2]);
    expect(result.hasMajority).toBe(true);
    expect(result.similarities[2]).toBeLessThan(0.8);
    expect(Math.min(...result.similarities.filter((_, index) => index !== 2))).toBeGreaterThan(0.8);
  });

  it('flags two strangers in a set of five', () => {
    const result = consistency([same(0), same(90), same(5), same(180), same(-5)], 0.8);
    expect(result.outliers).toEqual([1, 3]);
  });

  it('flags every photo when no majority agrees', () => {
    expect(consistency([same(0), same(90)], 0.8)).toEqual({
      similarities: expect.any(Array),
      outliers: [0, 1],
      hasMajority: false,
    });
    expect(consistency([same(0), same(5), same(90), same(95)], 0.8).outliers).toEqual([0, 1, 2, 3]);
  });

  it('accepts a single photo', () => {
    expect(consistency([same(0)], 0.8)).toEqual({ similarities: [1], outliers: [], hasMajority: true });
  });
});
