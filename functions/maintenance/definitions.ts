/** The scheduled sweep of abandoned work (lib/constructs/maintenance.ts schedules it). */
import type { Access } from '../deployment/access';
import { QUEUED_PROVIDER_SECRETS } from '../deployment/providers';

export const ABANDONED_WORK = {
  handler: 'functions/maintenance/close-abandoned-work',
  /** Finds open work by a Scan, reads each execution's state, releases what is lost and stops its queued provider work. */
  access: {
    table: 'write',
    scan: true,
    describe: ['image-job', 'profile-training'],
    secrets: QUEUED_PROVIDER_SECRETS,
  } satisfies Access,
} as const;
