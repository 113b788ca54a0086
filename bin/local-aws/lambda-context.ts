import { randomUUID } from 'node:crypto';
import type { Context } from 'aws-lambda';
import { localArn } from './arns';

/** The Lambda context an in-process invocation receives, with the deadline the function would have. */
export const lambdaContext = (functionName: string, timeoutMs = 900_000): Context => {
  const deadline = Date.now() + timeoutMs;
  return {
    callbackWaitsForEmptyEventLoop: false,
    functionName,
    functionVersion: '$LATEST',
    invokedFunctionArn: localArn.function(functionName),
    memoryLimitInMB: '1024',
    awsRequestId: randomUUID(),
    logGroupName: `/aws/lambda/${functionName}`,
    logStreamName: 'local',
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
  };
};

/** Loads a handler module (TypeScript, through tsx or jest) and returns its `handler` export. */
export const loadHandler = <T>(modulePath: string): T => {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const loaded: unknown = require(modulePath);
  if (!loaded || typeof loaded !== 'object' || !('handler' in loaded) || typeof loaded.handler !== 'function') {
    throw new Error(`${modulePath} does not export a handler function`);
  }
  return loaded.handler as T;
};
