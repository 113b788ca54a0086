/**
 * What the OpenAPI document says about each route of the route table (functions/deployment/routes.ts): its
 * summary, the valibot schemas of its request (the same ones its handler validates with) and of each
 * answer, keyed by `METHOD /path`. The document builder refuses a route without an entry here, and the
 * integration suite checks every answer it receives against what is declared, so neither can drift.
 *
 * Status codes: the spec's list per endpoint, plus what this service also answers and says so in the
 * README (429 past the account's rate limit, 413 for a body too large, 500 and 503 anywhere).
 */
import type * as v from 'valibot';
import { LedgerQuerySchema } from '../schemas/account';
import { BillingSettingsRequestSchema, TopUpRequestSchema, TopUpsQuerySchema } from '../schemas/billing';
import { RedeliverRequestSchema, WebhookTestRequestSchema } from '../schemas/callbacks';
import { EditRequestSchema, EnhanceRequestSchema, GenerateRequestSchema, RemixRequestSchema } from '../schemas/images';
import { DownloadParamsSchema, JobParamsSchema, ListJobsQuerySchema } from '../schemas/jobs';
import {
  AddProfileRequestSchema,
  ListProfilesQuerySchema,
  PreflightRequestSchema,
  ProfileParamsSchema,
  TagProfilesRequestSchema,
} from '../schemas/profiles';
import { ProviderWebhookParamsSchema, ProviderWebhookQuerySchema } from '../schemas/providers';
import {
  AccountSchema,
  BillingSettingsSchema,
  ImageResultSchema,
  JobDeliveriesSchema,
  JobHandleSchema,
  JobPageSchema,
  JobStatusSchema,
  LedgerPageSchema,
  ModelListSchema,
  OpenApiDocumentSchema,
  PreflightReportSchema,
  ProfileCreatedSchema,
  ProfileDeletedSchema,
  ProfileListSchema,
  ProfileStatusSchema,
  ProviderReportAcceptedSchema,
  RedeliverySchema,
  StripeWebhookReceiptSchema,
  TagReportSchema,
  TopUpCreatedSchema,
  TopUpPageSchema,
  TrainerEventAcceptedSchema,
  UploadTicketSchema,
  WebhookSecretSchema,
  WebhookTestResultSchema,
} from '../schemas/responses';
import { TrainerCallbackSchema } from '../schemas/training';
import { CreateUploadRequestSchema } from '../schemas/uploads';

export type ErrorStatus = 400 | 401 | 402 | 403 | 404 | 409 | 410 | 413 | 422 | 429 | 500 | 503 | 504;

/** A successful answer: a JSON body, raw bytes of one media type, or a redirect. */
export type SuccessAnswer =
  | { description: string; json: v.GenericSchema; headers?: readonly ResponseHeader[] }
  | { description: string; media: 'image/jpeg' | 'text/html' | 'text/javascript' }
  | { description: string; redirect: true };

export type ResponseHeader = 'Idempotent-Replayed' | 'X-Job-Id' | 'X-Service-Deprecation-Date';

export interface OperationDoc {
  operationId: string;
  tag:
    | 'Images'
    | 'Jobs'
    | 'Account'
    | 'Billing'
    | 'Profiles'
    | 'Webhooks'
    | 'Downloads'
    | 'Training backends'
    | 'Providers'
    | 'Documentation';
  summary: string;
  description?: string;
  body?: v.GenericSchema;
  /** The body may be left out (it reads as `{}`). */
  bodyOptional?: true;
  /** A request example; the image operations show one each. */
  bodyExample?: unknown;
  query?: v.ObjectSchema<v.ObjectEntries, undefined>;
  params?: v.ObjectSchema<v.ObjectEntries, undefined>;
  success: Partial<Record<200 | 201 | 202 | 302, SuccessAnswer>>;
  errors: readonly ErrorStatus[];
}

const IMAGE_ERRORS = [400, 401, 402, 403, 404, 413, 422, 429, 500, 503, 504] as const;
const IMAGE_HEADERS = ['Idempotent-Replayed', 'X-Service-Deprecation-Date'] as const;
const PROFILE_ERRORS = [401, 402, 403, 404, 422, 429, 500, 503] as const;

const imageOperation = (
  operationId: string,
  summary: string,
  body: v.GenericSchema,
  bodyExample: unknown,
  description: string,
): OperationDoc => ({
  operationId,
  tag: 'Images',
  summary,
  description:
    `${description}\n\nSynchronous by default (200 with the result); with \`async: true\` the answer is 202 with a job handle, ` +
    'polled at `poll_url` or delivered to `callback_url`. The floor price is reserved before any work and settled to the final ' +
    'price, or released on failure. `client_request_id` makes the submit idempotent: a repeat answers the original with ' +
    '`Idempotent-Replayed: true` and charges nothing.',
  body,
  bodyExample,
  success: {
    200: {
      description: 'The image result (`images` filled for `response_mode: bytes`, `download_urls` for `urls`).',
      json: ImageResultSchema,
      headers: [...IMAGE_HEADERS, 'X-Job-Id'],
    },
    202: { description: 'The job handle of an asynchronous submit.', json: JobHandleSchema, headers: IMAGE_HEADERS },
  },
  errors: IMAGE_ERRORS,
});

export const OPERATION_DOCS: Readonly<Record<string, OperationDoc>> = {
  'POST /edit': imageOperation(
    'edit',
    'Edit 1-10 images from a prompt',
    EditRequestSchema,
    {
      prompt: 'Put [[prf_5kq2x8]] on a beach at sunset',
      images: ['https://example.com/photo.jpg'],
      output_format: 'jpg',
    },
    'Edits the input images by a text prompt; profiles named in `profile_ids` or as `[[<profile_id>]]` in the prompt keep their identity.',
  ),
  'POST /generate': imageOperation(
    'generate',
    'Generate images from a prompt',
    GenerateRequestSchema,
    { prompt: 'a lighthouse at dawn', resolution: '2K', aspect_ratio: '16:9' },
    'Creates images from a prompt with no input image; profiles are referenced only as `[[<profile_id>]]` in the prompt.',
  ),
  'POST /enhance': imageOperation(
    'enhance',
    'Enhance one image (2K)',
    EnhanceRequestSchema,
    { image: 'https://example.com/photo.jpg', profile_ids: ['prf_5kq2x8'] },
    'Improves one image; pinned to the default base model at 2K (`base_model`, `aspect_ratio` and `resolution` are refused).',
  ),
  'POST /remix': imageOperation(
    'remix',
    'Remix an image in the style of another',
    RemixRequestSchema,
    { input_image: 'https://example.com/content.jpg', reference_image: 'https://example.com/style.jpg' },
    'Renders the content of `input_image` in the style of `reference_image`, at 2K in the input’s aspect ratio.',
  ),
  'POST /uploads': {
    operationId: 'createUpload',
    tag: 'Images',
    summary: 'Upload a large input directly',
    description:
      'For an input too large to send inline (request bodies are limited to 6 MB): answers a presigned URL that takes a PUT of ' +
      'exactly `size_bytes` bytes of `content_type` (up to 50 MiB) for 15 minutes, and the `reference` (`upload:<upload_id>`) to send ' +
      'wherever an image input is accepted. The upload belongs to this account (another account’s reference is 404) and serves ' +
      'for 24 h after it arrives; it is checked like any input when used.',
    body: CreateUploadRequestSchema,
    bodyExample: { size_bytes: 12582912, content_type: 'image/jpeg' },
    success: {
      200: { description: 'Where to PUT the bytes, and the reference to use afterwards.', json: UploadTicketSchema },
    },
    errors: [422],
  },
  'GET /jobs': {
    operationId: 'listJobs',
    tag: 'Jobs',
    summary: 'List the account’s jobs',
    description: 'Newest first, synchronous calls included; one page per call, continued with `cursor`.',
    query: ListJobsQuerySchema,
    success: { 200: { description: 'One page of jobs.', json: JobPageSchema } },
    // 400: a cursor that is not one this service handed out.
    errors: [400, 401, 403, 422, 429, 500, 503],
  },
  'GET /jobs/{job_id}': {
    operationId: 'getJob',
    tag: 'Jobs',
    summary: 'Poll a job',
    description:
      'The authoritative outcome of a job. Another account’s job is 404; 24 h after completion, 410 `JOB_EXPIRED`.',
    params: JobParamsSchema,
    success: { 200: { description: 'The job status; the same body a callback carries.', json: JobStatusSchema } },
    errors: [401, 403, 404, 410, 422, 429, 500, 503],
  },
  'POST /jobs/{job_id}/cancel': {
    operationId: 'cancelJob',
    tag: 'Jobs',
    summary: 'Cancel a job',
    description:
      'A `pending` or `running` asynchronous job stops: it ends `failed` with `error.code` `CANCELED`, its reservation is refunded, ' +
      'and its callback is sent. A job that has already ended (or whose success crossed the cancel) is 409 `JOB_NOT_CANCELABLE`, ' +
      'as is a synchronous call. Submit with `cancel_after` to have a job canceled by a deadline.',
    params: JobParamsSchema,
    success: { 200: { description: 'The canceled job’s status.', json: JobStatusSchema } },
    errors: [404, 409, 422],
  },
  'GET /jobs/{job_id}/deliveries': {
    operationId: 'listJobDeliveries',
    tag: 'Jobs',
    summary: 'A job’s callback delivery attempts',
    description:
      'Every attempt to deliver the job’s callback (and its redeliveries), oldest first: when, the receiver’s status or why there was none, ' +
      'the latency, and whether it was the last of its delivery. Attempts are kept while the job is (24 h after completion).',
    params: JobParamsSchema,
    success: { 200: { description: 'The attempts.', json: JobDeliveriesSchema } },
    errors: [404, 410, 422],
  },
  'POST /jobs/{job_id}/deliveries/redeliver': {
    operationId: 'redeliverJobCallback',
    tag: 'Jobs',
    summary: 'Deliver a job’s callback again',
    description:
      'Queues a fresh delivery of an ended job’s event: a new delivery id (receivers that deduplicate by id take it), the body a poll ' +
      'answers now, signed when sent, with the same retries. To the job’s `callback_url`, or to `callback_url` in the body (required ' +
      'for a job submitted without one; the same address rules). 409 `JOB_NOT_FINISHED` while the job is pending or running. ' +
      'Webhook tests and redeliveries together are limited to 30 a minute per account (429 `RATE_LIMITED`).',
    params: JobParamsSchema,
    body: RedeliverRequestSchema,
    bodyOptional: true,
    success: {
      202: { description: 'The delivery is queued; its attempts appear under /deliveries.', json: RedeliverySchema },
    },
    // 400: no callback_url in the body for a job submitted without one.
    errors: [400, 404, 409, 410, 422],
  },
  'GET /downloads/{token}': {
    operationId: 'download',
    tag: 'Downloads',
    summary: 'Follow a download link',
    description: 'The token is the credential (no API key). Redirects to a short-lived URL of the image.',
    params: DownloadParamsSchema,
    success: { 302: { description: 'Redirect to the image.', redirect: true } },
    errors: [404, 410, 422, 500, 503],
  },
  'POST /profiles/add': {
    operationId: 'addProfile',
    tag: 'Profiles',
    summary: 'Create a profile from photos',
    description: 'Reserves the tier’s price (Full Train 2.90, Quick Train 1.49) and starts training at once.',
    body: AddProfileRequestSchema,
    bodyExample: {
      image_urls: [
        'https://example.com/1.jpg',
        'https://example.com/2.jpg',
        'https://example.com/3.jpg',
        'https://example.com/4.jpg',
        'https://example.com/5.jpg',
      ],
      training_tier: 'fast',
      tag: 'customer-42',
    },
    success: { 200: { description: 'The new profile’s id.', json: ProfileCreatedSchema } },
    errors: [...PROFILE_ERRORS, 413],
  },
  'POST /profiles/preflight': {
    operationId: 'preflightProfile',
    tag: 'Profiles',
    summary: 'Check a training set, free',
    description:
      'Fetches and checks each photo as training would (the same URL rules and image checks) and says, per photo, whether it was ' +
      'fetched, its format and dimensions, and warnings (too small, duplicate or near-duplicate, very blurry, greyscale, extreme ' +
      'aspect); overall, whether `profiles/add` with the same body would be accepted and why not. Nothing is created or charged. ' +
      'It answers within 25 s: a photo not reached by then is `status: "not_checked"`. What a direct upload (`upload:` reference) ' +
      'turned out to be is remembered for a day, by its id and ETag, so sending the preflight again as photos arrive reads only the new ones.',
    body: PreflightRequestSchema,
    bodyExample: { image_urls: ['https://example.com/1.jpg', 'https://example.com/2.jpg'], training_tier: 'fast' },
    success: { 200: { description: 'The report.', json: PreflightReportSchema } },
    errors: [422],
  },
  'GET /profiles/ids': {
    operationId: 'listProfiles',
    tag: 'Profiles',
    summary: 'List the account’s profiles',
    query: ListProfilesQuerySchema,
    success: { 200: { description: 'Every profile of the account (or with the tag).', json: ProfileListSchema } },
    errors: PROFILE_ERRORS,
  },
  'POST /profiles/tags': {
    operationId: 'tagProfiles',
    tag: 'Profiles',
    summary: 'Backfill tags',
    description: 'Sets a tag only where a profile has none; every entry lands in exactly one bucket of the report.',
    body: TagProfilesRequestSchema,
    bodyExample: { tags: [{ profile_id: 'prf_5kq2x8', tag: 'customer-42' }] },
    success: { 200: { description: 'The tag report.', json: TagReportSchema } },
    errors: [401, 403, 413, 422, 429, 500, 503],
  },
  'GET /profiles/{profile_id}/status': {
    operationId: 'getProfileStatus',
    tag: 'Profiles',
    summary: 'Read a profile’s training status',
    params: ProfileParamsSchema,
    success: { 200: { description: 'The profile status.', json: ProfileStatusSchema } },
    errors: PROFILE_ERRORS,
  },
  'GET /profiles/{profile_id}/profile_picture': {
    operationId: 'getProfilePicture',
    tag: 'Profiles',
    summary: 'Read a profile’s picture',
    params: ProfileParamsSchema,
    success: { 200: { description: 'The picture.', media: 'image/jpeg' } },
    errors: PROFILE_ERRORS,
  },
  'DELETE /profiles/{profile_id}': {
    operationId: 'deleteProfile',
    tag: 'Profiles',
    summary: 'Delete a profile and its data',
    description: 'Stops training, refunds an unsettled reservation, deletes the photos, picture and record.',
    params: ProfileParamsSchema,
    success: { 200: { description: 'Deleted.', json: ProfileDeletedSchema } },
    errors: PROFILE_ERRORS,
  },
  'GET /models': {
    operationId: 'listModels',
    tag: 'Images',
    summary: 'List the base models, what each accepts and costs',
    description:
      'Every base model with its operations, resolutions, aspect ratios, `quality` values, `size` support and prices, and whether a real hosted model serves it in this deployment (`served_by`). Enhance and remix are pinned (`pinned`).',
    success: { 200: { description: 'The catalog.', json: ModelListSchema } },
    errors: [401, 403, 429, 500, 503],
  },
  'GET /webhook-secret': {
    operationId: 'getWebhookSecret',
    tag: 'Webhooks',
    summary: 'Read the callback signing secret',
    description:
      'Created on first use. Callbacks carry `X-Service-Signature` and the Standard Webhooks headers (docs/callbacks.md).',
    success: { 200: { description: 'The secret.', json: WebhookSecretSchema } },
    errors: [401, 403, 429, 500, 503],
  },
  'POST /webhook-secret/rotate': {
    operationId: 'rotateWebhookSecret',
    tag: 'Webhooks',
    summary: 'Rotate the callback signing secret',
    description:
      'Answers a new secret; for 24 h deliveries are signed with both the new and the previous one (docs/callbacks.md).',
    success: {
      200: { description: 'The new secret and until when the previous one still signs.', json: WebhookSecretSchema },
    },
    errors: [401, 403, 429, 500, 503],
  },
  'POST /webhook-test': {
    operationId: 'testWebhook',
    tag: 'Webhooks',
    summary: 'Send a signed test event',
    description:
      'POSTs one test event (`{"type": "webhook.test", …}`) to `url`, signed exactly as callbacks are (Standard Webhooks headers and ' +
      '`X-Service-Signature`, with every live secret), through the same guarded client (https only, public addresses only, 10 s), and ' +
      'answers what the receiver did. Nothing is retried or recorded; an unreachable receiver is a 200 that says so. Webhook tests ' +
      'and redeliveries together are limited to 30 a minute per account (429 `RATE_LIMITED`).',
    body: WebhookTestRequestSchema,
    bodyExample: { url: 'https://example.com/webhooks/images' },
    success: {
      200: { description: 'What the receiver answered, or why there was no answer.', json: WebhookTestResultSchema },
    },
    errors: [422],
  },
  'GET /account': {
    operationId: 'getAccount',
    tag: 'Account',
    summary: 'The account: balance and limits',
    description:
      'The prepaid balance (read strongly: reservations of running work already taken out), the default model version, and the limits in force.',
    success: { 200: { description: 'The account.', json: AccountSchema } },
    errors: [],
  },
  'GET /account/ledger': {
    operationId: 'getLedger',
    tag: 'Account',
    summary: 'The account’s ledger',
    description:
      'Every change of the balance, newest first, each with the balance after it and the job or profile it belongs to: `credit`, ' +
      '`reserve` (at submit), `settle` (the difference to the final price) and `release` (a refund). One page per call, continued with `cursor`.',
    query: LedgerQuerySchema,
    success: { 200: { description: 'One page of entries.', json: LedgerPageSchema } },
    // 400: a cursor that is not one this service handed out.
    errors: [400, 422],
  },
  'POST /account/top-ups': {
    operationId: 'createTopUp',
    tag: 'Billing',
    summary: 'Top up the balance (Stripe Checkout)',
    description:
      'Opens a Stripe Checkout page for `amount` US dollars and answers where it is. The balance is credited when Stripe confirms ' +
      'the payment to this service (its webhook), exactly once, with the amount Stripe reports; returning from Checkout credits ' +
      'nothing by itself. Checkout sends the developer back to the portal’s Billing page. 422 for an amount that is not dollars ' +
      'with at most two decimals, outside the operator’s limits, or a currency other than `usd`; 503 when the operator has not ' +
      'configured Stripe.',
    body: TopUpRequestSchema,
    bodyExample: { amount: '25.00' },
    success: { 201: { description: 'The pending top-up and its Checkout page.', json: TopUpCreatedSchema } },
    errors: [422],
  },
  'GET /account/top-ups': {
    operationId: 'listTopUps',
    tag: 'Billing',
    summary: 'The account’s top-ups',
    description: 'Newest first, one page per call, continued with `cursor`.',
    query: TopUpsQuerySchema,
    success: { 200: { description: 'One page of top-ups.', json: TopUpPageSchema } },
    errors: [400, 422],
  },
  'GET /account/billing': {
    operationId: 'getBillingSettings',
    tag: 'Billing',
    summary: 'Auto-recharge and the low-balance notice',
    description:
      'The account’s billing settings, its balance, and the debt a refund or a lost dispute left (docs/billing.md).',
    success: { 200: { description: 'The settings.', json: BillingSettingsSchema } },
    errors: [],
  },
  'PUT /account/billing': {
    operationId: 'updateBillingSettings',
    tag: 'Billing',
    summary: 'Set auto-recharge and the low-balance notice',
    description:
      'Each field given replaces what was set (null clears it). Auto-recharge needs a card saved at a top-up paid with `save_card: true` ' +
      '(400 otherwise) and charges at least the smallest top-up. After a job’s settle leaves the balance below `auto_recharge.threshold`, ' +
      'the card is charged off-session for `auto_recharge.amount`, at most once an hour; a decline or a bank asking for authentication ' +
      'turns it off and sends `auto_recharge.failed` to `webhook_url`. Below `low_balance_threshold`, one `balance.low` event is sent ' +
      'to `webhook_url` per crossing, signed as callbacks are.',
    body: BillingSettingsRequestSchema,
    bodyExample: {
      auto_recharge: { enabled: true, threshold: '5.00', amount: '25.00' },
      low_balance_threshold: '10.00',
      webhook_url: 'https://example.com/webhooks/account',
    },
    success: { 200: { description: 'The settings now.', json: BillingSettingsSchema } },
    errors: [400, 422],
  },
  'POST /billing/stripe/webhook': {
    operationId: 'stripeWebhook',
    tag: 'Billing',
    summary: 'Stripe’s events (for Stripe only)',
    description:
      'Where the operator points its Stripe webhook endpoint (docs/billing.md). Authenticated by the `Stripe-Signature` header over ' +
      'the raw body, not an API key: a missing or bad signature is a 400 and changes nothing. `checkout.session.completed` (paid) and ' +
      '`checkout.session.async_payment_succeeded` credit a top-up once; `charge.refunded` and a lost `charge.dispute.closed` debit ' +
      'what was returned; other events are answered 200 and ignored.',
    success: { 200: { description: 'The event was acted on, or ignored.', json: StripeWebhookReceiptSchema } },
    errors: [400, 413, 500, 503],
  },
  'POST /internal/trainer-callback': {
    operationId: 'trainerCallback',
    tag: 'Training backends',
    summary: 'A training backend reports (internal)',
    description:
      'For a training backend (`TRAINER=http`), authenticated by the trainer bearer token, not an API key (docs/trainer-contract.md).',
    body: TrainerCallbackSchema,
    success: {
      200: { description: 'The report was forwarded to the waiting training.', json: TrainerEventAcceptedSchema },
    },
    errors: [400, 401, 404, 413, 422, 500, 503],
  },
  'POST /providers/{provider}/webhook': {
    operationId: 'providerWebhook',
    tag: 'Providers',
    summary: 'A queued provider reports a request’s end (internal)',
    description:
      'For a provider that queues work (MODEL_ROUTES naming one, `{provider}` its id; another id is a 404): the callback URL the ' +
      'service gives it with the work, carrying the job and our token; verified by the provider’s own signature over the raw body ' +
      '(for each provider, docs/providers.md), not an API key. A report of a job that has ended or is gone, or of a request the ' +
      'job does not hold, is answered 200 with `accepted: false` (logged), so that the provider stops delivering it.',
    params: ProviderWebhookParamsSchema,
    query: ProviderWebhookQuerySchema,
    success: {
      200: {
        description:
          'The report was recorded (or was a duplicate of one recorded; a duplicate resumes a job whose first resume failed), ' +
          'or ignored (`accepted: false`).',
        json: ProviderReportAcceptedSchema,
      },
    },
    errors: [400, 401, 404, 413, 422, 500, 503],
  },
  'GET /openapi.json': {
    operationId: 'openapi',
    tag: 'Documentation',
    summary: 'This OpenAPI document',
    success: { 200: { description: 'The OpenAPI 3.1 document.', json: OpenApiDocumentSchema } },
    errors: [500, 503],
  },
  'GET /docs': {
    operationId: 'docs',
    tag: 'Documentation',
    summary: 'The API reference page',
    description:
      'Rendered in the browser by Scalar from this document; the renderer is served by the service itself (no CDN).',
    success: { 200: { description: 'The page.', media: 'text/html' } },
    errors: [500, 503],
  },
  'GET /docs/scalar.js': {
    operationId: 'docsRenderer',
    tag: 'Documentation',
    summary: 'The reference page’s renderer (Scalar)',
    success: { 200: { description: 'The script.', media: 'text/javascript' } },
    errors: [500, 503],
  },
};
