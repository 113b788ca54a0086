/**
 * The API's public paths, shared by the route table (functions/deployment/routes.ts) and by what tells the world
 * where to call back (a queued provider's webhook URL, named when its work is submitted): the versions,
 * the `/service` prefix and the one path every queued provider reports to.
 */

export const API_VERSIONS = ['v2', 'v1'] as const;
export type ApiVersion = (typeof API_VERSIONS)[number];
export const CURRENT_API_VERSION: ApiVersion = 'v2';

/** The full public path of a route under a version prefix, e.g. `/v2/service/webhook-secret`. */
export const routePath = (version: ApiVersion, route: { readonly path: string }): string =>
  `/${version}/service${route.path}`;

/** Where every queued provider reports back, by its id (api/providers/provider-webhook.ts). */
export const PROVIDER_WEBHOOK_PATH = '/providers/{provider}/webhook';

/**
 * The full public URL of a queued provider's webhook (the callback its submit names) on the API at `baseUrl`
 * (`https://…/prod`): the route's path with the provider's id, under the current version.
 */
export const providerWebhookUrl = (baseUrl: string, provider: string): string =>
  `${baseUrl}${routePath(CURRENT_API_VERSION, { path: PROVIDER_WEBHOOK_PATH.replace('{provider}', encodeURIComponent(provider)) })}`;
