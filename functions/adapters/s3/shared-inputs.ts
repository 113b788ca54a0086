/**
 * What a provider that takes inputs by URL (fal) is shown: copies under `inputs/shared/`, each scoped to
 * the account, and within it to the profile whose reference crops it holds or else to the job whose
 * caller input it is: `inputs/shared/<A>/p-<P>/<sha256>` and `inputs/shared/<A>/j-<J>/<sha256>`, where A, P
 * and J are digests of the account, profile and job ids: the URL fal is given names no internal id (a
 * provider is never shown `prf_…`), yet each scope is found again from the ids alone.
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

/** An id as a key segment: a digest, so it neither shows the id nor can move a copy into another scope. */
const segment = (kind: string, id: string): string =>
  createHash('sha256').update(`${kind}:${id}`).digest('hex').slice(0, 32);

export const sharedAccountPrefix = (accountId: string): string => `${SHARED}${segment('account', accountId)}/`;

export const sharedProfilePrefix = (accountId: string, profileId: string): string =>
  `${sharedAccountPrefix(accountId)}p-${segment('profile', profileId)}/`;

export const sharedJobPrefix = (accountId: string, jobId: string): string =>
  `${sharedAccountPrefix(accountId)}j-${segment('job', jobId)}/`;

export const sharedInputKey = (owner: SharedOwner, data: Buffer): string => {
  const hash = createHash('sha256').update(data).digest('hex');
  return owner.profileId !== undefined
    ? `${sharedProfilePrefix(owner.accountId, owner.profileId)}${hash}`
    : `${sharedJobPrefix(owner.accountId, owner.jobId)}${hash}`;
};
