/**
 * The playground's estimate: the least a request costs before it runs, as the service reserves it
 * (pricing.ts: floorPrice), from the prices GET /models gives.
 */
import { isPinned, type PlaygroundState } from './form';
import type { ModelFields } from './model-fields';

const LONG_EDGE_PX = { '1K': 1024, '2K': 2048, '4K': 4096 } as const;

/** Micro-USD as dollars, two decimals at least and as many as the amount needs (0.015). */
const usd = (micros: number): string => {
  const fixed = (micros / 1e6).toFixed(6);
  return fixed.replace(/(\.\d\d\d*?)0+$/, '$1');
};

const roundTo16 = (px: number): number => Math.max(16, Math.round(px / 16) * 16);

/** The output's pixels, as the service decides them (output-spec.ts), for the megapixel floor. */
const outputPixels = (resolution: string, aspectRatio: string, size: string, inputAspect: number | null): number => {
  const exact = /^(\d+)x(\d+)$/.exec(size);
  if (exact) return Number(exact[1]) * Number(exact[2]);
  const longEdge = LONG_EDGE_PX[resolution as keyof typeof LONG_EDGE_PX] ?? 1024;
  const [w, hgt] = aspectRatio.split(':').map(Number);
  const ratio = aspectRatio === 'auto' ? (inputAspect ?? 1) : w / hgt;
  return ratio >= 1 ? longEdge * roundTo16(longEdge / ratio) : roundTo16(longEdge * ratio) * longEdge;
};

/** The least the request costs, as the service reserves it (pricing.ts: floorPrice); `count` is the count field's text. */
export const leastCost = (state: PlaygroundState, fields: ModelFields, count: string): string => {
  const { models } = state;
  if (!models) return '';
  const n = Math.min(4, Math.max(1, Math.round(Number(count)) || 1));
  if (isPinned(state.operation)) {
    const { per_image: perImage, per_image_with_profile: withProfile } = models.pinned;
    return `This request costs at least ${usd(perImage.micro_usd * n)} USD (${perImage.usd} per image × ${n}, ${models.pinned.base_model} at ${models.pinned.resolution}); an output in which a profile is recognised costs ${withProfile.usd}.`;
  }
  const model = fields.chosen();
  if (!model) return '';
  const { resolutionSelect, aspectSelect, sizeInput } = fields.controls();
  const pricing = model.pricing;
  const size = sizeInput?.value.trim() ?? '';
  const resolution = size ? '1K' : (resolutionSelect?.value ?? '1K');
  const surcharge = `; each recognised subject adds ${pricing.identity_surcharge.usd}`;
  if (pricing.metering === 'flat') {
    const perImage = pricing.per_image[resolution as '1K' | '2K' | '4K'];
    if (!perImage) return '';
    return `This request costs at least ${usd(perImage.micro_usd * n)} USD (${perImage.usd} per ${resolution} image × ${n})${surcharge}.`;
  }
  if (pricing.metering === 'tokens') {
    return `This request costs at least ${usd(pricing.floor_per_image.micro_usd * n)} USD (the floor of ${pricing.floor_per_image.usd} per image × ${n}; ${pricing.per_thousand_output_tokens.usd} per 1000 output tokens above it)${surcharge}.`;
  }
  const firstInput = [...state.inputs.values()].flat()[0]?.aspect ?? null;
  const pixels = outputPixels(resolution, aspectSelect?.value ?? '4:3', size, firstInput);
  const sizeMicros = Math.ceil((pixels * pricing.per_megapixel.micro_usd) / 1e6 - 1e-6);
  const perImage = Math.max(pricing.floor_per_image.micro_usd, sizeMicros);
  return `This request costs at least ${usd(perImage * n)} USD (${usd(perImage)} per image of ${(pixels / 1e6).toFixed(2)} MP at ${pricing.per_megapixel.usd} per megapixel, floor ${pricing.floor_per_image.usd}, × ${n})${surcharge}.`;
};
