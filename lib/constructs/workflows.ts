/**
 * The state machines, built from the same ASL files the local runtime runs (statemachines/*.asl.json).
 * Each Task's Resource is a `${Substitution}` that the workflow table binds to a handler module; here
 * every binding becomes a function and a definition substitution holding its ARN. `${TableName}` and
 * `${CallbackQueueUrl}` are supplied too, for states that call DynamoDB or SQS directly.
 */
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { Aws, Duration, Stack } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as logs from 'aws-cdk-lib/aws-logs';
import * as sfn from 'aws-cdk-lib/aws-stepfunctions';
import { Construct } from 'constructs';
import type { Access } from '../../functions/deployment/access';
import type { WorkflowDefinition } from '../../functions/workflows/definitions';

/** `${Name}`: how an ASL file names a definitionSubstitutions value. */
const placeholder = (name: string) => `\${${name}}`;

import { acknowledge } from './acknowledgements';
import {
  constructId,
  LOG_RETENTION,
  REPOSITORY_ROOT,
  type ServiceResources,
  serviceEnvironment,
  serviceFunction,
} from './function-defaults';
import type { GrantableResources } from './grants';
import type { LiveDeployments, LiveFunction } from './live';

export const DEFAULT_TASK_TIMEOUT_SECONDS = 60;

export interface WorkflowsProps {
  readonly definitions: Readonly<Record<string, WorkflowDefinition>>;
  readonly resources: ServiceResources;
  /** How the Task functions' new versions are rolled out (lib/constructs/live.ts). */
  readonly deployments: LiveDeployments;
  /** The table and queue as this stack grants them (lib/stacks/imports.ts). */
  readonly grantable: Pick<GrantableResources, 'table' | 'callbackQueue'>;
}

export class Workflows extends Construct {
  /** Workflow name → its state machine. */
  readonly stateMachines = new Map<string, sfn.StateMachine>();
  /** Each Task's function, behind its `live` alias, with what it declared it touches (functions/workflows/definitions.ts). */
  readonly taskFunctions: Array<LiveFunction & { name: string; access: Access }> = [];

  constructor(scope: Construct, id: string, props: WorkflowsProps) {
    super(scope, id);
    const { table, callbackQueue } = props.resources;
    const logGroup = new logs.LogGroup(this, 'FunctionLogs', { retention: LOG_RETENTION });
    const { deployments } = props;

    for (const [name, definition] of Object.entries(props.definitions)) {
      const machineId = constructId(name);
      const asl = readFileSync(path.join(REPOSITORY_ROOT, definition.file), 'utf8');

      const tasks = Object.entries(definition.tasks).map(([variable, task]) => {
        const fn = serviceFunction(this, constructId(name, variable.replace(/(Function)?Arn$/, '')), {
          entry: task.handler,
          description: `${name} workflow: ${variable}`,
          timeout: Duration.seconds(task.timeoutSeconds ?? DEFAULT_TASK_TIMEOUT_SECONDS),
          environment: serviceEnvironment(props.resources),
          images: task.images,
          logGroup,
        });
        const taskName = `${name} ${variable.replace(/(Function)?Arn$/, '')}`;
        const live = deployments.publish(fn, taskName);
        this.taskFunctions.push({ ...live, name: taskName, access: task.access });
        return { variable, alias: live.alias };
      });

      const substitutions: Record<string, string> = {
        TableName: table.tableName,
        CallbackQueueUrl: callbackQueue.queueUrl,
        // Service integrations name their partition: aws, aws-cn or aws-us-gov.
        Partition: Aws.PARTITION,
        // Each Task invokes its function's `live` alias, so a deploy's traffic shift covers the workflows too.
        ...Object.fromEntries(tasks.map(({ variable, alias }) => [variable, alias.functionArn])),
      };
      checkSubstitutions(definition, asl, substitutions);

      const machine = new sfn.StateMachine(this, machineId, {
        stateMachineType: sfn.StateMachineType.STANDARD,
        definitionBody: sfn.DefinitionBody.fromString(asl),
        definitionSubstitutions: substitutions,
        tracingEnabled: true,
        logs: {
          // Step Functions delivers logs through CloudWatch vended logs, whose resource policy covers /aws/vendedlogs/.
          destination: new logs.LogGroup(this, `${machineId}Logs`, {
            logGroupName: `/aws/vendedlogs/states/${Stack.of(this).stackName}-${machineId}`,
            retention: LOG_RETENTION,
          }),
          level: sfn.LogLevel.ERROR,
          includeExecutionData: true,
        },
      });
      this.stateMachines.set(name, machine);

      for (const { alias } of tasks) {
        // The Task invokes the alias's ARN: exactly that, no version wildcard.
        iam.Grant.addToPrincipal({
          grantee: machine,
          actions: ['lambda:InvokeFunction'],
          resourceArns: [alias.functionArn],
        });
      }
      // The ASL files name these as definitionSubstitutions placeholders, written literally.
      if (asl.includes(placeholder('TableName'))) props.grantable.table.grantReadWriteData(machine);
      if (asl.includes(placeholder('CallbackQueueUrl'))) props.grantable.callbackQueue.grantSendMessages(machine);

      acknowledge(
        machine,
        'AwsSolutions-SF1',
        'Logs ERROR events with their data, so every failed state is recorded; a Standard workflow keeps the ' +
          'full event history of each execution for 90 days, and ALL would only copy it at a cost per transition.',
      );

      acknowledge(
        machine,
        'AwsSolutions-IAM5[Resource::*]',
        "CDK's statement for delivering execution logs (logs:CreateLogDelivery, PutResourcePolicy, " +
          "DescribeLogGroups, ...): CloudWatch Logs authorises these actions only on '*'.",
      );
    }
  }
}

/** The ARN of every execution of a state machine (executions are named by job or profile id). */
const checkSubstitutions = (definition: WorkflowDefinition, asl: string, substitutions: Record<string, string>) => {
  const named = new Set([...asl.matchAll(/\$\{([A-Za-z0-9_]+)\}/g)].map((match) => match[1]));
  const unbound = [...named].filter((variable) => !(variable in substitutions));
  if (unbound.length > 0) {
    throw new Error(`${definition.file} names ${unbound.map((v) => `\${${v}}`).join(', ')}, which nothing binds`);
  }
  const unused = Object.keys(definition.tasks).filter((variable) => !named.has(variable));
  if (unused.length > 0) {
    throw new Error(`${definition.file} names no \${${unused.join('}, ${')}}, though the workflow table binds it`);
  }
};
