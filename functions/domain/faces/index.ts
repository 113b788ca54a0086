export { type Consistency, consistency } from './consistency';
export * from './face';
export { type MatchRules, matchRules, type RecognitionCandidate, recognise } from './recognition';
export { buildTemplate, type FaceTemplate, isComparable } from './template';
export * from './thresholds';
export { cosine, normalisedMean } from './vectors';
