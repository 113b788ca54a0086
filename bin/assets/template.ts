/**
 * What `npm run start:assets` reads from the synthesised template: the functions (asset, handler,
 * memory, timeout, environment), the API's methods and the function each invokes, the state machines'
 * definition strings with their substitutions, and the SQS event source mapping. CloudFormation
 * references are resolved by a `Resolver` the runtime supplies (logical id → local value).
 */
import path from 'node:path';
import { invokedFunction, readFlatTemplate } from './flatten';

// biome-ignore lint/suspicious/noExplicitAny: a CloudFormation template is untyped JSON, read here by path
type Json = { [key: string]: any };

export interface TemplateFunction {
  logicalId: string;
  assetDir: string;
  handler: string;
  memoryMb: number;
  timeoutSeconds: number;
  /** Variables as written, references unresolved. */
  environment: Record<string, unknown>;
}

export interface TemplateMethod {
  method: string;
  /** e.g. `/v2/service/jobs/{job_id}` */
  path: string;
  functionId: string;
  stream: boolean;
}

export interface TemplateStateMachine {
  logicalId: string;
  definition: string;
  substitutions: Record<string, unknown>;
}

export interface TemplateEventSource {
  functionId: string;
  queueId: string;
  batchSize: number;
  reportBatchItemFailures: boolean;
}

/** A reference's local value: `Ref` of a logical id, or `Fn::GetAtt` of one with an attribute. */
export type Resolver = (logicalId: string, attribute?: string) => string;

/** Resolves Ref, Fn::GetAtt, Fn::Join and Fn::Sub (without a variable map) to a string. */
export const resolveValue = (value: unknown, resolve: Resolver): string => {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  const node = value as Json;
  if (node && 'Ref' in node) return resolve(node.Ref);
  if (node && 'Fn::GetAtt' in node) return resolve(node['Fn::GetAtt'][0], node['Fn::GetAtt'][1]);
  if (node && 'Fn::Join' in node)
    return (node['Fn::Join'][1] as unknown[]).map((part) => resolveValue(part, resolve)).join(node['Fn::Join'][0]);
  throw new Error(`cannot resolve ${JSON.stringify(value)}`);
};

export const readTemplate = (templateFile: string) => {
  const outdir = path.dirname(templateFile);
  // The root and its nested stacks (one per resource group), as one template (./flatten.ts).
  const { template } = readFlatTemplate(templateFile);
  const resources = template.Resources;
  const ofType = (type: string) => Object.entries(resources).filter(([, resource]) => resource.Type === type);

  // The asset is staged as `asset.<hash>` beside the template, and uploaded as `<hash>.zip`.
  const functions: TemplateFunction[] = ofType('AWS::Lambda::Function').map(([logicalId, { Properties: fn }]) => ({
    logicalId,
    assetDir: path.join(outdir, `asset.${String(fn.Code.S3Key).replace(/\.zip$/, '')}`),
    handler: fn.Handler,
    memoryMb: fn.MemorySize ?? 128,
    timeoutSeconds: fn.Timeout ?? 3,
    environment: fn.Environment?.Variables ?? {},
  }));

  const parts = Object.fromEntries(ofType('AWS::ApiGateway::Resource'));
  const pathOf = (resourceId: Json): string =>
    resourceId.Ref
      ? `${pathOf(parts[resourceId.Ref].Properties.ParentId)}/${parts[resourceId.Ref].Properties.PathPart}`
      : '';
  const methods: TemplateMethod[] = ofType('AWS::ApiGateway::Method').map(([logicalId, { Properties: method }]) => {
    // Each method invokes its function's `live` alias; locally the alias is the function.
    const functionId = invokedFunction(resources, method.Integration?.Uri);
    if (!functionId) throw new Error(`method ${logicalId} invokes no function of the template`);
    return {
      method: method.HttpMethod,
      path: pathOf(method.ResourceId),
      functionId,
      stream: method.Integration.ResponseTransferMode === 'STREAM',
    };
  });

  const stateMachines: TemplateStateMachine[] = ofType('AWS::StepFunctions::StateMachine').map(
    ([logicalId, { Properties: machine }]) => {
      if (typeof machine.DefinitionString !== 'string')
        throw new Error(`state machine ${logicalId}: expected a definition string with substitutions`);
      return { logicalId, definition: machine.DefinitionString, substitutions: machine.DefinitionSubstitutions ?? {} };
    },
  );

  const eventSources: TemplateEventSource[] = ofType('AWS::Lambda::EventSourceMapping').map(
    ([, { Properties: mapping }]) => ({
      functionId: invokedFunction(resources, mapping.FunctionName) ?? '',
      queueId: mapping.EventSourceArn['Fn::GetAtt'][0],
      batchSize: mapping.BatchSize ?? 10,
      reportBatchItemFailures: (mapping.FunctionResponseTypes ?? []).includes('ReportBatchItemFailures'),
    }),
  );

  const queues = Object.fromEntries(
    ofType('AWS::SQS::Queue').map(([logicalId, { Properties: queue }]) => [
      logicalId,
      {
        visibilityTimeoutSeconds: queue?.VisibilityTimeout ?? 30,
        deadLetter: queue?.RedrivePolicy
          ? {
              queueId: queue.RedrivePolicy.deadLetterTargetArn['Fn::GetAtt'][0] as string,
              maxReceiveCount: queue.RedrivePolicy.maxReceiveCount as number,
            }
          : undefined,
      },
    ]),
  );

  /** Each function's role's policy statements, as written (references unresolved). */
  const roleOf = (fn: Json): string | undefined => fn.Properties?.Role?.['Fn::GetAtt']?.[0];
  const policyStatements = (roleId: string): Json[] => [
    ...ofType('AWS::IAM::Policy')
      .filter(([, { Properties: policy }]) => (policy.Roles ?? []).some((role: Json) => role?.Ref === roleId))
      .flatMap(([, { Properties: policy }]) => policy.PolicyDocument.Statement as Json[]),
    ...((resources[roleId]?.Properties?.Policies ?? []) as Json[]).flatMap(
      (policy) => policy.PolicyDocument.Statement as Json[],
    ),
  ];
  const statementsOf = (logicalId: string): Json[] => {
    const roleId = roleOf(resources[logicalId]);
    return roleId ? policyStatements(roleId) : [];
  };

  return {
    resources,
    functions,
    methods,
    stateMachines,
    eventSources,
    queues,
    statementsOf,
    typeOf: (logicalId: string): string | undefined => resources[logicalId]?.Type,
  };
};

export type Template = ReturnType<typeof readTemplate>;
