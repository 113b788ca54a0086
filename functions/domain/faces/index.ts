export { type Consistency, consistency } from './consistency';
export * from './face';
export {
  countSubjects,
  type FaceMatch,
  type MatchRules,
  matchFaces,
  matchRules,
  type RecognitionCandidate,
  recognise,
} from './matching';
export { BANK_STEP, bankDistance, type FacePose, type HeadPose, poseDistance, poseOf } from './pose';
export { buildTemplate, type FaceTemplate, isComparable } from './template';
export * from './thresholds';
export { cosine, normalisedMean } from './vectors';
