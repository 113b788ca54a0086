/**
 * Read first: a profile's template of the current face model, made from its stored photos when it has none
 * (docs/identity.md, "Face models side by side"). A profile keeps one template per face model it was
 * embedded with; code matches only with its own model's. A READY profile without one is never refused:
 * a request makes it before recognition (`templatesForRequest`), within a budget, and the backfill
 * (reembed.ts) makes it for every profile in parallel. The photos are judged by training's rules
 * (photo-faces.ts, MIN_USABLE_PHOTOS_BY_TIER); the reference crops and the picture are images, kept as
 * they are. Storing is conditional (ProfilesRepository.addFace): a race of requests stores one template.
 */
import type { FaceAnalyzer } from '../faces';
import { buildTemplate } from '../faces';
import { METRICS, type Meter } from '../shared/meter';
import { faceProblemMessage, judgePhotoFaces } from './photo-faces';
import {
  faceOfModel,
  MIN_USABLE_PHOTOS_BY_TIER,
  type Profile,
  type ProfileFace,
  referenceKeysOf,
  referencePosesOf,
} from './profile';
import type { ProfilesRepository } from './profiles';

export interface TemplateDeps {
  faces: Pick<FaceAnalyzer, 'analyze' | 'modelId'>;
  /** The profile's stored photos (profiles/<account>/<profile>/photo-*.jpg). */
  photos: { load(keys: string[]): Promise<Buffer[]> };
  profiles: Pick<ProfilesRepository, 'addFace'>;
  clock: () => number;
  settings: { photoConcurrency: number };
}

export type Embedding = { ok: true; face: ProfileFace } | { ok: false; message: string };

/**
 * The template of the analyser's model from a profile's stored photos, by training's rules, with the crops it
 * already has (none for a profile trained before faces: the backfill makes them, reembed.ts). Checks `signal`
 * before each photo.
 */
export const embedProfile = async (
  deps: Pick<TemplateDeps, 'faces' | 'photos' | 'settings'>,
  profile: Pick<Profile, 'photoKeys' | 'trainingTier' | 'face' | 'moreFaces'>,
  signal?: AbortSignal,
): Promise<Embedding> => {
  if (profile.photoKeys.length === 0) return { ok: false, message: 'The profile has no stored photos.' };
  signal?.throwIfAborted();
  const stored = await deps.photos.load(profile.photoKeys);
  const analysed = [];
  // One photo at a time: onnxruntime runs on the main thread, so analyses do not overlap anyway.
  for (const photo of stored) {
    signal?.throwIfAborted();
    analysed.push(await deps.faces.analyze(photo));
  }
  const judged = judgePhotoFaces(analysed);
  const used = judged.flatMap((photo) => (photo.problem === null && photo.face ? [photo.face] : []));
  const needed = MIN_USABLE_PHOTOS_BY_TIER[profile.trainingTier];
  if (used.length < needed) {
    const notes = judged.flatMap((photo, index) =>
      photo.problem === null ? [] : [faceProblemMessage(profile.photoKeys[index] ?? `photo ${index + 1}`, photo)],
    );
    return {
      ok: false,
      message: `Only ${used.length} of ${stored.length} stored photos show one usable face of the subject with ${deps.faces.modelId}; the ${profile.trainingTier} tier needs ${needed}. ${notes.join(' ')}`,
    };
  }
  const template = buildTemplate(deps.faces.modelId, used);
  // The crops are images, not of a model: the new template shares them, and their poses.
  const referencePoses = referencePosesOf(profile);
  return {
    ok: true,
    face: {
      modelId: template.modelId,
      kind: template.kind,
      mean: template.mean,
      referenceKeys: referenceKeysOf(profile),
      ...(referencePoses && { referencePoses }),
    },
  };
};

/** A profile with `face` added as its template of `face.modelId` (as the record reads once addFace stored it). */
export const withFace = <P extends Pick<Profile, 'face' | 'moreFaces'>>(profile: P, face: ProfileFace): P =>
  profile.face === null ? { ...profile, face } : { ...profile, moreFaces: [...profile.moreFaces, face] };

export interface RequestTemplates<P> {
  /** The profiles, with the templates made now added. */
  profiles: P[];
  /** READY profiles still without a template of the current model: served, not recognised, not billed. */
  notChecked: string[];
}

/**
 * Before a request's recognition: each READY profile without a template of the analyser's model gets one from its
 * stored photos, stored once, all within `budgetMs` (and the request's `signal`, whose abort is rethrown).
 * A profile whose template could not be made in time, or whose photos no longer give one, is listed in
 * `notChecked` and keeps its other templates' crops.
 */
export const templatesForRequest = async <P extends Profile>(
  deps: TemplateDeps & { meter: Meter; warn?: (message: string, fields: Record<string, unknown>) => void },
  profiles: readonly P[],
  budgetMs: number,
  signal: AbortSignal,
): Promise<RequestTemplates<P>> => {
  const modelId = deps.faces.modelId;
  const lacking = (profile: P) => profile.status === 'READY' && !faceOfModel(profile, modelId);
  if (!profiles.some(lacking)) return { profiles: [...profiles], notChecked: [] };
  const budget = AbortSignal.any([signal, AbortSignal.timeout(Math.max(0, budgetMs))]);
  const notChecked: string[] = [];
  const result: P[] = [];
  for (const profile of profiles) {
    if (!lacking(profile)) {
      result.push(profile);
      continue;
    }
    let made: Embedding | undefined;
    const started = deps.clock();
    try {
      made = budgetMs > 0 ? await embedProfile(deps, profile, budget) : undefined;
    } catch (error) {
      if (signal.aborted) throw error;
      if (!budget.aborted) throw error;
    }
    if (!made?.ok) {
      notChecked.push(profile.profileId);
      deps.meter.count(METRICS.subjectsNotChecked);
      deps.warn?.('a profile without a template of the current face model is served unchecked', {
        profile_id: profile.profileId,
        face_model: modelId,
        reason: made ? made.message : `not made within ${budgetMs} ms`,
      });
      result.push(profile);
      continue;
    }
    const stored = await deps.profiles.addFace(profile.accountId, profile.profileId, made.face, deps.clock());
    if (stored === 'stored') {
      deps.meter.count(METRICS.templatesMadeOnDemand);
      deps.meter.count(METRICS.profilesReembedded, { FaceModel: modelId, Path: 'request' });
    }
    deps.meter.milliseconds(METRICS.templateOnDemandLatency, deps.clock() - started);
    result.push(withFace(profile, made.face));
  }
  return { profiles: result, notChecked };
};
