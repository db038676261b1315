/**
 * Metal content that adds up (issue 28, SPEC 2.1): steel, aluminum and copper contents are parts of one
 * customs value; unknown contents are bounded by the whole value as the content of ONE metal, the one of the
 * highest rate (said in assumptions, listed in content_needed); the duties that exclude the metal content
 * (IEEPA reciprocal, Section 122) fall on the rest. Amounts by hand from the real lines.
 */
import { describe, expect, it } from 'vitest';
import { exemptOf, layerOf, realTariff } from '../helpers/tariff.js';

const t = realTariff();

describe('steel-frame outdoor seat 9401.79.0015 from China, 2025-09-15, 10,000 (on the steel and aluminum lists), no content given', () => {
  const r = t.duty({ hts: '9401.79.0015', value: 10000, origin: 'CN', date: '2025-09-15' });
  it('the whole value as steel content (both 50%: steel, first in the schedule) = 5,000, not 5,000 of steel AND 5,000 of aluminum', () => {
    expect(layerOf(r, 's232_steel')).toMatchObject({ basis: 'steel_content', amount: 5000 });
    expect(layerOf(r, 's232_aluminum')).toBeUndefined();
    expect(r.section_232).toBe(5000);
  });
  it('said in assumptions and listed in content_needed; no reciprocal on a rest of 0 (9903.01.33)', () => {
    expect(r.assumptions.join(' ')).toMatch(/steel_content and aluminum_content not given: the whole customs value \(10000\.00\) is taken as steel content/);
    expect(r.content_needed).toEqual(['steel', 'aluminum']);
    expect(exemptOf(r)).toEqual(['ieepa_reciprocal 9903.01.33']);
  });
});

describe('8302.10.60.30 from China, 2026-03-16, 10,000 (steel list at 8 digits, aluminum at 10; its Yale reproduction is in yale-reproductions.test.ts)', () => {
  it('steel 4,000 given, aluminum not: the rest 6,000 as aluminum (3,000), steel 2,000; Section 122 on nothing (9903.03.06); content_needed aluminum', () => {
    const r = t.duty({ hts: '8302.10.60.30', value: 10000, origin: 'CN', date: '2026-03-16', steel_content: 4000 });
    expect([layerOf(r, 's232_steel')?.amount, layerOf(r, 's232_aluminum')?.amount]).toEqual([2000, 3000]);
    expect(r.content_needed).toEqual(['aluminum']);
    expect(exemptOf(r)).toEqual(['s122 9903.03.06']);
  });
  it('contents above the value in all are a 400 naming them', () => {
    expect(() => t.duty({ hts: '8302.10.60.30', value: 10000, origin: 'CN', date: '2026-03-16', steel_content: 6000, aluminum_content: 5000 })).toThrow(
      expect.objectContaining({ parameter: 'steel_content, aluminum_content', message: expect.stringMatching(/steel_content \+ aluminum_content \(11000\.00\) must not exceed the customs value/) }),
    );
  });
});
