import { parseSizeText, SIZE_PATTERN } from '../../../../functions/domain/catalog/size-text';

describe('the size as written', () => {
  it('reads <width>x<height>', () => {
    expect(parseSizeText('1024x768')).toEqual({ width: 1024, height: 768 });
    expect(parseSizeText('1x9999')).toEqual({ width: 1, height: 9999 });
  });

  it('refuses a leading zero, five digits, a capital X, spaces or a third part', () => {
    for (const bad of ['01024x768', '10240x768', '1024X768', '1024 x 768', '1024x768x2', 'x768', '1024x', ''])
      expect(parseSizeText(bad)).toBeUndefined();
  });

  it('is the pattern the API document states for size', () => {
    expect(SIZE_PATTERN.source).toBe('^[1-9][0-9]{0,3}x[1-9][0-9]{0,3}$');
  });
});
