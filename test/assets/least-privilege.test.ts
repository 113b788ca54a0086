/**
 * Against the synthesised artefacts, the stand-ins apply each function's role as the template writes it
 * (bin/local-aws/iam.ts): a call outside a function's grants is refused as AWS refuses it. Here, calls made
 * with the keys two functions sign with: what their rows declare passes, the rest is AccessDenied.
 */
import { DynamoDBClient, GetItemCommand, PutItemCommand, ScanCommand } from '@aws-sdk/client-dynamodb';
import { GetObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { SFNClient, StartExecutionCommand } from '@aws-sdk/client-sfn';
import { ensureAssets } from '../../bin/assets/build';
import { readTemplate } from '../../bin/assets/template';
import { principalFor } from '../../bin/local-aws/iam';
import { STATE_MACHINE_ARN_ENV } from '../../functions/deployment/env-names';
import { startTestRuntime, type TestRuntime } from '../support/runtime';

let runtime: TestRuntime;
let functionIds: { jobs: string; downloads: string };

beforeAll(async () => {
  const { templateFile } = await ensureAssets();
  const template = readTemplate(templateFile);
  const byPath = (method: string, path: string) =>
    template.methods.find((m) => m.method === method && m.path === path)!.functionId;
  functionIds = {
    jobs: byPath('GET', '/v2/service/jobs/{job_id}'),
    downloads: byPath('GET', '/v2/service/downloads/{token}'),
  };
  runtime = await startTestRuntime({ assets: true });
}, 300_000);
afterAll(async () => {
  // The refusals below are this file's purpose, not a missing grant.
  runtime.iam?.denials.splice(0);
  await runtime?.close();
});

const as = (logicalId: string) => ({
  region: 'us-east-1',
  credentials: { accessKeyId: principalFor(logicalId), secretAccessKey: 'local' },
});
const key = { pk: { S: 'ACCOUNT#acc_probe' }, sk: { S: 'ACCOUNT' } };

describe('least privilege, as the artefacts run', () => {
  it('lets the job status function read the table, and refuses it a write or a scan', async () => {
    const dynamo = new DynamoDBClient({ ...as(functionIds.jobs), endpoint: runtime.endpoints.dynamodb });
    await expect(dynamo.send(new GetItemCommand({ TableName: 'service', Key: key }))).resolves.toBeDefined();
    await expect(
      dynamo.send(new PutItemCommand({ TableName: 'service', Item: { ...key, balanceMicros: { N: '1' } } })),
    ).rejects.toMatchObject({ name: 'AccessDeniedException' });
    await expect(dynamo.send(new ScanCommand({ TableName: 'service' }))).rejects.toMatchObject({
      name: 'AccessDeniedException',
    });
    dynamo.destroy();
  });

  it('lets the download function read outputs/ only, and write nothing', async () => {
    const s3 = new S3Client({ ...as(functionIds.downloads), endpoint: runtime.endpoints.s3, forcePathStyle: true });
    await expect(
      s3.send(new GetObjectCommand({ Bucket: 'service-local', Key: 'outputs/acc_probe/job_probe/1.jpg' })),
    ).rejects.toMatchObject({ name: 'NoSuchKey' });
    await expect(
      s3.send(new GetObjectCommand({ Bucket: 'service-local', Key: 'profiles/acc_probe/prf_probe/picture.jpg' })),
    ).rejects.toMatchObject({ name: 'AccessDenied' });
    await expect(
      s3.send(
        new PutObjectCommand({
          Bucket: 'service-local',
          Key: 'outputs/acc_probe/job_probe/1.jpg',
          Body: Buffer.from('x'),
        }),
      ),
    ).rejects.toMatchObject({ name: 'AccessDenied' });
    s3.destroy();
  });

  it('refuses to start a workflow from a route that declares none', async () => {
    const sfn = new SFNClient({ ...as(functionIds.jobs), endpoint: runtime.endpoints.stepFunctions });
    const machine = process.env[STATE_MACHINE_ARN_ENV['image-job']];
    expect(machine).toContain(':stateMachine:');
    await expect(
      sfn.send(new StartExecutionCommand({ stateMachineArn: machine, name: 'probe', input: '{}' })),
    ).rejects.toMatchObject({ name: 'AccessDeniedException' });
    sfn.destroy();
  });

  it('checks the calls the shipped functions make themselves, signed with their own keys', async () => {
    const account = await runtime.newAccount(1_000_000);
    const response = await runtime.call('GET', '/v2/service/jobs/job_missing', { apiKey: account.apiKey });
    expect(response.status).toBe(404);
    expect(runtime.iam!.checked.get(functionIds.jobs)).toBeGreaterThan(0);
  });

  it("leaves calls without a function's key (the runtime, tests, the admin CLI) unchecked", async () => {
    const dynamo = new DynamoDBClient({
      region: 'us-east-1',
      credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
      endpoint: runtime.endpoints.dynamodb,
    });
    await expect(dynamo.send(new ScanCommand({ TableName: 'service', Limit: 1 }))).resolves.toBeDefined();
    dynamo.destroy();
  });
});
