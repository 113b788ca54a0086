/**
 * The route table: every HTTP route is declared once, here. The CDK stack creates one function per row
 * and mounts it under every API version prefix; the local runtime serves the same rows.
 */

import type { ApiScope } from '../domain/accounts/scopes';
import type { Access } from './access';
import { API_VERSIONS, type ApiVersion, CURRENT_API_VERSION, PROVIDER_WEBHOOK_PATH, routePath } from './api-paths';
import { ALL_PROVIDER_SECRETS, QUEUED_PROVIDER_SECRETS, TRAINER_PROVIDER_SECRETS } from './providers';

/** The docs page's renderer, Scalar's standalone browser build (served by the service: no CDN). */
export const SCALAR_SCRIPT = '@scalar/api-reference/browser/standalone.js';

export { API_VERSIONS, type ApiVersion, CURRENT_API_VERSION, routePath };

/**
 * The resource groups: each is one nested stack on AWS (lib/service-stack.ts), so a route costs resources
 * in its group's stack only (docs/deploy-aws.md, "What a route costs").
 */
export const ROUTE_GROUPS = ['images', 'jobs', 'profiles', 'account', 'providers', 'portal'] as const;
export type RouteGroup = (typeof ROUTE_GROUPS)[number];

interface RouteFields {
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

/**
 * How a route is authenticated: by an API key that must carry `scope` (domain/accounts/scopes.ts; 403
 * INSUFFICIENT_SCOPE otherwise, checked in the one middleware stack before any work), or `none` where the
 * request carries its own credential (a download token, the trainer's bearer token, a provider's or Stripe's
 * signature) and so needs no scope.
 */
export type RouteDefinition = RouteFields &
  ({ auth?: 'api-key'; scope: ApiScope } | { auth: 'none'; scope?: undefined });

/** The versions a route is mounted under. */
export const routeVersions = (route: Pick<RouteDefinition, 'versions'>): readonly ApiVersion[] =>
  route.versions ?? API_VERSIONS;

const CURRENT_ONLY = ['v2'] as const satisfies readonly ApiVersion[];

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
    scope: 'images',
    stream: true,
    images: true,
    access: IMAGE_OPERATION,
  },
  {
    method: 'POST',
    group: 'images',
    path: '/generate',
    handler: 'images/generate',
    scope: 'images',
    stream: true,
    images: true,
    access: IMAGE_OPERATION,
  },
  {
    method: 'POST',
    group: 'images',
    path: '/enhance',
    handler: 'images/enhance',
    scope: 'images',
    stream: true,
    images: true,
    access: IMAGE_OPERATION,
  },
  {
    method: 'POST',
    group: 'images',
    path: '/remix',
    handler: 'images/remix',
    scope: 'images',
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
    scope: 'images',
    access: { bucket: { write: ['uploads'] } },
  },
  // Reads the configuration only (the route table): no secret, no item beyond the caller's key.
  { method: 'GET', group: 'images', path: '/models', handler: 'images/models', scope: 'images', access: {} },
  { method: 'GET', group: 'jobs', path: '/jobs', handler: 'jobs/jobs-list', scope: 'jobs', access: JOB_READ },
  { method: 'GET', group: 'jobs', path: '/jobs/{job_id}', handler: 'jobs/jobs', scope: 'jobs', access: JOB_READ },
  {
    method: 'GET',
    group: 'jobs',
    path: '/jobs/{job_id}/deliveries',
    handler: 'jobs/jobs-deliveries',
    scope: 'jobs',
    access: { table: 'read' },
  },
  // Queues a fresh delivery whose body carries download links.
  {
    method: 'POST',
    group: 'jobs',
    path: '/jobs/{job_id}/deliveries/redeliver',
    handler: 'jobs/jobs-redeliver',
    scope: 'jobs',
    access: { table: 'read', queues: ['callbacks'], secrets: ['downloadToken'] },
  },
  // Releases the reservation, stops the execution, queues the callback (its body carries download links).
  {
    method: 'POST',
    group: 'jobs',
    path: '/jobs/{job_id}/cancel',
    handler: 'jobs/jobs-cancel',
    scope: 'jobs',
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
    scope: 'profiles',
    // Looks up the `upload:` photos it names (their metadata) before anything is created.
    access: { table: 'write', start: ['profile-training'], bucket: { read: ['uploads'] } },
  },
  // Fetches (or reads the caller's uploads) and measures the photos with sharp; writes nothing.
  {
    method: 'POST',
    group: 'profiles',
    path: '/profiles/preflight',
    handler: 'profiles/profiles-preflight',
    scope: 'profiles',
    images: true,
    access: { bucket: { read: ['uploads'] } },
  },
  {
    method: 'GET',
    group: 'profiles',
    path: '/profiles/ids',
    handler: 'profiles/profiles-list',
    scope: 'profiles',
    access: { table: 'read' },
  },
  {
    method: 'POST',
    group: 'profiles',
    path: '/profiles/tags',
    handler: 'profiles/profiles-tags',
    scope: 'profiles',
    access: { table: 'write' },
  },
  {
    method: 'GET',
    group: 'profiles',
    path: '/profiles/{profile_id}/status',
    handler: 'profiles/profile-status',
    scope: 'profiles',
    access: { table: 'read' },
  },
  {
    method: 'GET',
    group: 'profiles',
    path: '/profiles/{profile_id}/profile_picture',
    handler: 'profiles/profile-picture',
    scope: 'profiles',
    stream: true,
    access: { table: 'read', bucket: { read: ['profiles'] } },
  },
  {
    method: 'DELETE',
    group: 'profiles',
    path: '/profiles/{profile_id}',
    handler: 'profiles/profile-delete',
    scope: 'profiles',
    // inputs: the profile's copies shown to a provider (inputs/shared/<account>/<profile>/); the training
    // providers' keys: a LoRA training there is cancelled and the provider's copies deleted (TRAINER=<provider>).
    access: {
      table: 'write',
      stop: ['profile-training'],
      bucket: { delete: ['profiles', 'inputs'] },
      secrets: TRAINER_PROVIDER_SECRETS,
    },
  },
  // The first read creates the account's secret.
  {
    method: 'GET',
    group: 'jobs',
    path: '/webhook-secret',
    handler: 'jobs/webhook-secret',
    scope: 'jobs',
    access: { table: 'write' },
  },
  {
    method: 'POST',
    group: 'jobs',
    path: '/webhook-secret/rotate',
    handler: 'jobs/webhook-secret-rotate',
    scope: 'jobs',
    access: { table: 'write' },
  },
  // Signs with the account's secrets (created on first use, like GET /webhook-secret) and POSTs through the SSRF guard.
  {
    method: 'POST',
    group: 'jobs',
    path: '/webhook-test',
    handler: 'jobs/webhook-test',
    scope: 'jobs',
    access: { table: 'write' },
  },
  {
    method: 'GET',
    group: 'account',
    path: '/account',
    handler: 'account/account',
    scope: 'account:read',
    access: { table: 'read' },
  },
  {
    method: 'GET',
    group: 'account',
    path: '/account/ledger',
    handler: 'account/account-ledger',
    scope: 'account:read',
    access: { table: 'read' },
  },
  // Money in (docs/billing.md): only these functions are granted Stripe's keys.
  {
    method: 'POST',
    group: 'account',
    path: '/account/top-ups',
    handler: 'account/account-top-ups-create',
    scope: 'billing',
    access: { table: 'write', secrets: ['stripeSecretKey'] },
    versions: CURRENT_ONLY,
  },
  {
    method: 'GET',
    group: 'account',
    path: '/account/top-ups',
    handler: 'account/account-top-ups-list',
    scope: 'billing',
    access: { table: 'read' },
    versions: CURRENT_ONLY,
  },
  {
    method: 'GET',
    group: 'account',
    path: '/account/billing',
    handler: 'account/account-billing',
    scope: 'billing',
    access: { table: 'read' },
    versions: CURRENT_ONLY,
  },
  {
    method: 'PUT',
    group: 'account',
    path: '/account/billing',
    handler: 'account/account-billing-update',
    scope: 'billing',
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
    // profile-training: a LoRA trainer's report resumes the training waiting for it (TRAINER=fal).
    access: {
      table: 'write',
      answerTasks: ['image-job', 'profile-training'],
      secrets: ['downloadToken', ...QUEUED_PROVIDER_SECRETS],
    },
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

const ROUTES_BY_RESOURCE = new Map(
  ROUTES.flatMap((route) =>
    routeVersions(route).map((version) => [`${route.method} ${routePath(version, route)}`, route]),
  ),
);

/**
 * The row of the route table an API Gateway event was routed by: its method and its resource
 * (`/v2/service/jobs/{job_id}`, which API Gateway and the local gateway both pass as `resource`).
 */
export const routeOf = (method: string, resource: string): RouteDefinition | undefined =>
  ROUTES_BY_RESOURCE.get(`${method.toUpperCase()} ${resource}`);
