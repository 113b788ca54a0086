/**
 * Response bodies, written once as valibot schemas: the OpenAPI document is generated from them
 * (functions/api/openapi/document.ts), and the integration suite checks every answer it receives
 * against that document, so a field added to a body without being added here fails the suite.
 * Objects are strict (`additionalProperties: false`) for exactly that reason.
 *
 * One file per resource, beside the request shapes' files of the same name in ../ (common.ts: the pieces
 * they share); this index is what the OpenAPI document imports.
 */
export { AccountSchema, LedgerPageSchema } from './account';
export { BillingSettingsSchema, StripeWebhookReceiptSchema, TopUpCreatedSchema, TopUpPageSchema } from './billing';
export {
  JobDeliveriesSchema,
  RedeliverySchema,
  WebhookSecretSchema,
  WebhookTestResultSchema,
} from './callbacks';
export { OpenApiDocumentSchema } from './documentation';
export { ErrorBodySchema, ValidationErrorBodySchema } from './errors';
export { ImageResultSchema } from './images';
export { JobHandleSchema, JobPageSchema, JobStatusSchema } from './jobs';
export { ModelListSchema } from './models';
export {
  PreflightReportSchema,
  ProfileCreatedSchema,
  ProfileDeletedSchema,
  ProfileListSchema,
  ProfileStatusSchema,
  TagReportSchema,
} from './profiles';
export { ProviderReportAcceptedSchema, TrainerEventAcceptedSchema } from './training';
export { UploadTicketSchema } from './uploads';
