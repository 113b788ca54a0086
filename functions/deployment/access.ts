/**
 * Read first: what a function may touch. Each row of the route table (functions/deployment/routes.ts), each
 * task of the workflow table (functions/workflows/definitions.ts) and the two other functions (the
 * callback deliverer, the maintenance sweep) declare their Access beside their handler. The stack grants
 * exactly that and nothing else (lib/constructs/grants.ts), and `npm run start:assets` refuses every
 * call the template's policies do not allow, so a missing declaration fails the tests, not production.
 */
import type { WorkflowName } from './env-names';
import type { ProviderSecretName } from './providers';

/** The bucket's areas, each a key prefix (the lifecycle rules expire `inputs/`, `outputs/` and `uploads/`). */
export const BUCKET_AREAS = {
  inputs: 'inputs/',
  outputs: 'outputs/',
  profiles: 'profiles/',
  uploads: 'uploads/',
} as const;
export type BucketArea = keyof typeof BUCKET_AREAS;

export type SecretName =
  | 'downloadToken'
  | 'engineToken'
  | 'trainerToken'
  | 'stripeSecretKey'
  | 'stripeWebhookSecret'
  | ProviderSecretName;

export interface Access {
  /**
   * `read`: GetItem, BatchGetItem, Query (the table and its index). `write`: read, plus PutItem,
   * UpdateItem, DeleteItem and ConditionCheckItem (transactions are authorised item by item).
   */
  table?: 'read' | 'write';
  /** Scan of the whole table: the maintenance sweep, and the face-template backfill's pages (ListStaleProfiles). */
  scan?: true;
  /** UpdateItem on the per-account request counters only (partition keys RATE#…): every API-key route. */
  rateCounter?: true;
  /** UpdateItem on the table, without Put or Delete: RunEngine writing a running job's progress. */
  update?: true;
  /** Objects of the bucket by area: GetObject (and listing), PutObject, DeleteObject (and listing). */
  bucket?: { read?: readonly BucketArea[]; write?: readonly BucketArea[]; delete?: readonly BucketArea[] };
  /** StartExecution on these state machines. */
  start?: readonly WorkflowName[];
  /** StopExecution on their executions. */
  stop?: readonly WorkflowName[];
  /** DescribeExecution of their executions. */
  describe?: readonly WorkflowName[];
  /** SendTaskSuccess / Failure / Heartbeat to these state machines' waiting tasks. */
  answerTasks?: readonly WorkflowName[];
  /** SendMessage to the callback queue (`deadLetter`: to its dead-letter queue). */
  queues?: readonly ('callbacks' | 'deadLetter')[];
  /** Secrets Manager secrets read (the engine and trainer tokens and the provider keys exist only with those backends). */
  secrets?: readonly SecretName[];
}

/** What every route authenticated by an API key needs: its key resolved, and its request counted. */
export const API_KEY_ACCESS: Access = { table: 'read', rateCounter: true };

/** Access that covers both (for a function that does two things). */
export const union = (...accesses: Access[]): Access => {
  const merged: Access = {};
  const list = <T>(pick: (access: Access) => readonly T[] | undefined): T[] | undefined => {
    const values = [...new Set(accesses.flatMap((access) => pick(access) ?? []))];
    return values.length > 0 ? values : undefined;
  };
  if (accesses.some((access) => access.table))
    merged.table = accesses.some((access) => access.table === 'write') ? 'write' : 'read';
  if (accesses.some((access) => access.scan)) merged.scan = true;
  if (accesses.some((access) => access.rateCounter)) merged.rateCounter = true;
  if (accesses.some((access) => access.update)) merged.update = true;
  const read = list((access) => access.bucket?.read);
  const write = list((access) => access.bucket?.write);
  const remove = list((access) => access.bucket?.delete);
  if (read || write || remove)
    merged.bucket = { ...(read && { read }), ...(write && { write }), ...(remove && { delete: remove }) };
  const start = list((access) => access.start);
  const stop = list((access) => access.stop);
  const describe = list((access) => access.describe);
  const answerTasks = list((access) => access.answerTasks);
  const queues = list((access) => access.queues);
  const secrets = list((access) => access.secrets);
  return {
    ...merged,
    ...(start && { start }),
    ...(stop && { stop }),
    ...(describe && { describe }),
    ...(answerTasks && { answerTasks }),
    ...(queues && { queues }),
    ...(secrets && { secrets }),
  };
};
