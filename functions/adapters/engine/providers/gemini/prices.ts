/** Gemini's price list (read by gemini.ts, and by list-prices.ts for every function: data only). */
import type { PossibleCost } from '../provider';

export type GeminiImageSize = '1K' | '2K' | '4K';

/** The tier whose long edge (1024/2048/4096) covers the asked long edge, so fitting shrinks. */
export const imageSizeFor = (width: number, height: number): GeminiImageSize => {
  const long = Math.max(width, height);
  return long <= 1024 ? '1K' : long <= 2048 ? '2K' : '4K';
};

/**
 * Google's price of an output image of gemini-3.1-flash-image on the Gemini API (paid tier, standard, not
 * batch): image output at $60.00 per 1M tokens, 1120 tokens for a 1K image, 1680 for 2K, 2520 for 4K, i.e.
 * $0.0672, $0.1008, $0.1512 per image (Google lists them as $0.067 / $0.101 / $0.151).
 * Sources, read 2026-11-24: https://ai.google.dev/gemini-api/docs/pricing (the $60/1M image-output rate, as
 * quoted by https://aifreeapi.com/en/posts/gemini-flash-image-generation-pricing; Google's page itself was
 * not reachable from here) and the tokens per image from Google Cloud's model page
 * https://docs.cloud.google.com/gemini-enterprise-agent-platform/models/gemini/3-1-flash-image-preview.
 * Text beside the image (a few tokens) and input tokens are not counted.
 */
export const GEMINI_IMAGE_PRICE_MICROS: Record<GeminiImageSize, number> = {
  '1K': Math.ceil(1120 * 60),
  '2K': Math.ceil(1680 * 60),
  '4K': Math.ceil(2520 * 60),
};

/** The most a request's calls could have cost when their answer was lost (possible-cost.ts): its images at their tier. */
export const geminiPossibleCostMicros: PossibleCost = (_model, request) =>
  GEMINI_IMAGE_PRICE_MICROS[imageSizeFor(request.width, request.height)] * request.numOutputImages;
