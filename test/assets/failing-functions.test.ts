/**
 * A shipped function that cannot answer is answered for as Lambda and API Gateway would, never from the
 * sources: one that throws at init is a 502 in the error shape at the gateway and a `Lambda.Unknown`
 * failure in a workflow Task; one that passes its timeout is a 504; one that throws is a 502 to the
 * caller and, in a Task, an error named by its type (what Retry and Catch match on). The template and
 * its assets are written here, so the test shows everything it runs.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadAssets } from '../../bin/assets/serve';
import { type LocalGateway, startLocalGateway } from '../../bin/local-aws/gateway';

const FUNCTIONS = {
  BrokenAtInit: `throw new Error('a module it needs is missing');`,
  Slow: `exports.handler = () => new Promise(() => undefined);`,
  Refusing: `exports.handler = async () => { const error = new Error('the engine is busy'); error.name = 'TransientEngineError'; throw error; };`,
};

const method = (name: string, fn: string) => ({
  Type: 'AWS::ApiGateway::Method',
  Properties: {
    HttpMethod: 'GET',
    ResourceId: { Ref: `${name}Path` },
    Integration: { Uri: { 'Fn::Join': ['', ['arn:', { 'Fn::GetAtt': [fn, 'Arn'] }, '/invocations']] } },
  },
});

const TEMPLATE = {
  Resources: {
    ...Object.fromEntries(
      Object.keys(FUNCTIONS).map((name) => [
        name,
        {
          Type: 'AWS::Lambda::Function',
          Properties: {
            Code: { S3Key: `${name.toLowerCase()}.zip` },
            Handler: 'index.handler',
            MemorySize: 128,
            Timeout: 1,
            Environment: { Variables: {} },
          },
        },
      ]),
    ),
    ...Object.fromEntries(
      Object.keys(FUNCTIONS).flatMap((name) => [
        [
          `${name}Path`,
          {
            Type: 'AWS::ApiGateway::Resource',
            Properties: { ParentId: { 'Fn::GetAtt': ['Api', 'RootResourceId'] }, PathPart: name.toLowerCase() },
          },
        ],
        [`${name}Method`, method(name, name)],
      ]),
    ),
    Queue: {
      Type: 'AWS::SQS::Queue',
      Properties: {
        VisibilityTimeout: 60,
        RedrivePolicy: { deadLetterTargetArn: { 'Fn::GetAtt': ['DeadLetters', 'Arn'] }, maxReceiveCount: 20 },
      },
    },
    DeadLetters: { Type: 'AWS::SQS::Queue', Properties: {} },
    Mapping: {
      Type: 'AWS::Lambda::EventSourceMapping',
      Properties: {
        FunctionName: { Ref: 'Refusing' },
        EventSourceArn: { 'Fn::GetAtt': ['Queue', 'Arn'] },
        BatchSize: 10,
      },
    },
  },
};

let dir: string;
let assets: ReturnType<typeof loadAssets>;
let gateway: LocalGateway;
const functionArn = (name: string) => `arn:aws:lambda:us-east-1:000000000000:function:${name}`;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'failing-functions-'));
  for (const [name, code] of Object.entries(FUNCTIONS)) {
    fs.mkdirSync(path.join(dir, `asset.${name.toLowerCase()}`));
    fs.writeFileSync(path.join(dir, `asset.${name.toLowerCase()}`, 'index.js'), code);
  }
  fs.writeFileSync(path.join(dir, 'Stack.template.json'), JSON.stringify(TEMPLATE));
  assets = loadAssets({ templateFile: path.join(dir, 'Stack.template.json'), localEnvironment: () => ({}) });
  const queue = { url: 'http://127.0.0.1:9/queue', arn: 'arn:aws:sqs:us-east-1:000000000000:queue' };
  assets.prepare({
    tableName: 't',
    bucketName: 'b',
    callbackQueue: queue,
    deadLetterQueue: queue,
    queueSettings: { visibilityTimeoutSeconds: 60, maxReceiveCount: 20, batchSize: 10 },
  });
  gateway = await startLocalGateway({ routes: assets.routes });
});
afterAll(async () => {
  await gateway.close();
  await assets.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const get = async (pathname: string) => {
  const response = await fetch(`${gateway.url}${pathname}`);
  return {
    status: response.status,
    requestId: response.headers.get('x-request-id'),
    body: (await response.json()) as { code: string; detail: string; request_id: string },
  };
};

test('a function that throws at init answers 502 INTERNAL_ERROR in the error shape', async () => {
  const answer = await get('/brokenatinit');
  expect(answer).toMatchObject({ status: 502, body: { code: 'INTERNAL_ERROR', request_id: answer.requestId } });
});

test('a function past its timeout answers 504 TIMEOUT', async () => {
  expect(await get('/slow')).toMatchObject({ status: 504, body: { code: 'TIMEOUT' } });
});

test('a function that throws answers 502, as a proxy integration does', async () => {
  expect(await get('/refusing')).toMatchObject({ status: 502, body: { code: 'INTERNAL_ERROR' } });
});

test('in a workflow, init failure and timeout are Lambda.Unknown, a thrown error keeps its type', async () => {
  const failure = (name: string) =>
    assets.invoker(functionArn(name))!({}).then(
      () => undefined,
      (error: Error) => ({ name: error.name, message: error.message }),
    );
  expect(await failure('BrokenAtInit')).toEqual({
    name: 'Lambda.Unknown',
    message: expect.stringMatching(/^Runtime\.(ImportModuleError|HandlerNotFound)/),
  });
  expect(await failure('Slow')).toEqual({
    name: 'Lambda.Unknown',
    message: expect.stringMatching(/^Sandbox\.Timedout: Task timed out after 1\.00 seconds/),
  });
  expect(await failure('Refusing')).toEqual({ name: 'TransientEngineError', message: 'the engine is busy' });
  expect(assets.invoker(functionArn('NotInTheTemplate'))).toBeUndefined();
});
