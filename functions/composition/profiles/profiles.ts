/** Profiles: adding (starts training) and deleting (stops it, deletes photos); reads are in data.ts and storage.ts. */

import { photoStore } from '../../adapters/s3/photo-store';
import { sharedProfilePrefix } from '../../adapters/s3/shared-inputs';
import { stopLoraTraining } from '../../domain/profiles/lora-training';
import type { ProfileDeps } from '../../domain/profiles/profiles';
import { clock, newId, once } from '../core';
import { accounts, ledger, profiles } from '../data';
import { startProfileTraining, stopProfileTraining } from '../state-machines';
import { objects } from '../storage';
import { loraTrainer } from './lora-training';

export const profileDeps = once(
  (): ProfileDeps => ({
    clock,
    newId,
    ledger: ledger(),
    profiles: profiles(),
    accounts: accounts(),
    training: {
      start: startProfileTraining,
      stop: stopProfileTraining,
      // Only a profile that trained at fal has anything there; the trainer is built (its key read) only then.
      stopRemote: async (profile) => {
        if (profile.loraTraining) await stopLoraTraining(loraTrainer(), profile);
      },
    },
    photos: photoStore(objects()),
    shared: {
      deleteProfileCopies: async (accountId, profileId) => {
        await objects().deletePrefix(sharedProfilePrefix(accountId, profileId));
      },
    },
  }),
);
