/**
 * Read first: least privilege, derived from the tables. Every function's Access (functions/deployment/access.ts,
 * declared beside its handler in the route and workflow tables) becomes exactly these grants; nothing
 * else in the stack grants a function anything (the SQS event source's consume grant aside).
 */
import { ArnFormat, Stack } from 'aws-cdk-lib';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as iam from 'aws-cdk-lib/aws-iam';
import type * as s3 from 'aws-cdk-lib/aws-s3';
import type * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import type * as sfn from 'aws-cdk-lib/aws-stepfunctions';
import type { IConstruct } from 'constructs';
import { RATE_PARTITION_PREFIX } from '../../functions/adapters/dynamo/table';
import { type Access, BUCKET_AREAS, type BucketArea, type SecretName } from '../../functions/deployment/access';
import type { WorkflowName } from '../../functions/deployment/env-names';
import { acknowledgeWildcardResource } from './acknowledgements';

export interface GrantableResources {
  readonly table: dynamodb.ITable;
  readonly bucket: s3.IBucket;
  readonly callbackQueue: sqs.IQueue;
  readonly deadLetterQueue: sqs.IQueue;
  readonly secrets: Partial<Record<SecretName, secretsmanager.ISecret>>;
  /** Workflow name → its state machine and the machine's name (executions are named under it). */
  readonly stateMachines: ReadonlyMap<string, GrantableMachine>;
}

export interface GrantableMachine {
  readonly machine: sfn.IStateMachine;
  readonly name: string;
}

export const TABLE_READ_ACTIONS = ['dynamodb:GetItem', 'dynamodb:BatchGetItem', 'dynamodb:Query'] as const;
export const TABLE_WRITE_ACTIONS = [
  'dynamodb:PutItem',
  'dynamodb:UpdateItem',
  'dynamodb:DeleteItem',
  'dynamodb:ConditionCheckItem',
] as const;

const AREA_ITEM: Record<BucketArea, string> = { inputs: 'job', outputs: 'job', profiles: 'profile', uploads: 'upload' };

/** Where a wildcard is granted, for the acknowledgement's reason (each stack acknowledges its own grants). */
const stackNote = (scope: IConstruct) => (Stack.of(scope).nested ? ` (the ${Stack.of(scope).node.id} stack)` : '');

/** The objects of the areas, each wildcard acknowledged where it is granted (cdk-nag IAM5). */
const areaObjects = (bucket: s3.IBucket, areas: readonly BucketArea[]) =>
  areas.map((area) => {
    const objects = bucket.arnForObjects(`${BUCKET_AREAS[area]}*`);
    acknowledgeWildcardResource(
      bucket,
      objects,
      `Object keys under ${BUCKET_AREAS[area]} are made per account and ${AREA_ITEM[area]} at run time; a function is granted ` +
        `only the areas its row of the route or workflow table declares (lib/constructs/grants.ts)${stackNote(bucket)}.`,
    );
    return objects;
  });

/** The table's indexes (`<table>/index/*`), acknowledged in the stack that grants them. */
export const tableIndexes = (table: dynamodb.ITable): string => {
  const indexes = `${table.tableArn}/index/*`;
  acknowledgeWildcardResource(
    table,
    indexes,
    `Queries by tag use the gsi1 index; the wildcard is confined to the indexes of this one table${stackNote(table)}.`,
  );
  return indexes;
};

/** The executions of a workflow's state machine, acknowledged in the stack that grants them. */
const executions = (scope: IConstruct, workflow: string, { name }: GrantableMachine): string => {
  const arn = executionsArn(Stack.of(scope), name);
  acknowledgeWildcardResource(
    scope,
    arn,
    `Executions of the ${workflow} workflow are named at run time (by job or profile id); the wildcard ` +
      `covers the executions of this one state machine${stackNote(scope)}.`,
  );
  return arn;
};

/** The executions of a state machine, named at run time under its name (`<machine>:*`). */
export const executionsArn = (stack: Stack, machineName: string): string =>
  stack.formatArn({
    service: 'states',
    resource: 'execution',
    resourceName: `${machineName}:*`,
    arnFormat: ArnFormat.COLON_RESOURCE_NAME,
  });

/**
 * A Task without a binding is an error in both homes, and a binding no Task names would deploy a function
 * that never runs.
 */

export const grantAccess = (grantee: iam.IGrantable, access: Access, resources: GrantableResources): void => {
  const add = (
    actions: readonly string[],
    resourceArns: string[],
    conditions?: Record<string, Record<string, unknown>>,
  ) => iam.Grant.addToPrincipal({ grantee, actions: [...actions], resourceArns, ...(conditions && { conditions }) });
  const { table, bucket } = resources;
  const machine = (name: WorkflowName) => {
    const found = resources.stateMachines.get(name);
    if (!found) throw new Error(`no state machine for workflow ${name}`);
    return found;
  };

  if (access.table) {
    const actions =
      access.table === 'write' ? [...TABLE_READ_ACTIONS, ...TABLE_WRITE_ACTIONS] : [...TABLE_READ_ACTIONS];
    add(actions, [table.tableArn, tableIndexes(table)]);
  }
  if (access.scan) add(['dynamodb:Scan'], [table.tableArn]);
  if (access.update) add(['dynamodb:UpdateItem'], [table.tableArn]);
  // The counters live in partitions of their own, so this write reaches nothing else of an account.
  if (access.rateCounter)
    add(['dynamodb:UpdateItem'], [table.tableArn], {
      'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': [`${RATE_PARTITION_PREFIX}*`] },
    });

  const { read = [], write = [], delete: remove = [] } = access.bucket ?? {};
  if (read.length > 0) {
    add(['s3:GetObject'], areaObjects(bucket, read));
    // A missing key answers 404 only to a caller that may list the bucket (403 otherwise), and the code
    // tells "no picture yet" from a failure by it: listing is granted on the bucket, reading by area.
    add(['s3:ListBucket'], [bucket.bucketArn]);
  }
  if (write.length > 0) add(['s3:PutObject'], areaObjects(bucket, write));
  if (remove.length > 0) {
    add(['s3:DeleteObject'], areaObjects(bucket, remove));
    if (read.length === 0)
      add(['s3:ListBucket'], [bucket.bucketArn], {
        StringLike: { 's3:prefix': remove.map((area) => `${BUCKET_AREAS[area]}*`) },
      });
  }

  for (const name of access.start ?? []) machine(name).machine.grantStartExecution(grantee);
  for (const name of access.stop ?? []) add(['states:StopExecution'], [executions(table, name, machine(name))]);
  for (const name of access.describe ?? []) add(['states:DescribeExecution'], [executions(table, name, machine(name))]);
  for (const name of access.answerTasks ?? []) machine(name).machine.grantTaskResponse(grantee);

  for (const queue of access.queues ?? [])
    (queue === 'callbacks' ? resources.callbackQueue : resources.deadLetterQueue).grantSendMessages(grantee);
  for (const name of access.secrets ?? []) resources.secrets[name]?.grantRead(grantee);
};
