/**
 * Read first: who the outputs show, the count `known_subjects` reports and the price follows. It runs
 * after every engine run, whatever the engine (the sandbox, an HTTP backend, a hosted model), on the sync
 * path (images/run-sync.ts) and in the workflow's RunEngine step (workflow/steps.ts), so every engine is billed
 * by the same rule: each output is analysed by the face analyser and its faces are matched only against
 * the request's candidates (faces/matching.ts: threshold, margin, a face to at most one profile, a
 * profile at most once per output, counts summed over the outputs). A candidate without a face template
 * can be named in the prompt but is never counted. Nothing an engine says about identity is trusted.
 * The matches themselves (which output, which profile, the face's box) are kept as `recognized_faces`,
 * and the counts are derived from them, so the outlines a caller draws are exactly what was billed.
 */
import {
  countSubjects,
  type FaceAnalyzer,
  type FaceBox,
  matchFaces,
  matchRules,
  type RecognitionCandidate,
} from '../faces';
import type { CandidateProfile } from './engine';

/** The candidates recognition can match: those with a template. */
const comparable = (candidates: readonly CandidateProfile[]): RecognitionCandidate[] =>
  candidates.flatMap(({ profileId, face }) =>
    // recognise compares with the mean only; the per-photo embeddings stay with the profile.
    face ? [{ profileId, template: { modelId: face.modelId, kind: face.kind, mean: face.mean, embeddings: [] } }] : [],
  );

/** A recognition that counts: the output (0-based), the profile, and the face's box in the output's own pixels. */
export interface RecognizedFace {
  outputIndex: number;
  profileId: string;
  box: FaceBox;
}

export interface Recognition {
  /** One per recognition counted (a profile at most once per output). */
  recognizedFaces: RecognizedFace[];
  /** profile id → the number of outputs it is recognised in (absent when none): the count of `recognizedFaces`. */
  knownSubjects: Record<string, number>;
}

/** Whole pixels, inside the image on the top and left (a detector's box may start just outside it). */
const wholeBox = (box: FaceBox): FaceBox => {
  const x = Math.max(0, Math.round(box.x));
  const y = Math.max(0, Math.round(box.y));
  return {
    x,
    y,
    width: Math.max(1, Math.round(box.x + box.width) - x),
    height: Math.max(1, Math.round(box.y + box.height) - y),
  };
};

/**
 * Who each output shows. Outputs are analysed one after the other (one decoded 2K image in memory at a
 * time); none is analysed when no candidate can match.
 */
export const recogniseSubjects = async (
  analyzer: FaceAnalyzer,
  outputs: readonly Buffer[],
  candidates: readonly CandidateProfile[],
  signal?: AbortSignal,
): Promise<Recognition> => {
  const matchable = comparable(candidates);
  if (matchable.length === 0) return { recognizedFaces: [], knownSubjects: {} };
  const faces = [];
  for (const output of outputs) {
    signal?.throwIfAborted();
    faces.push(await analyzer.analyze(output));
  }
  const recognizedFaces = matchFaces(faces, matchable, matchRules(analyzer.modelId)).map(
    ({ outputIndex, profileId, face }) => ({ outputIndex, profileId, box: wholeBox(face.box) }),
  );
  return { recognizedFaces, knownSubjects: countSubjects(recognizedFaces) };
};
