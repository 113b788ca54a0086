/**
 * A LoRA trainer's measured pace, one item per trainer model (table.ts: pk TRAINER#<model>, sk PACE): the
 * trainings measured, their steps and their seconds in progress, each summed by an atomic ADD, so trainings
 * that end at once never lose one. The pace is seconds over steps (domain/profiles/lora-training.ts).
 */
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import * as v from 'valibot';
import type { TrainerPaceStore } from '../../domain/profiles/lora-training';
import { ITEM_TYPE, keys, type Table } from './table';

const PaceItem = v.object({
  trainings: v.optional(v.number(), 0),
  steps: v.optional(v.number(), 0),
  seconds: v.optional(v.number(), 0),
});

export class DynamoTrainerPace implements TrainerPaceStore {
  constructor(private readonly table: Table) {}

  async secondsPerStep(model: string): Promise<number | undefined> {
    const { Item } = await this.table.doc.send(
      new GetCommand({ TableName: this.table.name, Key: keys.trainerPace(model) }),
    );
    if (!Item) return undefined;
    const pace = v.parse(PaceItem, Item);
    return pace.steps > 0 && pace.seconds > 0 ? pace.seconds / pace.steps : undefined;
  }

  async record(model: string, measured: { steps: number; seconds: number }, at: number): Promise<void> {
    if (!(measured.steps > 0) || !(measured.seconds >= 0)) return;
    await this.table.doc.send(
      new UpdateCommand({
        TableName: this.table.name,
        Key: keys.trainerPace(model),
        UpdateExpression:
          'SET #type = :type, model = :model, updatedAt = :at ADD trainings :one, steps :steps, #seconds :seconds',
        ExpressionAttributeNames: { '#type': 'type', '#seconds': 'seconds' },
        ExpressionAttributeValues: {
          ':type': ITEM_TYPE.trainerPace,
          ':model': model,
          ':at': at,
          ':one': 1,
          ':steps': measured.steps,
          ':seconds': measured.seconds,
        },
      }),
    );
  }
}
