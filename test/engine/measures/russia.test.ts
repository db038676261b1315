/** Russia, note 30: 35% or 70% in lieu of column 2 for the products whose footnotes cite 9903.90.08/.09. */
import { describe, expect, it } from 'vitest';
import { layerOf, realTariff } from '../../helpers/tariff.js';

const t = realTariff();

describe('note 30', () => {
  it('slate 2514.00.00.00 (column 2 25%, footnote 9903.90.08), value 1,000: 35% in lieu of 25%: 350 − 250 = 100; note 52 Russia +12.5% = 125', () => {
    const r = t.duty({ hts: '2514.00.00.00', value: 1000, origin: 'RU', date: '2026-11-22' });
    expect(layerOf(r, 'russia_col2')).toEqual({ program: 'russia_col2', authority: 'Column 2 (Pub. L. 117-110)', heading: '9903.90.08', rate: 35, rate_kind: 'total', basis: 'full_value', amount: 100, refundable: false });
    expect(r).toMatchObject({ rate_basis: 'column2', duty: 250, additional_duty: 225, total_duties_fees: 508.58 }); // + 33.58 MPF minimum
  });
  it('only for products of Russia: Belarus pays column 2 alone', () => {
    expect(layerOf(t.duty({ hts: '2514.00.00.00', value: 1000, origin: 'BY', date: '2026-11-22' }), 'russia_col2')).toBeUndefined();
  });
  it('col2 as an origin program names no country: no note 30 layer, and the assumption says so', () => {
    const r = t.duty({ hts: '2514.00.00.00', value: 1000, origin: 'col2', date: '2026-11-22' });
    expect(r.additional_duties).toEqual([]);
    expect(r.assumptions.join(' ')).toMatch(/No origin country given/);
  });
});
