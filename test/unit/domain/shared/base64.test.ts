import { randomBytes } from 'node:crypto';
import { BASE64_PIECE_BYTES, base64Of } from '../../../../functions/domain/shared/base64';

describe('base64Of', () => {
  it('gives the same text as toString("base64") on each side of every piece boundary', () => {
    const piece = BASE64_PIECE_BYTES;
    const lengths = [0, 1, 2, 3, piece - 1, piece, piece + 1, piece + 2, 2 * piece, 2 * piece + 1, 5 * piece + 2];
    for (const length of lengths) {
      const bytes = randomBytes(length);
      expect({ length, text: base64Of(bytes) }).toEqual({ length, text: bytes.toString('base64') });
    }
  });

  it('encodes a 2K output larger than the size Node answers as an external string, padding only at the end', () => {
    const bytes = randomBytes(1_351_255);
    const text = base64Of(bytes);
    expect(text).toBe(bytes.toString('base64'));
    expect(text.indexOf('=')).toBe(text.length - 2);
    expect(Buffer.from(text, 'base64').equals(bytes)).toBe(true);
  });

  it('reads only the view it is given, not the rest of its memory', () => {
    const whole = randomBytes(3 * BASE64_PIECE_BYTES);
    const view = whole.subarray(7, 7 + 2 * BASE64_PIECE_BYTES + 5);
    expect(base64Of(view)).toBe(Buffer.from(view).toString('base64'));
  });
});
