import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { Match } from 'aws-cdk-lib/assertions';
import { CALLBACK_QUEUE } from '../../functions/callbacks/definitions';
import { API_VERSIONS, routePath } from '../../functions/deployment/routes';
import { MAX_CALLBACK_ATTEMPTS } from '../../functions/domain/callbacks/retry-schedule';
import { METRICS, METRICS_NAMESPACE } from '../../functions/domain/shared/meter';
import { OLDEST_CALLBACK_SECONDS } from '../../lib/constructs/alarms';
import { STAGE_THROTTLE } from '../../lib/constructs/api';
import { stateMachineArnVariable } from '../../lib/constructs/function-defaults';
import { FIXTURE_ROUTES, FIXTURE_WORKFLOWS, fixtureStack, testApp } from '../fixtures/infra/service-stack';
import {
  allowedToFunction,
  allowed as allowedToRole,
  apiMethods,
  arn,
  flatTemplate,
  liveAliasOf,
  onlyId,
  ref,
  resourcesOf,
} from '../fixtures/infra/template-queries';

// aws-cdk-lib's own template validation adds seconds per synth and checks nothing these tests assert.
process.env.CDK_VALIDATION = 'false';

const template = flatTemplate(fixtureStack());

const tableId = onlyId(template, 'AWS::DynamoDB::Table');
const bucketId = onlyId(template, 'AWS::S3::Bucket');
const queueId = onlyId(template, 'AWS::SQS::Queue', { RedrivePolicy: Match.anyValue() });
const deadLetterQueueId = onlyId(template, 'AWS::SQS::Queue', { RedrivePolicy: Match.absent() });
const machineId = onlyId(template, 'AWS::StepFunctions::StateMachine');
const functionIdByDescription = (description: string) =>
  onlyId(template, 'AWS::Lambda::Function', { Description: description });
const delivererId = functionIdByDescription('Delivers signed job callbacks from the callback queue');
const firstTaskId = functionIdByDescription('image-job workflow: FirstFunctionArn');
const secondTaskId = functionIdByDescription('image-job workflow: SecondFunctionArn');

const methods = apiMethods(template);
const methodFor = (version: (typeof API_VERSIONS)[number], route: (typeof FIXTURE_ROUTES)[number]) => {
  const found = methods.find((m) => m.route === `${route.method} ${routePath(version, route)}`);
  if (!found) throw new Error(`no method for ${route.method} ${routePath(version, route)}`);
  return found;
};
const routeFunctionId = (route: (typeof FIXTURE_ROUTES)[number]) => methodFor('v2', route).functionId!;

const allowed = (roleId: string) => allowedToRole(template, roleId);

describe('data', () => {
  test('the table has pk/sk keys, the gsi1 index, a ttl attribute, on-demand billing, PITR, and is retained', () => {
    template.hasResource('AWS::DynamoDB::Table', {
      DeletionPolicy: 'Retain',
      UpdateReplacePolicy: 'Retain',
      Properties: {
        KeySchema: [
          { AttributeName: 'pk', KeyType: 'HASH' },
          { AttributeName: 'sk', KeyType: 'RANGE' },
        ],
        AttributeDefinitions: Match.arrayWith(
          ['pk', 'sk', 'gsi1pk', 'gsi1sk'].map((name) => ({ AttributeName: name, AttributeType: 'S' })),
        ),
        GlobalSecondaryIndexes: [
          {
            IndexName: 'gsi1',
            KeySchema: [
              { AttributeName: 'gsi1pk', KeyType: 'HASH' },
              { AttributeName: 'gsi1sk', KeyType: 'RANGE' },
            ],
            Projection: { ProjectionType: 'ALL' },
          },
        ],
        BillingMode: 'PAY_PER_REQUEST',
        TimeToLiveSpecification: { AttributeName: 'ttl', Enabled: true },
        PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
      },
    });
  });

  test('the bucket is private, S3-encrypted, TLS-only, and expires outputs/ after 2 days', () => {
    template.hasResource('AWS::S3::Bucket', {
      DeletionPolicy: 'Retain',
      Properties: {
        PublicAccessBlockConfiguration: {
          BlockPublicAcls: true,
          BlockPublicPolicy: true,
          IgnorePublicAcls: true,
          RestrictPublicBuckets: true,
        },
        BucketEncryption: {
          ServerSideEncryptionConfiguration: [{ ServerSideEncryptionByDefault: { SSEAlgorithm: 'AES256' } }],
        },
        LifecycleConfiguration: {
          Rules: Match.arrayWith([Match.objectLike({ Prefix: 'outputs/', ExpirationInDays: 2, Status: 'Enabled' })]),
        },
      },
    });
    template.hasResourceProperties('AWS::S3::BucketPolicy', {
      Bucket: { Ref: bucketId },
      PolicyDocument: {
        Statement: Match.arrayWith([
          Match.objectLike({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
        ]),
      },
    });
  });

  test('a browser page on any origin may PUT and GET through presigned URLs, and nothing else', () => {
    template.hasResourceProperties('AWS::S3::Bucket', {
      CorsConfiguration: {
        CorsRules: [
          {
            AllowedMethods: ['PUT', 'GET'],
            AllowedOrigins: ['*'],
            AllowedHeaders: ['*'],
            ExposedHeaders: ['ETag'],
            MaxAge: 3000,
          },
        ],
      },
    });
  });
});

describe('api', () => {
  test('the API is a Regional REST API whose stage writes access logs and error logs', () => {
    template.hasResourceProperties('AWS::ApiGateway::RestApi', { EndpointConfiguration: { Types: ['REGIONAL'] } });
    template.hasResourceProperties('AWS::ApiGateway::Stage', {
      AccessLogSetting: { DestinationArn: Match.anyValue(), Format: Match.stringLikeRegexp('requestId') },
      MethodSettings: Match.arrayWith([
        Match.objectLike({ LoggingLevel: 'ERROR', ResourcePath: '/*', HttpMethod: '*' }),
      ]),
    });
  });

  test('every route is mounted under /v2/service and /v1/service, both on the one function of its row', () => {
    expect(methods).toHaveLength(FIXTURE_ROUTES.length * API_VERSIONS.length);
    for (const route of FIXTURE_ROUTES) {
      expect(methodFor('v1', route).functionId).toBe(routeFunctionId(route));
    }
    expect(new Set(FIXTURE_ROUTES.map(routeFunctionId)).size).toBe(FIXTURE_ROUTES.length);
  });

  test('there is one function per route, per workflow task, the deliverer and the maintenance function, and no other', () => {
    const taskCount = Object.values(FIXTURE_WORKFLOWS).reduce((sum, w) => sum + Object.keys(w.tasks).length, 0);
    template.resourceCountIs('AWS::Lambda::Function', FIXTURE_ROUTES.length + taskCount + 2);
  });

  test('a stream route uses a STREAM integration with a 15-minute timeout, and its function may run as long', () => {
    const streamed = FIXTURE_ROUTES.find((route) => route.stream)!;
    for (const version of API_VERSIONS) {
      expect(methodFor(version, streamed).integration).toMatchObject({
        Type: 'AWS_PROXY',
        ResponseTransferMode: 'STREAM',
        TimeoutInMillis: 900_000,
        Uri: { 'Fn::Join': ['', expect.arrayContaining([expect.stringMatching(/response-streaming-invocations$/)])] },
      });
    }
    template.hasResourceProperties('AWS::Lambda::Function', {
      Description: 'POST /{v2,v1}/service/edit',
      Timeout: 900,
    });
  });

  test('a buffered route keeps the default transfer mode and the 29 s integration timeout', () => {
    for (const route of FIXTURE_ROUTES.filter((r) => !r.stream)) {
      const { integration } = methodFor('v2', route);
      expect(integration.ResponseTransferMode).toBeUndefined();
      expect(integration.TimeoutInMillis).toBeUndefined();
    }
  });

  test('API Gateway authorises nothing itself, including for the auth: none route', () => {
    for (const method of methods) expect(method.authorizationType).toBe('NONE');
    template.resourceCountIs('AWS::ApiGateway::Authorizer', 0);
    template.resourceCountIs('AWS::ApiGateway::ApiKey', 0);
  });

  test('errors API Gateway answers itself use the service error shape and carry X-Request-Id', () => {
    const responses = Object.values(resourcesOf(template, 'AWS::ApiGateway::GatewayResponse')).map((r) => r.Properties);
    expect(responses.map((r) => r.ResponseType)).toEqual(
      expect.arrayContaining(['REQUEST_TOO_LARGE', 'DEFAULT_4XX', 'DEFAULT_5XX']),
    );
    for (const response of responses) {
      expect(response.ResponseParameters).toEqual({ 'gatewayresponse.header.X-Request-Id': 'context.requestId' });
      const body = JSON.parse(
        response.ResponseTemplates['application/json']
          .replace('$context.error.messageString', '"Missing Authentication Token"')
          .replace('$context.requestId', 'req-1'),
      );
      expect(Object.keys(body)).toEqual(['detail', 'code', 'request_id']);
      expect(body.request_id).toBe('req-1');
    }
    const byType = (type: string) => responses.find((r) => r.ResponseType === type)!;
    expect(byType('REQUEST_TOO_LARGE').StatusCode).toBe('413');
    expect(byType('REQUEST_TOO_LARGE').ResponseTemplates['application/json']).toContain('"code":"PAYLOAD_TOO_LARGE"');
    expect(byType('DEFAULT_5XX').ResponseTemplates['application/json']).toContain('"code":"INTERNAL_ERROR"');
  });
});

describe('functions', () => {
  const functions = Object.entries(resourcesOf(template, 'AWS::Lambda::Function'));

  test('every function runs Node 22 on arm64 and logs to a log group kept one month', () => {
    const logGroups = resourcesOf(template, 'AWS::Logs::LogGroup');
    for (const [, { Properties: fn }] of functions) {
      expect(fn.Runtime).toBe('nodejs22.x');
      expect(fn.Architectures).toEqual(['arm64']);
      expect(logGroups[fn.LoggingConfig.LogGroup.Ref].Properties.RetentionInDays).toBe(30);
    }
    for (const { Properties: group } of Object.values(logGroups)) expect(group.RetentionInDays).toBe(30);
  });

  test('every function is told the table, the bucket and the callback queue', () => {
    for (const [, { Properties: fn }] of functions) {
      expect(fn.Environment.Variables).toMatchObject({
        SERVICE_TABLE_NAME: { Ref: tableId },
        SERVICE_BUCKET_NAME: { Ref: bucketId },
        CALLBACK_QUEUE_URL: { Ref: queueId },
        LOG_LEVEL: 'info',
      });
      // A logged error's stack is mapped then (source-mapped-stack.ts), not by node at every cold start.
      expect(fn.Environment.Variables.NODE_OPTIONS).toBeUndefined();
    }
  });

  test('each function is granted what its row declares and nothing else', () => {
    const actionsOf = (functionId: string) =>
      new Set(allowedToFunction(template, functionId).map(({ action }) => action));
    const webhookSecret = actionsOf(routeFunctionId(FIXTURE_ROUTES[0]!));
    expect([...webhookSecret]).toEqual(
      expect.arrayContaining(['dynamodb:PutItem', 'dynamodb:ConditionCheckItem', 'dynamodb:Query']),
    );
    const jobs = actionsOf(routeFunctionId(FIXTURE_ROUTES[2]!));
    // Beyond the X-Ray segments every traced function sends.
    // Beyond the X-Ray segments, and the request counter (UpdateItem only on RATE# partitions).
    expect([...jobs].filter((action) => !action.startsWith('xray:')).sort()).toEqual([
      'dynamodb:BatchGetItem',
      'dynamodb:GetItem',
      'dynamodb:Query',
      'dynamodb:UpdateItem',
    ]);
    const downloads = allowedToFunction(template, routeFunctionId(FIXTURE_ROUTES[3]!));
    expect(downloads.filter(({ action }) => action === 's3:GetObject')).toEqual([
      { action: 's3:GetObject', resource: expect.stringContaining(`"${bucketId}","Arn"]},"/outputs/*"`) },
    ]);
    expect(downloads.filter(({ action }) => action.startsWith('dynamodb:'))).toEqual([]);
    const second = allowedToFunction(template, secondTaskId);
    expect(second.filter(({ action }) => action.startsWith('s3:') && action !== 's3:ListBucket')).toEqual([
      { action: 's3:GetObject', resource: expect.stringContaining('"/inputs/*"') },
    ]);
    expect(second.map(({ action }) => action)).not.toContain('dynamodb:PutItem');
    expect(allowedToFunction(template, firstTaskId)).toContainEqual({
      action: 'dynamodb:PutItem',
      resource: arn(tableId),
    });
  });

  test('only a route that declares a callback queue, workflow or secret gets it', () => {
    for (const functionId of [...FIXTURE_ROUTES.map(routeFunctionId), firstTaskId, secondTaskId]) {
      expect(allowedToFunction(template, functionId)).not.toContainEqual({
        action: 'sqs:SendMessage',
        resource: arn(queueId),
      });
    }
    const edit = routeFunctionId(FIXTURE_ROUTES[1]!);
    for (const route of FIXTURE_ROUTES) {
      const functionId = routeFunctionId(route);
      const fn = resourcesOf(template, 'AWS::Lambda::Function')[functionId].Properties;
      expect(fn.Environment.Variables.IMAGE_JOB_STATE_MACHINE_ARN).toEqual({ Ref: machineId });
      const starts = allowedToFunction(template, functionId).some(
        ({ action, resource }) => action === 'states:StartExecution' && resource === JSON.stringify({ Ref: machineId }),
      );
      expect({ functionId, starts }).toEqual({ functionId, starts: functionId === edit });
    }
    for (const functionId of [firstTaskId, secondTaskId, delivererId]) {
      const fn = resourcesOf(template, 'AWS::Lambda::Function')[functionId].Properties;
      expect(fn.Environment.Variables.IMAGE_JOB_STATE_MACHINE_ARN).toBeUndefined();
    }
  });

  test('context imageConcurrency sets the cap of image functions, 0 removes it, and anything else stops the synth', () => {
    const capOf = (context: Record<string, unknown>) =>
      Object.values(resourcesOf(flatTemplate(fixtureStack({}, testApp({ context }))), 'AWS::Lambda::Function'))
        .map((fn) => fn.Properties.ReservedConcurrentExecutions)
        .filter((cap) => cap !== undefined);
    expect(capOf({ imageConcurrency: 5 })).toEqual([5, 5]);
    expect(capOf({ imageConcurrency: 0 })).toEqual([]);
    expect(() => capOf({ imageConcurrency: 'lots' })).toThrow(/imageConcurrency/);
  });

  test('every function, the API stage and the state machine are traced with X-Ray', () => {
    for (const fn of Object.values(resourcesOf(template, 'AWS::Lambda::Function')))
      expect(fn.Properties.TracingConfig).toEqual({ Mode: 'Active' });
    for (const stage of Object.values(resourcesOf(template, 'AWS::ApiGateway::Stage')))
      expect(stage.Properties.TracingEnabled).toBe(true);
    for (const machine of Object.values(resourcesOf(template, 'AWS::StepFunctions::StateMachine')))
      expect(machine.Properties.TracingConfiguration).toEqual({ Enabled: true });
  });

  test('the API stage throttles every method before any function runs', () => {
    const stage = Object.values(resourcesOf(template, 'AWS::ApiGateway::Stage'))[0]!;
    expect(stage.Properties.MethodSettings).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          HttpMethod: '*',
          ResourcePath: '/*',
          ThrottlingRateLimit: STAGE_THROTTLE.rateLimit,
          ThrottlingBurstLimit: STAGE_THROTTLE.burstLimit,
        }),
      ]),
    );
  });

  test('state machine ARN variables are named once', () => {
    expect(stateMachineArnVariable('image-job')).toBe('IMAGE_JOB_STATE_MACHINE_ARN');
    expect(stateMachineArnVariable('profile-training')).toBe('PROFILE_TRAINING_STATE_MACHINE_ARN');
  });

  test('memory comes from the row, else 2048 MB for image work, else 512 MB', () => {
    const memory = (functionId: string) =>
      resourcesOf(template, 'AWS::Lambda::Function')[functionId].Properties.MemorySize;
    expect(memory(routeFunctionId(FIXTURE_ROUTES.find((r) => r.memoryMb)!))).toBe(3008);
    expect(memory(secondTaskId)).toBe(2048);
    expect(memory(firstTaskId)).toBe(512);
  });
});

describe('workflows', () => {
  const machine = resourcesOf(template, 'AWS::StepFunctions::StateMachine')[machineId].Properties;

  test("a workflow is a STANDARD state machine made from its ASL file, each Task bound to its function's live alias", () => {
    const workflow = FIXTURE_WORKFLOWS['image-job'];
    expect(machine.StateMachineType).toBe('STANDARD');
    expect(machine.DefinitionString).toBe(readFileSync(path.resolve(__dirname, '../..', workflow.file), 'utf8'));
    expect(machine.DefinitionSubstitutions).toEqual({
      FirstFunctionArn: { Ref: liveAliasOf(template, firstTaskId) },
      SecondFunctionArn: { Ref: liveAliasOf(template, secondTaskId) },
      TableName: { Ref: tableId },
      Partition: { Ref: 'AWS::Partition' },
      CallbackQueueUrl: { Ref: queueId },
    });
  });

  test('a task function takes its timeout from the workflow table, else 60 s', () => {
    const timeout = (functionId: string) =>
      resourcesOf(template, 'AWS::Lambda::Function')[functionId].Properties.Timeout;
    expect(timeout(secondTaskId)).toBe(300);
    expect(timeout(firstTaskId)).toBe(60);
  });

  test('the state machine logs errors with their data to a log group kept one month', () => {
    expect(machine.LoggingConfiguration).toMatchObject({ Level: 'ERROR', IncludeExecutionData: true });
    const groupId = machine.LoggingConfiguration.Destinations[0].CloudWatchLogsLogGroup.LogGroupArn['Fn::GetAtt'][0];
    expect(resourcesOf(template, 'AWS::Logs::LogGroup')[groupId].Properties.RetentionInDays).toBe(30);
  });

  test("the state machine may invoke its Task functions' live aliases (and nothing else of them), read the table and send to the callback queue", () => {
    const grants = allowed(machine.RoleArn['Fn::GetAtt'][0]);
    const invokes = grants.filter((grant) => grant.action === 'lambda:InvokeFunction').map((grant) => grant.resource);
    expect(invokes.sort()).toEqual(
      [ref(liveAliasOf(template, firstTaskId)), ref(liveAliasOf(template, secondTaskId))].sort(),
    );
    expect(grants).toContainEqual({ action: 'dynamodb:GetItem', resource: arn(tableId) });
    expect(grants).toContainEqual({ action: 'sqs:SendMessage', resource: arn(queueId) });
  });

  test('a Task whose substitution nothing binds fails the synth', () => {
    const { SecondFunctionArn: _unbound, ...tasks } = FIXTURE_WORKFLOWS['image-job'].tasks;
    expect(() => fixtureStack({ workflows: { 'image-job': { ...FIXTURE_WORKFLOWS['image-job'], tasks } } })).toThrow(
      /\$\{SecondFunctionArn\}, which nothing binds/,
    );
  });

  test('a binding that no Task names fails the synth', () => {
    const workflow = FIXTURE_WORKFLOWS['image-job'];
    const tasks = { ...workflow.tasks, ThirdFunctionArn: { handler: 'test/fixtures/infra/handler.ts', access: {} } };
    expect(() => fixtureStack({ workflows: { 'image-job': { ...workflow, tasks } } })).toThrow(/ThirdFunctionArn/);
  });
});

describe('callbacks', () => {
  test('the callback queue is encrypted, TLS-only, and takes visibility and redrive from the shared definition', () => {
    template.hasResourceProperties('AWS::SQS::Queue', {
      SqsManagedSseEnabled: true,
      VisibilityTimeout: CALLBACK_QUEUE.visibilityTimeoutSeconds,
      RedrivePolicy: {
        deadLetterTargetArn: { 'Fn::GetAtt': [deadLetterQueueId, 'Arn'] },
        maxReceiveCount: CALLBACK_QUEUE.maxReceiveCount,
      },
    });
    template.hasResourceProperties('AWS::SQS::Queue', {
      SqsManagedSseEnabled: true,
      MessageRetentionPeriod: 1_209_600,
    });
    for (const id of [queueId, deadLetterQueueId]) {
      template.hasResourceProperties('AWS::SQS::QueuePolicy', {
        Queues: [{ Ref: id }],
        PolicyDocument: {
          Statement: Match.arrayWith([
            Match.objectLike({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
          ]),
        },
      });
    }
  });

  test('the redrive never cuts the retry schedule short', () => {
    expect(CALLBACK_QUEUE.maxReceiveCount).toBeGreaterThanOrEqual(MAX_CALLBACK_ATTEMPTS);
  });

  test('the deliverer takes batches through its live alias, reports partial failures, and may delay a message', () => {
    template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      EventSourceArn: { 'Fn::GetAtt': [queueId, 'Arn'] },
      FunctionName: Match.objectLike({ 'Fn::Join': ['', [Match.anyValue(), ':live']] }),
      BatchSize: CALLBACK_QUEUE.batchSize,
      FunctionResponseTypes: ['ReportBatchItemFailures'],
    });
    template.hasResourceProperties('AWS::Lambda::Function', {
      Description: 'Delivers signed job callbacks from the callback queue',
      Timeout: CALLBACK_QUEUE.delivererTimeoutSeconds,
    });
    const grants = allowedToFunction(template, delivererId);
    for (const action of ['sqs:ReceiveMessage', 'sqs:DeleteMessage', 'sqs:ChangeMessageVisibility']) {
      expect(grants).toContainEqual({ action, resource: arn(queueId) });
    }
  });
});

describe('alarms', () => {
  test('an alarm fires as soon as a callback is in the dead-letter queue', () => {
    template.hasResourceProperties('AWS::CloudWatch::Alarm', {
      Namespace: 'AWS/SQS',
      MetricName: 'ApproximateNumberOfMessagesVisible',
      Dimensions: [{ Name: 'QueueName', Value: { 'Fn::GetAtt': [deadLetterQueueId, 'QueueName'] } }],
      ComparisonOperator: 'GreaterThanThreshold',
      Threshold: 0,
      Period: 300,
    });
  });

  test("an alarm fires on a 5xx nobody meant: the API's 5xx minus the engine-failure 500s the functions count", () => {
    const alarm = Object.values(resourcesOf(template, 'AWS::CloudWatch::Alarm')).find((a) =>
      JSON.stringify(a.Properties.Metrics ?? []).includes('5XXError'),
    )!;
    expect(alarm.Properties).toMatchObject({ ComparisonOperator: 'GreaterThanThreshold', Threshold: 0 });
    const metrics = alarm.Properties.Metrics as Array<{
      Id: string;
      Expression?: string;
      MetricStat?: { Metric: { MetricName: string; Namespace: string } };
    }>;
    expect(metrics.find((m) => m.Expression)!.Expression).toBe('FILL(api5xx, 0) - FILL(engine500, 0)');
    expect(metrics.find((m) => m.Id === 'engine500')!.MetricStat!.Metric).toMatchObject({
      MetricName: METRICS.engineFailureAnswers,
      Namespace: METRICS_NAMESPACE,
    });
  });

  test("an alarm fires as soon as a run's price exceeded its reservation (UnbilledMicros: the operator's loss)", () => {
    template.hasResourceProperties('AWS::CloudWatch::Alarm', {
      Namespace: METRICS_NAMESPACE,
      MetricName: METRICS.unbilledMicros,
      Dimensions: Match.arrayWith([{ Name: 'kind', Value: 'job' }]),
      ComparisonOperator: 'GreaterThanThreshold',
      Threshold: 0,
      Statistic: 'Sum',
      Period: 300,
    });
  });

  test('every alarm notifies the alarm topic, which mails the address given as context alarmEmail', () => {
    const topicId = onlyId(template, 'AWS::SNS::Topic');
    const alarms = Object.values(resourcesOf(template, 'AWS::CloudWatch::Alarm'));
    expect(alarms.length).toBeGreaterThan(10);
    for (const alarm of alarms) expect(alarm.Properties.AlarmActions).toEqual([{ Ref: topicId }]);
    template.resourceCountIs('AWS::SNS::Subscription', 0);
    const withEmail = flatTemplate(fixtureStack({}, testApp({ context: { alarmEmail: 'ops@example.com' } })));
    withEmail.hasResourceProperties('AWS::SNS::Subscription', { Protocol: 'email', Endpoint: 'ops@example.com' });
    expect(() => fixtureStack({}, testApp({ context: { alarmEmail: 'not an address' } }))).toThrow(/alarmEmail/);
  });

  test("each function has an errors alarm and its throttles are in one alarm; the callback queue's oldest message has one too", () => {
    const alarms = Object.values(resourcesOf(template, 'AWS::CloudWatch::Alarm')).map((a) => a.Properties);
    const functionIds = Object.keys(resourcesOf(template, 'AWS::Lambda::Function'));
    expect(alarms.filter((a) => a.MetricName === 'Errors' && a.Namespace === 'AWS/Lambda')).toHaveLength(
      functionIds.length,
    );
    // Throttle alarms sum up to 10 functions' throttles each; together they name every function once.
    const throttleAlarms = alarms.filter((a) =>
      (a.Metrics ?? []).some(
        (m: { MetricStat?: { Metric: { MetricName: string } } }) => m.MetricStat?.Metric.MetricName === 'Throttles',
      ),
    );
    expect(throttleAlarms).toHaveLength(Math.ceil(functionIds.length / 10));
    const throttled = throttleAlarms.flatMap((a) =>
      (a.Metrics ?? []).flatMap((m: { MetricStat?: { Metric: { Dimensions: { Value: { Ref: string } }[] } } }) =>
        m.MetricStat ? [m.MetricStat.Metric.Dimensions[0]?.Value.Ref] : [],
      ),
    );
    expect([...throttled].sort()).toEqual([...functionIds].sort());
    for (const alarm of throttleAlarms)
      expect(alarm.Metrics.find((m: { Expression?: string }) => m.Expression)?.Expression).toMatch(
        /^SUM\(\[FILL\(t0, 0\)/,
      );
    expect(alarms.find((a) => a.MetricName === 'ApproximateAgeOfOldestMessage')).toMatchObject({
      Threshold: OLDEST_CALLBACK_SECONDS,
    });
    template.resourceCountIs('AWS::CloudWatch::Dashboard', 1);
  });
});
