/**
 * Defects found against an independent reconstruction of the Yale Budget Lab tracker (issue 28, Why 7), each
 * as `npm run --silent duty -- …` reproduces it. Amounts by hand from the real lines.
 */
import { describe, expect, it } from 'vitest';
import { exemptOf, layerOf, owedOf, realTariff } from '../helpers/tariff.js';

const t = realTariff();

describe('Pre-annex derivatives on both metal lists at different code lengths lose one metal (list.find kept the longest prefix)', () => {
  it('8302.10.60.30 10000 CN --date 2026-03-16 --steel_content 1593.50 --aluminum_content 624.01: 796.75 + 312.01 + 301 2,500 + Section 122 10% × 7,782.49 = 778.25 → 4,387.01 (was 3,749.61: steel lost)', () => {
    const r = t.duty({ hts: '8302.10.60.30', value: 10000, origin: 'CN', date: '2026-03-16', steel_content: 1593.5, aluminum_content: 624.01 });
    expect(layerOf(r, 's232_steel')).toMatchObject({ basis: 'steel_content', amount: 796.75 });
    expect(layerOf(r, 's232_aluminum')).toMatchObject({ basis: 'aluminum_content', amount: 312.01 });
    expect(layerOf(r, 's122')).toMatchObject({ basis: 'non_metal_content', amount: 778.25 });
    expect(r.additional_duty).toBe(4387.01);
    expect(r.content_needed).toBeUndefined();
  });
});

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

// U.S. note 2(x)(iii) to subchapter III of chapter 99 (HTS 2026 Rev 6 text), from EO 14323 Annex I and the executive order of
// 2025-11-20 that added 238 provisions (3105.90.00 among them) and the particular articles of (x)(iii)(b) from 2025-11-13.
describe("Brazil's note 2(x) exemption list (ieepa_brazil_exempt_products.csv)", () => {
  it('3105.90.00.10 10000 BR --date 2026-01-20: nothing owed (was 4,000); 9903.01.32 and 9903.01.81 declared at 0', () => {
    const r = t.duty({ hts: '3105.90.00.10', value: 10000, origin: 'BR', date: '2026-01-20' });
    expect(owedOf(r)).toEqual([]);
    expect(exemptOf(r)).toEqual(['ieepa_reciprocal 9903.01.32', 'ieepa_brazil 9903.01.81']);
    expect(r.additional_duty).toBe(0);
  });
  it('the same goods entered 2025-11-12, before the addition took effect: 10% (9903.02.09) + 40% (9903.01.77) of 10,000 = 5,000', () => {
    const r = t.duty({ hts: '3105.90.00.10', value: 10000, origin: 'BR', date: '2025-11-12' });
    expect(layerOf(r, 'ieepa_brazil')).toMatchObject({ heading: '9903.01.77', rate: 40, amount: 4000 });
    expect(r.additional_duty).toBe(5000);
  });
  it('orange juice 2009.11.00.20 (original Annex I) entered 2025-09-01: 9903.01.81 at 0; the reciprocal 10% stays (1,000)', () => {
    const r = t.duty({ hts: '2009.11.00.20', value: 10000, origin: 'BR', date: '2025-09-01' });
    expect(exemptOf(r)).toEqual(['ieepa_brazil 9903.01.81']);
    expect(layerOf(r, 'ieepa_reciprocal')).toMatchObject({ heading: '9903.02.09', amount: 1000 });
  });
  it('0805.90.01.00 2026-01-20: 9903.01.90 exempts etrogs only, so the 40% stands (4,000) and the note names the heading', () => {
    const r = t.duty({ hts: '0805.90.01.00', value: 10000, origin: 'BR', date: '2026-01-20' });
    expect(layerOf(r, 'ieepa_brazil')).toMatchObject({ heading: '9903.01.77', amount: 4000 });
    expect(r.notes.join(' ')).toMatch(/heading 9903\.01\.90 exempts only Etrogs; not assumed/);
  });
  it('a Section 232 steel article of Brazil (7208.10.15.00, 2025-09-01) declares 9903.01.83 (note 2(x)(v)) instead of the 40%', () => {
    const r = t.duty({ hts: '7208.10.15.00', value: 10000, origin: 'BR', date: '2025-09-01' });
    expect(layerOf(r, 's232_steel')).toMatchObject({ heading: '9903.81.87', amount: 5000 });
    expect(exemptOf(r)).toEqual(['ieepa_reciprocal 9903.01.33', 'ieepa_brazil 9903.01.83']);
  });
});

// Russia is a column 2 country (Pub. L. 117-110). Heading 9903.05.66's column 2 reads "The duty provided in the applicable
// subheading + 12.5%" (HTS Rev 13, as program_rates.csv records with its source), unlike the other note 52 country
// headings: so products of Russia owe note 52's 12.5% on top of the column 2 rate.
describe('Russia and note 52: 9903.05.66 adds 12.5% in column 2 too', () => {
  it('T-shirts 6109.10.00 10000 RU --date 2026-08-01: column 2 90% (9,000) and 9903.05.66 +12.5% (1,250)', () => {
    const r = t.duty({ hts: '6109.10.00', value: 10000, origin: 'RU', date: '2026-08-01' });
    expect([r.rate_basis, r.duty]).toEqual(['column2', 9000]);
    expect(r.additional_duties).toMatchObject([{ program: 's301_forced_labor', heading: '9903.05.66', rate: 12.5, amount: 1250 }]);
  });
  it('fertilizer 3105.90.00 RU --date 2026-08-01: on the (proposed) exemption annex, 9903.05.86 declared at 0 instead', () => {
    const r = t.duty({ hts: '3105.90.00', value: 10000, origin: 'RU', date: '2026-08-01' });
    expect(exemptOf(r)).toEqual(['s301_forced_labor 9903.05.86']);
    expect(r.additional_duty).toBe(0);
  });
  it('the day before note 52 (2026-07-23): Section 122, whose column 2 adds 10% too (9903.03.01: 1,000), and no 9903.05.66', () => {
    const r = t.duty({ hts: '6109.10.00', value: 10000, origin: 'RU', date: '2026-07-23' });
    expect(r.additional_duties).toMatchObject([{ program: 's122', heading: '9903.03.01', amount: 1000 }]);
  });
});
