/** Section 301 on products of Brazil (note 50, 9903.05.01 +25% from 2026-07-22), stacking with note 52 (Brazil +12.5%). */
import { describe, expect, it } from 'vitest';
import { layerOf, programsOf, realTariff } from '../../helpers/tariff.js';

const t = realTariff();

describe('a mixer 8509.40.00 (general 4.2%) from Brazil, value 10,000', () => {
  it('today: +25% (2,500) and note 52 +12.5% (1,250); total 420 + 3,750 + 34.64 = 4,204.64', () => {
    const r = t.duty({ hts: '8509.40.00', value: 10000, origin: 'BR', date: '2026-11-22' });
    expect(layerOf(r, 's301_brazil')).toEqual({ program: 's301_brazil', authority: 'Section 301', heading: '9903.05.01', rate: 25, rate_kind: 'add', basis: 'full_value', amount: 2500, refundable: false });
    expect(layerOf(r, 's301_forced_labor')).toMatchObject({ heading: '9903.05.27', amount: 1250 });
    expect(r.total_duties_fees).toBe(4204.64);
  });
  it('on 2026-07-22, before note 52 (2026-07-24) and while Section 122 ran (to 07-23): 10% (1,000) + 25% (2,500)', () => {
    const r = t.duty({ hts: '8509.40.00', value: 10000, origin: 'BR', date: '2026-07-22' });
    expect(programsOf(r)).toEqual(['s122', 's301_brazil']);
    expect(r.additional_duty).toBe(3500);
  });
  it('on 2026-07-21: Section 122 only', () => {
    expect(programsOf(t.duty({ hts: '8509.40.00', value: 10000, origin: 'BR', date: '2026-07-21' }))).toEqual(['s122']);
  });
});

describe('the exemption annex (proposed)', () => {
  it('beef 0201.10.05 from Brazil is on it: no Section 301 Brazil, and the answer says the list is the proposed one', () => {
    const r = t.duty({ hts: '0201.10.05', value: 10000, origin: 'BR', date: '2026-11-22' });
    expect(layerOf(r, 's301_brazil')).toMatchObject({ heading: '9903.05.03', rate_kind: 'exempt', amount: 0 });
    expect(r.assumptions.join(' ')).toMatch(/Section 301 Brazil exemption list used is the proposed annex/);
  });
});
