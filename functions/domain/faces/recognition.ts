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
): string | undefined => {
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
  return best.profileId;
};

/** The profiles recognised in one output, each once however many of its faces claim it. */
const recogniseOne = (
  faces: readonly Pick<DetectedFace, 'kind' | 'embedding'>[],
  candidates: readonly RecognitionCandidate[],
  rules: MatchRules,
): Set<string> => {
  const counted = new Set<string>();
  for (const face of faces) {
    const profileId = claimOf(face, candidates, rules);
    if (profileId !== undefined) counted.add(profileId);
  }
  return counted;
};

/** How many outputs each recognised candidate appears in; candidates never recognised are absent. */
export const recognise = (
  outputs: readonly (readonly Pick<DetectedFace, 'kind' | 'embedding'>[])[],
  candidates: readonly RecognitionCandidate[],
  rules: MatchRules,
): Record<string, number> => {
  const counts: Record<string, number> = {};
  for (const faces of outputs) {
    for (const profileId of recogniseOne(faces, candidates, rules)) counts[profileId] = (counts[profileId] ?? 0) + 1;
  }
  return counts;
};
