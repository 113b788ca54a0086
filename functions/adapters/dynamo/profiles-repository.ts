import {
  BatchGetCommand,
  type BatchGetCommandInput,
  type BatchGetCommandOutput,
  DeleteCommand,
  GetCommand,
  QueryCommand,
  ScanCommand,
  UpdateCommand,
  type UpdateCommandInput,
} from '@aws-sdk/lib-dynamodb';
import * as v from 'valibot';
import { FACE_KINDS } from '../../domain/faces';
import {
  faceOfModel,
  PROFILE_STATUSES,
  type Profile,
  type ProfileFace,
  type ProfilesReader,
  TRAINING_TIERS,
} from '../../domain/profiles/profile';
import type {
  AddFaceOutcome,
  ProfileChanges,
  ProfileSummary,
  ProfilesRepository,
} from '../../domain/profiles/profiles';
import type { TagWriter } from '../../domain/profiles/tags';
import { DEFAULT_MODEL_VERSION, MODEL_VERSIONS } from '../../domain/shared/model-version';
import { ITEM_TYPE, isConditionalCheckFailure, keys, SORT_KEY_PREFIX, type Table } from './table';

const BATCH_GET_LIMIT = 100;

/**
 * A face template's mean is stored as float32 little-endian in base64: 1024 values take 5.5 KB instead
 * of ~20 KB of JSON numbers, far inside the 400 KB item limit, and float32 is the precision the model
 * computes in. The per-photo embeddings are in template.json in the bucket, not in the item.
 */
export const encodeEmbedding = (values: readonly number[]): string => {
  const bytes = Buffer.alloc(values.length * 4);
  for (const [index, value] of values.entries()) bytes.writeFloatLE(value, index * 4);
  return bytes.toString('base64');
};

export const decodeEmbedding = (base64: string): number[] => {
  const bytes = Buffer.from(base64, 'base64');
  return Array.from({ length: Math.floor(bytes.length / 4) }, (_, index) => bytes.readFloatLE(index * 4));
};

/** The `face` attribute as stored. */
export const faceItem = (face: ProfileFace) => ({
  modelId: face.modelId,
  kind: face.kind,
  mean: encodeEmbedding(face.mean),
  referenceKeys: face.referenceKeys,
  ...(face.referencePoses && { referencePoses: face.referencePoses }),
});

/** A reference crop's pose (Full Train's reference bank); absent on Quick Train and older profiles, and ignored by older readers. */
const ReferencePoseItem = v.object({ yawDegrees: v.number(), pitchDegrees: v.number(), luminance: v.number() });

const FaceItem = v.object({
  modelId: v.string(),
  kind: v.picklist(FACE_KINDS),
  mean: v.pipe(v.string(), v.transform(decodeEmbedding)),
  referenceKeys: v.array(v.string()),
  referencePoses: v.optional(v.array(ReferencePoseItem)),
});

/**
 * Templates of several face models side by side (docs/identity.md, "Face models side by side"):
 * `face` keeps the template it was first written with, in the shape every earlier reader parses, and is
 * never overwritten by another model's; the templates of the models the profile was embedded with since are
 * in the map `faces`, keyed by model id. An earlier reader ignores `faces` (valibot's object drops unknown
 * keys) and matches with `face` when it is its own model's.
 */
const FacesByModel = v.pipe(
  v.record(v.string(), FaceItem),
  v.transform((byModel) => Object.values(byModel)),
);

export const ProfileItem = v.object({
  profileId: v.string(),
  accountId: v.string(),
  status: v.picklist(PROFILE_STATUSES),
  message: v.optional(v.string(), ''),
  tag: v.optional(v.nullable(v.string()), null),
  trainingTier: v.picklist(TRAINING_TIERS),
  modelVersion: v.picklist(MODEL_VERSIONS),
  signature: v.optional(v.nullable(v.string()), null),
  face: v.optional(v.nullable(FaceItem), null),
  faces: v.optional(FacesByModel, {}),
  photoNotes: v.optional(v.array(v.string()), []),
  pictureKey: v.optional(v.nullable(v.string()), null),
  photoKeys: v.optional(v.array(v.string()), []),
  callbackUrl: v.optional(v.nullable(v.string()), null),
  trainingStartedAt: v.optional(v.nullable(v.number()), null),
  trainingSeconds: v.optional(v.nullable(v.number()), null),
  // Full Train on a LoRA trainer (domain/profiles/lora-training.ts): absent on other and older profiles.
  loraToken: v.optional(v.nullable(v.string())),
  loraSubmitAskedAt: v.optional(v.nullable(v.number())),
  loraTraining: v.optional(
    v.nullable(
      v.object({
        requestId: v.string(),
        model: v.string(),
        statusUrl: v.string(),
        responseUrl: v.string(),
        cancelUrl: v.string(),
        submittedAt: v.number(),
        steps: v.number(),
      }),
    ),
  ),
  queuePosition: v.optional(v.nullable(v.number())),
  loraAwaitToken: v.optional(v.nullable(v.string())),
  loraReported: v.optional(v.boolean()),
  lora: v.optional(v.nullable(v.object({ key: v.string() }))),
  createdAt: v.number(),
  updatedAt: v.number(),
});

export const toProfile = (item: unknown): Profile => {
  const { faces, ...profile } = v.parse(ProfileItem, item);
  return { ...profile, moreFaces: faces.filter((face) => face.modelId !== profile.face?.modelId) };
};

/** The `faces` attribute as stored: each template of `moreFaces` under its model id. */
export const facesItem = (faces: readonly ProfileFace[]) =>
  Object.fromEntries(faces.map((face) => [face.modelId, faceItem(face)]));

const SummaryItem = v.object({
  profileId: v.string(),
  status: v.picklist(PROFILE_STATUSES),
  tag: v.optional(v.nullable(v.string()), null),
  message: v.optional(v.string(), ''),
  modelVersion: v.optional(v.picklist(MODEL_VERSIONS), DEFAULT_MODEL_VERSION),
  trainingTier: v.optional(v.picklist(TRAINING_TIERS), 'standard'),
  pictureKey: v.optional(v.nullable(v.string()), null),
  createdAt: v.optional(v.number(), 0),
});

/** A Scan's LastEvaluatedKey on the table: its key attributes (strings). */
const CursorKey = v.record(v.string(), v.string());

export class DynamoProfiles implements ProfilesReader, ProfilesRepository, TagWriter {
  constructor(private readonly table: Table) {}

  async get(accountId: string, profileId: string): Promise<Profile | undefined> {
    const result = await this.table.doc.send(
      new GetCommand({ TableName: this.table.name, Key: keys.profile(accountId, profileId), ConsistentRead: true }),
    );
    return result.Item ? toProfile(result.Item) : undefined;
  }

  async findMany(accountId: string, ids: readonly string[]): Promise<Profile[]> {
    const unique = [...new Set(ids)];
    const found: Profile[] = [];
    for (let start = 0; start < unique.length; start += BATCH_GET_LIMIT) {
      let request: BatchGetCommandInput['RequestItems'] = {
        [this.table.name]: {
          Keys: unique.slice(start, start + BATCH_GET_LIMIT).map((id) => keys.profile(accountId, id)),
          ConsistentRead: true,
        },
      };
      while (request && Object.keys(request).length > 0) {
        const result: BatchGetCommandOutput = await this.table.doc.send(new BatchGetCommand({ RequestItems: request }));
        found.push(...(result.Responses?.[this.table.name] ?? []).map(toProfile));
        request = result.UnprocessedKeys;
      }
    }
    return found;
  }

  /** All pages, never truncated: the account's profiles, or those with `tag` through the index. */
  async list(accountId: string, tag?: string): Promise<ProfileSummary[]> {
    const summaries: ProfileSummary[] = [];
    let startKey: Record<string, unknown> | undefined;
    do {
      const page = await this.table.doc.send(
        new QueryCommand({
          TableName: this.table.name,
          ...(tag === undefined
            ? {
                KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
                ExpressionAttributeValues: { ':pk': keys.accountPk(accountId), ':prefix': SORT_KEY_PREFIX.profile },
              }
            : {
                IndexName: 'gsi1',
                KeyConditionExpression: 'gsi1pk = :tagKey',
                ExpressionAttributeValues: { ':tagKey': keys.tagPartition(accountId, tag) },
              }),
          ProjectionExpression: 'profileId, #status, tag, message, modelVersion, trainingTier, pictureKey, createdAt',
          ExpressionAttributeNames: { '#status': 'status' },
          ExclusiveStartKey: startKey,
        }),
      );
      summaries.push(...(page.Items ?? []).map((item) => v.parse(SummaryItem, item)));
      startKey = page.LastEvaluatedKey;
    } while (startKey);
    return summaries;
  }

  /**
   * The backfill's pages (reembed.ts): the READY profiles of one Scan page of the table (at most
   * `limit` items read), and the cursor of the next (an opaque string), null at the end.
   */
  async readyPage(cursor: string | null, limit = 200): Promise<{ profiles: Profile[]; cursor: string | null }> {
    const page = await this.table.doc.send(
      new ScanCommand({
        TableName: this.table.name,
        FilterExpression: '#type = :profile AND #status = :ready',
        ExpressionAttributeNames: { '#type': 'type', '#status': 'status' },
        ExpressionAttributeValues: { ':profile': ITEM_TYPE.profile, ':ready': 'READY' },
        Limit: limit,
        ...(cursor !== null && { ExclusiveStartKey: v.parse(CursorKey, JSON.parse(cursor)) }),
        ConsistentRead: true,
      }),
    );
    return {
      profiles: (page.Items ?? []).map(toProfile),
      cursor: page.LastEvaluatedKey ? JSON.stringify(page.LastEvaluatedKey) : null,
    };
  }

  /** For the operator's CLI only (reembed-profiles): every READY profile, by a Scan of the whole table. */
  async allReady(): Promise<Profile[]> {
    const ready: Profile[] = [];
    let startKey: Record<string, unknown> | undefined;
    do {
      const page = await this.table.doc.send(
        new ScanCommand({
          TableName: this.table.name,
          FilterExpression: '#type = :profile AND #status = :ready',
          ExpressionAttributeNames: { '#type': 'type', '#status': 'status' },
          ExpressionAttributeValues: { ':profile': ITEM_TYPE.profile, ':ready': 'READY' },
          ExclusiveStartKey: startKey,
          ConsistentRead: true,
        }),
      );
      ready.push(...(page.Items ?? []).map(toProfile));
      startKey = page.LastEvaluatedKey;
    } while (startKey);
    return ready;
  }

  async patch(accountId: string, profileId: string, changes: ProfileChanges, at: number): Promise<boolean> {
    const { face, ...rest } = changes;
    const stored = { ...rest, ...(face !== undefined && { face: face && faceItem(face) }), updatedAt: at };
    const entries = Object.entries(stored).filter(([, value]) => value !== undefined);
    try {
      await this.table.doc.send(
        new UpdateCommand({
          TableName: this.table.name,
          Key: keys.profile(accountId, profileId),
          UpdateExpression: `SET ${entries.map((_, i) => `#f${i} = :v${i}`).join(', ')}`,
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeNames: Object.fromEntries(entries.map(([name], i) => [`#f${i}`, name])),
          ExpressionAttributeValues: Object.fromEntries(entries.map(([, value], i) => [`:v${i}`, value])),
        }),
      );
      return true;
    } catch (error) {
      if (isConditionalCheckFailure(error)) return false;
      throw error;
    }
  }

  /**
   * Stores a template of another face model beside the profile's, once: in `face` when the profile has none,
   * else in `faces` under its model id. Never overwrites a template (two requests that made the same one
   * race to one write) and never writes to a profile that is gone or no longer READY.
   */
  async addFace(accountId: string, profileId: string, face: ProfileFace, at: number): Promise<AddFaceOutcome> {
    const ready = '#status = :ready';
    const attempts: Array<
      Pick<
        UpdateCommandInput,
        'UpdateExpression' | 'ConditionExpression' | 'ExpressionAttributeNames' | 'ExpressionAttributeValues'
      >
    > = [
      {
        UpdateExpression: 'SET #face = :face, updatedAt = :at',
        ConditionExpression: `${ready} AND (attribute_not_exists(#face) OR attribute_type(#face, :null))`,
        ExpressionAttributeNames: { '#status': 'status', '#face': 'face' },
        ExpressionAttributeValues: { ':ready': 'READY', ':face': faceItem(face), ':null': 'NULL', ':at': at },
      },
      {
        UpdateExpression: 'SET #faces.#model = :face, updatedAt = :at',
        ConditionExpression: `${ready} AND #face.modelId <> :model AND attribute_exists(#faces) AND attribute_not_exists(#faces.#model)`,
        ExpressionAttributeNames: { '#status': 'status', '#face': 'face', '#faces': 'faces', '#model': face.modelId },
        ExpressionAttributeValues: { ':ready': 'READY', ':face': faceItem(face), ':model': face.modelId, ':at': at },
      },
      {
        UpdateExpression: 'SET #faces = :faces, updatedAt = :at',
        ConditionExpression: `${ready} AND #face.modelId <> :model AND attribute_not_exists(#faces)`,
        ExpressionAttributeNames: { '#status': 'status', '#face': 'face', '#faces': 'faces' },
        ExpressionAttributeValues: {
          ':ready': 'READY',
          ':faces': facesItem([face]),
          ':model': face.modelId,
          ':at': at,
        },
      },
    ];
    for (const attempt of attempts) {
      try {
        await this.table.doc.send(
          new UpdateCommand({ TableName: this.table.name, Key: keys.profile(accountId, profileId), ...attempt }),
        );
        return 'stored';
      } catch (error) {
        if (!isConditionalCheckFailure(error)) throw error;
      }
    }
    const current = await this.get(accountId, profileId);
    if (current?.status !== 'READY') return 'missing';
    return faceOfModel(current, face.modelId) ? 'exists' : 'missing';
  }

  async remove(accountId: string, profileId: string): Promise<void> {
    await this.table.doc.send(
      new DeleteCommand({ TableName: this.table.name, Key: keys.profile(accountId, profileId) }),
    );
  }

  async setTagIfUntagged(accountId: string, profileId: string, tag: string) {
    try {
      await this.table.doc.send(
        new UpdateCommand({
          TableName: this.table.name,
          Key: keys.profile(accountId, profileId),
          UpdateExpression: 'SET tag = :tag, gsi1pk = :gsi1pk, gsi1sk = :gsi1sk',
          ConditionExpression: 'attribute_exists(pk) AND (attribute_not_exists(tag) OR attribute_type(tag, :null))',
          ExpressionAttributeValues: {
            ':tag': tag,
            ':null': 'NULL',
            ...prefixed(keys.tagIndex(accountId, tag, profileId)),
          },
        }),
      );
      return { outcome: 'updated' as const };
    } catch (error) {
      if (!isConditionalCheckFailure(error)) throw error;
      const current = await this.get(accountId, profileId);
      return current?.tag ? { outcome: 'tagged' as const, existing: current.tag } : { outcome: 'missing' as const };
    }
  }
}

const prefixed = (values: Record<string, string>) =>
  Object.fromEntries(Object.entries(values).map(([name, value]) => [`:${name}`, value]));
