/**
 * The route table: every HTTP route is declared once, here. The CDK stack creates one function per row
 * and mounts it under every API version prefix; the local runtime serves the same rows.
 */
import type { WorkflowName } from '../shared/env-names';

export const API_VERSIONS = ['v2', 'v1'] as const;
export type ApiVersion = (typeof API_VERSIONS)[number];
export const CURRENT_API_VERSION: ApiVersion = 'v2';

export interface RouteDefinition {
  method: 'GET' | 'POST' | 'DELETE';
  /** Path after `/<version>/service`, with `{name}` path parameters. */
  path: string;
  /** Handler module under `functions/api/`, without extension; it exports `handler`. */
  handler: string;
  /** Long-running or large responses: API Gateway STREAM integration with a 15-minute timeout. */
  stream?: boolean;
  /** The function needs sharp (and the HEIC decoder) installed as linux node modules. */
  images?: boolean;
  /** `none` where the request carries its own credential (a download token, the trainer's bearer token). */
  auth?: 'api-key' | 'none';
  memoryMb?: number;
  /** The workflow whose waiting Tasks this route answers (SendTaskSuccess/Failure/Heartbeat). */
  answersTasksOf?: WorkflowName;
}

export const ROUTES: readonly RouteDefinition[] = [
  { method: 'POST', path: '/edit', handler: 'edit', stream: true, images: true },
  { method: 'POST', path: '/generate', handler: 'generate', stream: true, images: true },
  { method: 'POST', path: '/enhance', handler: 'enhance', stream: true, images: true },
  { method: 'POST', path: '/remix', handler: 'remix', stream: true, images: true },
  { method: 'GET', path: '/jobs', handler: 'jobs-list' },
  { method: 'GET', path: '/jobs/{job_id}', handler: 'jobs' },
  { method: 'GET', path: '/downloads/{token}', handler: 'downloads', auth: 'none' },
  { method: 'POST', path: '/profiles/add', handler: 'profiles-add' },
  { method: 'GET', path: '/profiles/ids', handler: 'profiles-list' },
  { method: 'POST', path: '/profiles/tags', handler: 'profiles-tags' },
  { method: 'GET', path: '/profiles/{profile_id}/status', handler: 'profile-status' },
  { method: 'GET', path: '/profiles/{profile_id}/profile_picture', handler: 'profile-picture', stream: true },
  { method: 'DELETE', path: '/profiles/{profile_id}', handler: 'profile-delete' },
  { method: 'GET', path: '/webhook-secret', handler: 'webhook-secret' },
  { method: 'POST', path: '/internal/trainer-callback', handler: 'trainer-callback', auth: 'none', answersTasksOf: 'profile-training' },
];

/** The full public path of a route under a version prefix, e.g. `/v2/service/webhook-secret`. */
export const routePath = (version: ApiVersion, route: Pick<RouteDefinition, 'path'>): string =>
  `/${version}/service${route.path}`;
