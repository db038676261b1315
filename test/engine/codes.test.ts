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
  it('reads a code as its definition says: dots and any white space taken out, digits kept, anything else refused', () => {
    const typed = fc.array(fc.constantFrom('0', '4', '7', '9', '.', ' ', '\t', '\n', '\u00a0', '\u2003', 'a', '-', '٣'), { maxLength: 14 }).map((cs) => cs.join(''));
    fc.assert(
      fc.property(typed, (s) => {
        const digits = s.replace(/[\s.]/g, '');
        const expected = digits === '' ? /required/ : !/^\d+$/.test(digits) ? /only digits/ : ![2, 4, 6, 8, 10].includes(digits.length) ? /4, 6, 8 or 10 digits/ : digits;
        if (typeof expected === 'string') expect(codeDigits(s)).toBe(expected);
        else expect(() => codeDigits(s)).toThrow(expected);
      }),
      { numRuns: 5000 },
    );
    expect(codeDigits('\t6109\u00a010 00\n')).toBe('61091000');
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
  it('an unknown code is not found (an unknown 8-digit line; its ten-digit codes too), where its subheading\'s lines differ in rate', () => {
    // Under 6109.10 (one line) the same codes are a supplier's, costed on 6109.10.00 (issue 31: test/engine/supplier-codes.test.ts).
    expect(() => t.duty({ hts: '6109.90.01' })).toThrow(expect.objectContaining({ code: 'not_found', parameter: 'hts' }));
    expect(() => t.duty({ hts: '6109.90.01.99' })).toThrow(expect.objectContaining({ code: 'not_found', parameter: 'hts' }));
  });
});

describe('codes the schedule does not print as lines (issue 28, item 8)', () => {
  const t = realTariff();
  it('3004.39.0050 (a 2025 ruling code; the suffix is gone): costed at 3004.39.00 (Free), the assumption naming the suffix and the ten-digit lines of today (was a 404)', () => {
    const r = t.duty({ hts: '3004.39.0050', value: 1000, origin: 'CN', date: '2025-09-15' });
    expect(r).toMatchObject({ hts: '3004.39.00', duty_rate: 'Free', duty: 0 });
    expect(r.assumptions[0]).toBe('Code 3004.39.00.50: the statistical suffix 50 is not in the schedule (2026 Revision 10); costed at its 8-digit line 3004.39.00, where duty rates are set (its ten-digit lines: .10, .20, .30, .40, .45, .55).');
  });
  it('6109.10.00.99 likewise at 6109.10.00 (16.5% × 1,000 = 165)', () => {
    const r = t.duty({ hts: '6109.10.00.99', value: 1000 });
    expect(r).toMatchObject({ hts: '6109.10.00', duty: 165 });
    // No chapter 99 list tells its ten-digit lines apart: the suffix changes nothing.
    expect(r.statistical_suffix_needed).toBeUndefined();
  });
  describe('statistical_suffix_needed: a chapter 99 list names ten-digit lines under the 8-digit line costed (What must hold 5)', () => {
    it('6307.90.98.99 from China 2025-09-15: costed at 6307.90.98 (7%: 700; 9903.91.01 25%: 2,500), but the Section 301 lists of note 31 name its ten-digit lines (N353032: .91 owes 9903.88.15)', () => {
      const r = t.duty({ hts: '6307.90.98.99', value: 10000, origin: 'CN', date: '2025-09-15' });
      expect(r).toMatchObject({ hts: '6307.90.98', duty: 700, section_301_heading: '9903.91.01', section_301: 2500, statistical_suffix_needed: true });
      expect(r.assumptions[1]).toMatch(/^Ten-digit lines under 6307\.90\.98 get other chapter 99 headings, so the layers depend on the statistical suffix \(9903\.88\.15 \(s301_china\): \.25, .*\.91; 9903\.91\.01 \(s301_china\): .*\.91\); give the full ten-digit code\.$/);
    });
    it('the same code from Germany: the lists that differ are China\'s, so no flag', () => {
      expect(t.duty({ hts: '6307.90.98.99', value: 10000, origin: 'DE', date: '2025-09-15' }).statistical_suffix_needed).toBeUndefined();
    });
    it('7317.00.55.99 from China 2025-01-15: the steel derivative list then named five of its ten-digit lines (9903.80.01), not the 8-digit line', () => {
      const r = t.duty({ hts: '7317.00.55.99', value: 10000, origin: 'CN', date: '2025-01-15' });
      expect(r.statistical_suffix_needed).toBe(true);
      expect(r.assumptions[1]).toContain('9903.80.01 (s232_steel): .03, .05, .07, .60, .80');
      // From 2025-03-12 the 8-digit line is on note 16(m)'s list (9903.81.90), the five Proclamation 9980 lines on 16(l)'s (9903.81.89): still told apart.
      const may = t.duty({ hts: '7317.00.55.99', value: 10000, origin: 'CN', date: '2025-05-15' });
      expect(may).toMatchObject({ statistical_suffix_needed: true });
      expect(may.assumptions[1]).toContain('9903.81.89 (s232_steel): .03, .05, .07, .60, .80; 9903.81.90 (s232_steel): .03, .05, .07, .60, .80');
    });
    it('a ten-digit line of the schedule is costed on itself: never the flag (6307.90.98.91: 9903.88.15, 750)', () => {
      const r = t.duty({ hts: '6307.90.98.91', value: 10000, origin: 'CN', date: '2025-09-15' });
      expect(r).toMatchObject({ section_301_heading: '9903.88.15', section_301: 750 });
      expect(r.statistical_suffix_needed).toBeUndefined();
    });
  });
  it('a subheading with one 8-digit line is costed on it: 8471.30 → 8471.30.01, said', () => {
    const r = t.duty({ hts: '8471.30', value: 1000, origin: 'VN', date: '2025-09-15' });
    expect(r.hts).toBe('8471.30.01.00');
    expect(r.assumptions[0]).toBe('Code 8471.30 is a subheading with one 8-digit line, 8471.30.01: costed on it.');
  });
  it('a heading with several: a 400 listing them with their general rates in details.candidates, in good English', () => {
    expect(() => t.duty({ hts: '6109', value: 1 })).toThrow(
      expect.objectContaining({
        message: 'hts 6109 is a heading; duty needs an 8- or 10-digit tariff line. 5 8-digit lines lie under it: 6109.10.00 (16.5%), 6109.90.10 (32%), 6109.90.15 (5.6%), 6109.90.40 (2.6%), 6109.90.80 (16%).',
        details: expect.objectContaining({ tariff_lines: 5, candidates: expect.arrayContaining([{ hts: '6109.90.10', description: expect.any(String), general: '32%' }]) }),
      }),
    );
  });
  it('at most 20 candidates: heading 8471 (more lines than that) lists 20 and says how many more', () => {
    try {
      t.duty({ hts: '8471', value: 1 });
      expect.unreachable();
    } catch (e) {
      const err = e as { details: { tariff_lines: number; candidates: unknown[] }; message: string };
      expect(err.details.candidates).toHaveLength(20);
      if (err.details.tariff_lines > 20) expect(err.message).toMatch(new RegExp(`and ${err.details.tariff_lines - 20} more\\.$`));
    }
  });
});
