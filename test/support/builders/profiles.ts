/** A valid profile record with every field set, for tests to change one aspect of. */
import type { Profile } from '../../../functions/domain/profiles/profile';
import { newId } from '../../../functions/domain/shared/ids';

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
  moreFaces: [],
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
