export {
  acceptLoraReport,
  awaitLoraTraining,
  checkLoraTraining,
  stopLoraTraining,
  submitLoraTraining,
} from './lora-training';
export { type PreflightReport, preflight } from './preflight';
export { add, list, picture, referenceCount, referenceCrop, remove, status, summaries } from './profiles';
export { needsReembedding, type ReembedReport, reembedProfiles } from './reembed';
export { backfillTags } from './tags';
export * from './training';
