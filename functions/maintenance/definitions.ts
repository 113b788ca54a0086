/** The scheduled sweep of abandoned work (lib/constructs/maintenance.ts schedules it). */
import type { Access } from '../deployment/access';
import { QUEUED_PROVIDER_SECRETS } from '../deployment/providers';

export const ABANDONED_WORK = {
  handler: 'functions/maintenance/close-abandoned-work',
  /**
   * Finds open work by a Scan, reads each execution's state, releases what is lost and stops its queued
   * provider work; finishes the automatic charges left unfinished (Stripe's key; a decline's notice).
   */
  access: {
    table: 'write',
    scan: true,
    describe: ['image-job', 'profile-training'],
    queues: ['callbacks'],
    secrets: [...QUEUED_PROVIDER_SECRETS, 'stripeSecretKey'],
  } satisfies Access,
} as const;
