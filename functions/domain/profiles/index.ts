export { type PreflightReport, preflight } from './preflight';
export { addProfile, deleteProfile, listProfiles, profilePicture, profileStatus, profileSummaries } from './profiles';
export { backfillTags } from './tags';
export * from './training';
