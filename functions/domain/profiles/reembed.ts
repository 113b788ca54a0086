/**
 * Read first: the backfill after a change of face model (docs/admin.md, docs/identity.md "Face models side
 * by side"). A profile keeps a template per face model; one READY profile without a template of the
 * current model (or without reference crops: trained before faces) is given one from its stored photos:
 * - with crops already: the template alone, stored beside the others (ProfilesRepository.addFace, once);
 * - without (trained with the old hash signature): training's whole rule (trainFace): template, crops,
 *   picture, in `face`.
 * The status, charge and photos are not changed and nothing is charged. A profile whose photos no longer
 * give a usable template keeps the templates it has (served unchecked by this model) and is listed in the
 * progress for the operator (failed), never dropped. Each step is idempotent: a profile that has its
 * template is skipped, so a backfill killed half-way resumes by running again.
 *
 * The backfill runs as the workflow `profile-reembedding` (statemachines/profile-reembedding.asl.json):
 * pages of the table's READY profiles, each page's stale profiles re-embedded in parallel (a Map with
 * bounded concurrency), its progress in one record per model id. `npm run admin -- reembed-profiles`
 * runs the same steps in process.
 */
import { METRICS, type Meter } from '../shared/meter';
import { faceOfModel, type Profile, referenceKeysOf } from './profile';
import type { ProfilesRepository } from './profiles';
import { embedProfile } from './templates';
import { mapLimited, type TrainingDeps, trainFace } from './training';

export interface ProfileRef {
  accountId: string;
  profileId: string;
}

export interface ReembedFailure extends ProfileRef {
  message: string;
}

/** One backfill's record, per face model id. */
export interface ReembedProgress {
  modelId: string;
  /** Runs started (a resumed backfill is a new run). */
  runs: number;
  startedAt: number;
  updatedAt: number;
  /** When the last run found nothing more to do; null while one runs. */
  finishedAt: number | null;
  reembedded: number;
  /** Profiles whose photos no longer give a template of this model: served unchecked, their owner offered a free retrain. */
  failed: ReembedFailure[];
}

export interface ReembedProgressStore {
  /** A run begins: `runs` + 1, `finishedAt` cleared, the counts kept. */
  begin(modelId: string, at: number): Promise<void>;
  reembedded(modelId: string, profile: ProfileRef, at: number): Promise<void>;
  failed(modelId: string, failure: ReembedFailure, at: number): Promise<void>;
  finish(modelId: string, at: number): Promise<void>;
  get(modelId: string): Promise<ReembedProgress | undefined>;
}

/** A page of the table's READY profiles; `cursor` null at the end. */
export interface ReadyPage {
  profiles: Profile[];
  cursor: string | null;
}

export interface ReembedDeps extends Pick<TrainingDeps, 'faces' | 'photos' | 'settings' | 'clock'> {
  profiles: Pick<ProfilesRepository, 'get' | 'patch' | 'addFace'>;
  readyPage(cursor: string | null): Promise<ReadyPage>;
  progress: ReembedProgressStore;
  meter: Meter;
}

/** Whether a profile lacks a template of `modelId` (or reference crops, trained before faces). */
export const needsReembedding = (profile: Pick<Profile, 'status' | 'face' | 'moreFaces'>, modelId: string): boolean =>
  profile.status === 'READY' && (!faceOfModel(profile, modelId) || referenceKeysOf(profile).length === 0);

export type ReembedOutcome = 'reembedded' | 'current' | 'failed' | 'gone';

/** Re-embeds one profile for the analyser's model, if it still needs it; records the outcome in the progress. */
export const reembedProfile = async (deps: ReembedDeps, ref: ProfileRef): Promise<ReembedOutcome> => {
  const modelId = deps.faces.modelId;
  const profile = await deps.profiles.get(ref.accountId, ref.profileId);
  if (profile?.status !== 'READY') return 'gone';
  if (!needsReembedding(profile, modelId)) return 'current';
  const failed = async (message: string): Promise<ReembedOutcome> => {
    await deps.progress.failed(modelId, { ...ref, message }, deps.clock());
    deps.meter.count(METRICS.profilesReembedFailed, { FaceModel: modelId });
    return 'failed';
  };
  let stored: boolean;
  if (referenceKeysOf(profile).length === 0 || profile.face?.modelId === modelId) {
    // Trained before faces: the crops and the picture are made too, and the template is the first one.
    const photos = await deps.photos.load(profile.photoKeys);
    const trained = await trainFace(
      deps,
      { accountId: profile.accountId, profileId: profile.profileId, tier: profile.trainingTier },
      photos.map((data, index) => ({ label: profile.photoKeys[index] ?? `photo ${index + 1}`, data })),
    );
    if (!trained.ok) return failed(trained.message);
    const change =
      profile.face === null || profile.face.modelId === modelId
        ? { face: trained.face, pictureKey: trained.pictureKey }
        : { pictureKey: trained.pictureKey };
    stored = await deps.profiles.patch(profile.accountId, profile.profileId, change, deps.clock());
    if (stored && change.face === undefined)
      stored =
        (await deps.profiles.addFace(profile.accountId, profile.profileId, trained.face, deps.clock())) !== 'missing';
  } else {
    const embedded = await embedProfile(deps, profile);
    if (!embedded.ok) return failed(embedded.message);
    stored =
      (await deps.profiles.addFace(profile.accountId, profile.profileId, embedded.face, deps.clock())) !== 'missing';
  }
  if (!stored) return 'gone';
  await deps.progress.reembedded(modelId, ref, deps.clock());
  deps.meter.count(METRICS.profilesReembedded, { FaceModel: modelId, Path: 'backfill' });
  return 'reembedded';
};

/** One page of the backfill: the stale READY profiles of a page of the table, and where the next page starts. */
export const stalePage = async (
  deps: Pick<ReembedDeps, 'readyPage' | 'progress' | 'clock'> & { faces: { modelId: string } },
  cursor: string | null,
): Promise<{ profiles: ProfileRef[]; cursor: string | null }> => {
  if (cursor === null) await deps.progress.begin(deps.faces.modelId, deps.clock());
  const page = await deps.readyPage(cursor);
  return {
    profiles: page.profiles
      .filter((profile) => needsReembedding(profile, deps.faces.modelId))
      .map(({ accountId, profileId }) => ({ accountId, profileId })),
    cursor: page.cursor,
  };
};

export interface ReembedReport {
  modelId: string;
  /** Profiles that already had a template of this model. */
  current: number;
  reembedded: string[];
  failed: ReembedFailure[];
}

/** The backfill in process (`npm run admin -- reembed-profiles`): every page, `concurrency` profiles at once. */
export const reembedProfiles = async (deps: ReembedDeps, concurrency = 4): Promise<ReembedReport> => {
  const modelId = deps.faces.modelId;
  const report: ReembedReport = { modelId, current: 0, reembedded: [], failed: [] };
  let cursor: string | null = null;
  do {
    if (cursor === null) await deps.progress.begin(modelId, deps.clock());
    const page: ReadyPage = await deps.readyPage(cursor);
    await mapLimited(page.profiles, concurrency, async (profile) => {
      const outcome = await reembedProfile(deps, profile);
      if (outcome === 'current') report.current += 1;
      if (outcome === 'reembedded') report.reembedded.push(profile.profileId);
    });
    cursor = page.cursor;
  } while (cursor !== null);
  await deps.progress.finish(modelId, deps.clock());
  report.failed = (await deps.progress.get(modelId))?.failed ?? [];
  return report;
};

export interface ReembedStatus {
  modelId: string;
  ready: number;
  /** READY profiles with a template of this model. */
  current: number;
  lacking: number;
  progress: ReembedProgress | null;
}

/** `npm run admin -- reembed-profiles --status`: how many READY profiles have the model's template, and the backfill's record. */
export const reembedStatus = async (
  deps: Pick<ReembedDeps, 'readyPage' | 'progress'>,
  modelId: string,
): Promise<ReembedStatus> => {
  let ready = 0;
  let lacking = 0;
  let cursor: string | null = null;
  do {
    const page: ReadyPage = await deps.readyPage(cursor);
    ready += page.profiles.length;
    lacking += page.profiles.filter((profile) => needsReembedding(profile, modelId)).length;
    cursor = page.cursor;
  } while (cursor !== null);
  return { modelId, ready, current: ready - lacking, lacking, progress: (await deps.progress.get(modelId)) ?? null };
};

/** A backfill step reached a function of another face model (a deploy's traffic shift in progress): retried later. */
export class FaceModelMismatchError extends Error {
  override name = 'FaceModelMismatch';
  constructor(wanted: string, running: string) {
    super(`this backfill re-embeds for ${wanted}; this function runs ${running}`);
  }
}
