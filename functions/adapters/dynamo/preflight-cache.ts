/**
 * What the preflight found in a photo, remembered by a name for the photo's exact bytes (the domain's
 * PreflightCache): one item in the account's RATE# partition, which the preflight function may already
 * update (its rate counter's IAM condition), so it gains no grant. The record is JSON with each face's
 * embedding as float32 base64 (encodeEmbedding), a few KB a face; a record DynamoDB refuses (over 400 KB:
 * a crowd) is simply not remembered. DynamoDB's TTL deletes it a day after it was written, and a record
 * found past that day is not used.
 */
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import * as v from 'valibot';
import type { DetectedFace } from '../../domain/faces';
import type { PhotoRead } from '../../domain/profiles/preflight';
import { decodeEmbedding, encodeEmbedding } from './profiles-repository';
import { ITEM_TYPE, keys, type Table } from './table';

export const PREFLIGHT_CACHE_MS = 24 * 3600 * 1000;

type StoredFace = Omit<DetectedFace, 'embedding'> & { embedding: string };

const encode = (read: PhotoRead): string =>
  JSON.stringify(
    'faces' in read
      ? {
          ...read,
          faces: read.faces.map((face): StoredFace => ({ ...face, embedding: encodeEmbedding(face.embedding) })),
        }
      : read,
  );

const decode = (record: string): PhotoRead => {
  const parsed = JSON.parse(record) as PhotoRead | (Omit<PhotoRead, 'faces'> & { faces: StoredFace[] });
  return 'faces' in parsed
    ? ({
        ...parsed,
        faces: parsed.faces.map((face) => ({ ...face, embedding: decodeEmbedding(face.embedding as string) })),
      } as PhotoRead)
    : parsed;
};

const Item = v.object({ record: v.string(), writtenAt: v.number() });

export const dynamoPreflightCache = (table: Table, clock: () => number) => ({
  get: async (accountId: string, name: string): Promise<PhotoRead | undefined> => {
    const { Item: item } = await table.doc.send(
      new GetCommand({ TableName: table.name, Key: keys.preflightPhoto(accountId, name) }),
    );
    if (!item) return undefined;
    const stored = v.parse(Item, item);
    return clock() - stored.writtenAt > PREFLIGHT_CACHE_MS ? undefined : decode(stored.record);
  },
  put: async (accountId: string, name: string, read: PhotoRead): Promise<void> => {
    const at = clock();
    await table.doc.send(
      new UpdateCommand({
        TableName: table.name,
        Key: keys.preflightPhoto(accountId, name),
        UpdateExpression: 'SET #record = :record, writtenAt = :at, #type = :type, #ttl = :ttl',
        ExpressionAttributeNames: { '#record': 'record', '#type': 'type', '#ttl': 'ttl' },
        ExpressionAttributeValues: {
          ':record': encode(read),
          ':at': at,
          ':type': ITEM_TYPE.preflightPhoto,
          ':ttl': Math.floor((at + PREFLIGHT_CACHE_MS) / 1000),
        },
      }),
    );
  },
});
