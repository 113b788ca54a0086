import { BatchGetCommand, GetCommand, type BatchGetCommandInput, type BatchGetCommandOutput } from '@aws-sdk/lib-dynamodb';
import * as v from 'valibot';
import { MODEL_VERSIONS } from '../../domain/accounts/accounts';
import { PROFILE_STATUSES, TRAINING_TIERS, type Profile, type ProfilesReader } from '../../domain/profiles/profile';
import { keys, type Table } from './table';

const BATCH_GET_LIMIT = 100;

export const ProfileItem = v.object({
  profileId: v.string(),
  accountId: v.string(),
  status: v.picklist(PROFILE_STATUSES),
  message: v.optional(v.string(), ''),
  tag: v.optional(v.nullable(v.string()), null),
  trainingTier: v.picklist(TRAINING_TIERS),
  modelVersion: v.picklist(MODEL_VERSIONS),
  signature: v.optional(v.nullable(v.string()), null),
  pictureKey: v.optional(v.nullable(v.string()), null),
  photoKeys: v.optional(v.array(v.string()), []),
  createdAt: v.number(),
  updatedAt: v.number(),
});

export const toProfile = (item: unknown): Profile => v.parse(ProfileItem, item);

export const profileKey = (accountId: string, profileId: string) => keys.chargeOwner(accountId, { kind: 'profile', id: profileId });

export class DynamoProfiles implements ProfilesReader {
  constructor(private readonly table: Table) {}

  async get(accountId: string, profileId: string): Promise<Profile | undefined> {
    const result = await this.table.doc.send(new GetCommand({ TableName: this.table.name, Key: profileKey(accountId, profileId), ConsistentRead: true }));
    return result.Item ? toProfile(result.Item) : undefined;
  }

  async findMany(accountId: string, ids: readonly string[]): Promise<Profile[]> {
    const unique = [...new Set(ids)];
    const found: Profile[] = [];
    for (let start = 0; start < unique.length; start += BATCH_GET_LIMIT) {
      let request: BatchGetCommandInput['RequestItems'] = {
        [this.table.name]: { Keys: unique.slice(start, start + BATCH_GET_LIMIT).map((id) => profileKey(accountId, id)), ConsistentRead: true },
      };
      while (request && Object.keys(request).length > 0) {
        const result: BatchGetCommandOutput = await this.table.doc.send(new BatchGetCommand({ RequestItems: request }));
        found.push(...(result.Responses?.[this.table.name] ?? []).map(toProfile));
        request = result.UnprocessedKeys;
      }
    }
    return found;
  }
}
