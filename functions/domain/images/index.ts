export { prepare, runSync, submit } from './operations';
export { presignDownload } from './downloads';
