import * as v from 'valibot';

/** The provider a webhook is for: any name here; one that is unknown or does not queue is a 404 (the handler). */
export const ProviderWebhookParamsSchema = v.object({
  provider: v.pipe(v.string(), v.minLength(1), v.maxLength(64)),
});

/** The query of the callback URL the service gives a queued provider: the job, and our token for it (domain/workflow/reports.ts). */
export const ProviderWebhookQuerySchema = v.object({
  account: v.pipe(v.string(), v.minLength(1), v.maxLength(128)),
  job: v.pipe(v.string(), v.minLength(1), v.maxLength(128)),
  sig: v.pipe(v.string(), v.minLength(1), v.maxLength(128)),
});
