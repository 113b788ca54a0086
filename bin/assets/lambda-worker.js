/**
 * Read first: one Lambda execution environment, as `npm run start:assets` and the load test run it.
 *
 * This file is plain JavaScript and runs in a child process whose working directory is a copy of one
 * function's asset folder and whose module path (NODE_PATH) holds only the AWS SDK v3 that the Node.js
 * runtime provides, as on Lambda: the bundle loads with what it ships and nothing else. Like the
 * runtime, it defines the `awslambda` global (streamifyResponse, HttpResponseStream), loads the
 * template's handler string (`file.export`) from LAMBDA_TASK_ROOT once (the init phase), and then
 * answers one invocation at a time over IPC. An init failure is reported and the process exits.
 *
 * Messages in:  { type: 'invoke', id, event, deadline }
 * Messages out: { type: 'ready', initMs } | { type: 'init-error', errorType, errorMessage }
 *               { type: 'result', id, payload } | { type: 'stream', id, prelude, body } | { type: 'error', id, errorType, errorMessage, trace }
 */
// biome-ignore lint/suspicious/noRedundantUseStrict: this file is CommonJS, where the directive is not implied
'use strict';
const path = require('node:path');
const { Writable } = require('node:stream');
const { randomUUID } = require('node:crypto');

const STREAMING = Symbol.for('aws.lambda.runtime.handler.streaming');

/** The prelude of a streamed HTTP answer, as Lambda's HttpResponseStream writes it. */
const HttpResponseStream = {
  from(stream, prelude) {
    stream.setPrelude(prelude);
    return stream;
  },
};

globalThis.awslambda = {
  streamifyResponse: (handler) => {
    handler[STREAMING] = true;
    return handler;
  },
  HttpResponseStream,
};

const errorOf = (error) => ({
  errorType: error?.name || error?.constructor?.name || 'Error',
  errorMessage: error?.message !== undefined ? String(error.message) : String(error),
  trace: typeof error?.stack === 'string' ? error.stack.split('\n') : [],
});

const loadHandler = async () => {
  const taskRoot = process.env.LAMBDA_TASK_ROOT;
  const handlerString = process.env._HANDLER || '';
  const dot = handlerString.lastIndexOf('.');
  if (dot <= 0)
    throw Object.assign(new Error(`Bad handler ${handlerString}`), { name: 'Runtime.MalformedHandlerName' });
  const file = handlerString.slice(0, dot);
  const exported = handlerString.slice(dot + 1);
  const base = path.join(taskRoot, file);
  const candidates = ['.js', '.mjs', '.cjs'].map((extension) => base + extension);
  const found = candidates.find((candidate) => require('node:fs').existsSync(candidate));
  if (!found) throw Object.assign(new Error(`Cannot find module '${file}'`), { name: 'Runtime.ImportModuleError' });
  let loaded;
  try {
    loaded = found.endsWith('.mjs') ? await import(found) : require(found);
  } catch (error) {
    throw Object.assign(new Error(`${error?.name}: ${error?.message}`), {
      name: 'Runtime.ImportModuleError',
      stack: error?.stack,
    });
  }
  const handler = loaded?.[exported];
  if (typeof handler !== 'function')
    throw Object.assign(new Error(`${handlerString} is undefined or not exported`), {
      name: 'Runtime.HandlerNotFound',
    });
  return handler;
};

const contextFor = (deadline) => ({
  callbackWaitsForEmptyEventLoop: true,
  functionName: process.env.AWS_LAMBDA_FUNCTION_NAME,
  functionVersion: '$LATEST',
  invokedFunctionArn: `arn:aws:lambda:${process.env.AWS_REGION}:000000000000:function:${process.env.AWS_LAMBDA_FUNCTION_NAME}`,
  memoryLimitInMB: process.env.AWS_LAMBDA_FUNCTION_MEMORY_SIZE,
  awsRequestId: randomUUID(),
  logGroupName: `/aws/lambda/${process.env.AWS_LAMBDA_FUNCTION_NAME}`,
  logStreamName: 'local',
  getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
  done: () => undefined,
  fail: () => undefined,
  succeed: () => undefined,
});

/** The response stream a streaming handler writes to: its prelude and bytes are sent back whole. */
const responseStream = () => {
  const chunks = [];
  let prelude;
  const stream = new Writable({
    write(chunk, _encoding, callback) {
      chunks.push(Buffer.from(chunk));
      callback();
    },
  });
  stream.setPrelude = (value) => {
    prelude = value;
  };
  stream.collected = () => ({ prelude, body: Buffer.concat(chunks) });
  return stream;
};

/**
 * Sends to the sandbox; a sandbox that has gone away (closed while this worker started or ran) ends the
 * worker quietly, as Lambda would freeze it, instead of an unhandled EPIPE.
 */
const reply = (message, then) => {
  if (!process.connected) return process.exit(0);
  process.send(message, (error) => {
    if (error) process.exit(0);
    else if (then) then();
  });
};
process.on('disconnect', () => process.exit(0));

const main = async () => {
  const started = performance.now();
  let handler;
  try {
    handler = await loadHandler();
  } catch (error) {
    reply({ type: 'init-error', ...errorOf(error) }, () => process.exit(1));
    return;
  }
  reply({ type: 'ready', initMs: performance.now() - started });
  process.on('message', async (message) => {
    if (message?.type !== 'invoke') return;
    const context = contextFor(message.deadline);
    try {
      if (handler[STREAMING]) {
        const stream = responseStream();
        await handler(message.event, stream, context);
        const { prelude, body } = stream.collected();
        reply({ type: 'stream', id: message.id, prelude, body });
      } else {
        const payload = await handler(message.event, context);
        reply({ type: 'result', id: message.id, payload: payload === undefined ? null : payload });
      }
    } catch (error) {
      reply({ type: 'error', id: message.id, ...errorOf(error) });
    }
  });
};

process.on('unhandledRejection', (reason) => {
  console.error(JSON.stringify({ level: 'error', message: 'unhandled rejection in the function', ...errorOf(reason) }));
  process.exit(128);
});

main();
