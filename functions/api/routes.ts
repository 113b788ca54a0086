/**
 * The route table: every HTTP route is declared once, here. The CDK stack creates one function per row
 * and mounts it under every API version prefix; the local runtime serves the same rows.
 */
import type { Access } from '../deployment/access';
import { ALL_PROVIDER_SECRETS, QUEUED_PROVIDER_SECRETS } from '../deployment/providers';

/** The docs page's renderer, Scalar's standalone browser build (served by the service: no CDN). */
export const SCALAR_SCRIPT = '@scalar/api-reference/browser/standalone.js';

export const API_VERSIONS = ['v2', 'v1'] as const;
export type ApiVersion = (typeof API_VERSIONS)[number];
export const CURRENT_API_VERSION: ApiVersion = 'v2';

/**
 * The resource groups: each is one nested stack on AWS (lib/service-stack.ts), so a route costs resources
 * in its group's stack only (docs/deploy-aws.md, "What a route costs").
 */
export const ROUTE_GROUPS = ['images', 'jobs', 'profiles', 'account', 'providers', 'portal'] as const;
export type RouteGroup = (typeof ROUTE_GROUPS)[number];

export interface RouteDefinition {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** The resource group it belongs to, and so the nested stack it is deployed in. */
  group: RouteGroup;
  /** Path after `/<version>/service`, with `{name}` path parameters. */
  path: string;
  /** Handler module under `functions/api/`, without extension, in its group's folder (`images/edit`); it exports `handler`. */
  handler: string;
  /** Long-running or large responses: API Gateway STREAM integration with a 15-minute timeout. */
  stream?: boolean;
  /** The function needs sharp (and the HEIC decoder) installed as linux node modules. */
  images?: boolean;
  /** `none` where the request carries its own credential (a download token, the trainer's bearer token). */
  auth?: 'api-key' | 'none';
  memoryMb?: number;
  /** Installed files the handler reads at run time (package specifiers), copied beside its bundle (esbuild bundles only imports). */
  files?: readonly string[];
  /** What the function touches beyond resolving an API key (functions/deployment/access.ts); the stack grants exactly this. */
  access: Access;
  /**
   * The versions it is mounted under (default: all). Routes added after /v1 was deprecated are /v2 only:
   * a deprecated prefix gains nothing new, and each mount costs the stack resources (docs/deploy-aws.md).
   */
  versions?: readonly ApiVersion[];
}

/** The versions a route is mounted under. */
export const routeVersions = (route: Pick<RouteDefinition, 'versions'>): readonly ApiVersion[] =>
  route.versions ?? API_VERSIONS;

const CURRENT_ONLY = ['v2'] as const satisfies readonly ApiVersion[];

/** Where every queued provider reports back, by its id (provider-webhook.ts; providerWebhookUrl builds the URL). */
const PROVIDER_WEBHOOK_PATH = '/providers/{provider}/webhook';

/**
 * An image operation: the job and its charge, inputs kept for the workflow, outputs stored or replayed,
 * links signed, the candidates' reference crops read (the sandbox) or presigned (an engine backend), and
 * the inputs a provider takes by URL stored under `inputs/` and presigned: a presigned GET works only
 * for a signer that may GetObject, hence `inputs` read.
 */
const IMAGE_OPERATION: Access = {
  table: 'write',
  bucket: { read: ['inputs', 'outputs', 'uploads', 'profiles'], write: ['inputs', 'outputs'], delete: ['inputs'] },
  start: ['image-job'],
  // After a synchronous job's settle: the low-balance notice and an auto-recharge are queued (docs/billing.md).
  queues: ['callbacks'],
  secrets: ['downloadToken', 'engineToken', ...ALL_PROVIDER_SECRETS],
};
const JOB_READ: Access = { table: 'read', secrets: ['downloadToken'] };

export const ROUTES: readonly RouteDefinition[] = [
  {
    method: 'POST',
    group: 'images',
    path: '/edit',
    handler: 'images/edit',
    stream: true,
    images: true,
    access: IMAGE_OPERATION,
  },
  {
    method: 'POST',
    group: 'images',
    path: '/generate',
    handler: 'images/generate',
    stream: true,
    images: true,
    access: IMAGE_OPERATION,
  },
  {
    method: 'POST',
    group: 'images',
    path: '/enhance',
    handler: 'images/enhance',
    stream: true,
    images: true,
    access: IMAGE_OPERATION,
  },
  {
    method: 'POST',
    group: 'images',
    path: '/remix',
    handler: 'images/remix',
    stream: true,
    images: true,
    access: IMAGE_OPERATION,
  },
  // Presigns the PUT of a direct upload: the URL carries this function's authority, so it needs PutObject there.
  {
    method: 'POST',
    group: 'images',
    path: '/uploads',
    handler: 'images/uploads',
    access: { bucket: { write: ['uploads'] } },
  },
  // Reads the configuration only (the route table): no secret, no item beyond the caller's key.
  { method: 'GET', group: 'images', path: '/models', handler: 'images/models', access: {} },
  { method: 'GET', group: 'jobs', path: '/jobs', handler: 'jobs/jobs-list', access: JOB_READ },
  { method: 'GET', group: 'jobs', path: '/jobs/{job_id}', handler: 'jobs/jobs', access: JOB_READ },
  {
    method: 'GET',
    group: 'jobs',
    path: '/jobs/{job_id}/deliveries',
    handler: 'jobs/jobs-deliveries',
    access: { table: 'read' },
  },
  // Queues a fresh delivery whose body carries download links.
  {
    method: 'POST',
    group: 'jobs',
    path: '/jobs/{job_id}/deliveries/redeliver',
    handler: 'jobs/jobs-redeliver',
    access: { table: 'read', queues: ['callbacks'], secrets: ['downloadToken'] },
  },
  // Releases the reservation, stops the execution, queues the callback (its body carries download links).
  {
    method: 'POST',
    group: 'jobs',
    path: '/jobs/{job_id}/cancel',
    handler: 'jobs/jobs-cancel',
    // And asks a queued provider to stop the job's work: the queued providers' keys.
    access: {
      table: 'write',
      stop: ['image-job'],
      queues: ['callbacks'],
      secrets: ['downloadToken', ...QUEUED_PROVIDER_SECRETS],
    },
  },
  // Presigns a GET of the output: the URL carries this function's authority, so it needs GetObject.
  {
    method: 'GET',
    group: 'jobs',
    path: '/downloads/{token}',
    handler: 'jobs/downloads',
    auth: 'none',
    access: { bucket: { read: ['outputs'] }, secrets: ['downloadToken'] },
  },
  {
    method: 'POST',
    group: 'profiles',
    path: '/profiles/add',
    handler: 'profiles/profiles-add',
    // Looks up the `upload:` photos it names (their metadata) before anything is created.
    access: { table: 'write', start: ['profile-training'], bucket: { read: ['uploads'] } },
  },
  // Fetches (or reads the caller's uploads) and measures the photos with sharp; writes nothing.
  {
    method: 'POST',
    group: 'profiles',
    path: '/profiles/preflight',
    handler: 'profiles/profiles-preflight',
    images: true,
    access: { bucket: { read: ['uploads'] } },
  },
  {
    method: 'GET',
    group: 'profiles',
    path: '/profiles/ids',
    handler: 'profiles/profiles-list',
    access: { table: 'read' },
  },
  {
    method: 'POST',
    group: 'profiles',
    path: '/profiles/tags',
    handler: 'profiles/profiles-tags',
    access: { table: 'write' },
  },
  {
    method: 'GET',
    group: 'profiles',
    path: '/profiles/{profile_id}/status',
    handler: 'profiles/profile-status',
    access: { table: 'read' },
  },
  {
    method: 'GET',
    group: 'profiles',
    path: '/profiles/{profile_id}/profile_picture',
    handler: 'profiles/profile-picture',
    stream: true,
    access: { table: 'read', bucket: { read: ['profiles'] } },
  },
  {
    method: 'DELETE',
    group: 'profiles',
    path: '/profiles/{profile_id}',
    handler: 'profiles/profile-delete',
    // inputs: the profile's copies shown to a provider (inputs/shared/<account>/<profile>/).
    access: { table: 'write', stop: ['profile-training'], bucket: { delete: ['profiles', 'inputs'] } },
  },
  // The first read creates the account's secret.
  { method: 'GET', group: 'jobs', path: '/webhook-secret', handler: 'jobs/webhook-secret', access: { table: 'write' } },
  {
    method: 'POST',
    group: 'jobs',
    path: '/webhook-secret/rotate',
    handler: 'jobs/webhook-secret-rotate',
    access: { table: 'write' },
  },
  // Signs with the account's secrets (created on first use, like GET /webhook-secret) and POSTs through the SSRF guard.
  { method: 'POST', group: 'jobs', path: '/webhook-test', handler: 'jobs/webhook-test', access: { table: 'write' } },
  { method: 'GET', group: 'account', path: '/account', handler: 'account/account', access: { table: 'read' } },
  {
    method: 'GET',
    group: 'account',
    path: '/account/ledger',
    handler: 'account/account-ledger',
    access: { table: 'read' },
  },
  // Money in (docs/billing.md): only these functions are granted Stripe's keys.
  {
    method: 'POST',
    group: 'account',
    path: '/account/top-ups',
    handler: 'account/account-top-ups-create',
    access: { table: 'write', secrets: ['stripeSecretKey'] },
    versions: CURRENT_ONLY,
  },
  {
    method: 'GET',
    group: 'account',
    path: '/account/top-ups',
    handler: 'account/account-top-ups-list',
    access: { table: 'read' },
    versions: CURRENT_ONLY,
  },
  {
    method: 'GET',
    group: 'account',
    path: '/account/billing',
    handler: 'account/account-billing',
    access: { table: 'read' },
    versions: CURRENT_ONLY,
  },
  {
    method: 'PUT',
    group: 'account',
    path: '/account/billing',
    handler: 'account/account-billing-update',
    access: { table: 'write' },
    versions: CURRENT_ONLY,
  },
  // Authenticated by Stripe's signature over the raw body; credits and debits the ledger.
  {
    method: 'POST',
    group: 'account',
    path: '/billing/stripe/webhook',
    handler: 'account/stripe-webhook',
    auth: 'none',
    // The callback queue: a decline it learns of (payment_intent.payment_failed) sends auto_recharge.failed.
    access: { table: 'write', queues: ['callbacks'], secrets: ['stripeWebhookSecret'] },
    versions: CURRENT_ONLY,
  },
  {
    method: 'POST',
    group: 'profiles',
    path: '/internal/trainer-callback',
    handler: 'profiles/trainer-callback',
    auth: 'none',
    access: { answerTasks: ['profile-training'], secrets: ['trainerToken'] },
  },
  // A queued provider reports a request's end (its webhook, by the provider's id: 404 for another): our token
  // in the URL and the provider's signature, no API key. Resumes the waiting image job (SendTaskSuccess);
  // asks the provider to stop a request no job holds (the queued providers' keys).
  {
    method: 'POST',
    group: 'providers',
    path: PROVIDER_WEBHOOK_PATH,
    handler: 'providers/provider-webhook',
    auth: 'none',
    access: { table: 'write', answerTasks: ['image-job'], secrets: ['downloadToken', ...QUEUED_PROVIDER_SECRETS] },
  },
  // The API's own description, public like any API reference: generated from this table and the schemas.
  { method: 'GET', group: 'portal', path: '/openapi.json', handler: 'portal/openapi', auth: 'none', access: {} },
  { method: 'GET', group: 'portal', path: '/docs', handler: 'portal/docs', auth: 'none', access: {} },
  {
    method: 'GET',
    group: 'portal',
    path: '/docs/scalar.js',
    handler: 'portal/docs-script',
    auth: 'none',
    files: [SCALAR_SCRIPT],
    access: {},
  },
];

/**
 * The full public URL of a queued provider's webhook (the callback its submit names) on the API at `baseUrl`
 * (`https://…/prod`): the route's path with the provider's id, under the current version.
 */
export const providerWebhookUrl = (baseUrl: string, provider: string): string =>
  `${baseUrl}${routePath(CURRENT_API_VERSION, { path: PROVIDER_WEBHOOK_PATH.replace('{provider}', encodeURIComponent(provider)) })}`;

/** The full public path of a route under a version prefix, e.g. `/v2/service/webhook-secret`. */
export const routePath = (version: ApiVersion, route: Pick<RouteDefinition, 'path'>): string =>
  `/${version}/service${route.path}`;
