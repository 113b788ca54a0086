import { NotFoundError } from '../../../../functions/domain/errors';
import {
  checkReferencedProfiles,
  extractPromptReferences,
  MixedProfileModelVersionsError,
  mergeReferences,
  ProfileNotReadyError,
  type ReferencedProfile,
} from '../../../../functions/domain/images/profile-references';

const ready = (profileId: string, modelVersion: 'v1' | 'v2' = 'v2'): ReferencedProfile => ({
  profileId,
  status: 'READY',
  modelVersion,
});

describe('extractPromptReferences', () => {
  it('returns ids in order of first mention, each once', () => {
    expect(extractPromptReferences('[[prf_b]] hugs [[prf_a]], then [[prf_b]] waves')).toEqual(['prf_b', 'prf_a']);
  });

  it('leaves text that is not an id as plain text', () => {
    expect(extractPromptReferences('a [[ not an id ]] and [[x.y]] and [[]]')).toEqual([]);
  });

  it('does not read an over-long id as a reference', () => {
    expect(extractPromptReferences(`[[${'a'.repeat(65)}]] [[${'b'.repeat(64)}]]`)).toEqual(['b'.repeat(64)]);
  });

  it('finds a reference inside extra brackets', () => {
    expect(extractPromptReferences('[[[prf_a]]]')).toEqual(['prf_a']);
  });
});

describe('mergeReferences', () => {
  it('merges profile_ids with prompt references, profile_ids first, each once', () => {
    expect(mergeReferences(['prf_a', 'prf_b', 'prf_a'], 'with [[prf_c]] and [[prf_a]]')).toEqual({
      referenced: ['prf_a', 'prf_b', 'prf_c'],
      namedInPrompt: ['prf_c', 'prf_a'],
    });
  });

  it('references nothing without profile_ids or prompt references', () => {
    expect(mergeReferences([], 'a portrait')).toEqual({ referenced: [], namedInPrompt: [] });
  });
});

describe('checkReferencedProfiles', () => {
  const found = [ready('prf_a'), ready('prf_b')];

  it('returns the common model version of READY profiles', () => {
    expect(checkReferencedProfiles(['prf_a', 'prf_b'], found)).toBe('v2');
  });

  it('accepts a request that references nothing', () => {
    expect(checkReferencedProfiles([], [])).toBeUndefined();
  });

  it('answers unknown ids with NOT_FOUND naming all of them', () => {
    const run = () => checkReferencedProfiles(['prf_a', 'prf_x', 'prf_y'], found);
    expect(run).toThrow(NotFoundError);
    expect(run).toThrow('Profile not found: prf_x, prf_y.');
  });

  it('answers profiles not READY with PROFILE_NOT_READY naming each and its status', () => {
    const training = [
      ready('prf_a'),
      { ...ready('prf_b'), status: 'IN_PROGRESS' as const },
      { ...ready('prf_c'), status: 'ERROR' as const },
    ];
    const run = () => checkReferencedProfiles(['prf_a', 'prf_b', 'prf_c'], training);
    expect(run).toThrow(ProfileNotReadyError);
    expect(run).toThrow(/prf_b \(IN_PROGRESS\), prf_c \(ERROR\)/);
  });

  it('reports unknown ids before profiles that are not READY', () => {
    const training = [{ ...ready('prf_a'), status: 'QUEUING' as const }];
    expect(() => checkReferencedProfiles(['prf_a', 'prf_x'], training)).toThrow(NotFoundError);
  });

  it('answers mixed model versions listing the ids of each version', () => {
    const mixed = [ready('prf_a', 'v1'), ready('prf_b', 'v2'), ready('prf_c', 'v1')];
    const run = () => checkReferencedProfiles(['prf_a', 'prf_b', 'prf_c'], mixed);
    expect(run).toThrow(MixedProfileModelVersionsError);
    expect(run).toThrow(/v1 \(prf_a, prf_c\) and v2 \(prf_b\)/);
  });

  it('gives its errors their stable codes', () => {
    expect(new ProfileNotReadyError([{ profileId: 'prf_a', status: 'VALIDATING' }]).code).toBe('PROFILE_NOT_READY');
    expect(new MixedProfileModelVersionsError({ v1: ['prf_a'], v2: ['prf_b'] }).code).toBe(
      'MIXED_PROFILE_MODEL_VERSIONS',
    );
  });
});
