/** The answer of GET /models (responses/index.ts): each base model, its price and what serves it. */
import * as v from 'valibot';
import { MoneySchema } from './common';

const ServedBySchema = v.pipe(
  v.picklist(['hosted', 'backend', 'sandbox']),
  v.description(
    '`hosted`: a real model at a hosted provider; `backend`: the operator’s own GPU backend; `sandbox`: images made locally for development (not a real model).',
  ),
);

/**
 * A request reserves the most it can cost (its ceiling: every surcharge that may apply, and for a
 * token-metered model the published token count of its size and quality plus its inputs), settles the
 * final price and releases the rest; a balance below the ceiling is a 402 that names it.
 */
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
    per_thousand_output_tokens: v.pipe(MoneySchema, v.description('Per 1000 output tokens the model reports.')),
    per_thousand_input_text_tokens: v.pipe(
      MoneySchema,
      v.description('Per 1000 input tokens of the prompt as sent (with any identity instructions).'),
    ),
    per_thousand_input_image_tokens: v.pipe(
      MoneySchema,
      v.description('Per 1000 input tokens of the images sent (the inputs and the profiles’ reference photos).'),
    ),
    floor_per_image: v.pipe(MoneySchema, v.description('Charged at least, per output image.')),
    identity_surcharge: MoneySchema,
  }),
  v.strictObject({
    metering: v.literal('megapixels'),
    per_megapixel: MoneySchema,
    floor_per_image: v.pipe(MoneySchema, v.description('Charged at least, per output image.')),
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
        pricing: v.pipe(
          ModelPricingSchema,
          v.description(
            'What the model charges. A request reserves the most it can cost (every identity surcharge that may apply; for a token-metered model the published output tokens of its size and quality plus its input tokens), settles the final price and releases the rest; a balance below that ceiling answers 402 naming it.',
          ),
        ),
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
