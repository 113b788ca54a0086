export { cancelJob } from './cancel';
export { jobStatus, jobStatusBody, listJobs } from './status';
export * from './workflow';
