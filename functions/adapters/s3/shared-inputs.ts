/**
 * What a provider that takes inputs by URL (fal) is shown: copies under `inputs/shared/`, each scoped to
 * the account, and within it to the profile whose reference crops it holds or else to the job whose
 * caller input it is: `inputs/shared/<account>/<prf_…>/<sha256>` and `inputs/shared/<account>/<job_…>/<sha256>`.
 * Keyed by content within that scope, so a retried step shares one object. Deleting a profile deletes its
 * copies (sharedProfilePrefix); the bucket's lifecycle expires the rest with `inputs/` (lib/constructs/data.ts).
 */
import { createHash } from 'node:crypto';
import { BUCKET_AREAS } from '../../deployment/access';

/** Whose a shared copy is: the account, and the profile it shows, or else the job it is an input of. */
export interface SharedOwner {
  accountId: string;
  jobId: string;
  profileId?: string;
}

const SHARED = `${BUCKET_AREAS.inputs}shared/`;

/** Ids become key segments: a slash or dot segment cannot move a copy into another scope. */
const segment = (id: string): string => {
  if (!/^[A-Za-z0-9_-]+$/.test(id)) throw new Error(`"${id}" is not an id a shared input may be keyed by`);
  return id;
};

export const sharedProfilePrefix = (accountId: string, profileId: string): string =>
  `${SHARED}${segment(accountId)}/${segment(profileId)}/`;

export const sharedInputKey = (owner: SharedOwner, data: Buffer): string => {
  const hash = createHash('sha256').update(data).digest('hex');
  return owner.profileId !== undefined
    ? `${sharedProfilePrefix(owner.accountId, owner.profileId)}${hash}`
    : `${SHARED}${segment(owner.accountId)}/${segment(owner.jobId)}/${hash}`;
};
