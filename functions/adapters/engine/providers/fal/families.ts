/**
 * fal's model families: how each endpoint is asked for a size (`image_size` within bounds, or an aspect
 * ratio and a tier), how many images one call makes, what it costs (fal's published prices, per image or
 * per megapixel), and the size to ask for. Apart from the queue engine (fal.ts) so that a new family is a
 * row here and nothing else.
 */
import type { EngineRequest } from '../../../../domain/engine/engine';
import { loraCarried } from '../../../../domain/engine/identity-prompt';
import { nearestAspectRatio } from '../aspect-ratio';
import type { PossibleCost } from '../provider';

/** How an endpoint family is asked for a size (from the input types in @fal-ai/client 1.10.1 src/types/endpoints.d.ts). */
type SizeRule =
  /** `image_size: {width, height}` within these bounds (fal scales other sizes itself, or refuses them). */
  | { kind: 'image_size'; minEdgePx?: number; maxEdgePx?: number; minPixels?: number; maxPixels?: number }
  /** `aspect_ratio` + `resolution` tier (nano-banana). */
  | { kind: 'aspect_ratio'; aspectRatios: readonly string[]; tiers: readonly { name: string; longEdgePx: number }[] };

/**
 * What fal charges (integer micro-USD), per endpoint family; generate and edit endpoints alike. Retrieved 2026-11-24:
 * - flux-2 [dev]: $0.012 per megapixel, input images too on /edit, each image rounded up to whole megapixels of
 *   1024×1024 (fal's price as relayed by https://lumenfall.ai/models/black-forest-labs/flux.2-dev; the rounding
 *   rule is fal's own, e.g. https://fal.ai/models/fal-ai/flux-2-flex/llms.txt).
 * - flux-2-pro: $0.03 the first megapixel of an output, $0.015 each further one; input images on /edit $0.015 per
 *   megapixel (https://skillspool.org/zh/skills/joernstoehler-dnd-claude-code-claude-skills-fal-flux-prompting-skill-md,
 *   https://lumenfall.ai/models/black-forest-labs/flux.2-pro?mode=image-edit; fal's flux-2-max/edit llms.txt
 *   states the same first/further scheme with inputs counted).
 * - nano-banana-2: $0.08 per image; 0.5K ×0.75, 2K ×1.5, 4K ×2 (https://fal.ai/models/fal-ai/nano-banana-2/edit/llms.txt).
 * - qwen-image-2 (standard): $0.035 per image, text-to-image and edit (https://fal.ai/learn/tools/how-to-use-qwen-image-2).
 * - seedream: no published price found for the v5 endpoints: no cost recorded.
 */
type Price =
  | { per: 'megapixel'; firstMegapixelMicros: number; furtherMegapixelMicros: number; inputMegapixelMicros: number }
  | { per: 'image'; imageMicros: number; tierFactor?: Record<string, number> };

/**
 * FLUX.2 [dev] with a LoRA (`fal-ai/flux-2/lora`, `fal-ai/flux-2/lora/edit`): 0.021 USD per megapixel of
 * output (fal's model page https://fal.ai/models/fal-ai/flux-2/lora, as quoted in issue 42), with the same
 * megapixel rounding as flux-2.
 */
export const FAL_LORA_MICROS_PER_MEGAPIXEL = 21_000;

/** fal's megapixel: 1024×1024 px ("a 1024x1024 image will cost $0.05" at $0.05/MP); inputs beyond 4 MP are resized. */
export const FAL_MEGAPIXEL_PX = 1024 * 1024;
export const MAX_BILLED_INPUT_MEGAPIXELS = 4;

export interface FalFamily {
  name: string;
  generateEndpoint: string;
  editEndpoint: string;
  /** Input images one edit call takes (the caller's and the reference crops together). */
  maxInputImages: number;
  /** `num_images` of one call; 1 where the endpoint has no `num_images`. */
  maxImagesPerCall: number;
  numImagesField: boolean;
  size: SizeRule;
  outputFormatField: boolean;
  safetyCheckerField: boolean;
  price?: Price;
  /**
   * The family's endpoints that take a LoRA (`loras: [{path, scale}]`), where it has them: a request whose
   * subject has a LoRA goes there (identity-prompt.ts `loraCarried`), with its own cap on input images and price.
   */
  lora?: { generateEndpoint: string; editEndpoint: string; maxInputImages: number; price: Price };
}

/**
 * Whether this request goes to the family's LoRA endpoints: the family has them, a subject has a LoRA, and the
 * caller's own images fit the LoRA edit endpoint's cap (else every subject keeps its references).
 */
export const falTakesLora = (
  family: FalFamily,
  request: Pick<EngineRequest, 'candidates' | 'namedInPrompt' | 'images'>,
): boolean =>
  family.lora !== undefined &&
  request.images.length <= family.lora.maxInputImages &&
  loraCarried(request) !== undefined;

const NANO_ASPECT_RATIOS = [
  '21:9',
  '16:9',
  '3:2',
  '4:3',
  '5:4',
  '1:1',
  '4:5',
  '3:4',
  '2:3',
  '9:16',
  '4:1',
  '1:4',
  '8:1',
  '1:8',
];
const NANO_TIERS = [
  { name: '0.5K', longEdgePx: 512 },
  { name: '1K', longEdgePx: 1024 },
  { name: '2K', longEdgePx: 2048 },
  { name: '4K', longEdgePx: 4096 },
];

/** Without an endpoint suffix: the route may name `fal-ai/qwen-image-2` or `fal-ai/qwen-image-2/text-to-image`. */
const baseOf = (model: string): string => model.replace(/\/(edit|text-to-image)$/, '');

/**
 * The endpoint families this adapter speaks, by the route's model. Caps: the issue's (flux-2 edit ≤ 4 references,
 * flux-2-pro ≤ 8, nano-banana-2 ≤ 14, qwen-image-2 1–3) and the types' docs (seedream ≤ 10); `num_images` 1–4
 * per fal's model pages (flux-2 dev, nano-banana-2; the qwen family; seedream kept at 4 likewise).
 */
export const falFamilyOf = (model: string): FalFamily => {
  const base = baseOf(model);
  switch (base) {
    case 'fal-ai/flux-2':
      return {
        name: 'flux-2',
        generateEndpoint: base,
        editEndpoint: `${base}/edit`,
        maxInputImages: 4,
        maxImagesPerCall: 4,
        numImagesField: true,
        size: { kind: 'image_size', minEdgePx: 512, maxEdgePx: 2048 },
        outputFormatField: true,
        safetyCheckerField: true,
        price: {
          per: 'megapixel',
          firstMegapixelMicros: 12_000,
          furtherMegapixelMicros: 12_000,
          inputMegapixelMicros: 12_000,
        },
        // fal-ai/flux-2/lora and /lora/edit (Flux2LoraInput, Flux2LoraEditInput: image_urls 1-3, loras ≤ 3).
        // Inputs on /lora/edit are assumed billed as outputs, as on /edit (fal's page gives only the per-MP price).
        lora: {
          generateEndpoint: `${base}/lora`,
          editEndpoint: `${base}/lora/edit`,
          maxInputImages: 3,
          price: {
            per: 'megapixel',
            firstMegapixelMicros: FAL_LORA_MICROS_PER_MEGAPIXEL,
            furtherMegapixelMicros: FAL_LORA_MICROS_PER_MEGAPIXEL,
            inputMegapixelMicros: FAL_LORA_MICROS_PER_MEGAPIXEL,
          },
        },
      };
    case 'fal-ai/flux-2-pro':
      return {
        name: 'flux-2-pro',
        generateEndpoint: base,
        editEndpoint: `${base}/edit`,
        maxInputImages: 8,
        maxImagesPerCall: 1,
        numImagesField: false,
        size: { kind: 'image_size', minEdgePx: 512, maxEdgePx: 2048 },
        outputFormatField: true,
        safetyCheckerField: true,
        price: {
          per: 'megapixel',
          firstMegapixelMicros: 30_000,
          furtherMegapixelMicros: 15_000,
          inputMegapixelMicros: 15_000,
        },
      };
    case 'fal-ai/nano-banana-2':
      return {
        name: 'nano-banana-2',
        generateEndpoint: base,
        editEndpoint: `${base}/edit`,
        maxInputImages: 14,
        maxImagesPerCall: 4,
        numImagesField: true,
        size: { kind: 'aspect_ratio', aspectRatios: NANO_ASPECT_RATIOS, tiers: NANO_TIERS },
        outputFormatField: true,
        safetyCheckerField: false,
        price: { per: 'image', imageMicros: 80_000, tierFactor: { '0.5K': 0.75, '1K': 1, '2K': 1.5, '4K': 2 } },
      };
    case 'fal-ai/qwen-image-2':
      return {
        name: 'qwen-image-2',
        generateEndpoint: `${base}/text-to-image`,
        editEndpoint: `${base}/edit`,
        maxInputImages: 3,
        maxImagesPerCall: 4,
        numImagesField: true,
        size: { kind: 'image_size', minPixels: 512 * 512, maxPixels: 2048 * 2048 },
        outputFormatField: true,
        safetyCheckerField: true,
        price: { per: 'image', imageMicros: 35_000 },
      };
    default:
      if (/(^|\/)bytedance\/seedream\/v\d/.test(base)) {
        return {
          name: 'seedream',
          generateEndpoint: `${base}/text-to-image`,
          editEndpoint: `${base}/edit`,
          maxInputImages: 10,
          maxImagesPerCall: 4,
          numImagesField: true,
          size: { kind: 'image_size', minPixels: 2560 * 1440, maxPixels: 3072 * 3072 },
          outputFormatField: false,
          safetyCheckerField: true,
        };
      }
      throw new Error(
        `fal route model '${model}' is not one the fal adapter knows (fal-ai/flux-2, fal-ai/flux-2-pro, fal-ai/nano-banana-2, fal-ai/qwen-image-2, …/bytedance/seedream/v5/…)`,
      );
  }
};

/** What one call asks fal for: an exact size, or an aspect ratio and a tier. */
export type AskedSize =
  | { kind: 'image_size'; width: number; height: number }
  | { kind: 'aspect_ratio'; aspectRatio: string; resolution: string; longEdgePx: number };

const down16 = (px: number) => Math.max(16, Math.floor(px / 16) * 16);
const up16 = (px: number) => Math.ceil(px / 16) * 16;

/** The size to ask for: the request's own where the endpoint allows it, else the nearest it takes (fitImage does the rest). */
export const askedSize = (family: FalFamily, width: number, height: number): AskedSize => {
  const rule = family.size;
  if (rule.kind === 'aspect_ratio') {
    const long = Math.max(width, height);
    const tier = rule.tiers.find((t) => t.longEdgePx >= long) ?? rule.tiers[rule.tiers.length - 1];
    return {
      kind: 'aspect_ratio',
      aspectRatio: nearestAspectRatio(width, height, rule.aspectRatios),
      resolution: tier?.name ?? '1K',
      longEdgePx: tier?.longEdgePx ?? 1024,
    };
  }
  let scale = 1;
  if (rule.maxEdgePx && Math.max(width, height) * scale > rule.maxEdgePx)
    scale = rule.maxEdgePx / Math.max(width, height);
  if (rule.maxPixels && width * height * scale ** 2 > rule.maxPixels)
    scale = Math.sqrt(rule.maxPixels / (width * height));
  if (rule.minEdgePx && Math.min(width, height) * scale < rule.minEdgePx)
    scale = rule.minEdgePx / Math.min(width, height);
  if (rule.minPixels && width * height * scale ** 2 < rule.minPixels)
    scale = Math.sqrt(rule.minPixels / (width * height));
  if (scale === 1) return { kind: 'image_size', width, height };
  const round = scale < 1 ? down16 : up16;
  const clamp = (px: number) => Math.min(rule.maxEdgePx ?? px, Math.max(rule.minEdgePx ?? px, px));
  return { kind: 'image_size', width: clamp(round(width * scale)), height: clamp(round(height * scale)) };
};

export const falMegapixels = (width: number, height: number): number =>
  Math.max(1, Math.ceil((width * height) / FAL_MEGAPIXEL_PX));

/**
 * The most a request's calls could have cost when their answer was lost (possible-cost.ts): outputs only,
 * at the size asked; the inputs an edit endpoint also bills are not known there. Undefined without a price.
 * A request that goes to the LoRA endpoints (`falTakesLora`) at their price.
 */
export const falPossibleCostMicros: PossibleCost = (model, request) => {
  const family = falFamilyOf(model);
  const lora =
    family.lora &&
    falTakesLora(family, {
      candidates: request.candidates ?? [],
      namedInPrompt: request.namedInPrompt ?? [],
      images: request.images ?? [],
    });
  const price = lora ? family.lora?.price : family.price;
  if (!price) return undefined;
  const images = request.numOutputImages;
  const size = askedSize(family, request.width, request.height);
  if (price.per === 'image') {
    const factor = size.kind === 'aspect_ratio' ? (price.tierFactor?.[size.resolution] ?? 1) : 1;
    return Math.ceil(price.imageMicros * factor * images);
  }
  const megapixels =
    size.kind === 'image_size'
      ? falMegapixels(size.width, size.height)
      : falMegapixels(size.longEdgePx, size.longEdgePx);
  return Math.ceil(images * (price.firstMegapixelMicros + (megapixels - 1) * price.furtherMegapixelMicros));
};
