import * as v from 'valibot';

/** The query of the URL the service gives fal as `fal_webhook`: the job, and our token for it (domain/workflow/reports.ts). */
export const FalWebhookQuerySchema = v.object({
  account: v.pipe(v.string(), v.minLength(1), v.maxLength(128)),
  job: v.pipe(v.string(), v.minLength(1), v.maxLength(128)),
  sig: v.pipe(v.string(), v.minLength(1), v.maxLength(128)),
});
