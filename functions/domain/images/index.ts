export { modelList } from '../catalog/models';
export { presignDownload } from './downloads';
export { prepare } from './prepare';
export { runSync } from './run-sync';
export { type SubmitOutcome, submit } from './submit';
export { createUpload } from './uploads';
