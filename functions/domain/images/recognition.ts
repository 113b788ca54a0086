/**
 * Read first: who the outputs show, the count `known_subjects` reports and the price follows. It runs
 * after every engine run, whatever the engine (the sandbox, an HTTP backend, a hosted model), on the sync
 * path (run-sync.ts) and in the workflow's RunEngine step (jobs/workflow.ts), so every engine is billed
 * by the same rule: each output is analysed by the face analyser and its faces are matched only against
 * the request's candidates (faces/recognition.ts: threshold, margin, a face to at most one profile, a
 * profile at most once per output, counts summed over the outputs). A candidate without a face template
 * can be named in the prompt but is never counted. Nothing an engine says about identity is trusted.
 */
import { type FaceAnalyzer, matchRules, type RecognitionCandidate, recognise } from '../faces';
import type { CandidateProfile } from './engine';

/** The candidates recognition can match: those with a template. */
const comparable = (candidates: readonly CandidateProfile[]): RecognitionCandidate[] =>
  candidates.flatMap(({ profileId, face }) =>
    // recognise compares with the mean only; the per-photo embeddings stay with the profile.
    face ? [{ profileId, template: { modelId: face.modelId, kind: face.kind, mean: face.mean, embeddings: [] } }] : [],
  );

/**
 * profile id → the number of outputs it is recognised in (absent when none). Outputs are analysed one
 * after the other (one decoded 2K image in memory at a time); none is analysed when no candidate can match.
 */
export const recogniseSubjects = async (
  analyzer: FaceAnalyzer,
  outputs: readonly Buffer[],
  candidates: readonly CandidateProfile[],
  signal?: AbortSignal,
): Promise<Record<string, number>> => {
  const matchable = comparable(candidates);
  if (matchable.length === 0) return {};
  const faces = [];
  for (const output of outputs) {
    signal?.throwIfAborted();
    faces.push(await analyzer.analyze(output));
  }
  return recognise(faces, matchable, matchRules(analyzer.modelId));
};
