/**
 * Read first: a shipped function, run as Lambda runs it.
 *
 * Each function is a copy of its asset folder (the task root; hard links, see `taskRootOf`) in a
 * temporary directory, and runs in worker processes (lambda-worker.js) whose module path holds only the
 * AWS SDK v3 the Node.js runtime provides: a bundle that needs anything it does not ship fails here as it would on AWS. The template's
 * handler string, memory (as the V8 heap limit) and timeout apply, and the environment is the template's
 * variables (references resolved by the caller) plus what Lambda sets itself, nothing of this process.
 *
 * A warm worker is reused for the next invocation, like a warm execution environment; concurrent
 * invocations get more workers, up to a cap per function (each worker is a Node process; further
 * invocations wait for one, where Lambda would scale on). A worker that passes its timeout is killed (`Sandbox.Timedout`), one
 * that dies mid-invocation fails it (`Runtime.ExitError`), and one that fails its init fails the
 * invocation that started it (`Runtime.ImportModuleError` and its kin) and is never retried from sources.
 */
import { type ChildProcess, fork } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const WORKER = path.join(__dirname, 'lambda-worker.js');
const ROOT_DIR = path.resolve(__dirname, '../..');

export interface FunctionSpec {
  /** The template's logical id. */
  name: string;
  assetDir: string;
  /** `file.export`, as in the template. */
  handler: string;
  memoryMb: number;
  timeoutSeconds: number;
  /** Read each time an execution environment starts. */
  readonly environment: Record<string, string>;
}

/** How an invocation failed, in Lambda's words: `errorType` is what Step Functions matches on. */
export class FunctionError extends Error {
  constructor(
    readonly errorType: string,
    readonly errorMessage: string,
    readonly trace: string[] = [],
  ) {
    super(errorMessage);
    this.name = errorType;
  }
}

export type Invocation =
  | { kind: 'payload'; payload: unknown }
  | { kind: 'stream'; prelude: { statusCode: number; headers?: Record<string, string> }; body: Buffer };

/**
 * The AWS SDK v3 as the runtime provides it: a folder of links to the project's @aws-sdk packages, put
 * on NODE_PATH (Lambda's NODE_PATH includes /var/runtime/node_modules, where the runtime keeps it).
 */
const runtimeModules = (root: string): string => {
  const dir = path.join(root, 'runtime', 'node_modules');
  fs.mkdirSync(path.join(dir, '@aws-sdk'), { recursive: true });
  const sdk = path.join(ROOT_DIR, 'node_modules', '@aws-sdk');
  for (const name of fs.readdirSync(sdk)) fs.symlinkSync(path.join(sdk, name), path.join(dir, '@aws-sdk', name), 'dir');
  return dir;
};

/**
 * The task root: the asset folder's files hard-linked under `to`, or copied where links cannot be made
 * (another file system). A link is the file under another path, so a module resolves from the task root
 * as from a copy (unlike a symlink, whose real path is back in .build/); copying 660 MB of assets for every
 * runtime a test file starts, and deleting it after, cost 25-35 s a start on a busy 2-core machine against
 * 1-3 s for links. Lambda's task root is read-only, and no function writes to it (a write would reach the
 * synthesised asset through the link).
 */
const taskRootOf = (from: string, to: string): void => {
  fs.mkdirSync(to, { recursive: true });
  for (const entry of fs.readdirSync(from, { withFileTypes: true })) {
    const source = path.join(from, entry.name);
    const target = path.join(to, entry.name);
    if (entry.isDirectory()) taskRootOf(source, target);
    else if (entry.isSymbolicLink()) fs.symlinkSync(fs.readlinkSync(source), target);
    else {
      try {
        fs.linkSync(source, target);
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        if (code !== 'EXDEV' && code !== 'EPERM') throw error;
        fs.copyFileSync(source, target);
      }
    }
  }
};

interface Worker {
  child: ChildProcess;
  ready: Promise<void>;
  initMs?: number;
}

/** Execution environments per function at most, locally. */
export const MAX_WORKERS_PER_FUNCTION = Math.max(2, os.availableParallelism() * 2);

export class LambdaFunction {
  private readonly idle: Worker[] = [];
  private readonly waiting: Array<() => void> = [];
  private readonly all = new Set<Worker>();
  private nextId = 0;

  constructor(
    readonly spec: FunctionSpec,
    private readonly taskRoot: string,
    private readonly nodePath: string,
  ) {}

  private start(): Worker {
    const env: Record<string, string> = {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      LANG: 'en_US.UTF-8',
      TZ: ':UTC',
      ...this.spec.environment,
      LAMBDA_TASK_ROOT: this.taskRoot,
      LAMBDA_RUNTIME_DIR: path.dirname(this.nodePath),
      _HANDLER: this.spec.handler,
      AWS_LAMBDA_FUNCTION_NAME: this.spec.name,
      AWS_LAMBDA_FUNCTION_MEMORY_SIZE: String(this.spec.memoryMb),
      AWS_LAMBDA_FUNCTION_VERSION: '$LATEST',
      AWS_EXECUTION_ENV: 'AWS_Lambda_nodejs22.x',
      NODE_PATH: this.nodePath,
      // Lambda runs Node 22; this machine's Node may be older, which the SDK would warn about on every start.
      AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
    };
    const child = fork(WORKER, [], {
      cwd: this.taskRoot,
      env,
      execArgv: [`--max-old-space-size=${Math.max(64, Math.floor(this.spec.memoryMb * 0.9))}`],
      serialization: 'advanced',
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    const worker: Worker = { child, ready: Promise.resolve() };
    worker.ready = new Promise<void>((resolve, reject) => {
      const onMessage = (message: { type: string; initMs?: number; errorType?: string; errorMessage?: string }) => {
        if (message.type === 'ready') {
          worker.initMs = message.initMs;
          child.off('message', onMessage);
          resolve();
        } else if (message.type === 'init-error') {
          child.off('message', onMessage);
          reject(new FunctionError(message.errorType ?? 'Runtime.Unknown', message.errorMessage ?? 'init failed'));
        }
      };
      child.on('message', onMessage);
      child.once('exit', (code) =>
        reject(new FunctionError('Runtime.ExitError', `The function exited during init (code ${code}).`)),
      );
    });
    child.once('exit', () => {
      this.all.delete(worker);
      const at = this.idle.indexOf(worker);
      if (at >= 0) this.idle.splice(at, 1);
      this.waiting.shift()?.();
    });
    this.all.add(worker);
    return worker;
  }

  /** Starts an execution environment and waits for its init (the module load); returns the init time. */
  async coldStart(): Promise<number> {
    const worker = this.start();
    try {
      await worker.ready;
    } catch (error) {
      worker.child.kill('SIGKILL');
      throw error;
    }
    this.idle.push(worker);
    return worker.initMs ?? 0;
  }

  /** A warm worker, a new one, or (at the cap) the next one to be free. */
  private async acquire(): Promise<Worker> {
    for (;;) {
      const warm = this.idle.pop();
      if (warm) return warm;
      if (this.all.size < MAX_WORKERS_PER_FUNCTION) return this.start();
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    }
  }

  private release(worker: Worker): void {
    if (this.all.has(worker) && !worker.child.killed && worker.child.exitCode === null) this.idle.push(worker);
    this.waiting.shift()?.();
  }

  /** Runs one invocation on a warm worker, or a new one. */
  async invoke(event: unknown): Promise<Invocation> {
    const worker = await this.acquire();
    try {
      await worker.ready;
    } catch (error) {
      worker.child.kill('SIGKILL');
      this.release(worker);
      throw error;
    }
    const id = this.nextId++;
    const timeoutMs = this.spec.timeoutSeconds * 1000;
    const outcome = new Promise<Invocation>((resolve, reject) => {
      const timer = setTimeout(() => {
        cleanup();
        worker.child.kill('SIGKILL');
        reject(
          new FunctionError('Sandbox.Timedout', `Task timed out after ${this.spec.timeoutSeconds.toFixed(2)} seconds`),
        );
      }, timeoutMs);
      const onExit = (code: number | null, signal: string | null) => {
        cleanup();
        reject(
          new FunctionError(
            'Runtime.ExitError',
            `RequestId: ${id} Error: Runtime exited with error: ${signal ?? `exit status ${code}`}`,
          ),
        );
      };
      const onMessage = (message: {
        type: string;
        id: number;
        payload?: unknown;
        prelude?: Invocation & object;
        body?: Uint8Array;
        errorType?: string;
        errorMessage?: string;
        trace?: string[];
      }) => {
        if (message.id !== id) return;
        cleanup();
        if (message.type === 'result') resolve({ kind: 'payload', payload: message.payload });
        else if (message.type === 'stream')
          resolve({ kind: 'stream', prelude: message.prelude as never, body: Buffer.from(message.body ?? []) });
        else reject(new FunctionError(message.errorType ?? 'Error', message.errorMessage ?? '', message.trace));
      };
      const cleanup = () => {
        clearTimeout(timer);
        worker.child.off('message', onMessage);
        worker.child.off('exit', onExit);
      };
      worker.child.on('message', onMessage);
      worker.child.once('exit', onExit);
      worker.child.send({ type: 'invoke', id, event, deadline: Date.now() + timeoutMs });
    });
    try {
      return await outcome;
    } finally {
      this.release(worker);
    }
  }

  async close(): Promise<void> {
    await Promise.all(
      [...this.all].map(
        (worker) =>
          new Promise<void>((resolve) => {
            if (worker.child.exitCode !== null || worker.child.signalCode !== null) return resolve();
            worker.child.once('exit', () => resolve());
            worker.child.kill('SIGTERM');
          }),
      ),
    );
  }
}

/** A place for the task roots and the runtime's SDK; removed by `dispose`. */
export class Sandbox {
  private readonly root = fs.mkdtempSync(path.join(os.tmpdir(), 'lambda-sandbox-'));
  private readonly nodePath = runtimeModules(this.root);
  private readonly functions: LambdaFunction[] = [];

  /** A function from its asset folder, copied so that it sees nothing beside it. */
  create(spec: FunctionSpec): LambdaFunction {
    const taskRoot = path.join(this.root, 'task', spec.name);
    taskRootOf(spec.assetDir, taskRoot);
    const fn = new LambdaFunction(spec, taskRoot, this.nodePath);
    this.functions.push(fn);
    return fn;
  }

  async dispose(): Promise<void> {
    await Promise.all(this.functions.map((fn) => fn.close()));
    fs.rmSync(this.root, { recursive: true, force: true });
  }
}
