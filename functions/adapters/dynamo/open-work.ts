/**
 * The jobs and profiles that are not terminal, found by a Scan with a filter. It reads the whole table,
 * so it runs only where that is cheap enough: the local runtime's start, and the scheduled function on
 * AWS (a few times an hour). A sparse index of open work would make it a Query; see the README.
 */
import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { JOB_STATUSES } from '../../domain/jobs/job';
import { PROFILE_STATUSES } from '../../domain/profiles/profile';
import type { OpenWork } from '../../domain/workflow/abandoned';
import { ITEM_TYPE, type Table } from './table';

const OPEN_JOB_STATUSES = JOB_STATUSES.filter((status) => status === 'pending' || status === 'running');
const OPEN_PROFILE_STATUSES = PROFILE_STATUSES.filter((status) => status !== 'READY' && status !== 'ERROR');

export const findOpenWork = async (table: Table): Promise<OpenWork[]> => {
  const open: OpenWork[] = [];
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await table.doc.send(
      new ScanCommand({
        TableName: table.name,
        FilterExpression: `(#type = :job AND #status IN (${OPEN_JOB_STATUSES.map((_, i) => `:j${i}`).join(', ')})) OR (#type = :profile AND #status IN (${OPEN_PROFILE_STATUSES.map((_, i) => `:p${i}`).join(', ')}))`,
        ExpressionAttributeNames: { '#type': 'type', '#status': 'status' },
        ExpressionAttributeValues: {
          ':job': ITEM_TYPE.job,
          ':profile': ITEM_TYPE.profile,
          ...Object.fromEntries(OPEN_JOB_STATUSES.map((status, i) => [`:j${i}`, status])),
          ...Object.fromEntries(OPEN_PROFILE_STATUSES.map((status, i) => [`:p${i}`, status])),
        },
        ProjectionExpression: '#type, accountId, jobId, profileId',
        ExclusiveStartKey: startKey,
        ConsistentRead: true,
      }),
    );
    for (const item of page.Items ?? []) {
      const kind = item.type === ITEM_TYPE.job ? 'job' : 'profile';
      open.push({ kind, accountId: String(item.accountId), id: String(kind === 'job' ? item.jobId : item.profileId) });
    }
    startKey = page.LastEvaluatedKey;
  } while (startKey);
  return open;
};

/**
 * The automatic charges started and not finished: pending top-ups that carry the card they charge
 * (auto-billing.ts, finishStartedRecharges). A Scan like the one above, for the same sweep.
 */
export const findStartedRecharges = async (table: Table): Promise<Array<{ accountId: string; topUpId: string }>> => {
  const found: Array<{ accountId: string; topUpId: string }> = [];
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await table.doc.send(
      new ScanCommand({
        TableName: table.name,
        FilterExpression: '#type = :topUp AND #status = :pending AND attribute_exists(rechargeCard)',
        ExpressionAttributeNames: { '#type': 'type', '#status': 'status' },
        ExpressionAttributeValues: { ':topUp': ITEM_TYPE.topUp, ':pending': 'pending' },
        ProjectionExpression: 'accountId, topUpId',
        ExclusiveStartKey: startKey,
        ConsistentRead: true,
      }),
    );
    for (const item of page.Items ?? [])
      found.push({ accountId: String(item.accountId), topUpId: String(item.topUpId) });
    startKey = page.LastEvaluatedKey;
  } while (startKey);
  return found;
};
