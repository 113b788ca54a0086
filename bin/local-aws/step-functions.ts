/**
 * Read first: Step Functions for the local runtime.
 *
 * An HTTP endpoint speaking the Step Functions API (the calls our code makes: StartExecution,
 * DescribeExecution, StopExecution, SendTaskSuccess/Failure/Heartbeat) so the service's SFN client is
 * the same in both homes. Executions run in process in `aws-local-stepfunctions`, on the very ASL files
 * the CDK stack deploys; every Task whose Resource is `${Substitution}` is bound to the handler module
 * that the stack binds to that substitution (functions/workflows/definitions.ts). A Task left unbound
 * is refused at start-up: it would otherwise call real Lambda.
 *
 * Callback Tasks (`arn:aws:states:::lambda:invoke.waitForTaskToken`) are bound through
 * `Parameters.FunctionName` the same way. Each execution gets one task token, handed to the library as
 * the run context (`$$.Task.Token`); the Task invokes its handler with the resolved `Payload`, then waits
 * until SendTaskSuccess (its parsed output is the result), SendTaskFailure (fails with that error and
 * cause) or no SendTaskHeartbeat for HeartbeatSeconds (or HeartbeatSecondsPath) × timeScale
 * (`States.HeartbeatTimeout`). The library enforces TimeoutSeconds (as written, unscaled).
 * TimeoutSecondsPath and HeartbeatSecondsPath are reference paths on the state's input, as the States
 * Language defines them (the library would read them from the Parameters' output): each is resolved
 * through a hidden field added to the Parameters, which the handler never sees. A token that no Task is
 * waiting on answers `TaskDoesNotExist`. Local limits: one token per execution, so one callback Task at
 * a time (no callback Tasks inside Parallel or Map); `States.TaskFailed` in a Retry or Catch also matches
 * a heartbeat timeout here (Step Functions excludes it); and a Task with InputPath may not use those
 * paths (refused at start-up); the repository's machines name none of these cases.
 *
 * Wait states and retry intervals can be scaled down by configuration, never skipped: a scaled retrier
 * keeps its BackoffRate, MaxDelaySeconds (scaled too) and JitterStrategy, so the intervals grow as
 * Step Functions grows them. Each execution's record counts its state transitions (states entered and
 * retries, as Step Functions bills them) and lists every function its Tasks invoked, with its duration.
 * Executions are kept in memory: a restart forgets running executions (their records in the table
 * remain), which is a local-only limitation.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { WorkflowDefinition } from '../../functions/workflows/definitions';
import { localArn } from './arns';
import { AccessDenied, type AccessRequest, type IamGate } from './iam';
import { inFlightWork } from './in-flight';
import { lambdaContext, loadHandler } from './lambda-context';

// aws-local-stepfunctions 3 targets Node 22 (what CI runs); on Node 20 the service still runs with this one function.
if (!('withResolvers' in Promise)) {
  Object.defineProperty(Promise, 'withResolvers', {
    value: <T>() => {
      let resolve!: (value: T | PromiseLike<T>) => void;
      let reject!: (reason?: unknown) => void;
      const promise = new Promise<T>((res, rej) => {
        resolve = res;
        reject = rej;
      });
      return { promise, resolve, reject };
    },
  });
}
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { StateMachine } = require('aws-local-stepfunctions') as typeof import('aws-local-stepfunctions');

const CALLBACK_TASK_RESOURCE = 'arn:aws:states:::lambda:invoke.waitForTaskToken';

type TaskHandler = (input: unknown, context: ReturnType<typeof lambdaContext>) => Promise<unknown>;
type ExecutionStatus = 'RUNNING' | 'SUCCEEDED' | 'FAILED' | 'TIMED_OUT' | 'ABORTED';

interface Execution {
  executionArn: string;
  stateMachineArn: string;
  name: string;
  input: string;
  status: ExecutionStatus;
  startDate: Date;
  stopDate?: Date;
  output?: string;
  error?: string;
  cause?: string;
  abort: () => void;
  done: Promise<void>;
  /** States entered plus retries: what Step Functions bills as state transitions. */
  transitions: number;
  /** The states entered, in order (a retry repeats its state). */
  path: string[];
  /** Every Task invocation, in order: its function, when it started (epoch ms) and how long it ran. */
  invocations: Invocation[];
}

export interface Invocation {
  functionArn: string;
  at: number;
  ms: number;
}

interface AslState {
  Type: string;
  Resource?: string;
  InputPath?: string | null;
  Parameters?: { FunctionName?: unknown; [field: string]: unknown };
  HeartbeatSeconds?: number;
  HeartbeatSecondsPath?: string;
  TimeoutSecondsPath?: string;
  Seconds?: number;
  Retry?: Array<{ IntervalSeconds?: number; MaxDelaySeconds?: number }>;
  Branches?: Array<{ States: Record<string, AslState> }>;
  Iterator?: { States: Record<string, AslState> };
  ItemProcessor?: { States: Record<string, AslState> };
}

/** Every state of a definition, nested ones included, by name. */
const allStates = (states: Record<string, AslState>): Array<[string, AslState]> =>
  Object.entries(states).flatMap(([name, state]) => [
    [name, state] as [string, AslState],
    ...(state.Branches ?? []).flatMap((branch) => allStates(branch.States)),
    ...(state.Iterator ? allStates(state.Iterator.States) : []),
    ...(state.ItemProcessor ? allStates(state.ItemProcessor.States) : []),
  ]);

export interface LocalStepFunctionsOptions {
  workflows: Readonly<Record<string, WorkflowDefinition>>;
  /** Repository root that workflow files and handler modules are relative to. */
  rootDir: string;
  /** Substitutions other than task functions (e.g. TableName). */
  substitutions?: Record<string, string>;
  /** Multiplies Wait state durations and retry intervals (1 = as written). */
  timeScale?: number;
  port?: number;
  host?: string;
}

/** A state machine whose definition is resolved: each Task names a function ARN. */
export interface ResolvedMachine {
  /** The machine's name, the last part of its ARN. */
  name: string;
  /** The definition, every substitution made. */
  definition: string;
}

/** Runs the function a Task names; undefined when no function has that ARN. */
export type FunctionInvoker = (functionArn: string) => ((input: unknown) => Promise<unknown>) | undefined;

export interface StepFunctionsServerOptions {
  machines: ResolvedMachine[];
  invoker: FunctionInvoker;
  timeScale?: number;
  port?: number;
  host?: string;
  /** Checks each call against the calling function's policies (npm run start:assets). */
  gate?: IamGate;
}

export interface LocalStepFunctions {
  endpoint: string;
  stateMachineArn(name: string): string;
  /** Resolves when the named execution (of any machine) has stopped, with its record. */
  waitForExecution(name: string): Promise<Execution>;
  close(): Promise<void>;
}

class SfnError extends Error {
  constructor(
    readonly type: string,
    message: string,
  ) {
    super(message);
  }
}

/** How a callback Task ends: with the output of SendTaskSuccess, or with an error named like Step Functions names it. */
class TaskError extends Error {
  constructor(name: string, message: string) {
    super(message);
    this.name = name;
  }
}

/** What a run knows about its execution, for callback Tasks, and where it records its invocations. */
interface RunContext {
  executionArn: string;
  taskToken: string;
  invocations: Invocation[];
}

/**
 * A Task handler whose promise counts as observed: the library awaits it, except when it throws between
 * invoking the handler and awaiting it (a TimeoutSecondsPath that selects no positive integer), and then its
 * later rejection (the execution ends, its waiting Task is failed) must not be an unhandled rejection.
 */
const markedHandled =
  (handler: (input: unknown) => Promise<unknown>) =>
  (input: unknown): Promise<unknown> => {
    const promise = handler(input);
    promise.catch(() => undefined);
    return promise;
  };

interface WaitingTask {
  executionArn: string;
  succeed(output: unknown): void;
  fail(error: TaskError): void;
  heartbeat(): void;
}

/** The callback Tasks that are waiting, by task token. */
class WaitingTasks {
  private readonly byToken = new Map<string, WaitingTask>();

  /**
   * Registers the Task before its handler runs (a backend may answer before the handler returns). A Task
   * still registered under the token is one the library gave up on (TimeoutSeconds): it is ended first.
   */
  wait(token: string, executionArn: string, heartbeatMs: number | undefined): Promise<unknown> {
    this.byToken
      .get(token)
      ?.fail(new TaskError('States.Runtime', 'Another Task of the execution is waiting on this token.'));
    return new Promise((resolve, reject) => {
      let timer: NodeJS.Timeout | undefined;
      const arm = () => {
        clearTimeout(timer);
        if (heartbeatMs !== undefined) {
          timer = setTimeout(
            () => end(() => reject(new TaskError('States.HeartbeatTimeout', `No heartbeat within ${heartbeatMs} ms.`))),
            heartbeatMs,
          );
        }
      };
      const end = (settle: () => void) => {
        clearTimeout(timer);
        this.byToken.delete(token);
        settle();
      };
      this.byToken.set(token, {
        executionArn,
        succeed: (output) => end(() => resolve(output)),
        fail: (error) => end(() => reject(error)),
        heartbeat: arm,
      });
      arm();
    });
  }

  /** The execution a waiting task belongs to, if any task waits on the token. */
  executionOf(token: string | undefined): string | undefined {
    return this.byToken.get(token ?? '')?.executionArn;
  }

  get(token: string | undefined): WaitingTask {
    const task = this.byToken.get(token ?? '');
    if (!task) throw new SfnError('TaskDoesNotExist', 'Task Does Not Exist: no task is waiting for this token');
    return task;
  }

  /** Ends the waiting of an execution's Task: its handler failed, or the execution ended. */
  forget(executionArn: string): void {
    for (const task of [...this.byToken.values()]) {
      if (task.executionArn === executionArn)
        task.fail(new TaskError('States.Runtime', 'The task is no longer waiting.'));
    }
  }
}

/** The function a Task runs: its Resource, or for a callback Task its Parameters.FunctionName. */
const boundFunction = (state: AslState): string | undefined => {
  const named = state.Resource === CALLBACK_TASK_RESOURCE ? state.Parameters?.FunctionName : state.Resource;
  return typeof named === 'string' ? named : undefined;
};

const functionArnFor = localArn.function;

/** Hidden Parameters fields that carry a Task's TimeoutSecondsPath / HeartbeatSecondsPath from its input. */
const TIMEOUT_FIELD = '__localTimeoutSeconds';
const HEARTBEAT_FIELD = '__localHeartbeatSeconds';

/** A Task's Parameters' output without the hidden fields. */
const withoutHiddenFields = (input: unknown): unknown => {
  if (input === null || typeof input !== 'object' || Array.isArray(input)) return input;
  const { [TIMEOUT_FIELD]: _timeout, [HEARTBEAT_FIELD]: _heartbeat, ...rest } = input as Record<string, unknown>;
  return rest;
};

/**
 * The definition the library runs: retry intervals (and their MaxDelaySeconds) scaled, their BackoffRate
 * and JitterStrategy kept; a Task's TimeoutSecondsPath / HeartbeatSecondsPath resolved on the state's input
 * through hidden Parameters fields (a Task without Parameters hands the library its input unchanged, so its
 * paths already read the input). The definition as written is validated separately.
 */
export const definitionForLibrary = (
  definition: { States: Record<string, AslState> },
  scale: number,
): { States: Record<string, AslState> } => {
  // A JSON copy: the library resolves only plain objects of this realm (structuredClone's are not, under jest).
  const copy = JSON.parse(JSON.stringify(definition)) as typeof definition;
  for (const [stateName, state] of allStates(copy.States)) {
    if (scale !== 1)
      for (const retrier of state.Retry ?? []) {
        retrier.IntervalSeconds = (retrier.IntervalSeconds ?? 1) * scale;
        if (retrier.MaxDelaySeconds !== undefined) retrier.MaxDelaySeconds *= scale;
      }
    if (state.Type !== 'Task' || (!state.TimeoutSecondsPath && !state.HeartbeatSecondsPath)) continue;
    if (state.InputPath !== undefined)
      throw new Error(
        `Task ${stateName}: TimeoutSecondsPath / HeartbeatSecondsPath with InputPath is not supported locally`,
      );
    if (!state.Parameters) continue;
    if (state.TimeoutSecondsPath) {
      state.Parameters[`${TIMEOUT_FIELD}.$`] = state.TimeoutSecondsPath;
      state.TimeoutSecondsPath = `$.${TIMEOUT_FIELD}`;
    }
    if (state.HeartbeatSecondsPath) {
      state.Parameters[`${HEARTBEAT_FIELD}.$`] = state.HeartbeatSecondsPath;
      state.HeartbeatSecondsPath = `$.${HEARTBEAT_FIELD}`;
    }
  }
  return copy;
};

/** The value a simple reference path (`$.a.b`) selects, or undefined. */
const selectPath = (reference: string, input: unknown): unknown =>
  reference
    .replace(/^\$\.?/, '')
    .split('.')
    .filter(Boolean)
    .reduce<unknown>(
      (value, field) =>
        value !== null && typeof value === 'object' ? (value as Record<string, unknown>)[field] : undefined,
      input,
    );

/** A callback Task's heartbeat in ms (scaled): HeartbeatSeconds, or the value its HeartbeatSecondsPath selected. */
const heartbeatOf = (state: AslState, input: unknown, scale: number): number | undefined => {
  if (typeof state.HeartbeatSeconds === 'number') return state.HeartbeatSeconds * 1000 * scale;
  if (!state.HeartbeatSecondsPath) return undefined;
  const seconds = selectPath(state.HeartbeatSecondsPath, input);
  if (typeof seconds !== 'number' || !Number.isInteger(seconds) || seconds < 1)
    throw new TaskError(
      'States.Runtime',
      `HeartbeatSecondsPath selected ${JSON.stringify(seconds)}, not a positive integer`,
    );
  return seconds * 1000 * scale;
};

export const stateMachineArnFor = localArn.stateMachine;

/**
 * The machines of the workflow table, from their ASL files: each Task's `${Variable}` becomes the ARN of a
 * function named after it, bound in process to the handler module the table names (npm start).
 */
export const startLocalStepFunctions = async (options: LocalStepFunctionsOptions): Promise<LocalStepFunctions> => {
  const handlers = new Map<string, (input: unknown) => Promise<unknown>>();
  const machines = Object.entries(options.workflows).map(([name, workflow]) => {
    let text = fs.readFileSync(path.join(options.rootDir, workflow.file), 'utf8');
    const functionArns = Object.fromEntries(
      Object.keys(workflow.tasks).map((variable) => [variable, functionArnFor(variable)]),
    );
    for (const [key, value] of Object.entries({ ...options.substitutions, ...functionArns }))
      text = text.split(`\${${key}}`).join(value);
    const unresolved = /\$\{([A-Za-z0-9_]+)\}/.exec(text);
    if (unresolved) throw new Error(`${workflow.file}: no value for substitution \${${unresolved[1]}}`);
    for (const [variable, binding] of Object.entries(workflow.tasks)) {
      const handler = loadHandler<TaskHandler>(path.join(options.rootDir, binding.handler));
      handlers.set(functionArns[variable], (input) =>
        handler(input, lambdaContext(variable, (binding.timeoutSeconds ?? 900) * 1000)),
      );
    }
    return { name, definition: text, file: workflow.file };
  });
  for (const machine of machines) {
    for (const [stateName, state] of allStates(
      (JSON.parse(machine.definition) as { States: Record<string, AslState> }).States,
    )) {
      const bound = state.Type === 'Task' ? boundFunction(state) : undefined;
      if (state.Type === 'Task' && (!bound || !handlers.has(bound)))
        throw new Error(`${machine.file}: Task ${stateName} (${state.Resource}) is not bound to a handler`);
    }
  }
  return startStepFunctionsServer({
    machines,
    invoker: (arn) => handlers.get(arn),
    timeScale: options.timeScale,
    port: options.port,
    host: options.host,
  });
};

/**
 * The Step Functions endpoint over resolved machines (npm start binds their Tasks to handler modules,
 * npm run start:assets to the bundled functions of the template).
 */
export const startStepFunctionsServer = async (options: StepFunctionsServerOptions): Promise<LocalStepFunctions> => {
  const scale = options.timeScale ?? 1;
  const waitingTasks = new WaitingTasks();
  type Run = ReturnType<InstanceType<typeof StateMachine>['run']>;
  const machines = new Map<string, { run: (input: unknown, context: RunContext) => Run }>();
  const handlerWork = inFlightWork();

  for (const { name, definition: text } of options.machines) {
    const written = JSON.parse(text) as { States: Record<string, AslState> };
    // Validated as written; run as rewritten (scaled retriers, paths on the state input).
    new StateMachine(written as never, { validationOptions: { checkArn: false } });
    const definition = definitionForLibrary(written, scale);
    const taskHandlers: Record<string, (context: RunContext) => (input: unknown) => Promise<unknown>> = {};
    const waitTimeOverrides: Record<string, number> = {};
    for (const [stateName, state] of allStates(definition.States)) {
      if (state.Type === 'Task') {
        const functionArn = boundFunction(state);
        const handler = functionArn ? options.invoker(functionArn) : undefined;
        if (!functionArn || !handler)
          throw new Error(`state machine ${name}: Task ${stateName} (${state.Resource}) runs no known function`);
        const invoke = (run: RunContext, input: unknown) => {
          const invocation = { functionArn, at: Date.now(), ms: 0 };
          run.invocations.push(invocation);
          const started = performance.now();
          return handlerWork.track(handler(input)).finally(() => {
            invocation.ms = performance.now() - started;
          });
        };
        if (state.Resource === CALLBACK_TASK_RESOURCE) {
          taskHandlers[stateName] = (run) => async (input) => {
            const heartbeatMs = heartbeatOf(state, input, scale);
            const answered = waitingTasks.wait(run.taskToken, run.executionArn, heartbeatMs);
            // Observed below once the handler has returned; until then a heartbeat timeout must not go unhandled.
            answered.catch(() => undefined);
            const parameters = withoutHiddenFields(input);
            try {
              await invoke(
                run,
                parameters !== null && typeof parameters === 'object' && 'Payload' in parameters
                  ? parameters.Payload
                  : parameters,
              );
            } catch (error) {
              waitingTasks.forget(run.executionArn);
              throw error;
            }
            return answered;
          };
        } else {
          taskHandlers[stateName] = (run) => async (input) => {
            const result = await invoke(run, withoutHiddenFields(input));
            return result === undefined ? null : result;
          };
        }
      }
      if (state.Type === 'Wait' && typeof state.Seconds === 'number')
        waitTimeOverrides[stateName] = state.Seconds * 1000 * scale;
    }
    const machine = new StateMachine(definition as never, { validationOptions: { noValidate: true } });
    machines.set(stateMachineArnFor(name), {
      run: (input, context) =>
        machine.run(input as never, {
          overrides: {
            taskResourceLocalHandlers: Object.fromEntries(
              Object.entries(taskHandlers).map(([stateName, bind]) => [stateName, markedHandled(bind(context))]),
            ) as never,
            waitTimeOverrides,
          },
          context: { Task: { Token: context.taskToken } },
        }),
    });
  }

  const executions = new Map<string, Execution>();
  const waiters = new Map<string, Array<(execution: Execution) => void>>();

  const startExecution = (request: { stateMachineArn?: string; name?: string; input?: string }) => {
    const stateMachineArn = request.stateMachineArn ?? '';
    const entry = machines.get(stateMachineArn);
    if (!entry)
      throw new SfnError('StateMachineDoesNotExist', `State Machine Does Not Exist: '${request.stateMachineArn}'`);
    const name = request.name ?? randomUUID();
    const executionArn = localArn.execution(stateMachineArn.split(':').pop() ?? '', name);
    const input = request.input ?? '{}';
    const existing = executions.get(executionArn);
    if (existing) {
      // Standard workflows: the same name and input while running is an idempotent start.
      if (existing.status === 'RUNNING' && existing.input === input)
        return { executionArn, startDate: existing.startDate.getTime() / 1000 };
      throw new SfnError('ExecutionAlreadyExists', `Execution Already Exists: '${executionArn}'`);
    }
    const invocations: Invocation[] = [];
    const run = entry.run(JSON.parse(input), {
      executionArn,
      taskToken: randomBytes(48).toString('base64url'),
      invocations,
    });
    const execution: Execution = {
      executionArn,
      stateMachineArn,
      name,
      input,
      status: 'RUNNING',
      startDate: new Date(),
      abort: run.abort,
      done: Promise.resolve(),
      transitions: 0,
      path: [],
      invocations,
    };
    const history = (async () => {
      for await (const event of run.eventLogs) {
        if (event.type === 'StateEntered' || event.type === 'StateRetried') {
          execution.transitions += 1;
          execution.path.push(event.state.name);
        }
      }
    })().catch(() => undefined);
    execution.done = Promise.allSettled([run.result, history])
      .then(() => run.result)
      .then(
        (output) => {
          if (execution.status !== 'RUNNING') return;
          execution.status = 'SUCCEEDED';
          execution.output = JSON.stringify(output);
        },
        (error: unknown) => {
          if (execution.status !== 'RUNNING') return;
          const failure = error as { name?: string; message?: string; cause?: unknown };
          const name = failure?.name ?? 'Error';
          execution.status =
            name === 'ExecutionTimeoutError' ? 'TIMED_OUT' : name === 'ExecutionAbortedError' ? 'ABORTED' : 'FAILED';
          const cause = failure?.cause as { name?: string; message?: string } | undefined;
          execution.error = cause?.name ?? name;
          execution.cause = cause?.message ?? failure?.message;
        },
      )
      .finally(() => {
        waitingTasks.forget(executionArn);
        execution.stopDate ??= new Date();
        for (const resolve of waiters.get(name) ?? []) resolve(execution);
        waiters.delete(name);
      });
    executions.set(executionArn, execution);
    return { executionArn, startDate: execution.startDate.getTime() / 1000 };
  };

  const describe = (execution: Execution | undefined) => {
    if (!execution) throw new SfnError('ExecutionDoesNotExist', 'Execution Does Not Exist');
    return {
      executionArn: execution.executionArn,
      stateMachineArn: execution.stateMachineArn,
      name: execution.name,
      status: execution.status,
      startDate: execution.startDate.getTime() / 1000,
      stopDate: execution.stopDate ? execution.stopDate.getTime() / 1000 : undefined,
      input: execution.input,
      output: execution.output,
      error: execution.error,
      cause: execution.cause,
    };
  };

  const stopExecution = (request: { executionArn?: string; error?: string; cause?: string }) => {
    const execution = executions.get(request.executionArn ?? '');
    if (!execution) throw new SfnError('ExecutionDoesNotExist', 'Execution Does Not Exist');
    if (execution.status === 'RUNNING') {
      execution.status = 'ABORTED';
      execution.error = request.error;
      execution.cause = request.cause;
      execution.stopDate = new Date();
      execution.abort();
    }
    return { stopDate: (execution.stopDate ?? new Date()).getTime() / 1000 };
  };

  const sendTaskSuccess = (request: { taskToken?: string; output?: string }) => {
    const task = waitingTasks.get(request.taskToken);
    let output: unknown;
    try {
      output = JSON.parse(request.output ?? '');
    } catch {
      throw new SfnError('InvalidOutput', 'Invalid Output: the output is not JSON');
    }
    task.succeed(output);
    return {};
  };

  const actions: Record<string, (request: never) => unknown> = {
    StartExecution: startExecution,
    DescribeExecution: (request: { executionArn?: string }) => describe(executions.get(request.executionArn ?? '')),
    StopExecution: stopExecution,
    SendTaskSuccess: sendTaskSuccess,
    SendTaskFailure: (request: { taskToken?: string; error?: string; cause?: string }) => {
      waitingTasks.get(request.taskToken).fail(new TaskError(request.error ?? '', request.cause ?? ''));
      return {};
    },
    SendTaskHeartbeat: (request: { taskToken?: string }) => {
      waitingTasks.get(request.taskToken).heartbeat();
      return {};
    },
  };

  /** What Step Functions authorises a call by: the machine, the execution, or the machine a task token waits in. */
  const sfnRequests = (
    action: string,
    request: { stateMachineArn?: string; executionArn?: string; taskToken?: string },
  ): AccessRequest[] => {
    const permission = `states:${action}`;
    if (request.stateMachineArn) return [{ action: permission, resource: request.stateMachineArn }];
    if (request.executionArn) return [{ action: permission, resource: request.executionArn }];
    const execution = waitingTasks.executionOf(request.taskToken);
    // A token nothing waits on is answered TaskDoesNotExist by the call itself.
    if (!execution) return [];
    const [, , , region, account, , machine] = execution.split(':');
    return [{ action: permission, resource: `arn:aws:states:${region}:${account}:stateMachine:${machine}` }];
  };

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const action = String(req.headers['x-amz-target'] ?? '').replace(/^AWSStepFunctions\./, '');
      let status = 200;
      let payload: unknown;
      try {
        const handler = actions[action];
        if (!handler)
          throw new SfnError('UnknownOperationException', `Operation ${action} is not supported by the local runtime`);
        const request = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as {
          stateMachineArn?: string;
          executionArn?: string;
          taskToken?: string;
        };
        options.gate?.authorize(req, sfnRequests(action, request));
        payload = handler(request as never);
      } catch (error) {
        status = 400;
        payload =
          error instanceof SfnError
            ? { __type: error.type, message: error.message }
            : error instanceof AccessDenied
              ? { __type: 'AccessDeniedException', message: error.message }
              : { __type: 'InternalFailure', message: String(error) };
      }
      const text = JSON.stringify(payload);
      res.writeHead(status, {
        'Content-Type': 'application/x-amz-json-1.0',
        'Content-Length': Buffer.byteLength(text),
      });
      res.end(text);
    });
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, options.host ?? '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    endpoint: `http://${options.host ?? '127.0.0.1'}:${port}`,
    stateMachineArn: stateMachineArnFor,
    waitForExecution: (name) => {
      const found = [...executions.values()].find((execution) => execution.name === name);
      if (found && found.status !== 'RUNNING') return Promise.resolve(found);
      return new Promise((resolve) => waiters.set(name, [...(waiters.get(name) ?? []), resolve]));
    },
    close: async () => {
      for (const execution of executions.values())
        if (execution.status === 'RUNNING')
          stopExecution({ executionArn: execution.executionArn, error: 'RuntimeStopped' });
      await handlerWork.drain();
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await closed;
    },
  };
};
