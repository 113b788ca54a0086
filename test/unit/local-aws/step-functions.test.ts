/**
 * The local Step Functions emulator's callback Tasks (`lambda:invoke.waitForTaskToken`), as the HTTP
 * trainer uses them: the token reaches the handler through `$$.Task.Token`, and the Task waits for
 * SendTaskSuccess, SendTaskFailure or a missed heartbeat. The machine and its handlers are written to a
 * temporary directory, so the test shows the whole definition it runs.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  DescribeExecutionCommand,
  SendTaskFailureCommand,
  SendTaskHeartbeatCommand,
  SendTaskSuccessCommand,
  StartExecutionCommand,
} from '@aws-sdk/client-sfn';
import { type LocalSfn, startLocalSfn } from '../../support/step-functions';

const MACHINE = {
  StartAt: 'AskForWork',
  States: {
    AskForWork: {
      Type: 'Task',
      Resource: 'arn:aws:states:::lambda:invoke.waitForTaskToken',
      Parameters: {
        // biome-ignore lint/suspicious/noTemplateCurlyInString: an ASL definitionSubstitutions placeholder, written literally
        FunctionName: '${AskFunctionArn}',
        Payload: { 'runId.$': '$.runId', 'taskToken.$': '$$.Task.Token' },
      },
      HeartbeatSeconds: 500,
      TimeoutSeconds: 30,
      ResultPath: '$.answer',
      Catch: [{ ErrorEquals: ['States.ALL'], ResultPath: '$.failure', Next: 'Failed' }],
      Next: 'Done',
    },
    Failed: { Type: 'Pass', End: true },
    Done: { Type: 'Succeed' },
  },
};

/** The handler records each payload it gets; a run whose id starts with "throw" makes it fail. */
const ASK_HANDLER = `
exports.handler = async (payload) => {
  (globalThis.__askPayloads ??= []).push(payload);
  if (payload.runId.startsWith('throw')) { const error = new Error('backend refused'); error.name = 'TrainerRefused'; throw error; }
  return { ignored: true };
};`;

type Payload = { runId: string; taskToken: string };
const payloads = (): Payload[] => ((globalThis as { __askPayloads?: Payload[] }).__askPayloads ??= []);

let dir: string;
let local: LocalSfn;
let sfn: LocalSfn['sfn'];
let client: LocalSfn['client'];

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sfn-callbacks-'));
  fs.writeFileSync(path.join(dir, 'machine.asl.json'), JSON.stringify(MACHINE));
  fs.writeFileSync(path.join(dir, 'ask.js'), ASK_HANDLER);
  // HeartbeatSeconds 500 × 0.001 = 500 ms.
  local = await startLocalSfn({
    workflows: {
      callbacks: { file: 'machine.asl.json', tasks: { AskFunctionArn: { handler: 'ask.js', access: {} } } },
    },
    rootDir: dir,
    timeScale: 0.001,
  });
  ({ sfn, client } = local);
});
afterAll(async () => {
  await local.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Starts a run and returns the token its handler received. */
const start = async (runId: string): Promise<string> => {
  await client.send(
    new StartExecutionCommand({
      stateMachineArn: sfn.stateMachineArn('callbacks'),
      name: runId,
      input: JSON.stringify({ runId }),
    }),
  );
  for (let i = 0; i < 100; i += 1) {
    const payload = payloads().find((p) => p.runId === runId);
    if (payload) return payload.taskToken;
    await sleep(5);
  }
  throw new Error(`the handler of ${runId} was never invoked`);
};

const outcome = async (runId: string) => {
  await sfn.waitForExecution(runId);
  const described = await client.send(
    new DescribeExecutionCommand({
      executionArn: `arn:aws:states:us-east-1:000000000000:execution:callbacks:${runId}`,
    }),
  );
  return { status: described.status, output: JSON.parse(described.output ?? 'null') as Record<string, unknown> };
};

describe('local callback Tasks', () => {
  it('hands the handler the resolved Payload with a task token, and continues with the output of SendTaskSuccess', async () => {
    const token = await start('success');
    expect(payloads().find((p) => p.runId === 'success')).toEqual({
      runId: 'success',
      taskToken: expect.stringMatching(/^[A-Za-z0-9_-]{32,}$/),
    });
    await client.send(new SendTaskSuccessCommand({ taskToken: token, output: JSON.stringify({ signature: 'sig-1' }) }));
    expect(await outcome('success')).toEqual({
      status: 'SUCCEEDED',
      output: { runId: 'success', answer: { signature: 'sig-1' } },
    });
  });

  it('gives every execution its own token', async () => {
    const [first, second] = await Promise.all([start('own-token-1'), start('own-token-2')]);
    expect(first).not.toBe(second);
    await Promise.all(
      [first, second].map((taskToken) => client.send(new SendTaskSuccessCommand({ taskToken, output: '{}' }))),
    );
  });

  it('fails the Task with the error and cause of SendTaskFailure', async () => {
    const token = await start('failure');
    await client.send(
      new SendTaskFailureCommand({ taskToken: token, error: 'TrainingFailed', cause: 'No face in the photos.' }),
    );
    expect((await outcome('failure')).output.failure).toEqual({
      Error: 'TrainingFailed',
      Cause: 'No face in the photos.',
    });
  });

  it('keeps waiting while heartbeats arrive within HeartbeatSeconds', async () => {
    const token = await start('heartbeats');
    for (let i = 0; i < 7; i += 1) {
      await sleep(100);
      await client.send(new SendTaskHeartbeatCommand({ taskToken: token }));
    }
    await client.send(new SendTaskSuccessCommand({ taskToken: token, output: '{"ok":true}' }));
    expect(await outcome('heartbeats')).toMatchObject({ status: 'SUCCEEDED', output: { answer: { ok: true } } });
  });

  it('fails the Task with States.HeartbeatTimeout when no heartbeat arrives in time', async () => {
    const token = await start('silent');
    expect((await outcome('silent')).output.failure).toMatchObject({ Error: 'States.HeartbeatTimeout' });
    await expect(client.send(new SendTaskSuccessCommand({ taskToken: token, output: '{}' }))).rejects.toMatchObject({
      name: 'TaskDoesNotExist',
    });
  });

  it('fails the Task with the handler error, and then no longer waits on its token', async () => {
    await start('throwing');
    expect((await outcome('throwing')).output.failure).toMatchObject({
      Error: 'TrainerRefused',
      Cause: 'backend refused',
    });
    const token = payloads().find((p) => p.runId === 'throwing')!.taskToken;
    await expect(client.send(new SendTaskHeartbeatCommand({ taskToken: token }))).rejects.toMatchObject({
      name: 'TaskDoesNotExist',
    });
  });

  it('answers TaskDoesNotExist for an unknown token and for one already answered', async () => {
    await expect(client.send(new SendTaskHeartbeatCommand({ taskToken: 'no-such-token' }))).rejects.toMatchObject({
      name: 'TaskDoesNotExist',
    });
    const token = await start('answered');
    await client.send(new SendTaskSuccessCommand({ taskToken: token, output: '{}' }));
    await outcome('answered');
    await expect(client.send(new SendTaskFailureCommand({ taskToken: token, error: 'Late' }))).rejects.toMatchObject({
      name: 'TaskDoesNotExist',
    });
  });

  it('refuses an output that is not JSON and keeps waiting', async () => {
    const token = await start('bad-output');
    await expect(
      client.send(new SendTaskSuccessCommand({ taskToken: token, output: 'not json' })),
    ).rejects.toMatchObject({ name: 'InvalidOutput' });
    await client.send(new SendTaskSuccessCommand({ taskToken: token, output: '{"second":true}' }));
    expect((await outcome('bad-output')).output.answer).toEqual({ second: true });
  });
});

/**
 * What the emulator makes of the rest of a Task's timing, as Step Functions does: TimeoutSecondsPath and
 * HeartbeatSecondsPath read the state's input (not the Parameters' output), retry intervals scale with the
 * time scale and still grow by BackoffRate (capped by a scaled MaxDelaySeconds), and each execution's record
 * counts its transitions and invocations.
 */
describe('local Task timing', () => {
  const TIMING_MACHINE = {
    StartAt: 'Route',
    States: {
      Route: {
        Type: 'Choice',
        Choices: [{ Variable: '$.kind', StringEquals: 'flaky', Next: 'Flaky' }],
        Default: 'Await',
      },
      Await: {
        Type: 'Task',
        Resource: 'arn:aws:states:::lambda:invoke.waitForTaskToken',
        Parameters: {
          // biome-ignore lint/suspicious/noTemplateCurlyInString: an ASL definitionSubstitutions placeholder, written literally
          FunctionName: '${AwaitFunctionArn}',
          Payload: { 'runId.$': '$.runId', 'taskToken.$': '$$.Task.Token' },
        },
        TimeoutSecondsPath: '$.budget.seconds',
        HeartbeatSecondsPath: '$.budget.heartbeat',
        ResultPath: '$.answer',
        Catch: [{ ErrorEquals: ['States.ALL'], ResultPath: '$.failure', Next: 'Caught' }],
        Next: 'Caught',
      },
      Flaky: {
        Type: 'Task',
        // biome-ignore lint/suspicious/noTemplateCurlyInString: an ASL definitionSubstitutions placeholder, written literally
        Resource: '${FlakyFunctionArn}',
        Retry: [
          { ErrorEquals: ['Capped'], IntervalSeconds: 100, MaxAttempts: 3, BackoffRate: 4, MaxDelaySeconds: 200 },
          { ErrorEquals: ['Flaky'], IntervalSeconds: 100, MaxAttempts: 3, BackoffRate: 4, JitterStrategy: 'NONE' },
        ],
        Catch: [{ ErrorEquals: ['States.ALL'], ResultPath: '$.failure', Next: 'Caught' }],
        Next: 'Caught',
      },
      Caught: { Type: 'Pass', End: true },
    },
  };
  const HANDLERS = {
    'await.js': `exports.handler = async (payload) => { (globalThis.__timingPayloads ??= []).push(payload); return {}; };`,
    'flaky.js': `exports.handler = async (input) => {
      ((globalThis.__flakyCalls ??= {})[input.runId] ??= []).push(Date.now());
      const error = new Error('not yet'); error.name = input.errorName; throw error;
    };`,
  };
  const timingPayloads = (): Payload[] => ((globalThis as { __timingPayloads?: Payload[] }).__timingPayloads ??= []);
  const flakyCalls = (runId: string): number[] =>
    (globalThis as { __flakyCalls?: Record<string, number[]> }).__flakyCalls?.[runId] ?? [];

  let timingDir: string;
  let timing: LocalSfn;

  beforeAll(async () => {
    timingDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sfn-timing-'));
    fs.writeFileSync(path.join(timingDir, 'timing.asl.json'), JSON.stringify(TIMING_MACHINE));
    for (const [file, text] of Object.entries(HANDLERS)) fs.writeFileSync(path.join(timingDir, file), text);
    timing = await startLocalSfn({
      workflows: {
        timing: {
          file: 'timing.asl.json',
          tasks: {
            AwaitFunctionArn: { handler: 'await.js', access: {} },
            FlakyFunctionArn: { handler: 'flaky.js', access: {} },
          },
        },
      },
      rootDir: timingDir,
      timeScale: 0.001,
    });
  });
  afterAll(async () => {
    await timing.close();
    fs.rmSync(timingDir, { recursive: true, force: true });
  });

  const run = async (runId: string, input: Record<string, unknown>) => {
    await timing.client.send(
      new StartExecutionCommand({
        stateMachineArn: timing.sfn.stateMachineArn('timing'),
        name: runId,
        input: JSON.stringify({ runId, kind: 'await', ...input }),
      }),
    );
    const execution = await timing.sfn.waitForExecution(runId);
    return { ...execution, output: JSON.parse(execution.output ?? 'null') as Record<string, unknown> };
  };
  const gaps = (times: number[]) => times.slice(1).map((time, index) => time - times[index]);

  it('reads HeartbeatSecondsPath from the state input (scaled) and hands the handler no hidden field', async () => {
    // heartbeat 100 s × 0.001 = 100 ms, well before the 30 s timeout.
    const done = await run('heartbeat-path', { budget: { seconds: 30, heartbeat: 100 } });
    expect(done.output.failure).toMatchObject({ Error: 'States.HeartbeatTimeout' });
    expect(timingPayloads().find((payload) => payload.runId === 'heartbeat-path')).toEqual({
      runId: 'heartbeat-path',
      taskToken: expect.any(String),
    });
  });

  it('reads TimeoutSecondsPath from the state input, unscaled, and ends the Task with States.Timeout', async () => {
    // The Parameters' output has no `budget`: read from there, the path would select nothing.
    const done = await run('timeout-path', { budget: { seconds: 1, heartbeat: 60_000 } });
    expect(done.output.failure).toMatchObject({ Error: 'States.Timeout' });
    expect(done.stopDate!.getTime() - done.startDate.getTime()).toBeGreaterThanOrEqual(995);
  });

  it('grows scaled retry intervals by BackoffRate, and counts each retry as a transition', async () => {
    const done = await run('backoff', { kind: 'flaky', errorName: 'Flaky' });
    expect(done.output.failure).toMatchObject({ Error: 'Flaky' });
    const [first, second, third] = gaps(flakyCalls('backoff'));
    // 100 s, 400 s, 1 600 s at 0.001: a timer never fires early; one fixed interval would give 100 ms each.
    expect(first).toBeGreaterThanOrEqual(99);
    expect(second).toBeGreaterThanOrEqual(399);
    expect(third).toBeGreaterThanOrEqual(1599);
    expect(done.path).toEqual(['Route', 'Flaky', 'Flaky', 'Flaky', 'Flaky', 'Caught']);
    expect(done.transitions).toBe(6);
    expect(done.invocations.map((invocation) => invocation.functionArn)).toEqual(
      Array(4).fill(expect.stringMatching(/function:FlakyFunctionArn$/)),
    );
    expect(done.invocations.map((invocation) => invocation.at)).toEqual(
      flakyCalls('backoff').map(() => expect.any(Number)),
    );
  });

  it('caps a scaled retry interval at the scaled MaxDelaySeconds', async () => {
    const done = await run('capped', { kind: 'flaky', errorName: 'Capped' });
    expect(done.output.failure).toMatchObject({ Error: 'Capped' });
    const intervals = gaps(flakyCalls('capped'));
    expect(intervals).toHaveLength(3);
    // 100 ms, then 400 and 1 600 capped at 200: at most 200 ms each (a timer may fire late, never 1 600 late).
    expect(Math.max(...intervals)).toBeLessThan(1200);
  });

  it('leaves no unhandled rejection when the library fails the Task after invoking its handler', async () => {
    const unhandled: unknown[] = [];
    const listener = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', listener);
    try {
      // A TimeoutSecondsPath that selects no positive integer: the library throws once the handler runs, and
      // the execution fails (States.Runtime is not caught); its waiting Task is failed after that.
      const done = await run('bad-timeout', { budget: { seconds: 'soon', heartbeat: 60_000 } });
      expect({ status: done.status, error: done.error }).toEqual({ status: 'FAILED', error: 'States.Runtime' });
      expect(timingPayloads().some((payload) => payload.runId === 'bad-timeout')).toBe(true);
      await sleep(50);
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', listener);
    }
  });
});
