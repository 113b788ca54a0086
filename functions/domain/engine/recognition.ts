/**
 * Read first: who the outputs show, the count `known_subjects` reports and the price follows. It runs
 * after every engine run, whatever the engine (the sandbox, an HTTP backend, a hosted model), on the sync
 * path (images/run-sync.ts) and in the workflow's RunEngine step (workflow/steps.ts), so every engine is billed
 * by the same rule: each output is analysed by the face analyser and its faces are matched only against
 * the request's candidates (faces/matching.ts: threshold, margin, a face to at most one profile, a
 * profile at most once per output, counts summed over the outputs). Every candidate has a usable template
 * (images/prepare.ts refuses one without). An animal's match is reported but not billed (faces/thresholds.ts). Nothing an engine says about identity is trusted.
 * The matches themselves (which output, which profile, the face's box) are kept as `recognized_faces`,
 * and the counts are derived from them, so the outlines a caller draws are exactly what was billed.
 */
import {
  ANIMAL_MATCHES_BILLED,
  countSubjects,
  type DetectedFace,
  type FaceAnalyzer,
  type FaceBox,
  type FaceMatch,
  MAX_ANIMAL_FACE_CONFIDENCE,
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

/** A recognition: the output (0-based), the profile, the face's box in the output's own pixels, how close. */
export interface RecognizedFace {
  outputIndex: number;
  profileId: string;
  box: FaceBox;
  /** The cosine of the face to the profile's template, 3 decimals (absent on a job stored before it was kept). */
  similarity?: number;
  /** Whether it counts in `known_subjects` and the price: a person's match; an animal's not yet (thresholds.ts). */
  billed: boolean;
}

export interface Recognition {
  /** One per recognition (a profile at most once per output), billed or not. */
  recognizedFaces: RecognizedFace[];
  /** profile id → the number of outputs it is recognised in, billed matches only (absent when none). */
  knownSubjects: Record<string, number>;
}

/** A face recognition may consider: a person's, or an animal's the landmark model firmly rejects as human. */
const readable = (face: DetectedFace): boolean =>
  face.kind === 'person' || face.faceConfidence < MAX_ANIMAL_FACE_CONFIDENCE;

/** The faces of one image as recognition reads them: each matched only with candidates of its kind. */
export const facesToMatch = (faces: readonly DetectedFace[]): DetectedFace[] => faces.filter(readable);

/** The faces of already-analysed images that recognition matches with the candidates, by the one rule. */
export const faceMatches = (
  modelId: string,
  imagesFaces: readonly (readonly DetectedFace[])[],
  candidates: readonly CandidateProfile[],
): FaceMatch<DetectedFace>[] => {
  const matchable = comparable(candidates);
  if (matchable.length === 0) return [];
  return matchFaces(imagesFaces.map(facesToMatch), matchable, matchRules(modelId));
};

/** Who is in already-analysed images: the matches, with their similarity and whether they bill. */
export const recogniseFaces = (
  modelId: string,
  imagesFaces: readonly (readonly DetectedFace[])[],
  candidates: readonly CandidateProfile[],
): RecognizedFace[] =>
  faceMatches(modelId, imagesFaces, candidates).map(({ outputIndex, profileId, face, similarity }) => ({
    outputIndex,
    profileId,
    box: wholeBox(face.box),
    similarity: Math.round(similarity * 1000) / 1000,
    billed: face.kind === 'person' || ANIMAL_MATCHES_BILLED,
  }));

/** The counts `known_subjects` reports and the price follows: billed matches only. */
export const recognitionOf = (recognizedFaces: RecognizedFace[]): Recognition => ({
  recognizedFaces,
  knownSubjects: countSubjects(recognizedFaces.filter((face) => face.billed)),
});

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
  if (comparable(candidates).length === 0) return recognitionOf([]);
  const faces = [];
  for (const output of outputs) {
    signal?.throwIfAborted();
    faces.push(await analyzer.analyze(output));
  }
  return recognitionOf(recogniseFaces(analyzer.modelId, faces, candidates));
};
