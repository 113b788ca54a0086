/**
 * Choosing a provider's aspect ratio, apart from fit.ts (which loads sharp) so that the price tables that
 * need it (fal/families.ts) can be read by every function (list-prices.ts) without shipping an image library.
 */

/** "W:H" → its ratio. */
const ratioOf = (aspect: string): number => {
  const [w, h] = aspect.split(':').map(Number);
  return (w ?? 1) / (h ?? 1);
};

/** The aspect ratio from `offered` ("W:H") closest to width/height (compared on a log scale). */
export const nearestAspectRatio = (width: number, height: number, offered: readonly string[]): string => {
  const target = Math.log(width / height);
  let best = offered[0] ?? '1:1';
  for (const aspect of offered) {
    if (Math.abs(Math.log(ratioOf(aspect)) - target) < Math.abs(Math.log(ratioOf(best)) - target)) best = aspect;
  }
  return best;
};
