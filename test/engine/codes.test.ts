import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { codeDigits, dotted, lineKey } from '../../shared/codes.js';
import { realTariff } from '../helpers/tariff.js';

describe('tariff codes', () => {
  it.each(['6109.10.00', '61091000', ' 6109 10 00 ', '6109.10.00 '])('reads %j as 61091000', (s) => {
    expect(codeDigits(s)).toBe('61091000');
  });
  it.each(['6109.10.00.12', '6109100012', '6109.10.0012'])('reads %j as a 10-digit code', (s) => {
    expect(codeDigits(s)).toBe('6109100012');
  });
  it('lineKey (the lookup key read without a string) names the same line as codeDigits, or leaves the code to it', () => {
    const typed = fc
      .oneof(fc.array(fc.constantFrom('0', '1', '2', '5', '9', '.', ' ', '\t', 'a', '-'), { maxLength: 16 }), fc.array(fc.constantFrom('0', '1', '9', '.', ' '), { minLength: 8, maxLength: 13 }))
      .map((cs) => cs.join(''));
    fc.assert(
      fc.property(typed, typed, (a, b) => {
        const digits = (s: string) => {
          try {
            return codeDigits(s);
          } catch {
            return null;
          }
        };
        const [da, db] = [digits(a), digits(b)];
        // Only digits, dots and spaces, 8 or 10 digits: a key; anything else is left to codeDigits.
        expect(lineKey(a) >= 0).toBe(/^[\d. ]*$/.test(a) && (da?.length === 8 || da?.length === 10));
        if (lineKey(a) >= 0 && lineKey(b) >= 0) expect(lineKey(a) === lineKey(b)).toBe(da === db);
      }),
      { numRuns: 5000 },
    );
    expect(lineKey('6109.10.00')).toBe(lineKey('61091000'));
    expect(lineKey('0061091000')).not.toBe(lineKey('61091000'));
  });
  it('prints codes dotted', () => {
    expect(dotted('6109100012')).toBe('6109.10.00.12');
    expect(dotted('610910')).toBe('6109.10');
  });
  it.each([
    ['6109.1O.00', /only digits/],
    ['610910001', /4, 6, 8 or 10 digits.*has 9/],
    ['123456789012', /has 12/],
    ['', /required/],
  ])('rejects %j naming the parameter', (s, msg) => {
    expect(() => codeDigits(s)).toThrow(msg);
    expect(() => codeDigits(s)).toThrow(/^hts /);
  });

  const t = realTariff();
  it('finds 8-digit lines, 10-digit lines, and the merged 10-digit line of an 8-digit code', () => {
    expect(t.duty({ hts: '61091000', value: 100 }).hts).toBe('6109.10.00');
    expect(t.duty({ hts: '6109100012', value: 100 }).hts).toBe('6109.10.00.12');
    // 0101.30.00 exists only as the merged statistical line 0101.30.00.00 (rates printed on it).
    expect(t.duty({ hts: '0101.30.00', value: 100 }).hts).toBe('0101.30.00.00');
  });
  it('a heading or subheading is a lookup, not a duty line: the error counts the 8-digit lines under it', () => {
    // 6109.10.00, 6109.90.10, 6109.90.15, 6109.90.40, 6109.90.80
    expect(() => t.duty({ hts: '6109', value: 1 })).toThrow(/6109 is a heading.*5 8-digit lines lie under it/);
    expect(() => t.duty({ hts: '6109.90', value: 1 })).toThrow(/subheading.*4 8-digit lines/);
  });
  it('an unknown code is not found', () => {
    expect(() => t.duty({ hts: '6109.10.00.99' })).toThrow(expect.objectContaining({ code: 'not_found', parameter: 'hts' }));
  });
});
