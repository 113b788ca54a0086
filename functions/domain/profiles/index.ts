export { addProfile, deleteProfile, listProfiles, profilePicture, profileStatus, profileSummaries } from './profiles';
export { backfillTags } from './tags';
export * from './training';
export { preflight, type PreflightReport } from './preflight';
