/** IEEPA reciprocal duties (entries 2025-04-05 to 2026-02-23): rates by country and date, "15% total" floors, exemptions; refundable. */
import { describe, expect, it } from 'vitest';
import { exemptOf, owedOf, layerOf, realTariff } from '../../helpers/tariff.js';

const t = realTariff();
const shirt = (origin: string, date: string, extra: Record<string, unknown> = {}) => t.duty({ hts: '6109.10.00', value: 10000, origin, date, ...extra });
const mixer = (origin: string, date: string) => t.duty({ hts: '8509.40.00', value: 10000, origin, date });

describe('IEEPA reciprocal', () => {
  it('T-shirts from Vietnam on 2025-10-01 (phase 2, 9903.02.69): +20% = 2,000; total 1,650 + 2,000 + 34.64', () => {
    const r = shirt('VN', '2025-10-01');
    expect(r.additional_duties).toEqual([{ program: 'ieepa_reciprocal', authority: 'IEEPA', heading: '9903.02.69', rate: 20, rate_kind: 'add', basis: 'full_value', amount: 2000, refundable: true }]);
    expect(r).toMatchObject({ total_duties_fees: 3684.64 });
  });
  it('Vietnam on 2025-04-09 only: the Annex I rate +46% = 4,600; on 2025-05-01 the 10% baseline = 1,000', () => {
    expect(layerOf(shirt('VN', '2025-04-09'), 'ieepa_reciprocal')).toMatchObject({ rate: 46, amount: 4600 });
    expect(layerOf(shirt('VN', '2025-05-01'), 'ieepa_reciprocal')).toMatchObject({ heading: '9903.01.25', rate: 10, amount: 1000 });
  });
  it('Germany on 2025-10-01: the EU floor 15% total (9903.02.20, base under 15%): 1,500 − 420 (4.2% base) = 1,080', () => {
    expect(layerOf(mixer('DE', '2025-10-01'), 'ieepa_reciprocal')).toMatchObject({ heading: '9903.02.20', rate_kind: 'total', amount: 1080 });
  });
  it('EU civil aircraft list (9903.02.76): exempt from 2025-09-01, retroactively, though published 2025-09-25 (FR Doc 2025-18660, CSMS #66336270)', () => {
    const tube = (date: string) => t.duty({ hts: '3917.21.00', value: 10000, origin: 'DE', date });
    // 2025-08-31: the EU floor, 15% total on a 3.1% line: 1,500 − 310 = 1,190.
    expect(layerOf(tube('2025-08-31'), 'ieepa_reciprocal')).toMatchObject({ heading: '9903.02.20', amount: 1190 });
    // 2025-09-10, before the list was published: exempt, nothing owed, nothing to refund.
    expect(layerOf(tube('2025-09-10'), 'ieepa_reciprocal')).toMatchObject({ heading: '9903.02.76', amount: 0 });
  });
  it('Switzerland: +39% (3,900) on 2025-10-01, then 15% total (1,080) from 2025-11-14', () => {
    expect(layerOf(mixer('CH', '2025-10-01'), 'ieepa_reciprocal')).toMatchObject({ rate: 39, amount: 3900 });
    expect(layerOf(mixer('CH', '2025-12-01'), 'ieepa_reciprocal')).toMatchObject({ rate: 15, rate_kind: 'total', amount: 1080 });
  });
  it('Canada and Mexico: 0 (9903.01.26/.27); column 2 countries too', () => {
    expect(layerOf(shirt('CA', '2025-10-01', { claim: 'none' }), 'ieepa_reciprocal')).toBeUndefined();
    expect(layerOf(shirt('RU', '2025-10-01'), 'ieepa_reciprocal')).toBeUndefined();
  });
  it('an exempt product (note 2(v)(iii), 8471.50.01): no reciprocal duty, with a note', () => {
    const r = t.duty({ hts: '8471.50.01', value: 10000, origin: 'VN', date: '2025-10-01' });
    // Annex II goods declare 9903.01.32 (N348879, N350189).
    expect(layerOf(r, 'ieepa_reciprocal')).toMatchObject({ heading: '9903.01.32', rate_kind: 'exempt', amount: 0 });
    expect(r.notes.join(' ')).toMatch(/exempt \(9903\.01\.32\)/);
  });
  it('U.S. content of at least 20% is not dutiable (9903.01.34): 20% × (10,000 − 2,500) = 1,500', () => {
    expect(layerOf(shirt('VN', '2025-10-01', { us_content: 2500 }), 'ieepa_reciprocal')).toMatchObject({ basis: 'non_us_content', amount: 1500 });
    // Below 20% the whole value is charged: 20% × 10,000.
    expect(layerOf(shirt('VN', '2025-10-01', { us_content: 1000 }), 'ieepa_reciprocal')).toMatchObject({ basis: 'full_value', amount: 2000 });
  });
  it('not on autos: a Japanese car on 2025-10-01 owes 232 (15% total: 6,000 − 1,000 = 5,000) and no reciprocal', () => {
    const r = t.duty({ hts: '8703.23.01', value: 40000, origin: 'JP', date: '2025-10-01' });
    expect(owedOf(r)).toEqual(['s232_autos']);
    expect(exemptOf(r)).toEqual(['ieepa_reciprocal 9903.01.33']);
    expect(r.section_232).toBe(5000);
  });
});

describe('a "15% total" floor on part of the value (SPEC section 0: (15% − the base rate) × the basis)', () => {
  it('aluminum derivative 7616.99.51.90 from Germany on 2025-09-01, aluminum content 4,000 of 10,000: (15% − 2.5%) × 6,000 = 750, not 15% × 6,000 − the whole base duty 250', () => {
    const r = t.duty({ hts: '7616.99.51.90', value: 10000, origin: 'DE', date: '2025-09-01', aluminum_content: 4000 });
    expect(layerOf(r, 'ieepa_reciprocal')).toMatchObject({ heading: '9903.02.20', rate: 15, rate_kind: 'total', basis: 'non_metal_content', amount: 750 });
    // 250 base + 50% × 4,000 aluminum + 750 + 34.64 MPF.
    expect(r).toMatchObject({ duty: 250, section_232: 2000, total_duties_fees: 3034.64 });
  });
  it('steel derivative 7326.90.86.88 (2.9%) from Germany on 2025-09-01, steel content 4,000: (15% − 2.9%) × 6,000 = 726', () => {
    const r = t.duty({ hts: '7326.90.86.88', value: 10000, origin: 'DE', date: '2025-09-01', steel_content: 4000 });
    expect(layerOf(r, 'ieepa_reciprocal')).toMatchObject({ basis: 'non_metal_content', amount: 726 });
  });
});

describe('steel articles of note 16(b) (9903.81.87/.88): no reciprocal duty at all before 2025-08-18 (SPEC 2.13)', () => {
  const pipe = (date: string) => t.duty({ hts: '7306.30.50', value: 10000, origin: 'IN', date, steel_content: 6000 });
  it('pipe 7306.30.50 from India, steel content 6,000: on 2025-07-01 and 2025-08-17 only 50% × 6,000 = 3,000 of Section 232', () => {
    for (const d of ['2025-07-01', '2025-08-17']) {
      // Steel articles (9903.81.87) were wholly outside the reciprocal duty until 2025-08-17: 9903.01.33.
      expect(pipe(d).additional_duties).toEqual([expect.objectContaining({ program: 's232_steel', basis: 'steel_content', amount: 3000 }), expect.objectContaining({ heading: '9903.01.33', rate_kind: 'exempt', amount: 0 })]);
      expect(pipe(d)).toMatchObject({ total_duties_fees: 3034.64 });
    }
  });
  it('from 2025-08-18: India 25% (9903.02.26) on the non-steel content 4,000 = 1,000', () => {
    expect(layerOf(pipe('2025-08-18'), 'ieepa_reciprocal')).toMatchObject({ heading: '9903.02.26', basis: 'non_metal_content', amount: 1000 });
  });
  it('a derivative (7326.90.86.88) on 2025-07-01 still owes the baseline 10% on its non-steel content: 400', () => {
    expect(layerOf(t.duty({ hts: '7326.90.86.88', value: 10000, origin: 'IN', date: '2025-07-01', steel_content: 6000 }), 'ieepa_reciprocal')).toMatchObject({ basis: 'non_metal_content', amount: 400 });
  });
});
