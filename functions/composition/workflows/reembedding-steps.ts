/**
 * The backfill's table-only steps (ListStaleProfiles, FinishBackfill): the pages of READY profiles and the
 * progress record. Apart from reembedding.ts so that these functions ship neither sharp nor the face models.
 */
import { DynamoReembedProgress } from '../../adapters/dynamo/reembed-progress';
import { clock, once } from '../core';
import { profiles, table } from '../data';

export const reembedStepDeps = once(() => ({
  clock,
  readyPage: (cursor: string | null) => profiles().readyPage(cursor),
  progress: new DynamoReembedProgress(table()),
}));
