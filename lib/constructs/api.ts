/**
 * The REST API, built from the one route table (functions/api/routes.ts): one function per row, mounted
 * under every version prefix. Authentication is the handlers' job (X-API-Key, or the signed token of a
 * download link), so API Gateway itself authorises nothing.
 */
import * as path from 'node:path';
import { Duration, Stack } from 'aws-cdk-lib';
import * as apigateway from 'aws-cdk-lib/aws-apigateway';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import * as logs from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { type RouteDefinition, routePath, routeVersions } from '../../functions/api/routes';
import type { ErrorCode } from '../../functions/domain/errors';
import { acknowledge } from './acknowledgements';
import { type BuildSteps, constructId, LOG_RETENTION, serviceFunction } from './function-defaults';

/** The longest a buffered REST integration may take. */
export const BUFFERED_TIMEOUT = Duration.seconds(29);
/** A streamed integration may run 15 minutes; the handlers enforce their own 600 s budget inside it. */
export const STREAM_TIMEOUT = Duration.minutes(15);

/**
 * Errors that API Gateway answers itself, before or instead of a handler, in the service's error shape.
 * Throttling answers 503 because the interface lists 503, not 429. Without `detail`, API Gateway's own
 * message is shown.
 */
const GATEWAY_ERRORS: readonly {
  type: apigateway.ResponseType;
  statusCode?: number;
  code: ErrorCode;
  detail?: string;
}[] = [
  {
    type: apigateway.ResponseType.REQUEST_TOO_LARGE,
    statusCode: 413,
    code: 'PAYLOAD_TOO_LARGE',
    detail: 'The request body is too large; send large images by URL.',
  },
  {
    // What a REST API answers for a path or method that no route matches.
    type: apigateway.ResponseType.MISSING_AUTHENTICATION_TOKEN,
    statusCode: 404,
    code: 'NOT_FOUND',
    detail: 'No route matches this method and path.',
  },
  {
    type: apigateway.ResponseType.THROTTLED,
    statusCode: 503,
    code: 'SERVICE_UNAVAILABLE',
    detail: 'Too many requests right now; retry later.',
  },
  {
    type: apigateway.ResponseType.INTEGRATION_TIMEOUT,
    statusCode: 504,
    code: 'TIMEOUT',
    detail: 'The request did not finish in time.',
  },
  { type: apigateway.ResponseType.DEFAULT_4XX, code: 'INVALID_REQUEST' },
  { type: apigateway.ResponseType.DEFAULT_5XX, code: 'INTERNAL_ERROR', detail: 'Internal error.' },
];

/**
 * The portal page's script and style, bundled by esbuild from functions/portal/ui/app and written beside
 * the portal function's bundle (functions/portal/ui/build.ts), because Lambda has no esbuild to build them
 * at run time. The same module builds them in memory when the handler runs from the sources.
 */
const portalAssetBuild: BuildSteps = (inputDir, outputDir) => [
  `node "${path.posix.join(inputDir, 'node_modules/tsx/dist/cli.mjs')}" "${path.posix.join(inputDir, 'functions/portal/ui/build.ts')}" "${outputDir}"`,
];

export interface ApiProps {
  readonly routes: readonly RouteDefinition[];
  /** The developer portal's function and the paths it answers on (outside the versioned API); none in fixtures. */
  readonly portal?: { readonly handler: string; readonly paths: readonly string[] };
  /** Where the routes' handler modules live, relative to the repository root. */
  readonly handlerDir: string;
  readonly environment: Record<string, string>;
}

/**
 * One JSON line per request: the standard fields, plus how long the function took (integration latency),
 * its status, and the error API Gateway or the integration reported, so a 5xx can be told apart in the log.
 */
/** API Gateway's stage throttle (requests per second, and the burst above it), answered 429 before any function runs. */
export const STAGE_THROTTLE = { rateLimit: 500, burstLimit: 1000 } as const;

export const ACCESS_LOG_FORMAT = apigateway.AccessLogFormat.custom(
  JSON.stringify({
    requestId: apigateway.AccessLogField.contextRequestId(),
    ip: apigateway.AccessLogField.contextIdentitySourceIp(),
    requestTime: apigateway.AccessLogField.contextRequestTime(),
    httpMethod: apigateway.AccessLogField.contextHttpMethod(),
    resourcePath: apigateway.AccessLogField.contextResourcePath(),
    status: apigateway.AccessLogField.contextStatus(),
    protocol: apigateway.AccessLogField.contextProtocol(),
    responseLength: apigateway.AccessLogField.contextResponseLength(),
    responseLatency: apigateway.AccessLogField.contextResponseLatency(),
    integrationLatency: apigateway.AccessLogField.contextIntegrationLatency(),
    integrationStatus: apigateway.AccessLogField.contextIntegrationStatus(),
    errorMessage: apigateway.AccessLogField.contextErrorMessage(),
    errorResponseType: apigateway.AccessLogField.contextErrorResponseType(),
    integrationErrorMessage: apigateway.AccessLogField.contextIntegrationErrorMessage(),
  }),
);

export class Api extends Construct {
  readonly restApi: apigateway.RestApi;
  /** One per route, with the route it serves. */
  readonly routeFunctions: Array<{ route: RouteDefinition; fn: NodejsFunction }> = [];
  /** The portal's function (ANY on its paths), when the stack has a portal. */
  readonly portalFunction?: NodejsFunction;

  constructor(scope: Construct, id: string, props: ApiProps) {
    super(scope, id);

    this.restApi = new apigateway.RestApi(this, 'RestApi', {
      restApiName: Stack.of(this).stackName,
      description: 'Identity-preserving image service',
      endpointConfiguration: { types: [apigateway.EndpointType.REGIONAL] },
      // Buffered handlers return images base64-encoded; API Gateway sends them as bytes.
      binaryMediaTypes: ['image/*'],
      // Stage and access logging need the account's API Gateway CloudWatch role.
      cloudWatchRole: true,
      deployOptions: {
        accessLogDestination: new apigateway.LogGroupLogDestination(
          new logs.LogGroup(this, 'AccessLogs', { retention: LOG_RETENTION }),
        ),
        accessLogFormat: ACCESS_LOG_FORMAT,
        loggingLevel: apigateway.MethodLoggingLevel.ERROR,
        metricsEnabled: true,
        tracingEnabled: true,
        // The outer guard, before any function runs: per-account limits are the functions' (rate-limit.ts).
        throttlingRateLimit: STAGE_THROTTLE.rateLimit,
        throttlingBurstLimit: STAGE_THROTTLE.burstLimit,
      },
    });

    for (const route of props.routes) {
      const fn = serviceFunction(this, constructId(route.method, route.path), {
        entry: path.posix.join(props.handlerDir, route.handler),
        description: `${route.method} /{${routeVersions(route).join(',')}}/service${route.path}`,
        timeout: route.stream ? STREAM_TIMEOUT : BUFFERED_TIMEOUT,
        environment: props.environment,
        images: route.images,
        memoryMb: route.memoryMb,
        files: route.files,
      });
      const integration = new apigateway.LambdaIntegration(fn, {
        // One invoke permission per function, for this API (any stage and method): a route is mounted under
        // every version, and per-method permissions cost four resources a route against the stack's 500.
        scopePermissionToMethod: false,
        ...(route.stream
          ? { responseTransferMode: apigateway.ResponseTransferMode.STREAM, timeout: STREAM_TIMEOUT }
          : {}),
      });
      for (const version of routeVersions(route)) {
        this.restApi.root.resourceForPath(routePath(version, route)).addMethod(route.method, integration);
      }
      this.routeFunctions.push({ route, fn });
    }

    if (props.portal) {
      const fn = serviceFunction(this, 'Portal', {
        entry: props.portal.handler,
        description: `ANY ${props.portal.paths.join(', ')}: the developer portal`,
        timeout: BUFFERED_TIMEOUT,
        environment: props.environment,
        buildSteps: portalAssetBuild,
      });
      const integration = new apigateway.LambdaIntegration(fn, { scopePermissionToMethod: false });
      for (const portalPath of props.portal.paths)
        this.restApi.root.resourceForPath(portalPath).addMethod('ANY', integration);
      this.portalFunction = fn;
    }

    for (const { type, statusCode, code, detail } of GATEWAY_ERRORS) {
      this.restApi.addGatewayResponse(`${constructId(type.responseType)}Response`, {
        type,
        statusCode: statusCode?.toString(),
        responseHeaders: { 'X-Request-Id': 'context.requestId' },
        templates: {
          'application/json': `{"detail":${detail === undefined ? '$context.error.messageString' : JSON.stringify(detail)},"code":"${code}","request_id":"$context.requestId"}`,
        },
      });
    }

    acknowledge(
      this,
      'AwsSolutions-APIG2',
      'Requests are validated by the handlers with the valibot schemas, which answer 422 in the FastAPI ' +
        'shape the interface requires; an API Gateway validator would answer 400 in its own shape first.',
    );
    acknowledge(
      this,
      'AwsSolutions-APIG3',
      'No WAF web ACL in this stack: every route needs an API key checked by the handler, or a signed ' +
        'download token; an operator can attach a web ACL to the stage per deployment.',
    );
    acknowledge(
      this,
      'AwsSolutions-APIG4',
      'Authentication is by X-API-Key, checked by each handler against the SHA-256 of the key in the table ' +
        '(the interface requires 401/403 in the service error shape), and by a signed token on the download route.',
    );
    acknowledge(
      this,
      'AwsSolutions-COG4',
      'The service has no user pool: callers are developer accounts identified by API keys (see APIG4).',
    );
    acknowledge(
      this.restApi,
      'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AmazonAPIGatewayPushToCloudWatchLogs]',
      'The AWS managed policy for the API Gateway account role is the documented way to let API Gateway ' +
        'write stage and access logs.',
    );
  }
}
