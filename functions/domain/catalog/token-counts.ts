/**
 * Read first: the most tokens a token-metered request can take at its provider, from which its reservation
 * is computed (pricing.ts, `ceilingPrice`): the output tokens of each image for its size and quality, the
 * input tokens of each image sent and of the prompt. The catalog's token-metered models are OpenAI's
 * gpt-image family (docs/providers.md); each figure is OpenAI's where it publishes one, with its source.
 *
 * Output tokens of one gpt-image-2 image. OpenAI's image-generation guide prices an output by size and
 * quality through a calculator (https://developers.openai.com/api/docs/guides/image-generation, "size and
 * quality options"); its rule, as read out of that calculator and published in
 * https://community.openai.com/t/gpt-image-2-output-pricing-calculator-online-and-in-your-code/1382699
 * (2026-06-05), is
 *   q = { low: 16, medium: 48, high: 96 }[quality],  s = ⌊(2·q·short + long) / (2·long)⌋,
 *   tokens = ⌈q · s · (2 000 000 + width·height) / 4 000 000⌉
 * and it gives OpenAI's own published examples (the guide's cost table, as quoted by
 * https://yingtu.ai/en/blog/gpt-image-2-cost-per-image, read 2026-11-24): 1024×1024 low / medium / high =
 * 196 / 1756 / 7024 tokens = $0.006 / $0.053 / $0.211 at $30 per 1M, and 1024×1536 high = 5488 = $0.165.
 * The size OpenAI is asked for may differ from ours (openai.ts `openAiSize`: below 655 360 px it is
 * enlarged, a ratio beyond 3:1 narrowed, each edge a multiple of 16 px), so the bound takes the area at
 * least 655 360 px and 5 % above ours (at most 8 294 400 px), the ratio at least 1:3 and `s` one step up.
 * `auto` lets the provider choose: it is bounded by the highest quality the model takes.
 *
 * The gpt-image-2.5 models (flare, sunburst) take the same request shape (openai.ts) and are assumed to
 * count their tokens by the same rule; `xhigh` and `max` have no published figure: 144 and 192 are OUR
 * assumption (1.5 and 2 steps of `high`: about 2.25× and 4× its tokens). A provider that reports more than
 * the reservation covers is settled at the reservation and the rest is logged and alarmed as the
 * operator's loss (metered-ledger.ts), so an assumption that proves low costs the operator, never the caller.
 *
 * Input tokens:
 * - an image sent to gpt-image-2 costs at most 1 536 image tokens: edit inputs are counted in 32 px
 *   patches within a budget of 1 536 patches, whatever the image's size
 *   (https://community.openai.com/t/openai-must-document-the-input-image-pricing-of-gpt-image-2/1382940,
 *   measured over 100 edits, 2026-06-12; OpenAI publishes no rule for gpt-image-2's inputs);
 * - the prompt costs at most one text token per UTF-8 byte of the text sent (OpenAI's tokenizers are
 *   byte-level BPE: every token stands for at least one byte; github.com/openai/tiktoken), plus
 *   `promptOverheadTokens` for the framing of the request;
 * - a call of `n` images is billed as `n` calls ("n>1 constitutes billing as individual calls", the same
 *   community measurement), so the input tokens are counted once per output image.
 */
import type { Quality } from './quality';

export interface OutputTokenRule {
  /** OpenAI's quality axis factor (`q` above) of each quality the model takes; `auto` is the largest. */
  qualityFactors: Readonly<Partial<Record<Quality, number>>>;
  /** The provider's size limits: the asked size is enlarged to `minPixels`, never beyond `maxPixels`. */
  minPixels: number;
  maxPixels: number;
  /** The most tokens one input image costs. */
  maxInputImageTokens: number;
  /** The most input images one call takes (the provider's cap). */
  maxInputImages: number;
  /** Text tokens beyond one per UTF-8 byte of the prompt: the request's framing. */
  promptOverheadTokens: number;
}

const GPT_IMAGE_SIZES = { minPixels: 655_360, maxPixels: 8_294_400 } as const;
const GPT_IMAGE_INPUTS = { maxInputImageTokens: 1_536, maxInputImages: 16, promptOverheadTokens: 32 } as const;

export const GPT_IMAGE_2_OUTPUT_TOKENS: OutputTokenRule = {
  qualityFactors: { low: 16, medium: 48, high: 96 },
  ...GPT_IMAGE_SIZES,
  ...GPT_IMAGE_INPUTS,
};

export const GPT_IMAGE_25_OUTPUT_TOKENS: OutputTokenRule = {
  qualityFactors: { low: 16, medium: 48, high: 96, xhigh: 144, max: 192 },
  ...GPT_IMAGE_SIZES,
  ...GPT_IMAGE_INPUTS,
};

/** The margin for the provider's rounding of the asked size (each edge to 16 px, the ratio to 3:1). */
const SIZE_ROUNDING = 1.05;
const MAX_RATIO = 3;

/** OpenAI's calculator itself, for a size it takes as it is (tests compare it with the published examples). */
export const gptImageOutputTokens = (rule: OutputTokenRule, quality: Quality, width: number, height: number) => {
  const q = qualityFactor(rule, quality);
  const long = Math.max(width, height);
  const short = Math.min(width, height);
  const s = Math.floor((2 * q * short + long) / (2 * long));
  return Math.ceil((q * s * (2_000_000 + width * height)) / 4_000_000);
};

const qualityFactor = (rule: OutputTokenRule, quality: Quality | undefined): number => {
  const factors = Object.values(rule.qualityFactors);
  const largest = Math.max(...factors);
  if (quality === undefined || quality === 'auto') return largest;
  // A quality the rule does not know is bounded by the largest it does (fail closed).
  return rule.qualityFactors[quality] ?? largest;
};

/** The most output tokens one image of width×height at `quality` can take, whatever size the provider is asked for. */
export const maxOutputTokensPerImage = (
  rule: OutputTokenRule,
  quality: Quality | undefined,
  width: number,
  height: number,
): number => {
  const q = qualityFactor(rule, quality);
  const ratio = Math.max(1 / MAX_RATIO, Math.min(width, height) / Math.max(width, height));
  const s = Math.min(q, Math.floor(q * ratio * SIZE_ROUNDING + 0.5) + 1);
  const area = Math.min(rule.maxPixels, Math.max(rule.minPixels, width * height) * SIZE_ROUNDING);
  return Math.ceil((q * s * (2_000_000 + area)) / 4_000_000);
};

/** What a request sends its provider, as far as input tokens go (images/prepare.ts counts it). */
export interface SentInputs {
  /** UTF-8 bytes of the prompt as the provider receives it (instruction and identity sentences included). */
  promptBytes: number;
  /** Images sent with each call: the caller's inputs and the candidates' reference crops. */
  images: number;
}

/** The most input tokens a request of `numOutputImages` can take: text and image, counted once per output image. */
export const maxInputTokens = (
  rule: OutputTokenRule,
  sent: SentInputs,
  numOutputImages: number,
): { text: number; image: number } => ({
  text: (sent.promptBytes + rule.promptOverheadTokens) * numOutputImages,
  image: Math.min(sent.images, rule.maxInputImages) * rule.maxInputImageTokens * numOutputImages,
});
