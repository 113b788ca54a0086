/**
 * Read first: how a function's new code reaches its callers. Every function is published behind an alias
 * named `live`; API Gateway, the state machines, the SQS event source and the schedule invoke the alias,
 * never the bare function. A CodeDeploy deployment group per function moves the alias from the old
 * version to the new one by the CDK context `deployment`:
 * - `canary` (default): 10 % of invocations for 5 minutes, then all;
 * - `linear`: 10 % more every minute;
 * - `all-at-once`: at once (a development stack).
 * While traffic shifts, CodeDeploy watches the function's errors alarm and the API's unexpected-5xx alarm;
 * either going to ALARM moves the alias back to the old version, and the CloudFormation update fails and
 * rolls back (docs/deploy-aws.md, "How a deploy rolls back").
 *
 * One CodeDeploy application and one service role per stack serve every deployment group in it.
 */
import { Duration } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import * as actions from 'aws-cdk-lib/aws-cloudwatch-actions';
import * as codedeploy from 'aws-cdk-lib/aws-codedeploy';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import type * as sns from 'aws-cdk-lib/aws-sns';
import { Construct } from 'constructs';
import { acknowledge } from './acknowledgements';

export const LIVE_ALIAS = 'live';

export const DEPLOYMENT_CONTEXT = 'deployment';
export const DEPLOYMENT_STYLES = {
  canary: codedeploy.LambdaDeploymentConfig.CANARY_10PERCENT_5MINUTES,
  linear: codedeploy.LambdaDeploymentConfig.LINEAR_10PERCENT_EVERY_1MINUTE,
  'all-at-once': codedeploy.LambdaDeploymentConfig.ALL_AT_ONCE,
} as const;
export type DeploymentStyle = keyof typeof DEPLOYMENT_STYLES;
export const DEFAULT_DEPLOYMENT: DeploymentStyle = 'canary';

/** The deployment style the app's context asks for; anything else stops the synth. */
export const deploymentStyleOf = (scope: Construct): DeploymentStyle => {
  const asked: unknown = scope.node.tryGetContext(DEPLOYMENT_CONTEXT) ?? DEFAULT_DEPLOYMENT;
  if (typeof asked !== 'string' || !Object.hasOwn(DEPLOYMENT_STYLES, asked))
    throw new Error(
      `CDK context ${DEPLOYMENT_CONTEXT} must be ${Object.keys(DEPLOYMENT_STYLES).join(', ')}, not ${JSON.stringify(asked)}`,
    );
  return asked as DeploymentStyle;
};

/**
 * A function's errors, by the minute: two minutes with an error in three put it in ALARM, so a canary's
 * 5 minutes can see a bad version (a single retried engine error is normal and does not).
 */
export const ERRORS_PERIOD = Duration.minutes(1);
export const ERRORS_DATAPOINTS = { toAlarm: 2, evaluated: 3 } as const;

export interface LiveDeploymentsProps {
  /** Where every alarm made here acts. */
  readonly topic: sns.ITopic;
  /** Alarms that roll back every deployment group made here (the API's unexpected 5xx). */
  readonly rollbackAlarms: readonly cloudwatch.IAlarm[];
}

export interface LiveFunction {
  readonly fn: lambda.Function;
  /** What every caller invokes. */
  readonly alias: lambda.Alias;
  readonly errorsAlarm: cloudwatch.Alarm;
  readonly deploymentGroup: codedeploy.LambdaDeploymentGroup;
}

/** The deployments of one stack's functions: its CodeDeploy application, service role and traffic shift. */
export class LiveDeployments extends Construct {
  private readonly application: codedeploy.LambdaApplication;
  private readonly role: iam.IRole;
  private readonly config: codedeploy.ILambdaDeploymentConfig;

  constructor(
    scope: Construct,
    id: string,
    private readonly props: LiveDeploymentsProps,
  ) {
    super(scope, id);
    this.application = new codedeploy.LambdaApplication(this, 'Application');
    const role = new iam.Role(this, 'ServiceRole', {
      assumedBy: new iam.ServicePrincipal('codedeploy.amazonaws.com'),
      managedPolicies: [iam.ManagedPolicy.fromAwsManagedPolicyName('service-role/AWSCodeDeployRoleForLambdaLimited')],
    });
    acknowledge(
      role,
      'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSCodeDeployRoleForLambdaLimited]',
      "The AWS managed policy for CodeDeploy's Lambda deployments: it may read the alarms and move aliases, nothing else.",
    );
    // Each deployment group would add the managed policy again; the role already has it.
    this.role = role.withoutPolicyUpdates();
    this.config = DEPLOYMENT_STYLES[deploymentStyleOf(this)];
  }

  /** Publishes `fn` behind its `live` alias, shifted by a deployment group watching `name`'s errors. */
  publish(fn: lambda.Function, name: string): LiveFunction {
    const errorsAlarm = fn
      .metricErrors({ period: ERRORS_PERIOD, statistic: cloudwatch.Stats.SUM })
      .createAlarm(fn, 'ErrorsAlarm', {
        alarmDescription: `${name} failed (crashed, timed out or threw) in two of the last three minutes; a deploy in progress rolls back.`,
        threshold: 0,
        comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
        evaluationPeriods: ERRORS_DATAPOINTS.evaluated,
        datapointsToAlarm: ERRORS_DATAPOINTS.toAlarm,
        treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
      });
    errorsAlarm.addAlarmAction(new actions.SnsAction(this.props.topic));
    const alias = new lambda.Alias(fn, 'Live', { aliasName: LIVE_ALIAS, version: fn.currentVersion });
    const deploymentGroup = new codedeploy.LambdaDeploymentGroup(fn, 'Deployment', {
      application: this.application,
      role: this.role,
      alias,
      deploymentConfig: this.config,
      alarms: [errorsAlarm, ...this.props.rollbackAlarms],
      autoRollback: { failedDeployment: true, stoppedDeployment: true, deploymentInAlarm: true },
    });
    return { fn, alias, errorsAlarm, deploymentGroup };
  }
}
