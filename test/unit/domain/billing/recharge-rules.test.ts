/** What an automatic charge may be, and who may agree to it (recharge-rules.ts). */
import {
  assertAgreedTo,
  assertMaySaveCard,
  rechargeProblems,
} from '../../../../functions/domain/billing/recharge-rules';

const LIMITS = { minMicros: 5_000_000, maxMicros: 2_000_000_000, dailyMaxMicros: 500_000_000 };
const ON = { enabled: true, thresholdMicros: 10_000_000, amountMicros: 20_000_000 };

describe('rechargeProblems', () => {
  it('accepts an amount within the limits over a lower threshold', () => {
    expect(rechargeProblems(ON, LIMITS)).toEqual([]);
  });
  it.each([
    ['under the smallest top-up', { amountMicros: 4_990_000, thresholdMicros: 1 }, 'amount'],
    ['over the daily cap', { amountMicros: 500_010_000 }, 'amount'],
    ['a threshold at the amount', { thresholdMicros: 20_000_000 }, 'threshold'],
  ])('refuses %s', (_case, change, field) => {
    expect(rechargeProblems({ ...ON, ...change }, LIMITS).map((problem) => problem.field)).toEqual([field]);
  });
  it('checks nothing while it is off', () => {
    expect(rechargeProblems({ enabled: false, thresholdMicros: 9_999_999_990_000, amountMicros: 1 }, LIMITS)).toEqual(
      [],
    );
  });
});

describe('assertAgreedTo', () => {
  it('lets a person do anything within the limits', () => {
    expect(() => assertAgreedTo('person', null, ON)).not.toThrow();
  });
  it('lets a key turn off, keep or lower, never turn on or raise', () => {
    expect(() => assertAgreedTo('api-key', ON, { ...ON, enabled: false })).not.toThrow();
    expect(() => assertAgreedTo('api-key', ON, ON)).not.toThrow();
    expect(() => assertAgreedTo('api-key', ON, { ...ON, amountMicros: 15_000_000 })).not.toThrow();
    expect(() => assertAgreedTo('api-key', { ...ON, enabled: false }, ON)).toThrow('person');
    expect(() => assertAgreedTo('api-key', ON, { ...ON, amountMicros: 20_010_000 })).toThrow('person');
    expect(() => assertAgreedTo('api-key', ON, { ...ON, thresholdMicros: 10_010_000 })).toThrow('person');
    expect(() => assertAgreedTo('api-key', null, { ...ON, enabled: false })).toThrow('person');
  });
  it('keeps a card only for a person', () => {
    expect(() => assertMaySaveCard('api-key', true)).toThrow('person');
    expect(() => assertMaySaveCard('api-key', undefined)).not.toThrow();
    expect(() => assertMaySaveCard('person', true)).not.toThrow();
  });
});
