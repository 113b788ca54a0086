/**
 * The two signals that something needs a person: a callback that exhausted its retries, and the API
 * answering 5xx.
 */
import { Duration } from 'aws-cdk-lib';
import type * as apigateway from 'aws-cdk-lib/aws-apigateway';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';

export interface AlarmsProps {
  readonly callbackDeadLetterQueue: sqs.IQueue;
  readonly restApi: apigateway.RestApi;
}

export class Alarms extends Construct {
  readonly callbackDeadLetters: cloudwatch.Alarm;
  readonly serverErrors: cloudwatch.Alarm;

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
  }
}
