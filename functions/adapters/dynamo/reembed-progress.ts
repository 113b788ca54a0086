/**
 * The backfill's progress, one item per face model id (table.ts: pk FACE_MODEL#<model id>, sk REEMBED):
 * runs, when it started and last finished, how many profiles it re-embedded (an atomic ADD per profile,
 * so the Map's parallel steps never lose a count) and, under `failed`, each profile whose photos no longer
 * give a template of the model (a map by profile id, so a resumed run lists a profile once).
 */
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import * as v from 'valibot';
import type { ProfileRef, ReembedFailure, ReembedProgress, ReembedProgressStore } from '../../domain/profiles/reembed';
import { ITEM_TYPE, keys, type Table } from './table';

const ProgressItem = v.object({
  modelId: v.string(),
  runs: v.optional(v.number(), 0),
  startedAt: v.number(),
  updatedAt: v.number(),
  finishedAt: v.optional(v.nullable(v.number()), null),
  reembedded: v.optional(v.number(), 0),
  failed: v.optional(
    v.pipe(
      v.record(v.string(), v.object({ accountId: v.string(), message: v.string() })),
      v.transform((byId) => Object.entries(byId).map(([profileId, failure]) => ({ profileId, ...failure }))),
    ),
    {},
  ),
});

export class DynamoReembedProgress implements ReembedProgressStore {
  constructor(private readonly table: Table) {}

  private update(modelId: string, expression: string, names: Record<string, string>, values: Record<string, unknown>) {
    return this.table.doc.send(
      new UpdateCommand({
        TableName: this.table.name,
        Key: keys.reembedProgress(modelId),
        UpdateExpression: expression,
        ...(Object.keys(names).length > 0 && { ExpressionAttributeNames: names }),
        ExpressionAttributeValues: values,
      }),
    );
  }

  async begin(modelId: string, at: number): Promise<void> {
    await this.update(
      modelId,
      'SET #type = :type, modelId = :model, startedAt = if_not_exists(startedAt, :at), updatedAt = :at, ' +
        'finishedAt = :null, #failed = if_not_exists(#failed, :empty), reembedded = if_not_exists(reembedded, :zero) ' +
        'ADD runs :one',
      { '#type': 'type', '#failed': 'failed' },
      {
        ':type': ITEM_TYPE.reembedProgress,
        ':model': modelId,
        ':at': at,
        ':null': null,
        ':empty': {},
        ':zero': 0,
        ':one': 1,
      },
    );
  }

  async reembedded(modelId: string, profile: ProfileRef, at: number): Promise<void> {
    await this.update(
      modelId,
      'SET updatedAt = :at REMOVE #failed.#id ADD reembedded :one',
      {
        '#failed': 'failed',
        '#id': profile.profileId,
      },
      { ':at': at, ':one': 1 },
    );
  }

  async failed(modelId: string, failure: ReembedFailure, at: number): Promise<void> {
    await this.update(
      modelId,
      'SET updatedAt = :at, #failed.#id = :failure',
      { '#failed': 'failed', '#id': failure.profileId },
      { ':at': at, ':failure': { accountId: failure.accountId, message: failure.message } },
    );
  }

  async finish(modelId: string, at: number): Promise<void> {
    await this.update(modelId, 'SET updatedAt = :at, finishedAt = :at', {}, { ':at': at });
  }

  async get(modelId: string): Promise<ReembedProgress | undefined> {
    const result = await this.table.doc.send(
      new GetCommand({ TableName: this.table.name, Key: keys.reembedProgress(modelId), ConsistentRead: true }),
    );
    return result.Item ? v.parse(ProgressItem, result.Item) : undefined;
  }
}
