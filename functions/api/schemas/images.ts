/**
 * Request bodies of the four image operations: the single source of the request types, the 422
 * validation and the OpenAPI document. Each operation is the common fields plus its own; unknown fields
 * are stripped. Rules that need the base-model catalog (unknown model, unsupported resolution, quality,
 * `auto`, `size` limits) are 400s decided by the domain (`resolveOutputSpec`), not here.
 */
import * as v from 'valibot';
import { ASPECT_RATIOS, PINNED_MODEL, QUALITIES, RESOLUTIONS } from '../../domain/catalog/catalog';
import { SIZE_PATTERN } from '../../domain/catalog/size-text';
import { OUTPUT_FORMATS } from '../../domain/engine/engine';
import { IDENTITY_CHECKS } from '../../domain/engine/identity';
import { CallbackUrlSchema } from './callbacks';

const MAX_PROMPT_CHARS = 5000;
const MAX_PROFILE_IDS = 50;
const MAX_EDIT_IMAGES = 10;
/** A day: longer than any job may run (the asynchronous budget is 30 minutes). */
const MAX_CANCEL_AFTER_SECONDS = 86_400;

const ImageInput = v.pipe(
  v.string(),
  v.minLength(1, 'An image must be a base64 string or a URL.'),
  v.description(
    'Base64 (bare or a data URI), an http(s) URL, or `upload:<upload_id>` from POST /uploads. JPEG, PNG, WebP or HEIC/HEIF.',
  ),
);

const Prompt = v.pipe(
  v.string(),
  v.maxLength(MAX_PROMPT_CHARS, `The prompt must be at most ${MAX_PROMPT_CHARS} characters.`),
);

const ProfileIds = v.pipe(
  v.array(v.pipe(v.string(), v.minLength(1, 'A profile id must not be empty.'))),
  v.maxLength(MAX_PROFILE_IDS, `At most ${MAX_PROFILE_IDS} profile ids may be referenced.`),
);

const CommonFields = {
  async: v.optional(v.boolean(), false),
  callback_url: v.optional(CallbackUrlSchema),
  client_request_id: v.optional(
    v.pipe(
      v.string(),
      v.minLength(1, 'client_request_id must not be empty.'),
      v.maxLength(128, 'client_request_id must be at most 128 characters.'),
    ),
  ),
  cancel_after: v.optional(
    v.pipe(
      v.number(),
      v.integer(),
      v.minValue(1),
      v.maxValue(MAX_CANCEL_AFTER_SECONDS),
      v.description(
        'With `async: true`: cancel the job (failed, `CANCELED`, refunded) if it has not ended this many seconds after submit.',
      ),
    ),
  ),
  /** Default `bytes`, or `urls` for an async request (decided after the cross-field rules). */
  response_mode: v.optional(v.picklist(['bytes', 'urls'])),
  /** The default depends on the date (configuration), so the use case decides it. */
  output_format: v.optional(v.picklist(OUTPUT_FORMATS)),
  num_output_images: v.optional(
    v.pipe(
      v.number(),
      v.integer('num_output_images must be an integer.'),
      v.minValue(1, 'num_output_images must be from 1 to 4.'),
      v.maxValue(4, 'num_output_images must be from 1 to 4.'),
    ),
    1,
  ),
  identity_check: v.optional(
    v.pipe(
      v.picklist(IDENTITY_CHECKS),
      v.description(
        '`report` (default): each output says which expected subjects (named in the prompt, or recognised in the input) it kept, with a similarity on every recognised face. `retry`: also make again, at most twice, an output missing an expected subject, and deliver its best attempt (you pay for the delivered outputs only). `off`: no identity block.',
      ),
    ),
    'report',
  ),
};

/** Edit and generate choose their output; the catalog rules are 400s in the domain. */
const OutputFields = {
  aspect_ratio: v.optional(v.picklist(ASPECT_RATIOS)),
  resolution: v.optional(v.picklist(RESOLUTIONS)),
  quality: v.optional(v.picklist(QUALITIES)),
  size: v.optional(v.pipe(v.string(), v.regex(SIZE_PATTERN, 'size must be <width>x<height>, for example 1024x768.'))),
  base_model: v.optional(v.string()),
};

/** Enhance and remix are pinned: sending an output choice is a 422 at that field. */
const pinnedFields = (operation: 'enhance' | 'remix') => {
  const refuse = (field: string) =>
    v.optional(
      v.never(
        `${operation} does not accept ${field}: it is pinned to ${PINNED_MODEL.baseModel} at ${PINNED_MODEL.resolution}.`,
      ),
    );
  return { base_model: refuse('base_model'), aspect_ratio: refuse('aspect_ratio'), resolution: refuse('resolution') };
};

/** The prompt and the candidate profiles of edit, enhance and remix. */
const IdentityFields = {
  prompt: v.optional(Prompt, ''),
  profile_ids: v.optional(ProfileIds),
};

type CommonOutput = v.InferOutput<v.ObjectSchema<typeof CommonFields, undefined>>;
type ResponseMode = NonNullable<CommonOutput['response_mode']>;

/** Locates an issue at one field of the body, as the field's own issues are. */
const atField = (input: CommonOutput, key: keyof CommonOutput): v.ObjectPathItem => ({
  type: 'object',
  origin: 'value',
  input,
  key,
  value: input[key],
});

/**
 * The common cross-field rules, each a 422 located at the offending field, then the `response_mode`
 * default (`urls` for async). They run once every field is valid. A raw check, because
 * `v.forward(v.partialCheck(...))` cannot type its paths against the generic object of this helper.
 */
const withCommonRules = <TInput, TOutput extends CommonOutput>(schema: v.GenericSchema<TInput, TOutput>) =>
  v.pipe(
    schema,
    v.rawCheck<TOutput>(({ dataset, addIssue }) => {
      if (!dataset.typed) return;
      const input = dataset.value;
      if (input.async && input.response_mode === 'bytes') {
        addIssue({
          message: 'response_mode bytes cannot be combined with async: true; async results are delivered as urls.',
          path: [atField(input, 'response_mode')],
        });
      }
      if (input.callback_url !== undefined && !input.async) {
        addIssue({ message: 'callback_url is only valid with async: true.', path: [atField(input, 'callback_url')] });
      }
      if (input.cancel_after !== undefined && !input.async) {
        addIssue({ message: 'cancel_after is only valid with async: true.', path: [atField(input, 'cancel_after')] });
      }
    }),
    v.transform((input): Omit<TOutput, 'response_mode'> & { response_mode: ResponseMode } => ({
      ...input,
      response_mode: input.response_mode ?? (input.async ? 'urls' : 'bytes'),
    })),
  );

export const EditRequestSchema = withCommonRules(
  v.object({
    ...CommonFields,
    ...OutputFields,
    ...IdentityFields,
    images: v.pipe(
      v.array(ImageInput),
      v.minLength(1, 'images needs at least one image.'),
      v.maxLength(MAX_EDIT_IMAGES, `images takes at most ${MAX_EDIT_IMAGES} images.`),
    ),
  }),
);
export type EditRequest = v.InferOutput<typeof EditRequestSchema>;

/** No `images` and no `profile_ids`: profiles are named in the prompt only. */
export const GenerateRequestSchema = withCommonRules(
  v.object({
    ...CommonFields,
    ...OutputFields,
    prompt: v.pipe(Prompt, v.regex(/\S/, 'The prompt must not be empty.')),
  }),
);
export type GenerateRequest = v.InferOutput<typeof GenerateRequestSchema>;

export const EnhanceRequestSchema = withCommonRules(
  v.object({
    ...CommonFields,
    ...pinnedFields('enhance'),
    ...IdentityFields,
    image: ImageInput,
  }),
);
export type EnhanceRequest = v.InferOutput<typeof EnhanceRequestSchema>;

export const RemixRequestSchema = withCommonRules(
  v.object({
    ...CommonFields,
    ...pinnedFields('remix'),
    ...IdentityFields,
    input_image: ImageInput,
    reference_image: ImageInput,
  }),
);
export type RemixRequest = v.InferOutput<typeof RemixRequestSchema>;
