/**
 * Image routes answer through API Gateway STREAM integrations (15-minute timeout, responses over 6 MB).
 * On AWS the Lambda runtime provides `awslambda.streamifyResponse`; the handler is written once, as a
 * buffered handler, and this adapter writes its answer to the response stream with the HTTP prelude.
 * Locally (no `awslambda` global) the buffered handler is served as it is.
 */

import type { Writable } from 'node:stream';
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';

type BufferedHandler = (event: APIGatewayProxyEvent, context: Context) => Promise<APIGatewayProxyResult>;

interface LambdaStreamingRuntime {
  streamifyResponse(
    handler: (event: APIGatewayProxyEvent, stream: Writable, context: Context) => Promise<void>,
  ): unknown;
  HttpResponseStream: {
    from(stream: Writable, metadata: { statusCode: number; headers?: Record<string, string> }): Writable;
  };
}

/** The Lambda runtime's streaming API; the AWS SDK defines an `awslambda` global too, without it. */
const lambdaRuntime = (): LambdaStreamingRuntime | undefined => {
  const runtime = (globalThis as { awslambda?: Partial<LambdaStreamingRuntime> }).awslambda;
  return typeof runtime?.streamifyResponse === 'function' && runtime.HttpResponseStream
    ? (runtime as LambdaStreamingRuntime)
    : undefined;
};

export const streamingOnAws = (handler: BufferedHandler) => {
  const runtime = lambdaRuntime();
  if (!runtime) return handler;
  return runtime.streamifyResponse(async (event, responseStream, context) => {
    const result = await handler(event, context);
    const headers = Object.fromEntries(
      Object.entries(result.headers ?? {}).map(([name, value]) => [name, String(value)]),
    );
    const stream = runtime.HttpResponseStream.from(responseStream, { statusCode: result.statusCode, headers });
    await new Promise<void>((resolve, reject) => {
      stream.on('error', reject);
      stream.end(result.isBase64Encoded ? Buffer.from(result.body, 'base64') : result.body, () => resolve());
    });
  });
};
