/** Valid domain records with every field set, for tests to change one aspect of. */
import type { Job } from '../../functions/domain/jobs/job';
import type { Profile } from '../../functions/domain/profiles/profile';
import { newId } from '../../functions/domain/shared/ids';

/** A READY profile of the account, created now. */
export const aProfile = (accountId: string, overrides: Partial<Profile> = {}, now = Date.now()): Profile => ({
  profileId: newId('prf'),
  accountId,
  status: 'READY',
  message: 'Training completed.',
  tag: null,
  trainingTier: 'fast',
  modelVersion: 'v2',
  signature: null,
  face: null,
  photoNotes: [],
  pictureKey: null,
  photoKeys: [],
  callbackUrl: null,
  trainingStartedAt: null,
  trainingSeconds: null,
  createdAt: now,
  updatedAt: now,
  ...overrides,
});

/** A pending asynchronous enhance job of the account, created now. */
export const aJob = (accountId: string, overrides: Partial<Job> = {}, now = Date.now()): Job => ({
  jobId: newId('job'),
  accountId,
  operation: 'enhance',
  mode: 'async',
  status: 'pending',
  createdAt: now,
  startedAt: null,
  completedAt: null,
  expiresAt: null,
  result: null,
  error: null,
  responseMode: 'urls',
  callbackUrl: null,
  clientRequestId: null,
  baseUrl: 'https://api.test',
  cancelAt: null,
  progress: null,
  progressAt: null,
  engineTicket: null,
  engineRun: null,
  charge: null,
  work: null,
  ...overrides,
});
