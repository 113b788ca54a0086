/**
 * An exact output `size` as the API writes it, `<width>x<height>` in pixels: one to four digits a side, no
 * leading zero. Which sizes a model takes is output-spec.ts's rule; this is only how one is written. A leaf
 * module, so the portal's page can share it.
 */
export const SIZE_PATTERN = /^[1-9][0-9]{0,3}x[1-9][0-9]{0,3}$/;

/** The width and height `text` names, or undefined when it is not written `<width>x<height>` (SIZE_PATTERN). */
export const parseSizeText = (text: string): { width: number; height: number } | undefined => {
  if (!SIZE_PATTERN.test(text)) return undefined;
  const [width, height] = text.split('x').map(Number);
  return { width, height };
};
