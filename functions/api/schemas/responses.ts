/**
 * Response bodies, written once as valibot schemas: the OpenAPI document is generated from them
 * (functions/api/openapi/document.ts), and the integration suite checks every answer it receives
 * against that document, so a field added to a body without being added here fails the suite.
 * Objects are strict (`additionalProperties: false`) for exactly that reason.
 */
import * as v from 'valibot';
import { LEDGER_ENTRY_KINDS } from '../../domain/billing/ledger';
import { OPERATIONS } from '../../domain/engine/engine';
import { API_ERROR_CODES } from '../../domain/errors';
import { UPLOAD_CONTENT_TYPES } from '../../domain/images/uploads';
import { JOB_STATUSES } from '../../domain/jobs/job';
import { PROFILE_STATUSES, TRAINING_TIERS } from '../../domain/profiles/profile';
import { MODEL_VERSIONS } from '../../domain/shared/model-version';

const IsoDateTime = v.pipe(v.string(), v.isoTimestamp(), v.description('ISO 8601 date-time (UTC).'));
const UsdDecimal = v.pipe(
  v.string(),
  v.regex(/^-?\d+\.\d{2,6}$/),
  v.description('US dollars, exact, two to six decimals.'),
);
const MoneySchema = v.pipe(
  v.strictObject({
    usd: UsdDecimal,
    micro_usd: v.pipe(v.number(), v.integer(), v.description('The same amount in millionths of a dollar.')),
  }),
  v.title('Money'),
);

export const ErrorBodySchema = v.pipe(
  v.strictObject({
    detail: v.pipe(v.string(), v.description('What went wrong, safe to show.')),
    code: v.pipe(v.picklist(API_ERROR_CODES), v.description('Stable error code; switch on this, not on `detail`.')),
    request_id: v.pipe(v.string(), v.description('The `X-Request-Id` of this answer; quote it to support.')),
  }),
  v.title('ErrorBody'),
  v.examples([
    {
      detail: 'Job job_0123 not found.',
      code: 'NOT_FOUND' as const,
      request_id: '6f1c0c1e-3b8a-4a53-9f53-2d3c4b5a6978',
    },
  ]),
);

export const ValidationErrorBodySchema = v.pipe(
  v.strictObject({
    detail: v.array(
      v.strictObject({
        loc: v.pipe(
          v.array(v.union([v.string(), v.number()])),
          v.description('Where: `body`, `query` or `path`, then the field names and indexes.'),
        ),
        msg: v.string(),
        type: v.pipe(
          v.string(),
          v.description("pydantic v2's error type, e.g. `missing`, `literal_error`, `less_than_equal`."),
        ),
        input: v.optional(v.unknown()),
        ctx: v.optional(v.record(v.string(), v.unknown())),
      }),
    ),
  }),
  v.title('ValidationErrorBody'),
  v.examples([
    {
      detail: [
        {
          loc: ['body', 'num_output_images'],
          msg: 'Input should be less than or equal to 4',
          type: 'less_than_equal',
          input: 9,
          ctx: { le: 4 },
        },
      ],
    },
  ]),
);

const PixelBoxSchema = v.pipe(
  v.strictObject({
    x: v.pipe(v.number(), v.integer(), v.minValue(0), v.description('Left edge, pixels from the left.')),
    y: v.pipe(v.number(), v.integer(), v.minValue(0), v.description('Top edge, pixels from the top.')),
    width: v.pipe(v.number(), v.integer(), v.minValue(1)),
    height: v.pipe(v.number(), v.integer(), v.minValue(1)),
  }),
  v.title('PixelBox'),
  v.description("A face's box in whole pixels of the image it was found in (after EXIF rotation)."),
);

const RecognizedFaceSchema = v.pipe(
  v.strictObject({
    output_index: v.pipe(v.number(), v.integer(), v.minValue(0), v.description('Which output (0-based).')),
    profile_id: v.string(),
    box: v.pipe(PixelBoxSchema, v.description("The face in the output image's own pixels.")),
  }),
  v.title('RecognizedFace'),
);

export const ImageResultSchema = v.pipe(
  v.strictObject({
    known_subjects: v.strictObject({
      counts: v.pipe(
        v.record(v.string(), v.pipe(v.number(), v.integer(), v.minValue(1))),
        v.description('profile_id → how many times that subject appears, summed over all outputs (used for billing).'),
      ),
    }),
    recognized_faces: v.pipe(
      v.array(RecognizedFaceSchema),
      v.description(
        'Each recognition `known_subjects` counts (a profile at most once per output), with the face that was matched, ' +
          'for outlining it; empty when none (and for jobs finished before boxes were kept).',
      ),
    ),
    images: v.pipe(v.array(v.string()), v.description('Base64 images (`response_mode: bytes`), else empty.')),
    download_urls: v.pipe(
      v.array(v.pipe(v.string(), v.url())),
      v.description('Links valid 24 h (`response_mode: urls`), else empty.'),
    ),
  }),
  v.title('ImageResult'),
  v.examples([
    {
      known_subjects: { counts: { prf_5kq2x8: 1 } },
      recognized_faces: [
        { output_index: 0, profile_id: 'prf_5kq2x8', box: { x: 412, y: 188, width: 236, height: 251 } },
      ],
      images: [],
      download_urls: ['https://api.example.com/v2/service/downloads/dl_…'],
    },
  ]),
);

export const JobHandleSchema = v.pipe(
  v.strictObject({
    job_id: v.string(),
    status: v.literal('pending'),
    poll_url: v.pipe(v.string(), v.description('Path of this job’s status endpoint.')),
  }),
  v.title('JobHandle'),
  v.examples([{ job_id: 'job_2b7f1c', status: 'pending' as const, poll_url: '/v2/service/jobs/job_2b7f1c' }]),
);

export const JobStatusSchema = v.pipe(
  v.strictObject({
    job_id: v.string(),
    status: v.picklist(JOB_STATUSES),
    operation: v.picklist(OPERATIONS),
    created_at: IsoDateTime,
    result: v.pipe(
      v.nullable(ImageResultSchema),
      v.description('Set once `succeeded`: `download_urls` filled, `images` empty.'),
    ),
    error: v.pipe(
      v.nullable(v.strictObject({ code: v.picklist(API_ERROR_CODES), message: v.string() })),
      v.description('Set once `failed`.'),
    ),
    completed_at: v.nullable(IsoDateTime),
    progress: v.pipe(
      v.number(),
      v.minValue(0),
      v.maxValue(1),
      v.description(
        '0 while pending, the engine’s last report while running (written at most every 2 s), 1 once succeeded.',
      ),
    ),
    eta_seconds: v.pipe(
      v.nullable(v.pipe(v.number(), v.integer(), v.minValue(0))),
      v.description('Seconds left at the pace so far; null while unknown, and for a failed job.'),
    ),
    cost: v.pipe(
      v.nullable(
        v.strictObject({
          reserved: v.pipe(UsdDecimal, v.description('Reserved from the balance at submit (the floor price).')),
          final: v.pipe(
            v.nullable(UsdDecimal),
            v.description('Once ended: the price settled, or `0.00` when the reservation was refunded; null before.'),
          ),
        }),
      ),
      v.description('The job’s money in USD; null only for a job recorded before costs were kept.'),
    ),
  }),
  v.title('JobStatus'),
  v.examples([
    {
      job_id: 'job_2b7f1c',
      status: 'succeeded' as const,
      operation: 'generate' as const,
      created_at: '2026-11-23T12:00:00.000Z',
      result: {
        known_subjects: { counts: {} },
        recognized_faces: [],
        images: [],
        download_urls: ['https://api.example.com/v2/service/downloads/dl_…'],
      },
      error: null,
      completed_at: '2026-11-23T12:00:09.000Z',
      progress: 1,
      eta_seconds: 0,
      cost: { reserved: '0.04', final: '0.04' },
    },
  ]),
);

export const JobPageSchema = v.pipe(
  v.strictObject({
    jobs: v.array(JobStatusSchema),
    next_cursor: v.pipe(
      v.nullable(v.string()),
      v.description('Pass as `cursor` for the next page; null on the last page.'),
    ),
  }),
  v.title('JobPage'),
);

export const ProfileCreatedSchema = v.pipe(
  v.strictObject({ profile_id: v.string() }),
  v.title('ProfileCreated'),
  v.examples([{ profile_id: 'prf_5kq2x8' }]),
);

export const ProfileStatusSchema = v.pipe(
  v.strictObject({
    profile_id: v.string(),
    status: v.picklist(PROFILE_STATUSES),
    message: v.string(),
    progress: v.pipe(
      v.number(),
      v.minValue(0),
      v.maxValue(1),
      v.description('0 while validating, 0.1 once the photos are prepared, rising through the training, 1 once READY.'),
    ),
    eta_seconds: v.pipe(
      v.nullable(v.pipe(v.number(), v.integer(), v.minValue(0))),
      v.description(
        'Seconds of training left; null while unknown (before training starts, with a remote trainer) and for ERROR.',
      ),
    ),
  }),
  v.title('ProfileStatus'),
  v.examples([
    {
      profile_id: 'prf_5kq2x8',
      status: 'IN_PROGRESS' as const,
      message: 'The model is training.',
      progress: 0.55,
      eta_seconds: 81,
    },
  ]),
);

export const ProfileListSchema = v.pipe(
  v.strictObject({
    profiles: v.array(
      v.strictObject({ profile_id: v.string(), status: v.picklist(PROFILE_STATUSES), tag: v.nullable(v.string()) }),
    ),
  }),
  v.title('ProfileList'),
);

export const ProfileDeletedSchema = v.pipe(
  v.strictObject({ profile_id: v.string(), status: v.literal('deleted') }),
  v.title('ProfileDeleted'),
);

export const TagReportSchema = v.pipe(
  v.strictObject({
    updated: v.pipe(v.number(), v.integer(), v.minValue(0)),
    already_tagged: v.array(v.string()),
    conflicts: v.array(v.strictObject({ profile_id: v.string(), existing_tag: v.string() })),
    not_found: v.array(v.string()),
  }),
  v.title('TagReport'),
  v.examples([
    {
      updated: 2,
      already_tagged: ['prf_a'],
      conflicts: [{ profile_id: 'prf_b', existing_tag: 'alice' }],
      not_found: [],
    },
  ]),
);

export const WebhookSecretSchema = v.pipe(
  v.strictObject({
    webhook_signing_secret: v.pipe(v.string(), v.description('The HMAC key of callback signatures (both schemes).')),
    previous_secret_expires_at: v.optional(
      v.pipe(IsoDateTime, v.description('After a rotation: until when the previous secret also signs deliveries.')),
    ),
  }),
  v.title('WebhookSecret'),
);

export const TrainerEventAcceptedSchema = v.pipe(
  v.strictObject({ accepted: v.literal(true), event: v.picklist(['heartbeat', 'succeeded', 'failed']) }),
  v.title('TrainerEventAccepted'),
);

/** The OpenAPI document itself, as far as its own description goes (it is validated as OpenAPI 3.1 in the tests). */
export const OpenApiDocumentSchema = v.pipe(
  v.looseObject({
    openapi: v.literal('3.1.0'),
    info: v.looseObject({ title: v.string(), version: v.string() }),
    paths: v.record(v.string(), v.unknown()),
  }),
  v.title('OpenApiDocument'),
);

export const UploadTicketSchema = v.pipe(
  v.strictObject({
    upload_id: v.string(),
    reference: v.pipe(
      v.string(),
      v.description('Put this where an image input goes (`upload:<upload_id>`), once the PUT has succeeded.'),
    ),
    upload_url: v.pipe(v.string(), v.url(), v.description('PUT the bytes here, with `upload_headers`.')),
    upload_method: v.literal('PUT'),
    upload_headers: v.strictObject({ 'Content-Type': v.picklist(UPLOAD_CONTENT_TYPES) }),
    upload_url_expires_at: IsoDateTime,
    expires_at: v.pipe(
      IsoDateTime,
      v.description('The upload serves for 24 h after it arrives; this is the latest that can be.'),
    ),
  }),
  v.title('UploadTicket'),
  v.examples([
    {
      upload_id: 'upl_01JD3Q8X2M9Z4Y6W5V7T8S9R0P',
      reference: 'upload:upl_01JD3Q8X2M9Z4Y6W5V7T8S9R0P',
      upload_url: 'https://bucket.s3.amazonaws.com/uploads/…?X-Amz-Signature=…',
      upload_method: 'PUT' as const,
      upload_headers: { 'Content-Type': 'image/jpeg' as const },
      upload_url_expires_at: '2026-11-23T12:15:00.000Z',
      expires_at: '2026-11-24T12:15:00.000Z',
    },
  ]),
);

export const PreflightReportSchema = v.pipe(
  v.strictObject({
    training_tier: v.picklist(TRAINING_TIERS),
    accepted: v.pipe(
      v.boolean(),
      v.description('Whether profiles/add with the same body would be accepted and train.'),
    ),
    problems: v.pipe(v.array(v.string()), v.description('Why not, each a sentence; empty when accepted.')),
    usable_photos: v.pipe(
      v.number(),
      v.description('Photos the training would use: one usable face each, of the same person as the rest.'),
    ),
    needed_photos: v.pipe(v.number(), v.description('Usable photos the tier needs (fast 4, standard 8).')),
    photos: v.array(
      v.strictObject({
        index: v.number(),
        url: v.string(),
        fetched: v.boolean(),
        error: v.nullable(v.string()),
        format: v.nullable(v.string()),
        width: v.nullable(v.number()),
        height: v.nullable(v.number()),
        face: v.pipe(
          v.nullable(
            v.strictObject({
              count: v.pipe(v.number(), v.description('Faces found in the photo.')),
              usable: v.pipe(
                v.boolean(),
                v.description(
                  'Exactly one face, at least 96 px, sharp, turned at most 45°, of the same person as the rest: the training would use this photo.',
                ),
              ),
              box_px: v.pipe(v.nullable(v.number()), v.description("The single face's box side in pixels.")),
              boxes: v.pipe(
                v.array(PixelBoxSchema),
                v.description(
                  "Every face found, in the photo's own pixels after EXIF rotation, largest detector score first.",
                ),
              ),
              sharpness: v.pipe(
                v.nullable(v.number()),
                v.description('Blur measured on the aligned face: higher is sharper; below 0.005 is too blurry.'),
              ),
              yaw_degrees: v.pipe(v.nullable(v.number()), v.description('Head turn: 0 frontal, ±90 profile.')),
              same_person: v.pipe(
                v.nullable(v.boolean()),
                v.description('Whether the face is the same person as the rest of the set (null: not compared).'),
              ),
              similarity: v.pipe(
                v.nullable(v.number()),
                v.description("Cosine similarity to the mean of the set's other faces."),
              ),
            }),
          ),
          v.description('What the face analysis found; null when the photo could not be read.'),
        ),
        warnings: v.array(
          v.strictObject({
            code: v.picklist([
              'too_small',
              'duplicate',
              'near_duplicate',
              'blurry',
              'greyscale',
              'extreme_aspect',
              'no_face',
              'several_faces',
              'face_too_small',
              'face_blurry',
              'face_turned_away',
              'other_person',
            ]),
            message: v.string(),
          }),
        ),
      }),
    ),
  }),
  v.title('PreflightReport'),
);

export const AccountSchema = v.pipe(
  v.strictObject({
    account_id: v.string(),
    name: v.string(),
    balance: v.pipe(
      MoneySchema,
      v.description('The prepaid balance now (reservations of running work already taken out).'),
    ),
    default_model_version: v.picklist(MODEL_VERSIONS),
    limits: v.strictObject({
      requests_per_minute: v.pipe(
        v.number(),
        v.integer(),
        v.description('Requests per minute past which the answer is 429 `RATE_LIMITED`.'),
      ),
      running_jobs: v.pipe(
        v.number(),
        v.integer(),
        v.description('Asynchronous jobs running at once; more wait `pending`.'),
      ),
    }),
    created_at: IsoDateTime,
  }),
  v.title('Account'),
  v.examples([
    {
      account_id: 'acc_01JD5Z',
      name: 'Acme',
      balance: { usd: '99.88', micro_usd: 99880000 },
      default_model_version: 'v2' as const,
      limits: { requests_per_minute: 3000, running_jobs: 20 },
      created_at: '2026-11-23T12:00:00.000Z',
    },
  ]),
);

export const LedgerPageSchema = v.pipe(
  v.strictObject({
    entries: v.array(
      v.pipe(
        v.strictObject({
          entry_id: v.string(),
          created_at: IsoDateTime,
          kind: v.pipe(
            v.picklist(LEDGER_ENTRY_KINDS),
            v.description(
              '`credit` (money added), `reserve` (taken at submit), `settle` (the reservation’s difference to the final price given back, or a surcharge taken), `release` (a reservation refunded).',
            ),
          ),
          amount: v.pipe(MoneySchema, v.description('The signed effect on the balance.')),
          balance_after: MoneySchema,
          job_id: v.nullable(v.string()),
          profile_id: v.nullable(v.string()),
          note: v.pipe(v.nullable(v.string()), v.description('The operator’s note on a credit.')),
        }),
        v.title('LedgerEntry'),
      ),
    ),
    next_cursor: v.pipe(
      v.nullable(v.string()),
      v.description('Pass as `cursor` for older entries; null on the last page.'),
    ),
  }),
  v.title('LedgerPage'),
);

const DeliveryAnswer = {
  response_status: v.pipe(
    v.nullable(v.pipe(v.number(), v.integer())),
    v.description('The receiver’s HTTP status; null when there was no answer.'),
  ),
  error: v.pipe(
    v.nullable(v.picklist(['timeout', 'network'])),
    v.description('Why there was no answer: `timeout` (10 s) or `network` (refused, reset, TLS, a blocked address).'),
  ),
  latency_ms: v.pipe(v.number(), v.integer(), v.minValue(0)),
};

export const JobDeliveriesSchema = v.pipe(
  v.strictObject({
    job_id: v.string(),
    callback_url: v.nullable(v.string()),
    attempts: v.array(
      v.pipe(
        v.strictObject({
          delivery_id: v.pipe(
            v.string(),
            v.description('The `webhook-id` / `X-Service-Delivery-Id` the attempt carried; a redelivery has its own.'),
          ),
          attempt: v.pipe(v.number(), v.integer(), v.minValue(1)),
          at: IsoDateTime,
          ...DeliveryAnswer,
          last: v.pipe(
            v.boolean(),
            v.description(
              'No further attempt of this delivery follows: delivered (2xx), refused with 410, or the retries spent.',
            ),
          ),
        }),
        v.title('DeliveryAttempt'),
      ),
    ),
  }),
  v.title('JobDeliveries'),
);

export const RedeliverySchema = v.pipe(
  v.strictObject({ job_id: v.string(), delivery_id: v.string(), callback_url: v.string() }),
  v.title('Redelivery'),
);

export const WebhookTestResultSchema = v.pipe(
  v.strictObject({
    delivery_id: v.string(),
    url: v.string(),
    delivered: v.pipe(v.boolean(), v.description('The receiver answered 2xx.')),
    ...DeliveryAnswer,
  }),
  v.title('WebhookTestResult'),
);

const ServedBySchema = v.pipe(
  v.picklist(['hosted', 'backend', 'sandbox']),
  v.description(
    '`hosted`: a real model at a hosted provider; `backend`: the operator’s own GPU backend; `sandbox`: images made locally for development (not a real model).',
  ),
);

const ModelPricingSchema = v.variant('metering', [
  v.strictObject({
    metering: v.literal('flat'),
    per_image: v.pipe(
      v.strictObject({ '1K': v.optional(MoneySchema), '2K': v.optional(MoneySchema), '4K': v.optional(MoneySchema) }),
      v.description('The price of one output image at each resolution the model offers.'),
    ),
    identity_surcharge: v.pipe(MoneySchema, v.description('Added per recognised subject occurrence.')),
  }),
  v.strictObject({
    metering: v.literal('tokens'),
    per_thousand_output_tokens: MoneySchema,
    floor_per_image: v.pipe(MoneySchema, v.description('Charged at least, per output image; reserved at submit.')),
    identity_surcharge: MoneySchema,
  }),
  v.strictObject({
    metering: v.literal('megapixels'),
    per_megapixel: MoneySchema,
    floor_per_image: v.pipe(MoneySchema, v.description('Charged at least, per output image; reserved at submit.')),
    identity_surcharge: MoneySchema,
  }),
]);

export const ModelListSchema = v.pipe(
  v.strictObject({
    default_model: v.string(),
    models: v.array(
      v.strictObject({
        id: v.pipe(v.string(), v.description('The value of `base_model`.')),
        default: v.boolean(),
        operations: v.array(v.picklist(['edit', 'generate'])),
        resolutions: v.array(v.picklist(['1K', '2K', '4K'])),
        aspect_ratios: v.array(v.string()),
        default_aspect_ratio: v.string(),
        qualities: v.pipe(
          v.array(v.string()),
          v.description('Accepted `quality` values; empty: the model takes none.'),
        ),
        size: v.pipe(v.boolean(), v.description('Whether an exact `size` may replace the 1K tier.')),
        pricing: ModelPricingSchema,
        served_by: ServedBySchema,
        aliases: v.pipe(v.array(v.string()), v.description('Other names this deployment accepts in `base_model`.')),
      }),
    ),
    pinned: v.strictObject({
      operations: v.tuple([v.literal('enhance'), v.literal('remix')]),
      base_model: v.string(),
      resolution: v.string(),
      per_image: MoneySchema,
      per_image_with_profile: MoneySchema,
      served_by: ServedBySchema,
    }),
  }),
  v.title('ModelList'),
);
