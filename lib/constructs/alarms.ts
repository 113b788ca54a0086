/**
 * The signals that something needs a person: a callback that exhausted its retries, the API answering
 * 5xx, and a workflow execution that failed (every expected failure is caught inside the workflows, so
 * a failed execution means a charge could not be closed).
 */
import { Duration } from 'aws-cdk-lib';
import type * as apigateway from 'aws-cdk-lib/aws-apigateway';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import type * as sfn from 'aws-cdk-lib/aws-stepfunctions';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';

export interface AlarmsProps {
  readonly callbackDeadLetterQueue: sqs.IQueue;
  readonly restApi: apigateway.RestApi;
  readonly stateMachines: ReadonlyMap<string, sfn.IStateMachine>;
}

export class Alarms extends Construct {
  readonly callbackDeadLetters: cloudwatch.Alarm;
  readonly serverErrors: cloudwatch.Alarm;
  readonly failedExecutions: cloudwatch.Alarm[] = [];

  constructor(scope: Construct, id: string, props: AlarmsProps) {
    super(scope, id);

    this.callbackDeadLetters = props.callbackDeadLetterQueue
      .metricApproximateNumberOfMessagesVisible({ period: Duration.minutes(5), statistic: cloudwatch.Stats.MAXIMUM })
      .createAlarm(this, 'CallbackDeadLetters', {
        alarmDescription: 'A callback used up its delivery attempts and is waiting in the dead-letter queue.',
        threshold: 0,
        comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
        evaluationPeriods: 1,
        treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
      });

    this.serverErrors = props.restApi
      .metricServerError({ period: Duration.minutes(5), statistic: cloudwatch.Stats.SUM })
      .createAlarm(this, 'ApiServerErrors', {
        alarmDescription: 'The API answered 5xx in the last 5 minutes.',
        threshold: 0,
        comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
        evaluationPeriods: 1,
        treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
      });

    for (const [name, machine] of props.stateMachines) {
      this.failedExecutions.push(
        machine.metricFailed({ period: Duration.minutes(5), statistic: cloudwatch.Stats.SUM }).createAlarm(this, `${name}-failed-executions`, {
          alarmDescription: `A ${name} execution failed: its job or profile may still hold a reservation.`,
          threshold: 0,
          comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
          evaluationPeriods: 1,
          treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
        }),
      );
    }
  }
}
