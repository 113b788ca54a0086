export { jobStatus, jobStatusBody } from './status';
export * from './workflow';
