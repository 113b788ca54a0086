/**
 * Runs the data-layer tests (test/data) against DynamoDB Local, AWS's own emulator (the jar ships in
 * the npm package amplify-dynamodb-simulator; it needs a Java runtime). This holds the local runtime's
 * transaction shim to DynamoDB's real semantics. Without Java the run is skipped with a notice, unless
 * REQUIRE_DYNAMODB_LOCAL=1 (as in CI, where .ci/run installs Java), when it fails.
 */
import { spawn, spawnSync } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';

const emulatorDir = path.join(path.dirname(require.resolve('amplify-dynamodb-simulator/package.json')), 'emulator');

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = net.createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });

const waitForPort = async (port: number, deadlineMs: number) => {
  while (Date.now() < deadlineMs) {
    const open = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, '127.0.0.1', () => resolve(socket.end() !== undefined));
      socket.on('error', () => resolve(false));
    });
    if (open) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`DynamoDB Local did not open port ${port}`);
};

const main = async () => {
  if (spawnSync('java', ['-version']).status !== 0) {
    const message =
      'DynamoDB Local needs Java (Debian: openjdk-17-jre-headless); data-layer tests against it were not run.';
    if (process.env.REQUIRE_DYNAMODB_LOCAL === '1') throw new Error(message);
    console.warn(`SKIPPED: ${message}`);
    return;
  }
  const port = await freePort();
  const java = spawn(
    'java',
    ['-Djava.library.path=./DynamoDBLocal_lib', '-jar', 'DynamoDBLocal.jar', '-inMemory', '-port', String(port)],
    {
      cwd: emulatorDir,
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  );
  try {
    await waitForPort(port, Date.now() + 30_000);
    const jest = spawnSync('npx', ['jest', 'test/data'], {
      stdio: 'inherit',
      env: { ...process.env, DYNAMODB_LOCAL_ENDPOINT: `http://127.0.0.1:${port}` },
    });
    process.exitCode = jest.status ?? 1;
  } finally {
    java.kill();
  }
};

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
