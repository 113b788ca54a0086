/**
 * Read first: `npm run start:assets`, the local runtime on the synthesised artefacts.
 *
 * Everything comes from the template `cdk synth` wrote: each API method invokes the bundled function its
 * integration names, each state machine runs its own definition string with the template's
 * substitutions, and the callback queue feeds the function its event source mapping names. References
 * resolve to the embedded back ends (table, bucket, queues, secrets, state machines); the functions run
 * in the Lambda-like sandbox, with the template's environment plus the local endpoints (which are unset
 * on AWS) and the development settings of the runtime's environment (LOCAL_ENV_SETTINGS, laid over the
 * template's variables by bin/local-aws/runtime.ts). Nothing here falls back to the sources: a function
 * that cannot load answers as Lambda would.
 */
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { STATE_MACHINE_ARN_ENV } from '../../functions/deployment/env-names';
import { LOCAL_ACCOUNT, LOCAL_REGION, localArn } from '../local-aws/arns';
import type { GatewayRoute } from '../local-aws/gateway';
import { type PolicyStatement, principalFor } from '../local-aws/iam';
import type { QueueConsumer } from '../local-aws/sqs';
import { type FunctionInvoker, type ResolvedMachine, stateMachineArnFor } from '../local-aws/step-functions';
import { invokedFunction } from './flatten';
import { FunctionError, type LambdaFunction, Sandbox } from './sandbox';
import { type Resolver, readTemplate, resolveValue } from './template';

const functionArn = localArn.function;

/** The values CloudFormation gives its pseudo parameters, here. */
const PSEUDO_PARAMETERS: Record<string, string> = {
  'AWS::Partition': 'aws',
  'AWS::Region': LOCAL_REGION,
  'AWS::AccountId': LOCAL_ACCOUNT,
  'AWS::URLSuffix': 'amazonaws.com',
};

const list = (value: unknown): unknown[] => (Array.isArray(value) ? value : [value]);

/** A template statement with its references resolved to the local stand-ins' names. */
const policyStatement = (
  statement: {
    Effect: string;
    Action: unknown;
    Resource: unknown;
    Condition?: Record<string, Record<string, unknown>>;
  },
  resolve: Resolver,
): PolicyStatement => ({
  effect: statement.Effect === 'Deny' ? 'Deny' : 'Allow',
  actions: list(statement.Action).map(String),
  resources: list(statement.Resource).map((resource) => resolveValue(resource, resolve)),
  conditions: statement.Condition
    ? Object.fromEntries(
        Object.entries(statement.Condition).map(([operator, tests]) => [
          operator,
          Object.fromEntries(
            Object.entries(tests).map(([key, values]) => [
              key,
              list(values).map((value) => resolveValue(value, resolve)),
            ]),
          ),
        ]),
      )
    : undefined,
});
const secretArn = localArn.secret;

export interface AssetBackends {
  tableName: string;
  bucketName: string;
  /** Local queue URLs and ARNs of the callback queue and its dead-letter queue. */
  callbackQueue: { url: string; arn: string };
  deadLetterQueue: { url: string; arn: string };
  queueSettings: { visibilityTimeoutSeconds: number; maxReceiveCount: number; batchSize: number };
}

/** The template read and its functions ready to run; the environment overlay is read when a worker starts. */
export const loadAssets = (options: { templateFile: string; localEnvironment: () => Record<string, string> }) => {
  const template = readTemplate(options.templateFile);
  const sandbox = new Sandbox();
  const ofType = (type: string) => Object.keys(template.resources).filter((id) => template.typeOf(id) === type);
  const [mapping, ...more] = template.eventSources;
  if (!mapping || more.length > 0) throw new Error('the template should map exactly one queue to a function');
  const callbackQueue = template.queues[mapping.queueId];
  const deadLetter = callbackQueue?.deadLetter;
  if (!callbackQueue || !deadLetter) throw new Error('the callback queue of the template has no dead-letter queue');
  const deadLetterId = deadLetter.queueId;

  /** The values the runtime's back ends give the template's references. */
  const resolverFor =
    (backends: AssetBackends): Resolver =>
    (logicalId, attribute) => {
      const pseudo = PSEUDO_PARAMETERS[logicalId];
      if (pseudo !== undefined) return pseudo;
      switch (template.typeOf(logicalId)) {
        case 'AWS::DynamoDB::Table':
          return attribute ? localArn.table(backends.tableName) : backends.tableName;
        case 'AWS::S3::Bucket':
          return attribute ? `arn:aws:s3:::${backends.bucketName}` : backends.bucketName;
        case 'AWS::SQS::Queue': {
          const queue =
            logicalId === mapping.queueId
              ? backends.callbackQueue
              : logicalId === deadLetterId
                ? backends.deadLetterQueue
                : undefined;
          if (!queue) throw new Error(`queue ${logicalId} has no local stand-in`);
          return attribute === 'Arn' ? queue.arn : queue.url;
        }
        case 'AWS::SecretsManager::Secret':
          return secretArn(logicalId);
        case 'AWS::StepFunctions::StateMachine':
          // The local machine is named by its logical id (prepare below).
          return attribute === 'Name' ? logicalId : stateMachineArnFor(logicalId);
        case 'AWS::Lambda::Function':
          return attribute === 'Arn' ? functionArn(logicalId) : logicalId;
        case 'AWS::Lambda::Alias': {
          // Locally there is one version of each function: its `live` alias is the function itself.
          const target = invokedFunction(template.resources, { Ref: logicalId });
          if (!target) throw new Error(`alias ${logicalId} names no function of the template`);
          return functionArn(target);
        }
        default:
          throw new Error(
            `no local value for ${logicalId}${attribute ? `.${attribute}` : ''} (${template.typeOf(logicalId)})`,
          );
      }
    };

  const lambdas = new Map<string, LambdaFunction>();

  const prepare = (backends: AssetBackends) => {
    const resolve = resolverFor(backends);
    const { visibilityTimeoutSeconds } = callbackQueue;
    const { maxReceiveCount } = deadLetter;
    const expected = backends.queueSettings;
    if (
      visibilityTimeoutSeconds !== expected.visibilityTimeoutSeconds ||
      maxReceiveCount !== expected.maxReceiveCount ||
      mapping.batchSize !== expected.batchSize
    ) {
      throw new Error('the template and functions/callbacks/definitions.ts disagree on the callback queue');
    }
    for (const fn of template.functions) {
      const written = Object.fromEntries(
        Object.entries(fn.environment).map(([name, value]) => [name, resolveValue(value, resolve)]),
      );
      lambdas.set(
        fn.logicalId,
        sandbox.create({
          name: fn.logicalId,
          assetDir: fn.assetDir,
          handler: fn.handler,
          memoryMb: fn.memoryMb,
          timeoutSeconds: fn.timeoutSeconds,
          // Each function signs with a key naming it, so that the stand-ins apply its role's policies.
          get environment() {
            return { ...written, ...options.localEnvironment(), AWS_ACCESS_KEY_ID: principalFor(fn.logicalId) };
          },
        }),
      );
    }
    const variables = template.functions.flatMap((fn) => Object.entries(fn.environment));
    return {
      /** Each function's role's statements with their references resolved, by the key it signs with (bin/local-aws/iam.ts). */
      policies: new Map(
        template.functions.map((fn) => [
          principalFor(fn.logicalId),
          template
            .statementsOf(fn.logicalId)
            .map((statement) => policyStatement(statement as Parameters<typeof policyStatement>[0], resolve)),
        ]),
      ),
      /** The variables naming the state machines, as the functions get them (for this process's tools). */
      stateMachineVariables: Object.fromEntries(
        variables
          .filter(([name]) => (Object.values(STATE_MACHINE_ARN_ENV) as string[]).includes(name))
          .map(([name, value]) => [name, resolveValue(value, resolve)]),
      ),
      /** The template's secrets by ARN, with the variable each is handed to functions in. */
      secrets: ofType('AWS::SecretsManager::Secret').map((logicalId) => ({
        arn: secretArn(logicalId),
        variable: variables.find(([, value]) => JSON.stringify(value) === JSON.stringify({ Ref: logicalId }))?.[0],
      })),
      machines: template.stateMachines.map((machine): ResolvedMachine => {
        let definition = machine.definition;
        for (const [name, value] of Object.entries(machine.substitutions))
          definition = definition.split(`\${${name}}`).join(resolveValue(value, resolve));
        return { name: machine.logicalId, definition };
      }),
    };
  };

  const lambda = (logicalId: string): LambdaFunction => {
    const found = lambdas.get(logicalId);
    if (!found) throw new Error(`function ${logicalId} is not part of the template`);
    return found;
  };

  /** A Task's failure, as Step Functions reports a Lambda function error: the error type, and the error as JSON cause. */
  const invoker: FunctionInvoker = (arn) => {
    const logicalId = template.functions.find((fn) => functionArn(fn.logicalId) === arn)?.logicalId;
    if (!logicalId) return undefined;
    return async (input) => {
      try {
        const outcome = await lambda(logicalId).invoke(input);
        if (outcome.kind !== 'payload') throw new Error(`${logicalId} answered a stream to a Task`);
        return outcome.payload;
      } catch (error) {
        if (!(error instanceof FunctionError)) throw error;
        const crashed = error.errorType.startsWith('Runtime.') || error.errorType === 'Sandbox.Timedout';
        const failure = new Error(crashed ? `${error.errorType}: ${error.errorMessage}` : error.errorMessage);
        failure.name = crashed ? 'Lambda.Unknown' : error.errorType;
        throw failure;
      }
    };
  };

  /** API Gateway's proxy integration: a function error is a 502, a timeout a 504 (the gateway answers both in the error shape). */
  const routes: GatewayRoute[] = template.methods.map((method) => ({
    method: method.method,
    resource: method.path,
    invoke: async (event: APIGatewayProxyEvent): Promise<APIGatewayProxyResult> => {
      const outcome = await lambda(method.functionId).invoke(event);
      if (outcome.kind === 'stream') {
        return {
          statusCode: outcome.prelude.statusCode,
          headers: outcome.prelude.headers ?? {},
          body: outcome.body.toString('base64'),
          isBase64Encoded: true,
        };
      }
      return outcome.payload as APIGatewayProxyResult;
    },
  }));

  const consumer: QueueConsumer = async (event) => {
    const outcome = await lambda(mapping.functionId).invoke(event);
    return outcome.kind === 'payload' ? (outcome.payload as never) : undefined;
  };

  return { template, prepare, routes, invoker, consumer, lambdas, close: () => sandbox.dispose() };
};
