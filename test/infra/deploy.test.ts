/**
 * Deploys that roll themselves back: every function of the real stack is published behind its `live`
 * alias, every caller (API Gateway, the state machines, the SQS event source, the schedule) invokes the
 * alias, and a CodeDeploy deployment group per function shifts traffic by the context `deployment` and
 * rolls back on the function's errors alarm or the API's unexpected-5xx alarm.
 */
import { Match } from 'aws-cdk-lib/assertions';
import { invokedFunction } from '../../bin/assets/flatten';
import { ServiceStack } from '../../lib/service-stack';
import { testApp } from '../fixtures/infra/service-stack';
import {
  apiMethods,
  flatTemplate,
  liveAliasOf,
  onlyId,
  type Resource,
  resourcesOf,
} from '../fixtures/infra/template-queries';

process.env.CDK_VALIDATION = 'false';

const stackWith = (context: Record<string, unknown> = {}) =>
  flatTemplate(new ServiceStack(testApp({ context }), 'Service'));
const template = stackWith();
const resources = template.toJSON().Resources as Record<string, Resource>;
const functionIds = Object.keys(resourcesOf(template, 'AWS::Lambda::Function'));
const groups = resourcesOf(template, 'AWS::CodeDeploy::DeploymentGroup');
const alarms = resourcesOf(template, 'AWS::CloudWatch::Alarm');
const unexpected5xxId = Object.keys(alarms).find((id) =>
  alarms[id].Properties.AlarmDescription?.startsWith('The API answered a 5xx'),
)!;

/** The alarm names a deployment group rolls back on, as logical ids. */
const rollbackAlarmsOf = (groupId: string) =>
  groups[groupId].Properties.AlarmConfiguration.Alarms.map((alarm: { Name: { Ref: string } }) => alarm.Name.Ref);

test('every function has one alias, live, on a version of itself, and a deployment group that moves it', () => {
  expect(functionIds.length).toBeGreaterThan(40);
  for (const functionId of functionIds) {
    const aliasId = liveAliasOf(template, functionId);
    const alias = resources[aliasId];
    const versionId = alias.Properties.FunctionVersion['Fn::GetAtt'][0];
    expect(resources[versionId]).toMatchObject({
      Type: 'AWS::Lambda::Version',
      Properties: { FunctionName: { Ref: functionId } },
    });
    // CloudFormation hands an alias update to CodeDeploy, through the function's own deployment group.
    const groupId = alias.UpdatePolicy.CodeDeployLambdaAliasUpdate.DeploymentGroupName.Ref;
    expect(groups[groupId].Properties).toMatchObject({
      DeploymentConfigName: 'CodeDeployDefault.LambdaCanary10Percent5Minutes',
      DeploymentStyle: { DeploymentType: 'BLUE_GREEN', DeploymentOption: 'WITH_TRAFFIC_CONTROL' },
      AutoRollbackConfiguration: {
        Enabled: true,
        Events: expect.arrayContaining([
          'DEPLOYMENT_FAILURE',
          'DEPLOYMENT_STOP_ON_REQUEST',
          'DEPLOYMENT_STOP_ON_ALARM',
        ]),
      },
      AlarmConfiguration: { Enabled: true },
    });
    // It rolls back on this function's errors and on the API's unexpected 5xx.
    const [own, ...others] = rollbackAlarmsOf(groupId);
    expect(others).toEqual([unexpected5xxId]);
    expect(alarms[own].Properties).toMatchObject({
      MetricName: 'Errors',
      Namespace: 'AWS/Lambda',
      Dimensions: [{ Name: 'FunctionName', Value: { Ref: functionId } }],
      Period: 60,
      DatapointsToAlarm: 2,
      EvaluationPeriods: 3,
    });
  }
  expect(Object.keys(groups)).toHaveLength(functionIds.length);
  expect(Object.keys(resourcesOf(template, 'AWS::Lambda::Alias'))).toHaveLength(functionIds.length);
});

test('API Gateway, the state machines, the event source and the schedule invoke only live aliases', () => {
  const aliasIds = new Set(functionIds.map((functionId) => liveAliasOf(template, functionId)));
  for (const method of apiMethods(template)) expect(aliasIds).toContain(method.aliasId);
  for (const machine of Object.values(resourcesOf(template, 'AWS::StepFunctions::StateMachine'))) {
    const invoked = Object.values(machine.Properties.DefinitionSubstitutions).filter((value) =>
      invokedFunction(resources, value),
    );
    expect(invoked.length).toBeGreaterThan(0);
    for (const value of invoked) expect(aliasIds).toContain((value as { Ref: string }).Ref);
  }
  for (const mapping of Object.values(resourcesOf(template, 'AWS::Lambda::EventSourceMapping')))
    expect(JSON.stringify(mapping.Properties.FunctionName)).toMatch(/"Ref":"([^"]+)".*":live"/);
  // Rules that invoke a function (the sweep's schedule; the deploy's backfill starts a state machine).
  for (const rule of Object.values(resourcesOf(template, 'AWS::Events::Rule')))
    for (const target of rule.Properties.Targets)
      if (invokedFunction(resources, target.Arn)) expect(aliasIds).toContain(target.Arn.Ref);
  // Nothing is allowed to invoke a function but through its alias.
  for (const permission of Object.values(resourcesOf(template, 'AWS::Lambda::Permission')))
    expect(aliasIds).toContain(permission.Properties.FunctionName.Ref);
});

test.each([
  ['linear', 'CodeDeployDefault.LambdaLinear10PercentEvery1Minute'],
  ['all-at-once', 'CodeDeployDefault.LambdaAllAtOnce'],
  ['canary', 'CodeDeployDefault.LambdaCanary10Percent5Minutes'],
])('context deployment=%s shifts traffic by %s', (deployment, config) => {
  const configs = new Set(
    Object.values(resourcesOf(stackWith({ deployment }), 'AWS::CodeDeploy::DeploymentGroup')).map(
      (group) => group.Properties.DeploymentConfigName,
    ),
  );
  expect([...configs]).toEqual([config]);
});

test('any other deployment style stops the synth', () => {
  expect(() => stackWith({ deployment: 'blue-green' })).toThrow(/deployment must be canary, linear, all-at-once/);
});

test('the unexpected-5xx alarm that rolls every deploy back is the API-wide one, in the root stack', () => {
  expect(
    onlyId(template, 'AWS::CloudWatch::Alarm', { AlarmDescription: Match.stringLikeRegexp('^The API answered a 5xx') }),
  ).toBe(unexpected5xxId);
});
