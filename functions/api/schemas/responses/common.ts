/**
 * What the response bodies share (responses/index.ts): a date-time, an amount of money, a face's box
 * in pixels.
 */
import * as v from 'valibot';

export const IsoDateTime = v.pipe(v.string(), v.isoTimestamp(), v.description('ISO 8601 date-time (UTC).'));
export const UsdDecimal = v.pipe(
  v.string(),
  v.regex(/^-?\d+\.\d{2,6}$/),
  v.description('US dollars, exact, two to six decimals.'),
);
export const MoneySchema = v.pipe(
  v.strictObject({
    usd: UsdDecimal,
    micro_usd: v.pipe(v.number(), v.integer(), v.description('The same amount in millionths of a dollar.')),
  }),
  v.title('Money'),
);

export const PixelBoxSchema = v.pipe(
  v.strictObject({
    x: v.pipe(v.number(), v.integer(), v.minValue(0), v.description('Left edge, pixels from the left.')),
    y: v.pipe(v.number(), v.integer(), v.minValue(0), v.description('Top edge, pixels from the top.')),
    width: v.pipe(v.number(), v.integer(), v.minValue(1)),
    height: v.pipe(v.number(), v.integer(), v.minValue(1)),
  }),
  v.title('PixelBox'),
  v.description("A face's box in whole pixels of the image it was found in (after EXIF rotation)."),
);
