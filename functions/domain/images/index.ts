export { prepare } from './prepare';
export { runSync } from './run-sync';
export { submit, type SubmitOutcome } from './submit';
export { presignDownload } from './downloads';
export { createUpload } from './uploads';
