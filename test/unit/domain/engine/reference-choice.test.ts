import type { CandidateProfile } from '../../../../functions/domain/engine/engine';
import { CROPS_PER_PROFILE, planIdentity } from '../../../../functions/domain/engine/identity-prompt';
import { MAX_REFERENCES_PER_SUBJECT, referencesInOrder } from '../../../../functions/domain/engine/reference-choice';
import type { FacePose } from '../../../../functions/domain/faces';

const pose = (yawDegrees: number, pitchDegrees = 0): FacePose => ({ yawDegrees, pitchDegrees, luminance: 0.5 });
/** A Full Train bank of eight crops named by their pose, best first (as training stores it). */
const BANK: FacePose[] = [
  pose(2),
  pose(-38),
  pose(40, 5),
  pose(0, 22),
  pose(0, -20),
  pose(-20),
  pose(22, -3),
  pose(-5, 3),
];
const keyOf = (p: FacePose) => `ref(${p.yawDegrees},${p.pitchDegrees})`;
const candidate = (overrides: Partial<CandidateProfile> = {}, poses: FacePose[] | null = BANK): CandidateProfile => ({
  profileId: 'prf_a',
  face: {
    modelId: 'm',
    kind: 'person',
    mean: [1],
    referenceKeys: BANK.map(keyOf),
    ...(poses && { referencePoses: poses }),
  },
  ...overrides,
});

describe('referencesInOrder: which of a subject’s crops a request sends first', () => {
  it('an input face turned to the right gets the crops turned that way first, the closest first', () => {
    expect(referencesInOrder(candidate({ inputPose: { yawDegrees: 35, pitchDegrees: 2 } })).slice(0, 3)).toEqual([
      'ref(40,5)',
      'ref(22,-3)',
      'ref(2,0)',
    ]);
  });

  it('an input face looking up gets the crop looking up first', () => {
    expect(referencesInOrder(candidate({ inputPose: { yawDegrees: 3, pitchDegrees: 18 } }))[0]).toBe('ref(0,22)');
  });

  it('without an input face (generate): a frontal crop, then a three-quarter one, then the rest in the bank’s order', () => {
    expect(referencesInOrder(candidate())).toEqual([
      'ref(2,0)',
      'ref(-38,0)',
      'ref(40,5)',
      'ref(0,22)',
      'ref(0,-20)',
      'ref(-20,0)',
      'ref(22,-3)',
      'ref(-5,3)',
    ]);
  });

  it('a profile without recorded poses (Quick Train, or trained before the bank) keeps its order, whatever the input', () => {
    const quick = candidate({ inputPose: { yawDegrees: 35, pitchDegrees: 0 } }, null);
    expect(referencesInOrder(quick)).toEqual(BANK.map(keyOf));
  });

  it('poses that do not match the crops one to one are read as none recorded', () => {
    const broken = candidate({ inputPose: { yawDegrees: 35, pitchDegrees: 0 } }, BANK.slice(0, 3));
    expect(referencesInOrder(broken)).toEqual(BANK.map(keyOf));
  });
});

describe('planIdentity with a reference bank: the same number of crops, the closest poses', () => {
  const request = (candidates: CandidateProfile[], images = 1) => ({
    prompt: '[[prf_a]] at the beach',
    candidates,
    namedInPrompt: ['prf_a'],
    images: new Array(images),
  });

  it('sends CROPS_PER_PROFILE crops one by one: those closest to the subject’s pose in the input', () => {
    const plan = planIdentity(request([candidate({ inputPose: { yawDegrees: -36, pitchDegrees: 0 } })]), 10);
    expect(plan.references.map(({ keys }) => keys)).toEqual([['ref(-38,0)'], ['ref(-20,0)'], ['ref(-5,3)']]);
    expect(plan.references).toHaveLength(CROPS_PER_PROFILE);
  });

  it('a contact sheet (too little room one by one) holds at most MAX_REFERENCES_PER_SUBJECT crops, the closest', () => {
    const plan = planIdentity(request([candidate({ inputPose: { yawDegrees: -36, pitchDegrees: 0 } })], 2), 3);
    expect(plan.references).toHaveLength(1);
    expect(plan.references[0]?.keys).toHaveLength(MAX_REFERENCES_PER_SUBJECT);
    expect(plan.references[0]?.keys[0]).toBe('ref(-38,0)');
    expect(plan.references[0]?.keys).not.toContain('ref(40,5)');
  });
});
