/** Seeds profiles straight into the table, as training would leave them (for tests of their use). */
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { services } from '../../bin/local-aws/services';
import { profileItem } from '../../functions/adapters/dynamo/records';
import type { Profile } from '../../functions/domain/profiles/profile';
import { aProfile } from './builders/profiles';

export const seedProfile = async (accountId: string, overrides: Partial<Profile> = {}): Promise<Profile> => {
  const profile = aProfile(accountId, overrides);
  await services().table.doc.send(
    new PutCommand({
      TableName: services().table.name,
      Item: {
        ...profileItem(profile),
        chargeState: 'settled',
        reservedMicros: 0,
      },
    }),
  );
  return profile;
};
