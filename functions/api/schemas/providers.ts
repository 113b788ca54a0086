import * as v from 'valibot';

/** The provider a webhook is for: any name here; one that is unknown or does not queue is a 404 (the handler). */
export const ProviderWebhookParamsSchema = v.object({
  provider: v.pipe(v.string(), v.minLength(1), v.maxLength(64)),
});

/**
 * The query of the callback URL the service gives a queued provider: the job (domain/workflow/reports.ts) or
 * the profile whose training it runs (domain/profiles/lora-training.ts), exactly one, and our token for it.
 */
export const ProviderWebhookQuerySchema = v.pipe(
  v.object({
    account: v.pipe(v.string(), v.minLength(1), v.maxLength(128)),
    job: v.optional(v.pipe(v.string(), v.minLength(1), v.maxLength(128))),
    profile: v.optional(v.pipe(v.string(), v.minLength(1), v.maxLength(128))),
    sig: v.pipe(v.string(), v.minLength(1), v.maxLength(128)),
  }),
  v.check(
    (query) => (query.job === undefined) !== (query.profile === undefined),
    'The URL names a job or a profile (one of them).',
  ),
);
