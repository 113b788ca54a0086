/**
 * Read first: the tag backfill (POST /profiles/tags).
 *
 * A tag is permanent: it is set only where a profile has none, by a conditional write, so two
 * concurrent backfills can never overwrite one another: one write wins and the other sees the tag it
 * lost to. Every entry lands in exactly one bucket: updated (this request set it), already_tagged (the
 * same tag was there), conflicts (another tag was there, echoed), not_found (unknown, deleted or
 * another account's). Reads are batched; writes run with bounded parallelism.
 */
import type { Caller } from '../accounts/accounts';
import type { Profile } from './profile';

export interface TagWriter {
  findMany(accountId: string, ids: readonly string[]): Promise<Profile[]>;
  /** Sets the tag if the profile exists and has none; otherwise says what is there. */
  setTagIfUntagged(
    accountId: string,
    profileId: string,
    tag: string,
  ): Promise<{ outcome: 'updated' } | { outcome: 'tagged'; existing: string } | { outcome: 'missing' }>;
}

export interface TagReport {
  updated: number;
  already_tagged: string[];
  conflicts: Array<{ profile_id: string; existing_tag: string }>;
  not_found: string[];
}

type Verdict =
  | { bucket: 'updated' }
  | { bucket: 'already_tagged' }
  | { bucket: 'conflicts'; existing: string }
  | { bucket: 'not_found' };

/** A profile that already has a tag: the same one resubmitted, or a conflict. */
const taggedVerdict = (wanted: string, existing: string): Verdict =>
  existing === wanted ? { bucket: 'already_tagged' } : { bucket: 'conflicts', existing };

/** No verdict yet (undefined) for a profile without a tag: the write decides. */
const verdictFor = (wanted: string, existing: string | null | undefined): Verdict | undefined =>
  existing === undefined ? { bucket: 'not_found' } : existing === null ? undefined : taggedVerdict(wanted, existing);

export const backfillTags = async (
  deps: { tags: TagWriter; writeConcurrency: number },
  caller: Caller,
  entries: ReadonlyArray<{ profile_id: string; tag: string }>,
): Promise<TagReport> => {
  const found = new Map(
    (
      await deps.tags.findMany(
        caller.accountId,
        entries.map((e) => e.profile_id),
      )
    ).map((p) => [p.profileId, p.tag]),
  );
  const verdicts: Verdict[] = new Array(entries.length);
  const toWrite: number[] = [];
  entries.forEach((entry, index) => {
    const verdict = verdictFor(
      entry.tag,
      found.has(entry.profile_id) ? (found.get(entry.profile_id) ?? null) : undefined,
    );
    if (verdict) verdicts[index] = verdict;
    else toWrite.push(index);
  });
  let next = 0;
  const worker = async () => {
    while (next < toWrite.length) {
      const index = toWrite[next++];
      const entry = entries[index];
      const written = await deps.tags.setTagIfUntagged(caller.accountId, entry.profile_id, entry.tag);
      verdicts[index] =
        written.outcome === 'updated'
          ? { bucket: 'updated' }
          : written.outcome === 'missing'
            ? { bucket: 'not_found' }
            : taggedVerdict(entry.tag, written.existing);
    }
  };
  await Promise.all(Array.from({ length: Math.min(deps.writeConcurrency, toWrite.length) }, worker));

  const report: TagReport = { updated: 0, already_tagged: [], conflicts: [], not_found: [] };
  verdicts.forEach((verdict, index) => {
    const profileId = entries[index].profile_id;
    if (verdict.bucket === 'updated') report.updated += 1;
    else if (verdict.bucket === 'already_tagged') report.already_tagged.push(profileId);
    else if (verdict.bucket === 'conflicts')
      report.conflicts.push({ profile_id: profileId, existing_tag: verdict.existing });
    else report.not_found.push(profileId);
  });
  return report;
};
