/** Profiles: adding (starts training) and deleting (stops it, deletes photos); reads are in data.ts and storage.ts. */

import { photoStore } from '../../adapters/s3/photo-store';
import { sharedProfilePrefix } from '../../adapters/s3/shared-inputs';
import type { ProfileDeps } from '../../domain/profiles/profiles';
import { clock, newId, once } from '../core';
import { accounts, ledger, profiles } from '../data';
import { startProfileTraining, stopProfileTraining } from '../state-machines';
import { objects } from '../storage';

export const profileDeps = once(
  (): ProfileDeps => ({
    clock,
    newId,
    ledger: ledger(),
    profiles: profiles(),
    accounts: accounts(),
    training: { start: startProfileTraining, stop: stopProfileTraining },
    photos: photoStore(objects()),
    shared: {
      deleteProfileCopies: async (accountId, profileId) => {
        await objects().deletePrefix(sharedProfilePrefix(accountId, profileId));
      },
    },
  }),
);
