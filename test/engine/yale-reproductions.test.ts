/**
 * Defects found against an independent reconstruction of the Yale Budget Lab tracker (issue 28, Why 7), each
 * as `npm run --silent duty -- …` reproduces it. (The metal-list one, 8302.10.60.30 with both contents, is in
 * metal-content.test.ts.) Amounts by hand from the real lines.
 */
import { describe, expect, it } from 'vitest';
import { exemptOf, layerOf, owedOf, realTariff } from '../helpers/tariff.js';

const t = realTariff();

describe('UK 15% (9903.82.05) where the note 16(c) subdivision field is compound (vi;vii, vi/vii)', () => {
  it('8302.10.60.30 10000 GB --date 2026-05-11: 9903.82.05 at 1,500 (was 9903.82.09 at 2,500)', () => {
    expect(layerOf(t.duty({ hts: '8302.10.60.30', value: 10000, origin: 'GB', date: '2026-05-11' }), 's232_metals')).toMatchObject({ heading: '9903.82.05', rate: 15, amount: 1500 });
  });
  it('9403.20.00.75 10000 GB --date 2026-06-22: 9903.82.05 at 1,500', () => {
    expect(layerOf(t.duty({ hts: '9403.20.00.75', value: 10000, origin: 'GB', date: '2026-06-22' }), 's232_metals')).toMatchObject({ heading: '9903.82.05', amount: 1500 });
  });
});

describe("India's +25% (9903.01.84) not on the Annex II goods that 9903.01.86 exempts", () => {
  it('8471.30.01.00 10000 IN --date 2026-01-20: nothing owed (was 2,500); 9903.01.32 and 9903.01.86 declared at 0', () => {
    const r = t.duty({ hts: '8471.30.01.00', value: 10000, origin: 'IN', date: '2026-01-20' });
    expect(owedOf(r)).toEqual([]);
    expect(exemptOf(r)).toEqual(['ieepa_reciprocal 9903.01.32', 'ieepa_india 9903.01.86']);
    expect(r.additional_duty).toBe(0);
  });
});

describe('8704.60.00 (electric trucks, general 25%) is on the note 33 and note 38 lists: the choice part_for gives, the default said', () => {
  it('Germany 2026-01-20, 10,000, part_for not given: a light truck, EU 15% total under 9903.94.50 (base 25% ≥ 15%: 0), and the assumption names the choice', () => {
    const r = t.duty({ hts: '8704.60.00', value: 10000, origin: 'DE', date: '2026-01-20' });
    expect(layerOf(r, 's232_autos')).toMatchObject({ heading: '9903.94.50', amount: 0 });
    expect(r.assumptions.join(' ')).toMatch(/part_for not given: 8704\.60\.00\.00 \(on the note 33 and note 38 lists\) is taken as a passenger vehicle or light truck/);
  });
  it('part_for=mhd: a medium/heavy-duty vehicle, 9903.74.01 +25% = 2,500', () => {
    expect(layerOf(t.duty({ hts: '8704.60.00', value: 10000, origin: 'DE', date: '2026-01-20', part_for: 'mhd' }), 's232_mhd')).toMatchObject({ heading: '9903.74.01', amount: 2500 });
  });
});
