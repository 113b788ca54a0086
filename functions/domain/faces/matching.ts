/**
 * Read first: which profiles appear in a request's outputs, the count that `known_subjects` bills.
 * For each output: every face is compared only with the request's candidates of its own kind whose
 * template was made by the same model; it goes to its best candidate when the cosine to that template's
 * mean reaches the threshold and beats the next-best candidate by the margin, so each face goes to at most
 * one profile (and never falls back to its second choice). A profile is counted at most once per output,
 * however many faces claim it; counts are summed over the outputs. An animal face never counts for a
 * person's profile, nor a person's face for an animal's.
 */
import type { DetectedFace } from './face';
import type { FaceTemplate } from './template';
import { MATCH_MARGIN, MATCH_THRESHOLD } from './thresholds';
import { cosine } from './vectors';

export interface RecognitionCandidate {
  profileId: string;
  template: FaceTemplate;
}

export interface MatchRules {
  /** The model id of the analyser that found the faces: templates of other models are not compared. */
  modelId: string;
  threshold: number;
  margin: number;
}

export const matchRules = (modelId: string): MatchRules => ({
  modelId,
  threshold: MATCH_THRESHOLD,
  margin: MATCH_MARGIN,
});

/** The candidate a face goes to, if any: the best one, above the threshold and clear of the next by the margin. */
const claimOf = (
  face: Pick<DetectedFace, 'kind' | 'embedding'>,
  candidates: readonly RecognitionCandidate[],
  rules: MatchRules,
): { profileId: string; similarity: number } | undefined => {
  let best: { profileId: string; similarity: number } | undefined;
  let secondBest = Number.NEGATIVE_INFINITY;
  for (const { profileId, template } of candidates) {
    if (template.kind !== face.kind || template.modelId !== rules.modelId) continue;
    const similarity = cosine(face.embedding, template.mean);
    if (!best || similarity > best.similarity) {
      secondBest = best?.similarity ?? secondBest;
      best = { profileId, similarity };
    } else if (similarity > secondBest) secondBest = similarity;
  }
  if (!best || best.similarity < rules.threshold || best.similarity - secondBest < rules.margin) return undefined;
  return best;
};

/** One recognition that counts: a profile in an output, by the face that claims it best. */
export interface FaceMatch<F> {
  outputIndex: number;
  profileId: string;
  face: F;
  /** The cosine of the face to the profile's template mean. */
  similarity: number;
}

/**
 * Every recognition that counts, output by output: for each profile claimed in an output, the face that
 * claims it with the highest similarity (so a profile is at most once per output). The counts of
 * `known_subjects` are derived from these (`countSubjects`), never computed apart.
 */
export const matchFaces = <F extends Pick<DetectedFace, 'kind' | 'embedding'>>(
  outputs: readonly (readonly F[])[],
  candidates: readonly RecognitionCandidate[],
  rules: MatchRules,
): FaceMatch<F>[] =>
  outputs.flatMap((faces, outputIndex) => {
    const best = new Map<string, { face: F; similarity: number }>();
    for (const face of faces) {
      const claim = claimOf(face, candidates, rules);
      if (!claim) continue;
      const held = best.get(claim.profileId);
      if (!held || claim.similarity > held.similarity)
        best.set(claim.profileId, { face, similarity: claim.similarity });
    }
    return [...best].map(([profileId, { face, similarity }]) => ({ outputIndex, profileId, face, similarity }));
  });

/** profile id → how many outputs it is recognised in: one per match; profiles never recognised are absent. */
export const countSubjects = (matches: readonly Pick<FaceMatch<unknown>, 'profileId'>[]): Record<string, number> => {
  const counts: Record<string, number> = {};
  for (const { profileId } of matches) counts[profileId] = (counts[profileId] ?? 0) + 1;
  return counts;
};

/** How many outputs each recognised candidate appears in; candidates never recognised are absent. */
export const recognise = (
  outputs: readonly (readonly Pick<DetectedFace, 'kind' | 'embedding'>[])[],
  candidates: readonly RecognitionCandidate[],
  rules: MatchRules,
): Record<string, number> => countSubjects(matchFaces(outputs, candidates, rules));
