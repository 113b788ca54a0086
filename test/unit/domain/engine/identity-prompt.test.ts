/**
 * How a hosted model is told who to keep (functions/domain/engine/identity-prompt.ts): the prompt it reads
 * and the reference images sent after the caller's own, for every way the provider's cap on input images
 * can bind.
 */
import type { CandidateProfile, DecodedImage, EngineRequest } from '../../../../functions/domain/engine/engine';
import {
  CROPS_PER_PROFILE,
  instructedPrompt,
  loraCarried,
  planIdentity,
} from '../../../../functions/domain/engine/identity-prompt';

const crops = (profileId: string, count: number) =>
  Array.from({ length: count }, (_, index) => `profiles/acc_1/${profileId}/reference-${index}.jpg`);

const person = (profileId: string, cropCount = 2, kind: 'person' | 'animal' = 'person'): CandidateProfile => ({
  profileId,
  face: { modelId: 'faces/1', kind, mean: [1, 0], referenceKeys: crops(profileId, cropCount) },
});

const callerImage: DecodedImage = { data: Buffer.from('jpeg'), format: 'jpeg', width: 8, height: 6 };

type PlanInput = Pick<EngineRequest, 'prompt' | 'candidates' | 'namedInPrompt' | 'images'>;

/** One named person with two crops, no caller images, room for plenty. */
const request = (overrides: Partial<PlanInput> = {}): PlanInput => ({
  prompt: '[[prf_a]] on a beach',
  candidates: [person('prf_a')],
  namedInPrompt: ['prf_a'],
  images: [],
  ...overrides,
});

describe('naming the references in the prompt', () => {
  it('rewrites a named profile as the person in its reference images, one crop each', () => {
    expect(planIdentity(request(), 10)).toEqual({
      prompt: 'the person in reference images 1 and 2 on a beach',
      references: [
        { profileId: 'prf_a', keys: ['profiles/acc_1/prf_a/reference-0.jpg'] },
        { profileId: 'prf_a', keys: ['profiles/acc_1/prf_a/reference-1.jpg'] },
      ],
    });
  });

  it('numbers the references after the caller’s own images', () => {
    const plan = planIdentity(request({ images: [callerImage, callerImage] }), 10);
    expect(plan.prompt).toBe('the person in reference images 3 and 4 on a beach');
  });

  it('says "reference image" for a single crop', () => {
    const plan = planIdentity(request({ candidates: [person('prf_a', 1)], images: [callerImage] }), 10);
    expect(plan.prompt).toBe('the person in reference image 2 on a beach');
  });

  it('lists three or more images with commas', () => {
    const plan = planIdentity(request({ candidates: [person('prf_a', 3)] }), 10);
    expect(plan.prompt).toBe('the person in reference images 1, 2 and 3 on a beach');
  });

  it(`sends at most ${CROPS_PER_PROFILE} crops of a profile, the best first`, () => {
    const plan = planIdentity(request({ candidates: [person('prf_a', 6)] }), 10);
    expect(plan.references.map((ref) => ref.keys)).toEqual(crops('prf_a', CROPS_PER_PROFILE).map((key) => [key]));
  });

  it('calls an animal "the animal"', () => {
    const plan = planIdentity(request({ candidates: [person('prf_a', 1, 'animal')] }), 10);
    expect(plan.prompt).toBe('the animal in reference image 1 on a beach');
  });

  it('rewrites every mention of a profile, spaces inside the brackets allowed', () => {
    const plan = planIdentity(request({ prompt: '[[prf_a]] hugs a dog; [[ prf_a ]] smiles' }), 10);
    expect(plan.prompt).toBe(
      'the person in reference images 1 and 2 hugs a dog; the person in reference images 1 and 2 smiles',
    );
  });

  it('writes a reference to an id that is not a candidate as plain text: no [[ reaches a provider', () => {
    const plan = planIdentity(request({ prompt: '[[prf_a]] and [[prf_gone]]' }), 10);
    expect(plan.prompt).toBe('the person in reference images 1 and 2 and prf_gone');
  });
});

describe('profiles given only in profile_ids', () => {
  it('get a sentence asking to keep their identity', () => {
    const plan = planIdentity(
      request({ prompt: 'a portrait in oil', candidates: [person('prf_b', 1)], namedInPrompt: [] }),
      10,
    );
    expect(plan).toEqual({
      prompt: 'a portrait in oil Keep the identity of the person in reference image 1.',
      references: [{ profileId: 'prf_b', keys: ['profiles/acc_1/prf_b/reference-0.jpg'] }],
    });
  });

  it('are joined with "and of" when there are several', () => {
    const plan = planIdentity(
      request({ prompt: 'two friends', candidates: [person('prf_b', 1), person('prf_c', 2)], namedInPrompt: [] }),
      10,
    );
    expect(plan.prompt).toBe(
      'two friends Keep the identity of the person in reference image 1 and of the person in reference images 2 and 3.',
    );
  });

  it('make the whole prompt when the caller wrote none', () => {
    const plan = planIdentity(request({ prompt: '  ', candidates: [person('prf_b', 1)], namedInPrompt: [] }), 10);
    expect(plan.prompt).toBe('Keep the identity of the person in reference image 1.');
  });

  it('come after the named ones, whatever the order of the candidates', () => {
    const plan = planIdentity(
      request({ candidates: [person('prf_b', 1), person('prf_a', 1)], namedInPrompt: ['prf_a'] }),
      10,
    );
    expect(plan).toEqual({
      prompt: 'the person in reference image 1 on a beach Keep the identity of the person in reference image 2.',
      references: [
        { profileId: 'prf_a', keys: ['profiles/acc_1/prf_a/reference-0.jpg'] },
        { profileId: 'prf_b', keys: ['profiles/acc_1/prf_b/reference-0.jpg'] },
      ],
    });
  });
});

describe('candidates with nothing to show', () => {
  it('are not referenced when they have no face, and their [[id]] becomes words, never an id', () => {
    const plan = planIdentity(
      request({ prompt: '[[prf_a]] at dusk', candidates: [{ profileId: 'prf_a', face: null }] }),
      10,
    );
    expect(plan).toEqual({ prompt: 'the person at dusk', references: [] });
  });

  it('are not referenced when their face has no crops', () => {
    const plan = planIdentity(request({ prompt: '[[prf_a]] at dusk', candidates: [person('prf_a', 0)] }), 10);
    expect(plan).toEqual({ prompt: 'the person at dusk', references: [] });
  });

  it('get no keep-identity sentence', () => {
    const plan = planIdentity(
      request({ prompt: 'a crowd', candidates: [{ profileId: 'prf_b', face: null }], namedInPrompt: [] }),
      10,
    );
    expect(plan).toEqual({ prompt: 'a crowd', references: [] });
  });
});

describe('when the crops one by one do not fit under the cap', () => {
  it('sends one contact sheet per profile, with all its crops, and says so', () => {
    // 2 caller images + 3 + 3 crops = 8 > 5: sheets.
    const plan = planIdentity(
      request({
        prompt: '[[prf_a]] and [[prf_b]]',
        candidates: [person('prf_a', 4), person('prf_b', 3)],
        namedInPrompt: ['prf_a', 'prf_b'],
        images: [callerImage, callerImage],
      }),
      5,
    );
    expect(plan).toEqual({
      prompt:
        'the person in reference image 3 (a sheet of several photos of them) and ' +
        'the person in reference image 4 (a sheet of several photos of them)',
      references: [
        { profileId: 'prf_a', keys: crops('prf_a', 4) },
        { profileId: 'prf_b', keys: crops('prf_b', 3) },
      ],
    });
  });

  it('uses the crops one by one when they fit exactly', () => {
    const plan = planIdentity(
      request({ candidates: [person('prf_a', 3)], images: [callerImage, callerImage] }),
      2 + CROPS_PER_PROFILE,
    );
    expect(plan.references).toHaveLength(CROPS_PER_PROFILE);
    expect(plan.prompt).toBe('the person in reference images 3, 4 and 5 on a beach');
  });

  it('leaves out the profiles that do not fit even as sheets, keeping the named ones first', () => {
    const plan = planIdentity(
      request({
        prompt: '[[prf_a]] in a garden',
        candidates: [person('prf_b', 2), person('prf_a', 2)],
        namedInPrompt: ['prf_a'],
        images: [callerImage],
      }),
      2,
    );
    expect(plan).toEqual({
      prompt: 'the person in reference image 2 (a sheet of several photos of them) in a garden',
      references: [{ profileId: 'prf_a', keys: crops('prf_a', 2) }],
    });
  });

  it('sends no reference when the caller’s images fill the cap', () => {
    const plan = planIdentity(
      request({ candidates: [person('prf_a', 1), person('prf_b', 1)], images: [callerImage, callerImage] }),
      2,
    );
    expect(plan).toEqual({ prompt: 'the person on a beach', references: [] });
  });
});

describe('the instruction of the pinned operations, whatever the provider', () => {
  it('tells a general model what enhance and remix do, before the caller’s words', () => {
    expect(instructedPrompt('enhance', ' warmer light ')).toBe(
      'Enhance this photo: sharpen, denoise, correct exposure; keep composition and identity. warmer light',
    );
    expect(instructedPrompt('remix', '')).toBe('Render image 1 in the style of image 2.');
  });

  it('leaves edit and generate prompts as the caller wrote them', () => {
    expect(instructedPrompt('generate', 'a lighthouse')).toBe('a lighthouse');
    expect(instructedPrompt('edit', '')).toBe('');
  });
});

describe('a subject carried by its LoRA (a model that takes one)', () => {
  const withLora = (profileId: string, token: string, kind: 'person' | 'animal' = 'person'): CandidateProfile => ({
    ...person(profileId, 2, kind),
    lora: { key: `profiles/shared/x/y/${profileId}-lora.safetensors`, token },
  });

  it('sends no crop of it and names it by its token and class in place of [[id]]', () => {
    const plan = planIdentity(request({ candidates: [withLora('prf_a', 'qwertyui')] }), 3, true);
    expect(plan).toEqual({
      prompt: 'qwertyui person on a beach',
      references: [],
      lora: { profileId: 'prf_a', key: 'profiles/shared/x/y/prf_a-lora.safetensors', token: 'qwertyui' },
    });
  });

  it('on a model that takes none, its references as for any profile', () => {
    const plan = planIdentity(request({ candidates: [withLora('prf_a', 'qwertyui')] }), 3);
    expect(plan.lora).toBeUndefined();
    expect(plan.prompt).toBe('the person in reference images 1 and 2 on a beach');
  });

  it('carries one subject at most: the first with a LoRA named in the prompt; the others keep references', () => {
    const candidates = [withLora('prf_a', 'aaaaaaaa'), withLora('prf_b', 'bbbbbbbb', 'animal'), person('prf_c')];
    const named = {
      prompt: '[[prf_c]] with [[prf_b]] and [[prf_a]]',
      candidates,
      namedInPrompt: ['prf_c', 'prf_b', 'prf_a'],
    };
    expect(loraCarried(named)?.profileId).toBe('prf_b');
    const plan = planIdentity(request(named), 10, true);
    expect(plan.lora?.profileId).toBe('prf_b');
    expect(plan.prompt).toBe(
      'the person in reference images 3 and 4 with bbbbbbbb animal and the person in reference images 1 and 2',
    );
    expect(plan.references.map((reference) => reference.profileId)).toEqual(['prf_a', 'prf_a', 'prf_c', 'prf_c']);
  });

  it('with none named (listed in profile_ids), the first listed with a LoRA, kept by its token in the sentence', () => {
    const candidates = [person('prf_c'), withLora('prf_a', 'aaaaaaaa')];
    const plan = planIdentity(request({ prompt: 'at the beach', candidates, namedInPrompt: [] }), 10, true);
    expect(plan.lora?.profileId).toBe('prf_a');
    expect(plan.prompt).toBe(
      'at the beach Keep the identity of aaaaaaaa person and of the person in reference images 1 and 2.',
    );
  });
});
