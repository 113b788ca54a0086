/**
 * The stack built from the real route and workflow tables (functions/deployment/routes.ts,
 * functions/workflows/definitions.ts) and the real ASL files. Every expectation is derived from those
 * tables, so a new row is checked as soon as it is added.
 *
 * Bundling is skipped here as in the other template tests; what each function would be bundled with is
 * read from the recipe its NodejsFunction hands to `lambda.Code.fromAsset` (the shell form of the same
 * steps the local bundler runs). test/packaging/bundling.test.ts really bundles one image function.
 */
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import aslValidator from 'asl-validator';
import type { BundlingOptions } from 'aws-cdk-lib';
import { Match } from 'aws-cdk-lib/assertions';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { MODEL_ID } from '../../functions/adapters/faces/face-models';
import { CALLBACK_QUEUE } from '../../functions/callbacks/definitions';
import type { WorkflowName } from '../../functions/deployment/env-names';
import {
  type API_VERSIONS,
  ROUTES,
  type RouteDefinition,
  routePath,
  routeVersions,
} from '../../functions/deployment/routes';
import { PORTAL_ROUTE } from '../../functions/portal/route';
import { WORKFLOWS } from '../../functions/workflows/definitions';
import { BUFFERED_TIMEOUT, STREAM_TIMEOUT } from '../../lib/constructs/api';
import { DELIVERER_TIMEOUT_SECONDS } from '../../lib/constructs/callbacks';
import {
  DEFAULT_IMAGE_CONCURRENCY,
  DEFAULT_MEMORY_MB,
  handlerEntry,
  IMAGE_MEMORY_MB,
  stateMachineArnVariable,
} from '../../lib/constructs/function-defaults';
import { MAINTENANCE_INTERVAL } from '../../lib/constructs/maintenance';
import { DEFAULT_TASK_TIMEOUT_SECONDS } from '../../lib/constructs/workflows';
import { ServiceStack } from '../../lib/service-stack';
import { testApp } from '../fixtures/infra/service-stack';
import {
  allowed,
  allowedToFunction,
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

const REPOSITORY_ROOT = path.resolve(__dirname, '..', '..');

const fromAsset = jest.spyOn(lambda.Code, 'fromAsset');
const template = flatTemplate(new ServiceStack(testApp(), 'Service'));
const recipes = fromAsset.mock.calls.flatMap(([, options]) => (options?.bundling ? [options.bundling] : []));
fromAsset.mockRestore();

const functions = resourcesOf(template, 'AWS::Lambda::Function');
const fn = (functionId: string) => functions[functionId].Properties;
const tableId = onlyId(template, 'AWS::DynamoDB::Table');
const bucketId = onlyId(template, 'AWS::S3::Bucket');
const secretId = onlyId(template, 'AWS::SecretsManager::Secret');
const queueId = onlyId(template, 'AWS::SQS::Queue', { RedrivePolicy: Match.anyValue() });
const deadLetterQueueId = onlyId(template, 'AWS::SQS::Queue', { RedrivePolicy: Match.absent() });
const delivererId = onlyId(template, 'AWS::Lambda::Function', {
  Description: 'Delivers signed job callbacks from the callback queue',
});
const maintenanceId = onlyId(template, 'AWS::Lambda::Function', {
  Description: 'Closes jobs and trainings whose workflow execution is lost, releasing their reservations',
});

const portalId = onlyId(template, 'AWS::Lambda::Function', {
  Description: `ANY ${PORTAL_ROUTE.paths.join(', ')}: the developer portal`,
});

const methods = apiMethods(template);
const methodFor = (version: (typeof API_VERSIONS)[number], route: RouteDefinition) => {
  const found = methods.find((m) => m.route === `${route.method} ${routePath(version, route)}`);
  if (!found) throw new Error(`no method for ${route.method} ${routePath(version, route)}`);
  return found;
};
const routeFunctionId = (route: RouteDefinition) => methodFor('v2', route).functionId!;

const WORKFLOW_ENTRIES = Object.entries(WORKFLOWS) as Array<[WorkflowName, (typeof WORKFLOWS)[WorkflowName]]>;
const TASKS = WORKFLOW_ENTRIES.flatMap(([workflow, { tasks }]) =>
  Object.entries(tasks).map(([variable, task]) => ({ workflow, variable, ...task })),
);
const taskFunctionId = (workflow: string, variable: string) =>
  onlyId(template, 'AWS::Lambda::Function', { Description: `${workflow} workflow: ${variable}` });

/** Every function of the tables with the row it comes from. */
const FUNCTIONS = [
  ...ROUTES.map((route) => ({
    name: `${route.method} ${route.path}`,
    functionId: routeFunctionId(route),
    entry: handlerEntry(`functions/api/${route.handler}`),
    images: route.images ?? false,
    memoryMb: route.memoryMb,
  })),
  ...TASKS.map((task) => ({
    name: `${task.workflow} ${task.variable}`,
    functionId: taskFunctionId(task.workflow, task.variable),
    entry: handlerEntry(task.handler),
    images: task.images ?? false,
    memoryMb: undefined,
  })),
  {
    name: 'developer portal',
    functionId: portalId,
    entry: handlerEntry(PORTAL_ROUTE.handler),
    images: false,
    memoryMb: undefined,
  },
];

/** The bundling recipe of the one function whose entry is this handler module. */
const recipeFor = (entry: string): BundlingOptions => {
  const found = recipes.filter((recipe) => recipe.command?.join(' ').includes(`'/asset-input/${entry}'`));
  expect(found).toHaveLength(1);
  return found[0];
};

/** The machine of a workflow, found through the variable the API functions are told its ARN in. */
/** The statements of a function's role, conditions included. */
const statementsOfFunction = (functionId: string): Array<{ Action: string | string[]; Condition?: unknown }> =>
  Object.values(resourcesOf(template, 'AWS::IAM::Policy'))
    .filter(({ Properties: policy }) =>
      JSON.stringify(policy.Roles).includes(`"${fn(functionId).Role['Fn::GetAtt'][0]}"`),
    )
    .flatMap(({ Properties: policy }) => policy.PolicyDocument.Statement);

const machineIdOf = (workflow: WorkflowName): string =>
  fn(routeFunctionId(ROUTES[0])).Environment.Variables[stateMachineArnVariable(workflow)].Ref;
const aslOf = (workflow: WorkflowName) => readFileSync(path.join(REPOSITORY_ROOT, WORKFLOWS[workflow].file), 'utf8');

// biome-ignore lint/suspicious/noExplicitAny: a state of the synthesised ASL, read by path in assertions
type State = { [key: string]: any };
/** Every state of a definition, those inside Parallel branches and Map processors included. */
const statesOf = (definition: State): [string, State][] =>
  Object.entries<State>(definition.States).flatMap(([name, state]) => [
    [name, state] as [string, State],
    ...[...(state.Branches ?? []), state.ItemProcessor ?? state.Iterator].filter(Boolean).flatMap(statesOf),
  ]);
/** `${Name}` → `Name`. */
const substitution = (value: unknown) => (typeof value === 'string' ? /^\$\{(\w+)\}$/.exec(value)?.[1] : undefined);

test('every completed deploy of the service starts the face-template backfill for the face model it carries', () => {
  const machineId = machineIdOf('profile-reembedding');
  const rules = Object.values(resourcesOf(template, 'AWS::Events::Rule')).filter(
    (rule) => rule.Properties.EventPattern,
  );
  expect(rules).toHaveLength(1);
  expect(rules[0].Properties.EventPattern).toEqual({
    source: ['aws.cloudformation'],
    'detail-type': ['CloudFormation Stack Status Change'],
    // The root stack's own id, handed to the workflows' nested stack.
    resources: [{ Ref: 'AWS::StackId' }],
    detail: { 'status-details': { status: ['CREATE_COMPLETE', 'UPDATE_COMPLETE'] } },
  });
  expect(rules[0].Properties.Targets).toEqual([
    expect.objectContaining({ Arn: { Ref: machineId }, Input: JSON.stringify({ modelId: MODEL_ID, cursor: null }) }),
  ]);
});

describe('api', () => {
  test('every route is mounted under /v2/service and (unless it is /v2 only) /v1/service, on the one function of its row', () => {
    expect(methods.filter((m) => !m.route.startsWith('ANY /portal'))).toHaveLength(
      ROUTES.reduce((count, route) => count + routeVersions(route).length, 0),
    );
    for (const route of ROUTES)
      if (routeVersions(route).includes('v1')) expect(methodFor('v1', route).functionId).toBe(routeFunctionId(route));
    expect(new Set(ROUTES.map(routeFunctionId)).size).toBe(ROUTES.length);
  });

  test('the developer portal is one buffered function answering ANY on /portal and /portal/{proxy+}, outside the versioned API', () => {
    const portal = methods.filter((m) => m.functionId === portalId);
    expect(portal.map((m) => m.route).sort()).toEqual(['ANY /portal', 'ANY /portal/{proxy+}']);
    for (const { integration } of portal) expect(integration.ResponseTransferMode ?? 'BUFFERED').toBe('BUFFERED');
    expect(fn(portalId).Timeout).toBe(BUFFERED_TIMEOUT.toSeconds());
  });

  test('the portal may stop a training (profile deletion) and queue callbacks, but not start work, scan or touch images', () => {
    const actions = allowedToFunction(template, portalId).map(({ action }) => action);
    expect(actions).toEqual(
      expect.arrayContaining([
        'dynamodb:PutItem',
        'dynamodb:Query',
        'sqs:SendMessage',
        'states:StopExecution',
        's3:DeleteObject',
      ]),
    );
    for (const denied of ['dynamodb:Scan', 'states:StartExecution', 's3:PutObject', 'states:DescribeExecution'])
      expect(actions).not.toContain(denied);
    const objects = allowedToFunction(template, portalId).filter(
      ({ action }) => action === 's3:GetObject' || action === 's3:DeleteObject',
    );
    for (const { resource } of objects) expect(resource).toContain('/profiles/*');
  });

  test('the image routes and profile_picture are the stream routes', () => {
    expect(ROUTES.filter((route) => route.stream).map((route) => route.path)).toEqual(
      expect.arrayContaining(['/edit', '/generate', '/enhance', '/remix', '/profiles/{profile_id}/profile_picture']),
    );
  });

  test.each(ROUTES.filter((route) => route.stream).map((route) => [`${route.method} ${route.path}`, route] as const))(
    '%s is a STREAM integration with a 15-minute timeout on both prefixes, and its function may run as long',
    (_name, route) => {
      for (const version of routeVersions(route)) {
        expect(methodFor(version, route).integration).toMatchObject({
          Type: 'AWS_PROXY',
          IntegrationHttpMethod: 'POST',
          ResponseTransferMode: 'STREAM',
          TimeoutInMillis: STREAM_TIMEOUT.toMilliseconds(),
          Uri: {
            'Fn::Join': ['', expect.arrayContaining([expect.stringMatching(/\/response-streaming-invocations$/)])],
          },
        });
      }
      expect(STREAM_TIMEOUT.toMilliseconds()).toBe(900_000);
      expect(fn(routeFunctionId(route)).Timeout).toBe(900);
    },
  );

  test('a buffered route keeps the buffered transfer mode, the 29 s integration timeout and a 29 s function', () => {
    for (const route of ROUTES.filter((r) => !r.stream)) {
      for (const version of routeVersions(route)) {
        const { integration } = methodFor(version, route);
        expect(integration.ResponseTransferMode ?? 'BUFFERED').toBe('BUFFERED');
        expect(integration.TimeoutInMillis ?? 29_000).toBe(29_000);
        expect(JSON.stringify(integration.Uri)).toMatch(/\/invocations"/);
        expect(JSON.stringify(integration.Uri)).not.toContain('response-streaming');
      }
      expect(fn(routeFunctionId(route)).Timeout).toBe(BUFFERED_TIMEOUT.toSeconds());
    }
  });

  test("API Gateway may invoke each route function's live alias through this API only, with one permission per function", () => {
    const permissions = Object.values(resourcesOf(template, 'AWS::Lambda::Permission')).map((p) => p.Properties);
    const restApiId = onlyId(template, 'AWS::ApiGateway::RestApi');
    for (const route of ROUTES) {
      const own = permissions.filter(
        (p) =>
          JSON.stringify(p.FunctionName) === JSON.stringify({ Ref: liveAliasOf(template, routeFunctionId(route)) }),
      );
      expect(own).toHaveLength(1);
      expect(own[0]).toMatchObject({ Action: 'lambda:InvokeFunction', Principal: 'apigateway.amazonaws.com' });
      // arn:<partition>:execute-api:<region>:<account>:<this API's id>/*/*/* (any stage, method and path of it).
      expect(own[0].SourceArn).toEqual({ 'Fn::Join': ['', expect.arrayContaining([{ Ref: restApiId }, '/*/*/*'])] });
    }
  });

  test('the download route, like every auth: none route, has no API Gateway authorizer or API key', () => {
    const open = ROUTES.filter((route) => route.auth === 'none');
    expect(open.map((route) => route.path)).toContain('/downloads/{token}');
    for (const route of open) {
      for (const version of routeVersions(route)) {
        const method = methodFor(version, route);
        expect(method.authorizationType).toBe('NONE');
        expect(method.authorizerId).toBeUndefined();
        expect(method.apiKeyRequired ?? false).toBe(false);
      }
    }
    template.resourceCountIs('AWS::ApiGateway::Authorizer', 0);
  });
});

describe('functions', () => {
  test('there is one function per route, per workflow task, the deliverer and the maintenance function, and no other', () => {
    expect(Object.keys(functions).sort()).toEqual(
      [...FUNCTIONS.map((f) => f.functionId), delivererId, maintenanceId].sort(),
    );
    expect(FUNCTIONS.map((f) => f.functionId)).toContain(portalId);
  });

  test('abandoned work is closed on a schedule by a function that may read the table and describe executions', () => {
    const rules = Object.values(resourcesOf(template, 'AWS::Events::Rule')).filter(
      (rule) => rule.Properties.ScheduleExpression,
    );
    expect(rules).toHaveLength(1);
    expect(rules[0].Properties).toMatchObject({
      ScheduleExpression: `rate(${MAINTENANCE_INTERVAL.toMinutes()} minutes)`,
      State: 'ENABLED',
    });
    expect(rules[0].Properties.Targets).toEqual([
      expect.objectContaining({ Arn: { Ref: liveAliasOf(template, maintenanceId) } }),
    ]);
    const grants = allowedToFunction(template, maintenanceId);
    expect(grants.map((grant) => grant.action)).toEqual(
      expect.arrayContaining(['dynamodb:Scan', 'dynamodb:UpdateItem', 'dynamodb:PutItem', 'states:DescribeExecution']),
    );
  });

  test('every function is told the download-token secret; only those that sign or verify links may read it', () => {
    const readers = [
      ...ROUTES.filter((route) => route.access.secrets?.includes('downloadToken')).map(routeFunctionId),
      ...TASKS.filter((task) =>
        WORKFLOWS[task.workflow].tasks[task.variable]!.access.secrets?.includes('downloadToken'),
      ).map((task) => taskFunctionId(task.workflow, task.variable)),
      // The portal lists jobs and queues redeliveries, whose bodies carry download links.
      portalId,
    ];
    expect(readers).toEqual(
      expect.arrayContaining([
        routeFunctionId(ROUTES.find((r) => r.handler === 'jobs/jobs')!),
        routeFunctionId(ROUTES.find((r) => r.handler === 'jobs/downloads')!),
      ]),
    );
    for (const functionId of Object.keys(functions)) {
      expect(fn(functionId).Environment.Variables.DOWNLOAD_TOKEN_SECRET_ARN).toEqual({ Ref: secretId });
      const reads = allowedToFunction(template, functionId).some(
        ({ action, resource }) => action === 'secretsmanager:GetSecretValue' && resource === ref(secretId),
      );
      expect({ functionId, reads }).toEqual({ functionId, reads: readers.includes(functionId) });
    }
  });

  test.each(FUNCTIONS.filter((f) => f.images).map((f) => [f.name, f] as const))(
    'image work (%s): arm64, image memory, sharp, heic-decode and the face runtime installed for linux-arm64, pruned, left out of the bundle, and the face models built beside it',
    (_name, { functionId, entry, memoryMb }) => {
      expect(fn(functionId).Architectures).toEqual(['arm64']);
      expect(fn(functionId).MemorySize).toBe(memoryMb ?? IMAGE_MEMORY_MB);
      const recipe = recipeFor(entry);
      const command = recipe.command!.join(' ');
      expect(command).toContain("'--external:sharp' '--external:heic-decode' '--external:onnxruntime-node'");
      const installed = JSON.parse(
        /echo '(\{"dependencies":[^']*\})' > '\/asset-output\/package\.json'/.exec(command)![1],
      );
      expect(Object.keys(installed.dependencies)).toEqual(['sharp', 'heic-decode', 'onnxruntime-node']);
      expect(command).not.toContain('@vladmandic/human');
      // After the install, what face analysis does not use goes: other platforms' onnxruntime binaries first.
      expect(command).toMatch(
        /cd "\/asset-output" && npm ci && find "\/asset-output\/node_modules\/onnxruntime-node\/bin\/napi-v6" /,
      );
      expect(command).toContain('! -name arm64 -exec rm -rf {} +');
      // Then the face models, converted to ONNX at build time, into the asset.
      expect(command).toContain('"/asset-input/bin/faces/build-models.ts" --out "/asset-output/face-models"');
      expect(recipe.environment).toEqual({
        npm_config_os: 'linux',
        npm_config_cpu: 'arm64',
        npm_config_libc: 'glibc',
        npm_config_prefer_offline: 'true',
        npm_config_onnxruntime_node_install: 'skip',
      });
    },
  );

  // That such a bundle holds no sharp either is proved on the real assets: test/assets/load.test.ts.
  test('a function without image work installs no node modules and takes the default memory', () => {
    for (const { functionId, entry, memoryMb } of FUNCTIONS.filter((f) => !f.images)) {
      expect(fn(functionId).MemorySize).toBe(memoryMb ?? DEFAULT_MEMORY_MB);
      const recipe = recipeFor(entry);
      expect(recipe.command!.join(' ')).not.toMatch(/npm ci/);
      expect(recipe.environment).toBeUndefined();
    }
  });
});

describe('workflows', () => {
  test('the route functions know every state machine, and there is no other', () => {
    const machineIds = WORKFLOW_ENTRIES.map(([workflow]) => machineIdOf(workflow));
    expect(new Set(machineIds).size).toBe(WORKFLOW_ENTRIES.length);
    expect(Object.keys(resourcesOf(template, 'AWS::StepFunctions::StateMachine')).sort()).toEqual(machineIds.sort());
  });

  test.each(WORKFLOW_ENTRIES.map(([workflow]) => workflow))(
    '%s is a STANDARD state machine whose definition is its ASL file, with every substitution bound',
    (workflow) => {
      const machine = resourcesOf(template, 'AWS::StepFunctions::StateMachine')[machineIdOf(workflow)].Properties;
      const asl = aslOf(workflow);
      expect(machine.StateMachineType).toBe('STANDARD');
      expect(machine.DefinitionString).toBe(asl);
      const named = new Set([...asl.matchAll(/\$\{(\w+)\}/g)].map((match) => match[1]));
      expect(Object.keys(machine.DefinitionSubstitutions).sort()).toEqual(expect.arrayContaining([...named].sort()));
    },
  );

  test.each(WORKFLOW_ENTRIES.map(([workflow]) => workflow))(
    "every Task of %s runs a function of the workflow table, by its live alias's ARN, and the state machine may invoke it",
    (workflow) => {
      const machineId = machineIdOf(workflow);
      const machine = resourcesOf(template, 'AWS::StepFunctions::StateMachine')[machineId].Properties;
      const machineGrants = allowed(template, machine.RoleArn['Fn::GetAtt'][0]);
      const tasks = statesOf(JSON.parse(aslOf(workflow))).filter(([, state]) => state.Type === 'Task');
      expect(tasks.length).toBeGreaterThan(0);
      for (const [name, state] of tasks) {
        // A Lambda Task names its function as the Resource, or as the FunctionName of a lambda:invoke integration.
        const variable = /^arn:(aws|\$\{Partition\}):states:::lambda:invoke/.test(state.Resource)
          ? substitution(state.Parameters?.FunctionName)
          : substitution(state.Resource);
        expect({ name, variable }).toEqual({ name, variable: expect.any(String) });
        expect(Object.keys(WORKFLOWS[workflow].tasks)).toContain(variable);
        const functionId = taskFunctionId(workflow, variable!);
        const aliasId = liveAliasOf(template, functionId);
        expect(machine.DefinitionSubstitutions[variable!]).toEqual({ Ref: aliasId });
        expect(machineGrants).toContainEqual({ action: 'lambda:InvokeFunction', resource: ref(aliasId) });
      }
    },
  );

  test('every task function takes its timeout from its binding, else 60 s, and never more than Lambda allows', () => {
    for (const task of TASKS) {
      const timeout = fn(taskFunctionId(task.workflow, task.variable)).Timeout;
      expect({ task: task.variable, timeout }).toEqual({
        task: task.variable,
        timeout: task.timeoutSeconds ?? DEFAULT_TASK_TIMEOUT_SECONDS,
      });
      expect(timeout).toBeLessThanOrEqual(900);
    }
  });

  test.each(WORKFLOW_ENTRIES.map(([workflow, definition]) => [workflow, definition.file] as const))(
    'the %s ASL file (%s) is valid Amazon States Language once its substitutions are filled in',
    (workflow) => {
      const tasks = WORKFLOWS[workflow].tasks;
      const substituted = aslOf(workflow).replace(/\$\{(\w+)\}/g, (_match, variable: string) =>
        variable in tasks
          ? `arn:aws:lambda:us-east-1:123456789012:function:${variable}`
          : variable === 'Partition'
            ? 'aws'
            : variable,
      );
      const { isValid, errorsText } = aslValidator(JSON.parse(substituted), { checkPaths: true, checkArn: true });
      expect(isValid ? '' : errorsText('\n')).toBe('');
    },
  );

  test('route functions know every state machine ARN; only the routes that start a workflow may start it', () => {
    const starters = (workflow: WorkflowName) =>
      ROUTES.filter((route) => route.access.start?.includes(workflow))
        .map((route) => route.handler)
        .sort();
    expect(starters('image-job')).toEqual(['images/edit', 'images/enhance', 'images/generate', 'images/remix']);
    expect(starters('profile-training')).toEqual(['profiles/profiles-add']);
    for (const route of ROUTES) {
      const functionId = routeFunctionId(route);
      const grants = allowedToFunction(template, functionId);
      for (const [workflow] of WORKFLOW_ENTRIES) {
        const machineId = machineIdOf(workflow);
        expect(fn(functionId).Environment.Variables[stateMachineArnVariable(workflow)]).toEqual({ Ref: machineId });
        const starts = grants.some(
          ({ action, resource }) => action === 'states:StartExecution' && resource === ref(machineId),
        );
        expect({ route: route.handler, workflow, starts }).toEqual({
          route: route.handler,
          workflow,
          starts: starters(workflow).includes(route.handler),
        });
      }
    }
    for (const task of TASKS)
      expect(
        allowedToFunction(template, taskFunctionId(task.workflow, task.variable)).map(({ action }) => action),
      ).not.toContain('states:StartExecution');
  });

  test('only profile deletion (the route and the portal) may stop a training and only a job cancel an image job; only the maintenance sweep reads executions', () => {
    const stoppers = Object.keys(functions).filter((id) =>
      allowedToFunction(template, id).some(({ action }) => action === 'states:StopExecution'),
    );
    expect(stoppers.sort()).toEqual(
      [
        ...['jobs/jobs-cancel', 'profiles/profile-delete'].map((handler) =>
          routeFunctionId(ROUTES.find((r) => r.handler === handler)!),
        ),
        portalId,
      ].sort(),
    );
    const describers = Object.keys(functions).filter((id) =>
      allowedToFunction(template, id).some(({ action }) => action === 'states:DescribeExecution'),
    );
    expect(describers).toEqual([maintenanceId]);
  });

  test('the job status route reads the table, and can neither write it (but its request counter), scan it, touch the bucket nor start work', () => {
    const functionId = routeFunctionId(ROUTES.find((r) => r.handler === 'jobs/jobs')!);
    const actions = allowedToFunction(template, functionId).map(({ action }) => action);
    expect(actions).toEqual(expect.arrayContaining(['dynamodb:GetItem', 'dynamodb:Query']));
    for (const denied of [
      'dynamodb:PutItem',
      'dynamodb:DeleteItem',
      'dynamodb:Scan',
      's3:GetObject',
      's3:PutObject',
      's3:DeleteObject',
      'states:StartExecution',
      'sqs:SendMessage',
    ]) {
      expect(actions).not.toContain(denied);
    }
    const updates = statementsOfFunction(functionId).filter((statement) =>
      [statement.Action].flat().includes('dynamodb:UpdateItem'),
    );
    expect(updates).toEqual([
      expect.objectContaining({ Condition: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['RATE#*'] } } }),
    ]);
  });

  test('the download route reads only outputs/, and nothing of the table', () => {
    const grants = allowedToFunction(template, routeFunctionId(ROUTES.find((r) => r.handler === 'jobs/downloads')!));
    const objects = grants.filter(({ action }) => action.startsWith('s3:') && action !== 's3:ListBucket');
    expect(objects).toEqual([
      { action: 's3:GetObject', resource: expect.stringContaining(`"${bucketId}","Arn"]},"/outputs/*"`) },
    ]);
    expect(grants.filter(({ action }) => action.startsWith('dynamodb:'))).toEqual([]);
  });

  test("no function but the maintenance sweep and the backfill's page listing may scan the table", () => {
    const scanners = Object.keys(functions).filter((id) =>
      allowedToFunction(template, id).some(({ action }) => action === 'dynamodb:Scan'),
    );
    expect(scanners.sort()).toEqual(
      [taskFunctionId('profile-reembedding', 'ListStaleProfilesFunctionArn'), maintenanceId].sort(),
    );
  });

  test("each task function gets what its row declares: RunEngine reads inputs and the candidates' reference crops, writes outputs and the inputs it shares with a provider by URL; only QueueCallback and the steps that end a training send callbacks", () => {
    const runEngine = allowedToFunction(template, taskFunctionId('image-job', 'RunEngineFunctionArn'));
    expect(runEngine.filter(({ action }) => action === 's3:GetObject').map(({ resource }) => resource)).toEqual([
      expect.stringContaining('"/inputs/*"'),
      expect.stringContaining('"/profiles/*"'),
    ]);
    expect(runEngine.filter(({ action }) => action === 's3:PutObject').map(({ resource }) => resource)).toEqual([
      expect.stringContaining('"/inputs/*"'),
      expect.stringContaining('"/outputs/*"'),
    ]);
    expect(runEngine.map(({ action }) => action)).not.toContain('dynamodb:PutItem');
    for (const task of TASKS) {
      const grants = allowedToFunction(template, taskFunctionId(task.workflow, task.variable));
      // A transaction is authorised item by item, so these cover TransactWriteItems too.
      expect(grants).toContainEqual({ action: 'dynamodb:GetItem', resource: arn(tableId) });
      const sends = grants.some(({ action, resource }) => action === 'sqs:SendMessage' && resource === arn(queueId));
      const callbackSenders = [
        'QueueCallbackFunctionArn',
        // After a job's settle: the low-balance notice and auto-recharge's charge (docs/billing.md).
        'SettleChargeFunctionArn',
        'CompleteTrainingFunctionArn',
        'AcceptTrainingFunctionArn',
        'FailTrainingFunctionArn',
        // A LoRA training at fal (TRAINER=fal) ends READY in its check: the training callback.
        'CheckLoraTrainingFunctionArn',
      ];
      expect({ variable: task.variable, sends }).toEqual({
        variable: task.variable,
        sends: callbackSenders.includes(task.variable),
      });
    }
  });
});

describe('hygiene', () => {
  test('the table cannot be deleted without first lifting its deletion protection', () => {
    expect(resourcesOf(template, 'AWS::DynamoDB::Table')[tableId]!.Properties.DeletionProtectionEnabled).toBe(true);
  });

  test('state machines log under /aws/vendedlogs/, as CloudWatch vended logs expect', () => {
    for (const machine of Object.values(resourcesOf(template, 'AWS::StepFunctions::StateMachine'))) {
      const groupId =
        machine.Properties.LoggingConfiguration.Destinations[0].CloudWatchLogsLogGroup.LogGroupArn['Fn::GetAtt'][0];
      expect(JSON.stringify(resourcesOf(template, 'AWS::Logs::LogGroup')[groupId]!.Properties.LogGroupName)).toContain(
        '/aws/vendedlogs/states/',
      );
    }
  });

  test('no ARN in the template names the aws partition: it deploys to aws-cn and aws-us-gov too', () => {
    expect(JSON.stringify(template.toJSON())).not.toMatch(/arn:aws:/);
  });

  test('image functions are capped in concurrency, and only they', () => {
    const imageFunctions = [
      ...ROUTES.filter((route) => route.images).map(routeFunctionId),
      ...TASKS.filter((task) => WORKFLOWS[task.workflow].tasks[task.variable]!.images).map((task) =>
        taskFunctionId(task.workflow, task.variable),
      ),
    ];
    // Four operations, preflight, RunEngine, ValidatePhotos and the backfill's ReembedProfile.
    expect(imageFunctions).toHaveLength(8);
    for (const [functionId, { Properties: props }] of Object.entries(functions)) {
      expect({ functionId, cap: props.ReservedConcurrentExecutions }).toEqual({
        functionId,
        cap: imageFunctions.includes(functionId) ? DEFAULT_IMAGE_CONCURRENCY : undefined,
      });
    }
  });

  test("the access log records each request's integration latency and error message", () => {
    const stage = Object.values(resourcesOf(template, 'AWS::ApiGateway::Stage'))[0]!;
    const format = stage.Properties.AccessLogSetting.Format as string;
    for (const field of [
      '$context.integrationLatency',
      '$context.error.message',
      '$context.integrationErrorMessage',
      '$context.status',
    ])
      expect(format).toContain(field);
  });
});

describe('callbacks', () => {
  test('the callback queue redrives to its dead-letter queue after the shared receive count', () => {
    template.resourceCountIs('AWS::SQS::Queue', 2);
    template.hasResourceProperties('AWS::SQS::Queue', {
      VisibilityTimeout: CALLBACK_QUEUE.visibilityTimeoutSeconds,
      RedrivePolicy: {
        deadLetterTargetArn: { 'Fn::GetAtt': [deadLetterQueueId, 'Arn'] },
        maxReceiveCount: CALLBACK_QUEUE.maxReceiveCount,
      },
    });
  });

  test('the deliverer consumes the callback queue in batches and reports partial batch failures', () => {
    template.resourceCountIs('AWS::Lambda::EventSourceMapping', 1);
    template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      EventSourceArn: { 'Fn::GetAtt': [queueId, 'Arn'] },
      // The alias's name, `<function>:live`, taken from its ARN.
      FunctionName: {
        'Fn::Join': [
          '',
          [{ 'Fn::Select': [6, { 'Fn::Split': [':', { Ref: liveAliasOf(template, delivererId) }] }] }, ':live'],
        ],
      },
      BatchSize: CALLBACK_QUEUE.batchSize,
      FunctionResponseTypes: ['ReportBatchItemFailures'],
    });
    expect(fn(delivererId).Timeout).toBe(DELIVERER_TIMEOUT_SECONDS);
    // AWS advises a queue's visibility timeout of at least six times its consumer's timeout.
    expect(CALLBACK_QUEUE.visibilityTimeoutSeconds).toBeGreaterThanOrEqual(6 * DELIVERER_TIMEOUT_SECONDS);
  });

  test('the deliverer knows the dead-letter queue and may send to it, and may delay and delete on its queue', () => {
    expect(fn(delivererId).Environment.Variables).toMatchObject({
      CALLBACK_QUEUE_URL: { Ref: queueId },
      CALLBACK_DLQ_URL: { Ref: deadLetterQueueId },
    });
    const grants = allowedToFunction(template, delivererId);
    expect(grants).toContainEqual({ action: 'sqs:SendMessage', resource: arn(deadLetterQueueId) });
    for (const action of ['sqs:ReceiveMessage', 'sqs:DeleteMessage', 'sqs:ChangeMessageVisibility']) {
      expect(grants).toContainEqual({ action, resource: arn(queueId) });
    }
  });
});

describe('routes that answer waiting workflow Tasks', () => {
  it.each(ROUTES.filter((route) => route.access.answerTasks))(
    '$handler may send task responses to its workflow, and only it does',
    (route) => {
      const granted = (functionId: string) =>
        allowedToFunction(template, functionId).filter(({ action }) =>
          ['states:SendTaskSuccess', 'states:SendTaskFailure', 'states:SendTaskHeartbeat'].includes(action),
        );
      // Each workflow it answers (the provider webhook: image jobs, and LoRA trainings at fal), each action once.
      const machineIds = (route.access.answerTasks ?? []).map(machineIdOf);
      for (const machineId of machineIds)
        expect(
          granted(routeFunctionId(route))
            .filter(({ resource }) => resource.includes(machineId))
            .map(({ action }) => action)
            .sort(),
        ).toEqual(['states:SendTaskFailure', 'states:SendTaskHeartbeat', 'states:SendTaskSuccess']);
      expect(
        granted(routeFunctionId(route)).every(({ resource }) => machineIds.some((id) => resource.includes(id))),
      ).toBe(true);
      for (const other of ROUTES.filter((r) => !r.access.answerTasks))
        expect(granted(routeFunctionId(other))).toEqual([]);
    },
  );
});
