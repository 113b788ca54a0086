import { createHmac } from 'node:crypto';
import { hmacMatches, hmacSha256, sameBytes } from '../../../../functions/domain/shared/hmac';

const KEY = 'a signing secret';
const DATA = 'the signed payload';
const mac = createHmac('sha256', KEY).update(DATA).digest();

describe('HMAC sign-and-compare', () => {
  it('signs with HMAC-SHA256', () => {
    expect(hmacSha256(KEY, DATA).equals(mac)).toBe(true);
    expect(hmacSha256(Buffer.from(KEY), Buffer.from(DATA)).equals(mac)).toBe(true);
  });

  it('accepts the MAC of the data under the key', () => {
    expect(hmacMatches(KEY, DATA, mac)).toBe(true);
  });

  it('refuses a MAC with one bit changed, of other data, or under another key', () => {
    const flipped = Buffer.from(mac);
    flipped[0] ^= 1;
    expect(hmacMatches(KEY, DATA, flipped)).toBe(false);
    expect(hmacMatches(KEY, `${DATA}.`, mac)).toBe(false);
    expect(hmacMatches(`${KEY}.`, DATA, mac)).toBe(false);
  });

  it('says no to a MAC of another length instead of throwing', () => {
    expect(hmacMatches(KEY, DATA, mac.subarray(0, 31))).toBe(false);
    expect(hmacMatches(KEY, DATA, Buffer.alloc(0))).toBe(false);
    expect(sameBytes(Buffer.from('ab'), Buffer.from('abc'))).toBe(false);
    expect(sameBytes(Buffer.from('abc'), Buffer.from('abc'))).toBe(true);
  });
});
