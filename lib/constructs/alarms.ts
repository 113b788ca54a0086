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
    const period = Duration.minutes(5);

    this.callbackDeadLetters = this.onAnything(
      'CallbackDeadLetters',
      props.callbackDeadLetterQueue.metricApproximateNumberOfMessagesVisible({ period, statistic: cloudwatch.Stats.MAXIMUM }),
      'A callback used up its delivery attempts and is waiting in the dead-letter queue.',
    );
    this.serverErrors = this.onAnything(
      'ApiServerErrors',
      props.restApi.metricServerError({ period, statistic: cloudwatch.Stats.SUM }),
      'The API answered 5xx in the last 5 minutes.',
    );
    for (const [name, machine] of props.stateMachines) {
      this.failedExecutions.push(
        this.onAnything(
          `${name}-failed-executions`,
          machine.metricFailed({ period, statistic: cloudwatch.Stats.SUM }),
          `A ${name} execution failed: its job or profile may still hold a reservation.`,
        ),
      );
    }
  }

  /** Every one of these signals should be zero: any datapoint above it alarms; no data is fine. */
  private onAnything(id: string, metric: cloudwatch.Metric, alarmDescription: string): cloudwatch.Alarm {
    return metric.createAlarm(this, id, {
      alarmDescription,
      threshold: 0,
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
      evaluationPeriods: 1,
      treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
    });
  }
}
