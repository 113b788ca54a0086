/**
 * Read first: re-embedding, the maintenance that keeps every READY profile comparable with the faces
 * the analyser finds now (`npm run admin -- reembed-profiles`). A profile whose `face` is missing (trained
 * before faces, with the old hash signature) or was made by another model id is given a new template
 * from its stored photos, by the rule training applies (trainFace): the template, reference crops and
 * picture are rewritten, the status, charge and photos are not. A profile whose photos no longer give
 * enough usable faces is reported and left as it is (its owner may train it again). Nothing is charged.
 */
import type { Profile } from './profile';
import type { ProfilesRepository } from './profiles';
import { mapLimited, type TrainingDeps, trainFace } from './training';

export interface ReembedDeps extends Pick<TrainingDeps, 'faces' | 'photos' | 'settings' | 'clock'> {
  profiles: Pick<ProfilesRepository, 'patch'>;
  /** Every READY profile of every account (all pages). */
  readyProfiles(): Promise<Profile[]>;
}

export interface ReembedReport {
  modelId: string;
  /** Profiles that already had a template of this model. */
  current: number;
  reembedded: string[];
  failed: Array<{ profileId: string; accountId: string; message: string }>;
}

/** Whether a profile's template must be rebuilt for the analyser of `modelId`. */
export const needsReembedding = (profile: Pick<Profile, 'status' | 'face'>, modelId: string): boolean =>
  profile.status === 'READY' && (profile.face === null || profile.face.modelId !== modelId);

export const reembedProfiles = async (deps: ReembedDeps): Promise<ReembedReport> => {
  const modelId = deps.faces.modelId;
  const ready = await deps.readyProfiles();
  const stale = ready.filter((profile) => needsReembedding(profile, modelId));
  const report: ReembedReport = { modelId, current: ready.length - stale.length, reembedded: [], failed: [] };
  // One profile at a time: each already analyses its photos photoConcurrency at once.
  await mapLimited(stale, 1, async (profile) => {
    const stored = await deps.photos.load(profile.photoKeys);
    const trained = await trainFace(
      deps,
      { accountId: profile.accountId, profileId: profile.profileId, tier: profile.trainingTier },
      stored.map((data, index) => ({ label: profile.photoKeys[index] ?? `photo ${index + 1}`, data })),
    );
    if (!trained.ok) {
      report.failed.push({ profileId: profile.profileId, accountId: profile.accountId, message: trained.message });
      return;
    }
    const stillThere = await deps.profiles.patch(
      profile.accountId,
      profile.profileId,
      { face: trained.face, pictureKey: trained.pictureKey },
      deps.clock(),
    );
    if (stillThere) report.reembedded.push(profile.profileId);
  });
  return report;
};
