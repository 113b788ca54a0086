/** The scheduled sweep of abandoned work (lib/constructs/maintenance.ts schedules it). */
import type { Access } from '../deployment/access';

export const ABANDONED_WORK = {
  handler: 'functions/maintenance/close-abandoned-work',
  /** Finds open work by a Scan, reads each execution's state, releases what is lost. */
  access: { table: 'write', scan: true, describe: ['image-job', 'profile-training'] } satisfies Access,
} as const;
