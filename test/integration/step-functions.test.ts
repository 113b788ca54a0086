import { DescribeExecutionCommand, StartExecutionCommand, StopExecutionCommand } from '@aws-sdk/client-sfn';
import { ROOT_DIR } from '../../bin/local-aws/runtime';
import { startLocalStepFunctions } from '../../bin/local-aws/step-functions';
import { calls } from '../fixtures/workflows/tasks';
import { type LocalSfn, startLocalSfn } from '../support/step-functions';

const WORKFLOW = {
  file: 'test/fixtures/workflows/retry-and-catch.asl.json',
  tasks: {
    PrepareFunctionArn: { handler: 'test/fixtures/workflows/prepare', access: {} },
    FinishFunctionArn: { handler: 'test/fixtures/workflows/finish', access: {} },
  },
};

let local: LocalSfn;
let sfn: LocalSfn['sfn'];
let client: LocalSfn['client'];
let runs = 0;

beforeAll(async () => {
  local = await startLocalSfn({ workflows: { fixture: WORKFLOW }, rootDir: ROOT_DIR, timeScale: 0.001 });
  ({ sfn, client } = local);
});
afterAll(() => local.close());

const run = async (input: Record<string, unknown>) => {
  runs += 1;
  const name = `run-${runs}`;
  const runId = name;
  await client.send(
    new StartExecutionCommand({
      stateMachineArn: sfn.stateMachineArn('fixture'),
      name,
      input: JSON.stringify({ runId, ...input }),
    }),
  );
  await sfn.waitForExecution(name);
  const described = await client.send(
    new DescribeExecutionCommand({ executionArn: `arn:aws:states:us-east-1:000000000000:execution:fixture:${name}` }),
  );
  return { runId, described };
};

describe('local Step Functions', () => {
  it('runs every Task through the handler bound to it, through the Wait', async () => {
    const { runId, described } = await run({});
    expect(described.status).toBe('SUCCEEDED');
    expect(JSON.parse(described.output!)).toEqual({ runId, prepared: 1, recoveredFrom: null });
  });

  it('retries a Task on the errors its Retry names', async () => {
    const { runId, described } = await run({ failTimes: 2 });
    expect(calls.get(runId)).toBe(3);
    expect(JSON.parse(described.output!)).toMatchObject({ prepared: 3 });
  });

  it('follows Catch when the error is not retried', async () => {
    const { runId, described } = await run({ permanent: true });
    expect(calls.get(runId)).toBe(1);
    expect(JSON.parse(described.output!)).toEqual({ runId, prepared: null, recoveredFrom: 'PermanentError' });
  });

  it('treats a repeated start with the same name and input as the same execution, and refuses a different input', async () => {
    const start = (input: string) =>
      client.send(
        new StartExecutionCommand({ stateMachineArn: sfn.stateMachineArn('fixture'), name: 'same-name', input }),
      );
    const input = JSON.stringify({ runId: 'same-name', delayMs: 200 });
    const [first, second] = await Promise.all([start(input), start(input)]);
    expect(second.executionArn).toBe(first.executionArn);
    await expect(start(JSON.stringify({ runId: 'other' }))).rejects.toMatchObject({ name: 'ExecutionAlreadyExists' });
    await sfn.waitForExecution('same-name');
    expect(calls.get('same-name')).toBe(1);
  });

  it('stops a running execution', async () => {
    const { executionArn } = await client.send(
      new StartExecutionCommand({
        stateMachineArn: sfn.stateMachineArn('fixture'),
        name: 'to-stop',
        input: JSON.stringify({ runId: 'to-stop', delayMs: 300 }),
      }),
    );
    await client.send(new StopExecutionCommand({ executionArn, error: 'Deleted', cause: 'profile deleted' }));
    const described = await client.send(new DescribeExecutionCommand({ executionArn }));
    expect(described).toMatchObject({ status: 'ABORTED', error: 'Deleted' });
  });

  it('refuses to start a machine with a Task bound to nothing', async () => {
    const unbound = startLocalStepFunctions({
      workflows: { broken: { file: WORKFLOW.file, tasks: { PrepareFunctionArn: WORKFLOW.tasks.PrepareFunctionArn } } },
      rootDir: ROOT_DIR,
    });
    await expect(unbound).rejects.toThrow(/Finish .* is not bound|no value for substitution/);
  });

  it('answers an unknown machine like Step Functions does', async () => {
    await expect(
      client.send(new StartExecutionCommand({ stateMachineArn: sfn.stateMachineArn('nope'), input: '{}' })),
    ).rejects.toMatchObject({ name: 'StateMachineDoesNotExist' });
  });
});
