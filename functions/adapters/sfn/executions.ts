/**
 * Step Functions executions, named by job or profile id so that a start is idempotent and a stop needs
 * no lookup.
 */
import type * as Sfn from '@aws-sdk/client-sfn';
import type { SFNClient } from '@aws-sdk/client-sfn';
import { clientOptions, onFirstUse } from '../aws-clients';

/** @aws-sdk/client-sfn, loaded on first use (aws-clients.ts); http-trainer.ts sends its task commands with it. */
export const sfnSdk = onFirstUse(() => require('@aws-sdk/client-sfn') as typeof Sfn);

export const sfnClient = (region: string, endpoint: string | undefined): SFNClient =>
  new (sfnSdk().SFNClient)(clientOptions(region, endpoint));

/** The ARN of a machine's execution with this name. */
export const executionArn = (stateMachineArn: string, name: string) =>
  `${stateMachineArn.replace(':stateMachine:', ':execution:')}:${name}`;

/** Starts an execution named after the job or profile; a start that already happened is not an error. */
export const startExecution = async (
  sfn: SFNClient,
  stateMachineArn: string,
  name: string,
  input: unknown,
): Promise<void> => {
  try {
    await sfn.send(new (sfnSdk().StartExecutionCommand)({ stateMachineArn, name, input: JSON.stringify(input) }));
  } catch (error) {
    if (!(error instanceof Error && error.name === 'ExecutionAlreadyExists')) throw error;
  }
};

/** Stops a running execution; one that is unknown or already over is not an error. */
export const stopExecution = async (
  sfn: SFNClient,
  stateMachineArn: string,
  name: string,
  reason: { error: string; cause: string },
): Promise<void> => {
  try {
    await sfn.send(
      new (sfnSdk().StopExecutionCommand)({ executionArn: executionArn(stateMachineArn, name), ...reason }),
    );
  } catch (error) {
    if (!(error instanceof Error && error.name === 'ExecutionDoesNotExist')) throw error;
  }
};

/** Whether the execution with this name is running, has ended, or never started. */
export const executionState = async (
  sfn: SFNClient,
  stateMachineArn: string,
  name: string,
): Promise<'running' | 'ended' | 'missing'> => {
  try {
    const { status } = await sfn.send(
      new (sfnSdk().DescribeExecutionCommand)({ executionArn: executionArn(stateMachineArn, name) }),
    );
    return status === 'RUNNING' || status === 'PENDING_REDRIVE' ? 'running' : 'ended';
  } catch (error) {
    if (error instanceof Error && error.name === 'ExecutionDoesNotExist') return 'missing';
    throw error;
  }
};
