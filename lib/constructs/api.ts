/**
 * The REST API, in the root stack: the API itself, its stage, the answers API Gateway gives on its own,
 * and the path resources that more than one resource group mounts under (`/v2`, `/v2/service`, ...).
 * Each group's nested stack mounts its routes beneath them (lib/stacks/route-group.ts), so a route costs
 * resources in its group's stack, not here. Authentication is the handlers' job (X-API-Key, or the signed
 * token of a download link), so API Gateway itself authorises nothing.
 */
import { Duration, Stack } from 'aws-cdk-lib';
import * as apigateway from 'aws-cdk-lib/aws-apigateway';
import * as iam from 'aws-cdk-lib/aws-iam';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import * as logs from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import type { ErrorCode } from '../../functions/domain/errors';
import { acknowledge } from './acknowledgements';
import { constructId, LOG_RETENTION } from './function-defaults';

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

/** A path the API serves, and the resource group whose stack mounts it. */
export interface Mount {
  /** The full path, e.g. `/v2/service/jobs/{job_id}`. */
  readonly path: string;
  readonly group: string;
}

const segments = (fullPath: string) => fullPath.split('/').filter(Boolean);

export interface ApiProps {
  /** Every path any group mounts: the prefixes two groups share are made here, once. */
  readonly mounts: readonly Mount[];
}

export class Api extends Construct {
  readonly restApi: apigateway.RestApi;
  /** The path resources made here, by path (`/v2/service`). */
  private readonly shared = new Map<string, apigateway.IResource>();

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

    // A prefix that two groups' paths pass through is made here; each group makes the rest of its paths.
    const groupsOf = new Map<string, Set<string>>();
    for (const { path, group } of props.mounts) {
      const parts = segments(path);
      for (let length = 1; length < parts.length; length++) {
        const prefix = `/${parts.slice(0, length).join('/')}`;
        groupsOf.set(prefix, (groupsOf.get(prefix) ?? new Set()).add(group));
      }
    }
    for (const [prefix, groups] of groupsOf)
      if (groups.size > 1) this.shared.set(prefix, this.restApi.root.resourceForPath(prefix));

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
      this.restApi,
      'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AmazonAPIGatewayPushToCloudWatchLogs]',
      'The AWS managed policy for the API Gateway account role is the documented way to let API Gateway ' +
        'write stage and access logs.',
    );
  }

  /** The deepest resource made here on the way to `fullPath`, and the segments below it left to make. */
  mountPoint(fullPath: string): { parent: apigateway.IResource; below: string[] } {
    const parts = segments(fullPath);
    for (let length = parts.length; length > 0; length--) {
      const parent = this.shared.get(`/${parts.slice(0, length).join('/')}`);
      if (parent) return { parent, below: parts.slice(length) };
    }
    return { parent: this.restApi.root, below: parts };
  }
}

/**
 * Mounts routes in a group's stack: the path resources below the API's shared ones, each method on the
 * function's `live` alias, and one invoke permission per alias (any stage, method and path of this API).
 */
export class Mounter {
  private readonly made = new Map<string, apigateway.IResource>();
  private readonly permitted = new Set<lambda.IFunction>();

  constructor(
    private readonly scope: Construct,
    private readonly api: Api,
  ) {
    // The methods are made in the groups' stacks, so each acknowledges the findings on its own methods.
    acknowledge(
      scope,
      'AwsSolutions-APIG4',
      'Authentication is by X-API-Key, checked by each handler against the SHA-256 of the key in the table ' +
        '(the interface requires 401/403 in the service error shape), and by a signed token on the download route.',
    );
    acknowledge(
      scope,
      'AwsSolutions-COG4',
      'The service has no user pool: callers are developer accounts identified by API keys (see APIG4).',
    );
  }

  mount(
    method: string,
    fullPath: string,
    target: lambda.IFunction,
    options: { stream?: boolean; timeout?: Duration } = {},
  ): apigateway.Method {
    const integration = new apigateway.AwsIntegration({
      proxy: true,
      service: 'lambda',
      path: options.stream
        ? `2021-11-15/functions/${target.functionArn}/response-streaming-invocations`
        : `2015-03-31/functions/${target.functionArn}/invocations`,
      options: {
        ...(options.stream && { responseTransferMode: apigateway.ResponseTransferMode.STREAM }),
        ...(options.timeout && { timeout: options.timeout }),
      },
    });
    if (!this.permitted.has(target)) {
      // One permission per function, for this API (any stage, method and path): per-method permissions
      // would cost a resource for every mount.
      target.addPermission('ApiGatewayInvoke', {
        principal: new iam.ServicePrincipal('apigateway.amazonaws.com'),
        sourceArn: this.api.restApi.arnForExecuteApi(),
      });
      this.permitted.add(target);
    }
    return new apigateway.Method(this.scope, constructId(method, fullPath), {
      resource: this.resourceFor(fullPath),
      httpMethod: method,
      integration,
    });
  }

  private resourceFor(fullPath: string): apigateway.IResource {
    const { parent, below } = this.api.mountPoint(fullPath);
    let resource = parent;
    let made = `/${segments(fullPath)
      .slice(0, segments(fullPath).length - below.length)
      .join('/')}`.replace(/^\/$/, '');
    for (const part of below) {
      made = `${made}/${part}`;
      const existing = this.made.get(made);
      if (existing) {
        resource = existing;
        continue;
      }
      resource = new apigateway.Resource(this.scope, `Path${constructId(made)}`, { parent: resource, pathPart: part });
      this.made.set(made, resource);
    }
    return resource;
  }
}
