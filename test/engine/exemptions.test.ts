/**
 * Exemption headings (issue 28): where the entry must declare a heading to claim an exemption, the answer lists
 * it as a layer of rate_kind "exempt", rate 0, amount 0 (SPEC 0.2). The rulings cited state the headings; the
 * lines are real schedule lines of the same kind, amounts by hand.
 */
import { describe, expect, it } from 'vitest';
import { exemptOf, layerOf, owedOf, realTariff } from '../helpers/tariff.js';

const t = realTariff();

describe('Section 232 goods outside IEEPA reciprocal: 9903.01.33 (N352566; N351392 and N350103 with their own goods in rulings.test.ts)', () => {
  it('N352566 (its goods not retrieved here): Chinese steel article 7208.10.15 on 2025-10-01, 10,000: 9903.81.87 +50% = 5,000, fentanyl 9903.01.24 +20% = 2,000, and 9903.01.33 at 0', () => {
    const r = t.duty({ hts: '7208.10.15', value: 10000, origin: 'CN', date: '2025-10-01' });
    expect(r.additional_duties.map((l) => [l.heading, l.rate_kind, l.amount])).toEqual([
      ['9903.81.87', 'add', 5000],
      ['9903.91.01', 'add', 2500],
      ['9903.01.24', 'add', 2000],
      ['9903.01.33', 'exempt', 0],
    ]);
    expect(layerOf(r, 'ieepa_reciprocal')).toEqual({ program: 'ieepa_reciprocal', authority: 'IEEPA', heading: '9903.01.33', rate: 0, rate_kind: 'exempt', basis: 'full_value', amount: 0, refundable: false });
  });
  it('with steel content 4,000 of a derivative the reciprocal duty falls on the rest and no exemption heading is declared (as N350489)', () => {
    const r = t.duty({ hts: '7308.90.95', value: 10000, origin: 'VN', date: '2025-10-01', steel_content: 4000 });
    expect(exemptOf(r)).toEqual([]);
    expect(layerOf(r, 'ieepa_reciprocal')).toMatchObject({ heading: '9903.02.69', basis: 'non_metal_content', amount: 1200 });
  });
});

describe('Annex II goods: 9903.01.32 (N348879, N350189); India 9903.01.86', () => {
  it('N348879 / N350189: computer 8471.50.01 from Vietnam on 2025-10-01: 9903.01.32 at 0, nothing owed', () => {
    const r = t.duty({ hts: '8471.50.01', value: 10000, origin: 'VN', date: '2025-10-01' });
    expect(owedOf(r)).toEqual([]);
    expect(exemptOf(r)).toEqual(['ieepa_reciprocal 9903.01.32']);
  });
});

describe('Section 122, note 52 and Section 301 Brazil equivalents', () => {
  it('Section 122 on Section 232 goods: steel 7208.10.15 from Vietnam on 2026-05-01: 9903.82.02 5,000 and 9903.03.06 at 0', () => {
    const r = t.duty({ hts: '7208.10.15', value: 10000, origin: 'VN', date: '2026-05-01' });
    expect(r.additional_duties.map((l) => [l.heading, l.amount])).toEqual([
      ['9903.82.02', 5000],
      ['9903.03.06', 0],
    ]);
  });
  it('Brazilian steel 7208.10.15 on 2026-08-01: 9903.82.02 5,000; 9903.05.07 (note 50) and 9903.05.90 (note 52) at 0', () => {
    const r = t.duty({ hts: '7208.10.15', value: 10000, origin: 'BR', date: '2026-08-01' });
    expect(owedOf(r)).toEqual(['s232_metals']);
    expect(exemptOf(r)).toEqual(['s301_brazil 9903.05.07', 's301_forced_labor 9903.05.90']);
  });
  it('USMCA goods of Canada on 2026-05-01 (shirt 6109.10.00): Section 122 9903.03.07 at 0', () => {
    const r = t.duty({ hts: '6109.10.00', value: 10000, origin: 'CA', date: '2026-05-01' });
    expect(exemptOf(r)).toEqual(['s122 9903.03.07']);
  });
});
