/**
 * The state machines, built from the same ASL files the local runtime runs (statemachines/*.asl.json).
 * Each Task's Resource is a `${Substitution}` that the workflow table binds to a handler module; here
 * every binding becomes a function and a definition substitution holding its ARN. `${TableName}` and
 * `${CallbackQueueUrl}` are supplied too, for states that call DynamoDB or SQS directly.
 */
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { ArnFormat, Aws, Duration, Stack } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import * as logs from 'aws-cdk-lib/aws-logs';
import * as sfn from 'aws-cdk-lib/aws-stepfunctions';
import { Construct } from 'constructs';
import type { Access } from '../../functions/deployment/access';
import type { WorkflowDefinition } from '../../functions/workflows/definitions';

/** `${Name}`: how an ASL file names a definitionSubstitutions value. */
const placeholder = (name: string) => `\${${name}}`;

import { acknowledge, acknowledgeWildcardResource } from './acknowledgements';
import {
  constructId,
  LOG_RETENTION,
  REPOSITORY_ROOT,
  type ServiceResources,
  serviceEnvironment,
  serviceFunction,
} from './function-defaults';

export const DEFAULT_TASK_TIMEOUT_SECONDS = 60;

export interface WorkflowsProps {
  readonly definitions: Readonly<Record<string, WorkflowDefinition>>;
  readonly resources: ServiceResources;
}

export class Workflows extends Construct {
  /** Workflow name → its state machine. */
  readonly stateMachines = new Map<string, sfn.StateMachine>();
  /** The functions that run the Tasks. */
  readonly functions: NodejsFunction[] = [];
  /** Each Task's function with what it declared it touches (functions/workflows/definitions.ts). */
  readonly taskFunctions: Array<{ name: string; fn: NodejsFunction; access: Access }> = [];

  constructor(scope: Construct, id: string, props: WorkflowsProps) {
    super(scope, id);
    const { table, callbackQueue } = props.resources;

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
        });
        this.functions.push(fn);
        this.taskFunctions.push({
          name: `${name} ${variable.replace(/(Function)?Arn$/, '')}`,
          fn,
          access: task.access,
        });
        return { variable, fn };
      });

      const substitutions: Record<string, string> = {
        TableName: table.tableName,
        CallbackQueueUrl: callbackQueue.queueUrl,
        // Service integrations name their partition: aws, aws-cn or aws-us-gov.
        Partition: Aws.PARTITION,
        ...Object.fromEntries(tasks.map(({ variable, fn }) => [variable, fn.functionArn])),
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

      for (const { fn } of tasks) {
        // The Task invokes the unqualified ARN, so no version or alias wildcard is needed.
        iam.Grant.addToPrincipal({
          grantee: machine,
          actions: ['lambda:InvokeFunction'],
          resourceArns: [fn.functionArn],
        });
      }
      // The ASL files name these as definitionSubstitutions placeholders, written literally.
      if (asl.includes(placeholder('TableName'))) table.grantReadWriteData(machine);
      if (asl.includes(placeholder('CallbackQueueUrl'))) callbackQueue.grantSendMessages(machine);

      acknowledgeWildcardResource(
        this,
        this.executionsArn(machine),
        `Executions of the ${name} workflow are named at run time (by job or profile id); the wildcard ` +
          'covers the executions of this one state machine.',
      );
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

  private executionsArn(machine: sfn.StateMachine): string {
    return executionsArn(Stack.of(this), machine);
  }
}

/** The ARN of every execution of a state machine (executions are named by job or profile id). */
export const executionsArn = (stack: Stack, machine: sfn.StateMachine): string =>
  stack.formatArn({
    service: 'states',
    resource: 'execution',
    resourceName: `${machine.stateMachineName}:*`,
    arnFormat: ArnFormat.COLON_RESOURCE_NAME,
  });

/**
 * A Task without a binding is an error in both homes, and a binding no Task names would deploy a function
 * that never runs.
 */
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
