/**
 * Read first: the signals that need a person, and where they go. Every alarm acts on one SNS topic; with
 * CDK context `alarmEmail` the topic mails that address (the recipient confirms the subscription once).
 *
 * - a callback that used up its attempts (dead-letter queue not empty), or a callback message older
 *   than its whole retry budget (the deliverer is not keeping up);
 * - a 5xx nobody meant: API Gateway's 5XXError minus the 500s the spec requires when the engine fails
 *   (counted by the functions, EngineFailureAnswers), so gateway timeouts and crashes page, refunded
 *   engine failures do not;
 * - money a run's price exceeded its reservation by (UnbilledMicros): a provider reported more usage
 *   than the published counts the reservation was computed from; not charged, the operator's loss;
 * - Stripe money that needs a person (StripeUnhandled): an event in another currency, recorded and not
 *   applied, or an automatic charge the sweep found unfinished and finished;
 * - a workflow execution that failed (every expected failure is caught inside the workflows, so a
 *   failed execution means a charge may not have been closed);
 * - any function's errors (in two of three minutes: a single retried engine error is normal), made beside
 *   the function with its deployment group, which rolls a deploy back on it (lib/constructs/live.ts),
 *   and any throttle (one alarm per ten functions).
 * A dashboard shows the business metrics (functions/domain/shared/meter.ts) beside them. The topic and
 * the unexpected-5xx alarm are in the root stack; the rest is the alarms' nested stack.
 */
import { Duration, Stack } from 'aws-cdk-lib';
import type * as apigateway from 'aws-cdk-lib/aws-apigateway';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import * as actions from 'aws-cdk-lib/aws-cloudwatch-actions';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import * as sns from 'aws-cdk-lib/aws-sns';
import * as subscriptions from 'aws-cdk-lib/aws-sns-subscriptions';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import type * as sfn from 'aws-cdk-lib/aws-stepfunctions';
import { Construct } from 'constructs';
import { SERVICE_NAME } from '../../functions/adapters/metrics';
import {
  MAX_CALLBACK_ATTEMPTS,
  RETRY_JITTER_FRACTION,
  RETRY_MAX_NOMINAL_DELAY_SECONDS,
} from '../../functions/domain/callbacks/retry-schedule';
import { METRICS, METRICS_NAMESPACE, type MetricName } from '../../functions/domain/shared/meter';

export interface AlarmsProps {
  /** Where every alarm acts (made in the root stack, beside the API's unexpected-5xx alarm). */
  readonly topic: sns.ITopic;
  /** Alarms made elsewhere that the dashboard's status widget shows too. */
  readonly otherAlarms?: readonly cloudwatch.IAlarm[];
  readonly callbackQueue: sqs.IQueue;
  readonly callbackDeadLetterQueue: sqs.IQueue;
  readonly restApi: apigateway.RestApi;
  readonly stateMachines: ReadonlyMap<string, sfn.IStateMachine>;
  /** Every function of the stack, by a readable name. */
  readonly functions: ReadonlyArray<{ name: string; fn: lambda.IFunction }>;
}

const PERIOD = Duration.minutes(5);

/** The most metrics one metric-math alarm may use. */
const THROTTLE_GROUP = 10;

/** No callback message may be older than its whole retry budget (every wait at its longest), plus a margin. */
export const OLDEST_CALLBACK_SECONDS =
  Math.ceil((MAX_CALLBACK_ATTEMPTS - 1) * RETRY_MAX_NOMINAL_DELAY_SECONDS * (1 + RETRY_JITTER_FRACTION)) + 900;

/** A metric the functions emit (embedded metric format), with the dimensions they give it. */
export const serviceMetric = (
  metricName: MetricName,
  options: { statistic?: string; dimensions?: Record<string, string> } = {},
) =>
  new cloudwatch.Metric({
    namespace: METRICS_NAMESPACE,
    metricName,
    dimensionsMap: { service: SERVICE_NAME, ...options.dimensions },
    statistic: options.statistic ?? cloudwatch.Stats.SUM,
    period: PERIOD,
  });

export const validAlarmEmail = (value: unknown): string | undefined => {
  if (value === undefined || value === '') return undefined;
  if (typeof value !== 'string' || !/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(value))
    throw new Error(`context alarmEmail must be an e-mail address (got ${String(value)})`);
  return value;
};

/** The topic every alarm acts on; with CDK context `alarmEmail`, it mails that address. */
export const alarmTopic = (scope: Construct, id: string): sns.Topic => {
  const topic = new sns.Topic(scope, id, { displayName: `${Stack.of(scope).stackName} alarms`, enforceSSL: true });
  const email = validAlarmEmail(scope.node.tryGetContext('alarmEmail'));
  if (email) topic.addSubscription(new subscriptions.EmailSubscription(email));
  return topic;
};

/** Alarms above `threshold`, acting on `topic`; missing data is fine (no traffic). */
const createAlarm = (
  scope: Construct,
  id: string,
  topic: sns.ITopic,
  metric: cloudwatch.Metric | cloudwatch.MathExpression,
  threshold: number,
  alarmDescription: string,
  datapointsToAlarm = 1,
): cloudwatch.Alarm => {
  const alarm = metric.createAlarm(scope, id, {
    alarmDescription,
    threshold,
    comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
    evaluationPeriods: Math.max(1, datapointsToAlarm === 1 ? 1 : 3),
    datapointsToAlarm,
    treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
  });
  alarm.addAlarmAction(new actions.SnsAction(topic));
  return alarm;
};

/**
 * A 5xx nobody meant: API Gateway's 5XXError minus the 500s the spec requires when the engine fails. It
 * lives in the root stack beside the API, because every function's deployment rolls back on it.
 */
export const unexpectedServerErrorsAlarm = (scope: Construct, restApi: apigateway.RestApi, topic: sns.ITopic) =>
  createAlarm(
    scope,
    'UnexpectedServerErrors',
    topic,
    new cloudwatch.MathExpression({
      expression: 'FILL(api5xx, 0) - FILL(engine500, 0)',
      usingMetrics: {
        api5xx: restApi.metricServerError({ period: PERIOD, statistic: cloudwatch.Stats.SUM }),
        engine500: serviceMetric(METRICS.engineFailureAnswers),
      },
      period: PERIOD,
      label: '5xx other than the engine-failure 500 the spec requires',
    }),
    0,
    'The API answered a 5xx nobody meant (a crash, a timeout, a gateway error); refunded engine failures are not counted.',
  );

export class Alarms extends Construct {
  readonly alarms: cloudwatch.Alarm[] = [];
  readonly dashboard: cloudwatch.Dashboard;

  constructor(
    scope: Construct,
    id: string,
    private readonly props: AlarmsProps,
  ) {
    super(scope, id);

    const max = cloudwatch.Stats.MAXIMUM;
    this.add(
      'CallbackDeadLetters',
      props.callbackDeadLetterQueue.metricApproximateNumberOfMessagesVisible({ period: PERIOD, statistic: max }),
      0,
      'A callback used up its delivery attempts and is waiting in the dead-letter queue.',
    );
    this.add(
      'CallbackQueueAge',
      props.callbackQueue.metricApproximateAgeOfOldestMessage({ period: PERIOD, statistic: max }),
      OLDEST_CALLBACK_SECONDS,
      'A callback message is older than its whole retry budget: the deliverer is not keeping up.',
    );
    this.add(
      'UnbilledProviderUsage',
      serviceMetric(METRICS.unbilledMicros, { dimensions: { kind: 'job' } }),
      0,
      "A run's price exceeded its reservation (a provider reported more usage than its published counts): the rest was not charged and is the operator's loss; the log line names the job.",
    );
    this.add(
      'StripeMoneyUnhandled',
      new cloudwatch.MathExpression({
        expression: 'FILL(currency, 0) + FILL(recharge, 0)',
        usingMetrics: {
          currency: serviceMetric(METRICS.stripeUnhandled, { dimensions: { kind: 'currency' } }),
          recharge: serviceMetric(METRICS.stripeUnhandled, { dimensions: { kind: 'recharge-unfinished' } }),
        },
        period: PERIOD,
        label: 'Stripe money that needs a person',
      }),
      0,
      'Stripe money needs a person: an event in another currency than USD was recorded, not applied, or the sweep found an automatic charge unfinished (its message lost or dead-lettered) and finished it; the log line names it (docs/billing.md).',
    );
    for (const [name, machine] of props.stateMachines) {
      this.add(
        `${name}-failed-executions`,
        machine.metricFailed({ period: PERIOD, statistic: cloudwatch.Stats.SUM }),
        0,
        `A ${name} execution failed: its job or profile may still hold a reservation.`,
      );
    }
    // Throttles: any throttle pages, so one alarm sums the throttles of up to 10 functions (what a metric-math
    // alarm may hold) instead of one per function: a stack's resources are capped at 500.
    for (let first = 0; first < props.functions.length; first += THROTTLE_GROUP) {
      const group = props.functions.slice(first, first + THROTTLE_GROUP);
      const usingMetrics = Object.fromEntries(
        group.map(({ fn }, index) => [
          `t${index}`,
          fn.metricThrottles({ period: PERIOD, statistic: cloudwatch.Stats.SUM }),
        ]),
      );
      this.add(
        `throttles-${first / THROTTLE_GROUP + 1}`,
        new cloudwatch.MathExpression({
          expression: `SUM([${Object.keys(usingMetrics)
            .map((id) => `FILL(${id}, 0)`)
            .join(', ')}])`,
          usingMetrics,
          period: PERIOD,
          label: 'Throttles',
        }),
        0,
        `A function was throttled (it reached its concurrency limit): ${group.map(({ name }) => name).join(', ')}.`,
      );
    }
    this.dashboard = this.buildDashboard(props);
  }

  private add(
    id: string,
    metric: cloudwatch.Metric | cloudwatch.MathExpression,
    threshold: number,
    alarmDescription: string,
    datapointsToAlarm = 1,
  ): cloudwatch.Alarm {
    const alarm = createAlarm(this, id, this.props.topic, metric, threshold, alarmDescription, datapointsToAlarm);
    this.alarms.push(alarm);
    return alarm;
  }

  private buildDashboard(props: AlarmsProps): cloudwatch.Dashboard {
    const graph = (title: string, left: cloudwatch.IMetric[], width = 8) =>
      new cloudwatch.GraphWidget({ title, left, width });
    const byKind = (name: MetricName) =>
      ['job', 'profile'].map((kind) =>
        serviceMetric(name, { dimensions: { kind } }).with({ label: `${name} ${kind}` }),
      );
    const dashboard = new cloudwatch.Dashboard(this, 'Dashboard', {
      dashboardName: `${Stack.of(this).stackName}-service`,
    });
    dashboard.addWidgets(
      graph('API requests and errors', [
        props.restApi.metricCount({ period: PERIOD }),
        props.restApi.metricServerError({ period: PERIOD }),
        props.restApi.metricClientError({ period: PERIOD }),
      ]),
      graph('API latency (p99)', [
        props.restApi.metricLatency({ period: PERIOD, statistic: 'p99' }),
        props.restApi.metricIntegrationLatency({ period: PERIOD, statistic: 'p99' }),
      ]),
      graph('500s: engine failures (spec) and unexpected', [
        serviceMetric(METRICS.engineFailureAnswers),
        serviceMetric(METRICS.unexpectedServerErrors),
      ]),
    );
    dashboard.addWidgets(
      graph(
        'Submits by operation',
        ['edit', 'generate', 'enhance', 'remix'].flatMap((operation) =>
          ['sync', 'async'].map((mode) => serviceMetric(METRICS.submits, { dimensions: { operation, mode } })),
        ),
      ),
      graph('Jobs by outcome (failures by code), trainings by outcome', [
        serviceMetric(METRICS.jobsSucceeded),
        new cloudwatch.MathExpression({
          expression: `SEARCH('{${METRICS_NAMESPACE},service,code} MetricName="${METRICS.jobsFailed}"', 'Sum', 300)`,
          label: 'JobsFailed',
          period: PERIOD,
        }),
        serviceMetric(METRICS.trainingsReady),
        serviceMetric(METRICS.trainingsFailed),
      ]),
      graph('Money (micro-USD): reserved, settled, refunded, unbilled', [
        ...byKind(METRICS.reservedMicros),
        ...byKind(METRICS.settledMicros),
        ...byKind(METRICS.releasedMicros),
        serviceMetric(METRICS.unbilledMicros, { dimensions: { kind: 'job' } }).with({ label: 'UnbilledMicros job' }),
        serviceMetric(METRICS.usageMissing, { dimensions: { kind: 'job' } }).with({ label: 'UsageMissing job' }),
      ]),
    );
    dashboard.addWidgets(
      graph(
        'Engine latency (p50, p99) by operation',
        ['edit', 'generate', 'enhance', 'remix'].flatMap((operation) =>
          ['p50', 'p99'].map((statistic) =>
            serviceMetric(METRICS.engineLatency, { statistic, dimensions: { operation, outcome: 'images' } }),
          ),
        ),
      ),
      graph('Callbacks: attempts, successes, dead letters', [
        serviceMetric(METRICS.callbackAttempts),
        serviceMetric(METRICS.callbackSuccesses),
        serviceMetric(METRICS.callbackDeadLetters),
      ]),
      graph('Callback queue', [
        props.callbackQueue.metricApproximateAgeOfOldestMessage({ period: PERIOD }),
        props.callbackDeadLetterQueue.metricApproximateNumberOfMessagesVisible({ period: PERIOD }),
      ]),
    );
    dashboard.addWidgets(
      graph(
        'Function errors',
        props.functions.map(({ name, fn }) => fn.metricErrors({ period: PERIOD, label: name })),
        12,
      ),
      graph(
        'Function throttles',
        props.functions.map(({ name, fn }) => fn.metricThrottles({ period: PERIOD, label: name })),
        12,
      ),
      new cloudwatch.AlarmStatusWidget({
        title: 'Alarms',
        alarms: [...(props.otherAlarms ?? []), ...this.alarms],
        width: 24,
      }),
    );
    return dashboard;
  }
}
