/**
 * `npm start` (with --assets when `TEST_RUNTIME=assets`: `npm run start:assets`) as a child process on a
 * data directory, for tests that stop the service with work in flight and start it again on the same data.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';

const ROOT_DIR = path.resolve(__dirname, '../..');

export interface ServiceProcess {
  child: ChildProcess;
  url: string;
  /** The development account's key, as the service prints it. */
  apiKey: string;
}

/**
 * Starts the service on `dataDir`; resolves once it prints its ready line. `env` is added to this
 * process's environment, as a user's shell would set it (the development settings reach every function).
 */
export const startServiceProcess = async (
  dataDir: string,
  { env = {}, timeScale = 0.01 }: { env?: Record<string, string>; timeScale?: number } = {},
): Promise<ServiceProcess> => {
  // tsx as a loader in this one process (its CLI would run the service in a child that a signal to it misses).
  const args = [
    '--import',
    'tsx',
    path.join(ROOT_DIR, 'bin/local.ts'),
    '--port',
    '0',
    '--data-dir',
    dataDir,
    '--log-level',
    'silent',
    '--time-scale',
    String(timeScale),
  ];
  if (process.env.TEST_RUNTIME === 'assets') args.push('--assets');
  const child = spawn(process.execPath, args, {
    cwd: ROOT_DIR,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let output = '';
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const ready = /Service ready on (http:\/\/[^\s]+)/.exec(output);
      if (ready && /API key: (\S+)/.test(output)) resolve(ready[1]!);
    });
    child.once('exit', (code) => reject(new Error(`npm start exited (${code}) before it was ready: ${output}`)));
  });
  return { child, url, apiKey: /API key: (\S+)/.exec(output)![1]! };
};

/** Sends `signal` to the service and resolves once it has exited. */
export const stopServiceProcess = (child: ChildProcess, signal: NodeJS.Signals): Promise<void> =>
  new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill(signal);
  });
