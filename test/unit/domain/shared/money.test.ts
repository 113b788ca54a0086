import { formatUsd, parseUsd, usdAmountMicros } from '../../../../functions/domain/shared/money';

describe('money', () => {
  it('parses dollars into integer micro-USD without floats', () => {
    expect(parseUsd('2.90')).toBe(2_900_000);
    expect(parseUsd('0.000001')).toBe(1);
    expect(parseUsd('10')).toBe(10_000_000);
    expect(parseUsd('0.1')).toBe(100_000);
  });

  it('refuses amounts that are not plain decimal dollars', () => {
    for (const bad of ['', '-1', '1.0000001', '1e3', 'abc', '1.', '.5']) expect(parseUsd(bad)).toBeUndefined();
  });

  it('formats micro-USD as dollars with at least two decimals', () => {
    expect(formatUsd(1_490_000)).toBe('1.49 USD');
    expect(formatUsd(120_000)).toBe('0.12 USD');
    expect(formatUsd(1)).toBe('0.000001 USD');
    expect(formatUsd(-5_000_000)).toBe('-5.00 USD');
  });

  it('reads a USD amount of whole cents into micro-USD', () => {
    expect(usdAmountMicros('25')).toBe(25_000_000);
    expect(usdAmountMicros('0.5')).toBe(500_000);
    expect(usdAmountMicros('2000.00')).toBe(2_000_000_000);
    expect(usdAmountMicros('9999999.99')).toBe(9_999_999_990_000);
  });

  it('refuses a USD amount with a third decimal, eight digits, a sign, a comma or spaces', () => {
    for (const bad of ['1.001', '12345678', '-5', '+5', '5,00', ' 5', '5 ', '', '.5', '5.'])
      expect(usdAmountMicros(bad)).toBeUndefined();
  });
});
