/**
 * The developer portal's one function, mounted outside the versioned API: `ANY /portal` and
 * `ANY /portal/{proxy+}` (the page, its assets and its JSON API; functions/portal/handler.ts). It is not
 * part of the public API or its OpenAPI document.
 */
import type { Access } from '../deployment/access';

export const PORTAL_ROUTE = {
  /** Handler module, relative to the repository root; it exports `handler`. */
  handler: 'functions/portal/handler',
  paths: ['/portal', '/portal/{proxy+}'],
  /**
   * Everything its pages do: read the account, its ledger, jobs and deliveries; keys and the webhook secret
   * (table writes); count sign-in attempts and redeliveries (the rate counters); show and delete profile
   * pictures and stop a deleted profile's training; queue redeliveries, whose bodies carry download links;
   * open top-ups' Checkout pages (Stripe's secret key, the one function besides POST /account/top-ups).
   */
  access: {
    table: 'write',
    rateCounter: true,
    bucket: { read: ['profiles'], delete: ['profiles'] },
    stop: ['profile-training'],
    queues: ['callbacks'],
    secrets: ['downloadToken', 'stripeSecretKey'],
  } satisfies Access as Access,
} as const;
