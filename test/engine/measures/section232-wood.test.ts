/** Section 232 on wood products (note 37): upholstered wooden furniture 9401.61.40.11 (general Free), value 10,000, 2026-11-22. */
import { describe, expect, it } from 'vitest';
import { exemptOf, owedOf, layerOf, realTariff } from '../../helpers/tariff.js';

const t = realTariff();
const sofa = (origin: string, date = '2026-11-22') => t.duty({ hts: '9401.61.40.11', value: 10000, origin, date });

describe('upholstered wooden furniture', () => {
  it('from Vietnam: 9903.76.02 +25% = 2,500; note 52 (Vietnam +12.5%) does not apply to 232 wood', () => {
    const r = sofa('VN');
    expect(layerOf(r, 's232_furniture')).toEqual({ program: 's232_furniture', authority: 'Section 232', heading: '9903.76.02', rate: 25, rate_kind: 'add', basis: 'full_value', amount: 2500, refundable: false });
    expect(owedOf(r)).toEqual(['s232_furniture']);
    expect(exemptOf(r)).toEqual(['s301_forced_labor 9903.05.90']);
  });
  it('from Italy: the EU deal 9903.76.22, 15% total − 0 = 1,500', () => {
    expect(layerOf(sofa('IT'), 's232_furniture')).toMatchObject({ heading: '9903.76.22', rate: 15, rate_kind: 'total', amount: 1500 });
  });
  it('from the UK: 9903.76.20 +10% = 1,000', () => {
    expect(layerOf(sofa('GB'), 's232_furniture')).toMatchObject({ heading: '9903.76.20', rate: 10, amount: 1000 });
  });
  it('from 2027-01-01 the general rate is +30% (scheduled): 3,000', () => {
    expect(layerOf(sofa('VN', '2027-01-02'), 's232_furniture')).toMatchObject({ rate: 30, amount: 3000 });
  });
  it('before 2025-10-14 there was no wood duty', () => {
    expect(layerOf(sofa('VN', '2025-10-13'), 's232_furniture')).toBeUndefined();
  });
});

describe('softwood lumber 4407.11.00 from Canada, value 10,000', () => {
  it('9903.76.01 +10% = 1,000, even with USMCA claimed (no USMCA relief)', () => {
    expect(layerOf(t.duty({ hts: '4407.11.00', value: 10000, origin: 'CA', date: '2026-11-22' }), 's232_lumber')).toMatchObject({ heading: '9903.76.01', rate: 10, amount: 1000 });
  });
});
