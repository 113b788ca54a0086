/**
 * Read first: IAM for `npm run start:assets`.
 *
 * Each function of the synthesised template runs in its worker with an access key naming it
 * (`principalFor`), and the stand-ins of DynamoDB, S3, SQS, Step Functions and Secrets Manager ask this
 * gate whether the policies the template attaches to that function's role allow the call, with the
 * action and resource ARN AWS would authorise it by. A call the template does not allow is refused as
 * AWS refuses it (AccessDenied), so a grant missing from the stack fails the tests instead of production.
 * Callers without a function's key (the runtime itself, tests, the admin CLI) are not checked, and
 * `npm start` (functions run from source) installs no policies.
 *
 * Evaluated: Allow and Deny statements, `*` and `?` in actions and resources, and StringEquals /
 * StringLike conditions (also as ForAllValues:) on the request's context keys (`s3:prefix`,
 * `dynamodb:LeadingKeys`); any other condition fails closed.
 */
import type http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface PolicyStatement {
  effect: 'Allow' | 'Deny';
  actions: string[];
  resources: string[];
  conditions?: Record<string, Record<string, string[]>>;
}

/** One authorisation AWS would make for a call (a transaction or a batch makes several). */
export interface AccessRequest {
  action: string;
  resource: string;
  context?: Record<string, string>;
}

const PRINCIPAL_PREFIX = 'FN';

/** The access key a template function's worker signs with (letters and digits, like a real key id). */
export const principalFor = (logicalId: string): string => `${PRINCIPAL_PREFIX}${logicalId}`;

const glob = (pattern: string, flags = '') =>
  new RegExp(
    `^${pattern
      .replace(/[.+^${}()|[\]\\]/g, '\\$&')
      .replace(/\*/g, '.*')
      .replace(/\?/g, '.')}$`,
    flags,
  );

const conditionHolds = (conditions: PolicyStatement['conditions'], context: Record<string, string> = {}): boolean =>
  Object.entries(conditions ?? {}).every(([operator, tests]) =>
    Object.entries(tests).every(([key, values]) => {
      const actual = context[key];
      if (actual === undefined) return false;
      // The request's keys are single-valued here, so ForAllValues: means the same as the plain operator.
      const plain = operator.replace(/^ForAllValues:/, '');
      if (plain === 'StringEquals') return values.includes(actual);
      if (plain === 'StringLike') return values.some((value) => glob(value).test(actual));
      return false;
    }),
  );

const matches = (statement: PolicyStatement, request: AccessRequest): boolean =>
  statement.actions.some((action) => glob(action, 'i').test(request.action)) &&
  statement.resources.some((resource) => glob(resource).test(request.resource)) &&
  conditionHolds(statement.conditions, request.context);

/** AWS's rule: allowed when some Allow matches and no Deny does. */
export const isAllowed = (statements: readonly PolicyStatement[], request: AccessRequest): boolean =>
  statements.some((statement) => statement.effect === 'Allow' && matches(statement, request)) &&
  !statements.some((statement) => statement.effect === 'Deny' && matches(statement, request));

/** The access key id a SigV4 request was signed with (header or presigned query). */
export const accessKeyOf = (req: Pick<http.IncomingMessage, 'headers' | 'url'>): string | undefined => {
  const header = /Credential=([^/,\s]+)\//.exec(String(req.headers.authorization ?? ''))?.[1];
  if (header) return header;
  const query = new URL(req.url ?? '/', 'http://local').searchParams.get('X-Amz-Credential');
  return query?.split('/')[0];
};

export class AccessDenied extends Error {
  override name = 'AccessDenied';
}

/** The policies of the template's functions, by their access key; empty (everything allowed) until installed. */
export class IamGate {
  private policies = new Map<string, readonly PolicyStatement[]>();
  /** Every refusal, for tests and for the log. */
  readonly denials: string[] = [];
  /** How many calls each function (by logical id) has had checked. */
  readonly checked = new Map<string, number>();

  install(policies: ReadonlyMap<string, readonly PolicyStatement[]>): void {
    this.policies = new Map(policies);
  }

  /** Throws AccessDenied, worded as AWS words it, when a function's key asks for something its role may not do. */
  authorize(req: Pick<http.IncomingMessage, 'headers' | 'url'>, requests: readonly AccessRequest[]): void {
    const key = accessKeyOf(req);
    const statements = key ? this.policies.get(key) : undefined;
    if (!key || !statements) return;
    const logicalId = key.slice(PRINCIPAL_PREFIX.length);
    this.checked.set(logicalId, (this.checked.get(logicalId) ?? 0) + 1);
    const refused = requests.find((request) => !isAllowed(statements, request));
    if (!refused) return;
    const message = `User: ${logicalId} is not authorized to perform: ${refused.action} on resource: ${refused.resource} because no identity-based policy allows the ${refused.action} action`;
    this.denials.push(message);
    process.stderr.write(
      `${JSON.stringify({ level: 'warn', message: 'local IAM refused a call the template does not grant', detail: message })}\n`,
    );
    throw new AccessDenied(message);
  }
}

/** A JSON-protocol service's refusal (DynamoDB, SQS, Step Functions, Secrets Manager). */
export const deniedJson = (res: http.ServerResponse, error: AccessDenied, type = 'AccessDeniedException'): void => {
  res.writeHead(400, { 'Content-Type': 'application/x-amz-json-1.0' });
  res.end(JSON.stringify({ __type: type, message: error.message, Message: error.message }));
};

/** Starts a gate's front server (in front of the SQS emulator) on the loopback address it is given. */
export const listenFront = async (server: http.Server, options: { host: string; port?: number }, agent: http.Agent) => {
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, options.host, resolve));
  return {
    endpoint: `http://${options.host}:${(server.address() as AddressInfo).port}`,
    close: async () => {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await closed;
      agent.destroy();
    },
  };
};
