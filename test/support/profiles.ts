/** Seeds profiles straight into the table, as training would leave them (for tests of their use). */
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { profileKey } from '../../functions/adapters/dynamo/profiles-repository';
import type { Profile } from '../../functions/domain/profiles/profile';
import { tagIndexKeys } from '../../functions/domain/profiles/profiles';
import { services } from '../../bin/local/services';
import { aProfile } from './fixtures';

export const seedProfile = async (accountId: string, overrides: Partial<Profile> = {}): Promise<Profile> => {
  const profile = aProfile(accountId, overrides);
  await services().table.doc.send(
    new PutCommand({
      TableName: services().table.name,
      Item: {
        ...profileKey(accountId, profile.profileId),
        type: 'profile',
        ...profile,
        ...(profile.tag ? tagIndexKeys(accountId, profile.tag, profile.profileId) : {}),
        chargeState: 'settled',
        reservedMicros: 0,
      },
    }),
  );
  return profile;
};
