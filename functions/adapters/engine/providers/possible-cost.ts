/**
 * What a request may have cost the operator at its provider when the answer was lost after the provider
 * may have started the work (provider-http.ts `mayHaveRun`): from each adapter's price table, the most the
 * request's calls could have cost, for the log line that tells the operator. Undefined where the price
 * needs the usage the lost answer carried (OpenAI's tokens) or no price is published.
 */
import type { ModelRoutes } from '../../../domain/catalog/model-routes';
import type { EngineRequest } from '../../../domain/engine/engine';
import { askedSize, falFamilyOf, falMegapixels } from './fal/families';
import { GEMINI_IMAGE_PRICE_MICROS, imageSizeFor } from './gemini/gemini';

export const possibleProviderCostMicros = (
  routes: ModelRoutes | undefined,
  request: Pick<EngineRequest, 'baseModel' | 'width' | 'height' | 'numOutputImages'>,
): number | undefined => {
  const route = routes?.[request.baseModel];
  if (!route) return undefined;
  const images = request.numOutputImages;
  if (route.provider === 'gemini')
    return GEMINI_IMAGE_PRICE_MICROS[imageSizeFor(request.width, request.height)] * images;
  if (route.provider !== 'fal') return undefined;
  const family = falFamilyOf(route.model);
  const { price } = family;
  if (!price) return undefined;
  const size = askedSize(family, request.width, request.height);
  if (price.per === 'image') {
    const factor = size.kind === 'aspect_ratio' ? (price.tierFactor?.[size.resolution] ?? 1) : 1;
    return Math.ceil(price.imageMicros * factor * images);
  }
  const megapixels =
    size.kind === 'image_size'
      ? falMegapixels(size.width, size.height)
      : falMegapixels(size.longEdgePx, size.longEdgePx);
  // Outputs only: the inputs an edit endpoint also bills are not known here.
  return Math.ceil(images * (price.firstMegapixelMicros + (megapixels - 1) * price.furtherMegapixelMicros));
};
