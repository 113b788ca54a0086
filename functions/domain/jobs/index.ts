export { jobStatus, jobStatusBody, listJobs } from './status';
export * from './workflow';
export { cancelJob } from './cancel';
