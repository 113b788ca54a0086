/**
 * Read first: which profiles a request references, and whether they may be used together.
 * A prompt names a profile as `[[id]]` where id is 1 to 64 of `A-Z a-z 0-9 _ -` (every id this service
 * issues fits). Anything else between double brackets, such as `[[ not an id ]]`, is plain prompt text.
 * Checks run in order: unknown ids (404), then ids not READY (400), then mixed model versions (400).
 */

import { DomainError, NotFoundError } from '../errors';
import type { ProfileStatus } from '../profiles/profile';
import type { ModelVersion } from '../shared/model-version';

export interface ReferencedProfile {
  profileId: string;
  status: ProfileStatus;
  modelVersion: ModelVersion;
}

export interface References {
  /** `profile_ids` first, then ids only named in the prompt; each once. */
  referenced: string[];
  /** Ids named as `[[id]]` in the prompt, in order of first mention. */
  namedInPrompt: string[];
}

export class ProfileNotReadyError extends DomainError {
  constructor(readonly notReady: ReadonlyArray<Pick<ReferencedProfile, 'profileId' | 'status'>>) {
    const items = notReady.map(({ profileId, status }) => `${profileId} (${status})`).join(', ');
    super(
      'PROFILE_NOT_READY',
      `Referenced profiles are not READY: ${items}. Use a profile once its training has finished.`,
    );
  }
}

export class MixedProfileModelVersionsError extends DomainError {
  constructor(readonly idsByVersion: Readonly<Record<ModelVersion, readonly string[]>>) {
    super(
      'MIXED_PROFILE_MODEL_VERSIONS',
      `Referenced profiles span model versions v1 (${idsByVersion.v1.join(', ')}) and v2 (${idsByVersion.v2.join(', ')}); ` +
        'one request must reference profiles of a single model version.',
    );
  }
}

const PROMPT_REFERENCE = /\[\[([A-Za-z0-9_-]{1,64})\]\]/g;

const unique = (ids: Iterable<string>): string[] => [...new Set(ids)];

/** Ids named as `[[id]]` in `prompt`, in order of first mention, each once. */
export const extractPromptReferences = (prompt: string): string[] =>
  unique(Array.from(prompt.matchAll(PROMPT_REFERENCE), (match) => match[1]));

/** Merges `profile_ids` with the prompt's references (spec: the two mechanisms are merged). */
export const mergeReferences = (profileIds: readonly string[], prompt: string): References => {
  const namedInPrompt = extractPromptReferences(prompt);
  return { referenced: unique([...profileIds, ...namedInPrompt]), namedInPrompt };
};

/**
 * Checks the profiles found for `referenced` (the caller's own, looked up by id) and returns their common
 * model version, or undefined when nothing is referenced.
 */
export const checkReferencedProfiles = (
  referenced: readonly string[],
  found: readonly ReferencedProfile[],
): ModelVersion | undefined => {
  const byId = new Map(found.map((profile) => [profile.profileId, profile]));
  const ids = unique(referenced);
  const missing = ids.filter((id) => !byId.has(id));
  if (missing.length > 0) throw new NotFoundError(`Profile not found: ${missing.join(', ')}.`);

  const profiles = ids.flatMap((id) => byId.get(id) ?? []);
  const notReady = profiles.filter((profile) => profile.status !== 'READY');
  if (notReady.length > 0) throw new ProfileNotReadyError(notReady);

  const idsOf = (version: ModelVersion) => profiles.filter((p) => p.modelVersion === version).map((p) => p.profileId);
  const idsByVersion = { v1: idsOf('v1'), v2: idsOf('v2') };
  if (idsByVersion.v1.length > 0 && idsByVersion.v2.length > 0) throw new MixedProfileModelVersionsError(idsByVersion);
  return profiles[0]?.modelVersion;
};
