export { runSync, prepare } from './operations';
export { presignDownload } from './downloads';
