/**
 * Section 232 on patented pharmaceuticals (note 40, from 2026-07-31), on 2918.99.30.00 (general
 * 6.5%), value 10,000. "x% total" is x% of the value less the 6.5% (650) base duty.
 */
import { describe, expect, it } from 'vitest';
import { layerOf, realTariff } from '../../helpers/tariff.js';

const t = realTariff();
const drug = (origin: string, extra: Record<string, unknown> = {}) => t.duty({ hts: '2918.99.30.00', value: 10000, origin, date: '2026-11-22', ...extra });

describe('a patented drug', () => {
  it('from Ireland: the EU deal 9903.04.62, 15% total: 1,500 − 650 = 850', () => {
    const r = drug('IE', { patented: 1 });
    expect(layerOf(r, 's232_pharma')).toMatchObject({ heading: '9903.04.62', rate: 15, rate_kind: 'total', amount: 850 });
    expect(r).toMatchObject({ duty: 650, total_duties_fees: 1534.64 }); // 650 + 850 + 34.64 MPF
  });
  it('from India: 9903.04.60, 100% total: 10,000 − 650 = 9,350', () => {
    expect(layerOf(drug('IN', { patented: 1 }), 's232_pharma')).toMatchObject({ heading: '9903.04.60', rate: 100, amount: 9350 });
  });
  it('from the UK: 9903.04.63 +0%: a layer of 0', () => {
    expect(layerOf(drug('GB', { patented: 1 }), 's232_pharma')).toMatchObject({ heading: '9903.04.63', rate: 0, amount: 0 });
  });
  it('after the list was revised (2026-09-29), the answer says the revised list must be checked', () => {
    expect(drug('IN', { patented: 1 }).notes.join(' ')).toMatch(/revised on 2026-09-29.*9903\.04\.60/);
    expect(drug('IN', { patented: 1, date: '2026-08-15' }).notes.join(' ')).not.toMatch(/revised/);
  });
});

describe('patent status', () => {
  it('not given: taken as generic (no duty), and said', () => {
    const r = drug('IN');
    expect(layerOf(r, 's232_pharma')).toBeUndefined();
    expect(r.assumptions.join(' ')).toMatch(/patented not given/);
  });
  it('patented=0: generic, no duty', () => {
    expect(layerOf(drug('IN', { patented: 0 }), 's232_pharma')).toBeUndefined();
  });
  it('before 2026-07-31 no pharmaceutical duty', () => {
    expect(layerOf(drug('IN', { patented: 1, date: '2026-07-30' }), 's232_pharma')).toBeUndefined();
  });
});
