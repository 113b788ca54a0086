/** OpenAI's price list (read by openai.ts, and by list-prices.ts for every function: data only). */
import {
  GPT_IMAGE_2_OUTPUT_TOKENS,
  GPT_IMAGE_25_OUTPUT_TOKENS,
  type OutputTokenRule,
} from '../../../../domain/catalog/token-counts';

/**
 * What OpenAI charges per token, in micro-USD (a price of $X per 1M tokens is X micro-USD per token).
 * Source: OpenAI's API pricing page https://developers.openai.com/api/docs/pricing, gpt-image-2: text input
 * $5.00, image input $8.00, image output $30.00 per 1M tokens (cached input $1.25 / $2.00, not reported by the
 * Images API's usage, so never applied: the cost is an upper bound). OpenAI's own page is not in our research
 * corpus; the figures are as quoted from it by https://chatgptimages.app/guides/gpt-image-2-api-price
 * ("official price checked on 2026-04-28") and https://xairouter.com/en/models/gpt-image-2/. The 2.5 models:
 * "$5 text input, $8 image input, $30 image output per 1M tokens, item for item the same as gpt-image-2"
 * (https://docs.apiyi.com/en/news/gpt-image-2-5-launch.md, launch 2026-09-08). Table read 2026-11-24.
 * Every output token (image, and any text the model reasons in) is priced as an image output token.
 * Without `input_tokens_details`, every input token is counted as text (the cheaper rate, here and in
 * what the job is charged: pricing.ts).
 */
export const OPENAI_PRICES_MICROS_PER_TOKEN: Readonly<
  Record<string, { textInput: number; imageInput: number; imageOutput: number }>
> = {
  'gpt-image-2': { textInput: 5, imageInput: 8, imageOutput: 30 },
  'gpt-image-2.5-flare': { textInput: 5, imageInput: 8, imageOutput: 30 },
  'gpt-image-2.5-sunburst': { textInput: 5, imageInput: 8, imageOutput: 30 },
};

/** The rule of the most output tokens an image takes, per model (token-counts.ts, with its sources). */
export const OPENAI_OUTPUT_TOKENS: Readonly<Record<string, OutputTokenRule>> = {
  'gpt-image-2': GPT_IMAGE_2_OUTPUT_TOKENS,
  'gpt-image-2.5-flare': GPT_IMAGE_25_OUTPUT_TOKENS,
  'gpt-image-2.5-sunburst': GPT_IMAGE_25_OUTPUT_TOKENS,
};
