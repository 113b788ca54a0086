/**
 * From the domain's typed records to table items and update patches: keys, `type`, index entries and
 * TTLs are added here and nowhere in the domain (the key layout is in table.ts).
 */
import type {
  ChargedRecord,
  ChargeOwners,
  ClientRequestIdClaim,
  ReleasedEnd,
  SettledEnd,
} from '../../domain/billing/ledger';
import type { Job, JobFailed, JobSucceeded } from '../../domain/jobs/job';
import type { Profile, ProfileFailed, ProfileReady } from '../../domain/profiles/profile';
import { faceItem, facesItem } from './profiles-repository';
import { ITEM_TYPE, keys, RECORD_VERSION, ttlAfter } from './table';

/** The job's `charge` is the ledger's (reservedMicros, finalMicros on the item): a job write never carries it. */
export const jobItem = ({ charge: _ledgers, ...job }: Job) => ({
  ...keys.job(job.accountId, job.jobId),
  type: ITEM_TYPE.job,
  ...job,
  v: RECORD_VERSION.job,
});

/**
 * An untagged profile has no tag attribute at all (the tag backfill's condition looks for its absence);
 * its face template's mean is stored compactly (faceItem).
 */
export const profileItem = (profile: Profile) => {
  const { tag, face, moreFaces, ...untagged } = profile;
  return {
    ...keys.profile(profile.accountId, profile.profileId),
    type: ITEM_TYPE.profile,
    v: RECORD_VERSION.profile,
    ...untagged,
    face: face && faceItem(face),
    ...(moreFaces.length > 0 && { faces: facesItem(moreFaces) }),
    ...(tag ? { tag, ...keys.tagIndex(profile.accountId, tag, profile.profileId) } : {}),
  };
};

/** The records the ledger writes with a charge, as the domain types them (the port's ChargeOwners). */
export interface OwnerRecords extends ChargeOwners {
  job: { record: Job; settled: JobSucceeded; released: JobFailed };
  profile: { record: Profile; settled: ProfileReady; released: ProfileFailed };
}

export const chargedRecordItem = (record: ChargedRecord<OwnerRecords>) =>
  record.kind === 'job' ? jobItem(record.job) : profileItem(record.profile);

export const claimItem = (accountId: string, claim: ClientRequestIdClaim) => ({
  ...keys.idempotency(accountId, claim.clientRequestId),
  type: ITEM_TYPE.idempotency,
  jobId: claim.jobId,
  clientRequestId: claim.clientRequestId,
  fingerprint: claim.fingerprint,
  ttl: ttlAfter(claim.keepUntil),
});

/** The attributes a terminal state sets on its owner record; an ended job is cleaned up a week after it expires. */
export const endPatch = (ends: SettledEnd<OwnerRecords> | ReleasedEnd<OwnerRecords>): Record<string, unknown> =>
  ends.kind === 'job' ? { ...ends.end, ttl: ttlAfter(ends.end.expiresAt) } : { ...ends.end };

/** Builds `SET #p0 = :p0, …` for a patch, with names and values that cannot collide with ours. */
export const patchExpression = (patch: Readonly<Record<string, unknown>>) => {
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  const sets = Object.entries(patch)
    .filter(([, value]) => value !== undefined)
    .map(([name, value], index) => {
      names[`#p${index}`] = name;
      values[`:p${index}`] = value;
      return `#p${index} = :p${index}`;
    });
  return { sets, names, values };
};
