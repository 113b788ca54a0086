/**
 * Read first: what a nested stack grants on the root stack's resources is granted on resources imported
 * into the nested stack from parameters it names itself (`DataTableArn`, `DataBucketArn`, ...). CDK would
 * otherwise name each crossing after the producer's construct path (`referencetoServiceDataBucket4289285AArn`),
 * and every wildcard a grant makes (`<DataBucketArn>/outputs/*`) must be acknowledged for cdk-nag by the
 * exact name it has in the stack that grants it (lib/constructs/acknowledgements.ts).
 */
import { CfnParameter, type NestedStack, Stack } from 'aws-cdk-lib';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as s3 from 'aws-cdk-lib/aws-s3';
import * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import * as sfn from 'aws-cdk-lib/aws-stepfunctions';
import type { IConstruct } from 'constructs';
import { constructId } from '../constructs/function-defaults';
import type { GrantableMachine, GrantableResources } from '../constructs/grants';

/** `resources` as `stack` grants them: its own as they are, the others imported through named parameters. */
export const grantableIn = (stack: NestedStack, resources: GrantableResources): GrantableResources => {
  const own = (resource: IConstruct) => Stack.of(resource) === stack;
  const parameter = (name: string, value: string): string => {
    const found = stack.node.tryFindChild(name);
    if (found instanceof CfnParameter) return found.valueAsString;
    const created = new CfnParameter(stack, name, { type: 'String' });
    stack.setParameter(name, value);
    return created.valueAsString;
  };
  const { table, bucket, callbackQueue, deadLetterQueue } = resources;
  const machine = (workflow: string, { machine, name }: GrantableMachine): GrantableMachine => {
    if (own(machine)) return { machine, name };
    const id = `${constructId(workflow)}StateMachine`;
    return {
      machine: sfn.StateMachine.fromStateMachineArn(stack, id, parameter(`${id}Arn`, machine.stateMachineArn)),
      name: parameter(`${id}Name`, name),
    };
  };
  return {
    table: own(table)
      ? table
      : dynamodb.Table.fromTableArn(stack, 'DataTable', parameter('DataTableArn', table.tableArn)),
    bucket: own(bucket)
      ? bucket
      : s3.Bucket.fromBucketArn(stack, 'DataBucket', parameter('DataBucketArn', bucket.bucketArn)),
    callbackQueue: own(callbackQueue)
      ? callbackQueue
      : sqs.Queue.fromQueueArn(stack, 'CallbackQueue', parameter('CallbackQueueArn', callbackQueue.queueArn)),
    deadLetterQueue: own(deadLetterQueue)
      ? deadLetterQueue
      : sqs.Queue.fromQueueArn(
          stack,
          'CallbackDeadLetterQueue',
          parameter('CallbackDeadLetterQueueArn', deadLetterQueue.queueArn),
        ),
    secrets: Object.fromEntries(
      Object.entries(resources.secrets).map(([name, secret]) => {
        if (!secret || own(secret)) return [name, secret];
        const id = `${constructId(name)}Secret`;
        return [name, secretsmanager.Secret.fromSecretCompleteArn(stack, id, parameter(`${id}Arn`, secret.secretArn))];
      }),
    ),
    stateMachines: new Map(
      [...resources.stateMachines].map(([workflow, found]) => [workflow, machine(workflow, found)]),
    ),
  };
};
