/**
 * Section 232 on vehicles and parts (notes 33, 38), on real lines, entries of 2026-11-22. Figures by
 * hand from SPEC 2.5-2.7: "x% total" is x% of the value less the base duty actually applied.
 */
import { describe, expect, it } from 'vitest';
import { exemptOf, owedOf, layerOf, realTariff } from '../../helpers/tariff.js';

const t = realTariff();
const date = '2026-11-22';
const car = (origin: string, extra: Record<string, unknown> = {}) => t.duty({ hts: '8703.23.01', value: 40000, origin, date, ...extra });

describe('passenger car 8703.23.01 (general 2.5%), value 40,000', () => {
  it('from Japan: 15% total (9903.94.41, base under 15%): 6,000 − 1,000 base = 5,000; landed 40,000 + 1,000 + 5,000 + 138.56 MPF', () => {
    const r = car('JP');
    expect(layerOf(r, 's232_autos')).toEqual({ program: 's232_autos', authority: 'Section 232', heading: '9903.94.41', rate: 15, rate_kind: 'total', basis: 'full_value', amount: 5000, refundable: false });
    expect(r).toMatchObject({ duty: 1000, section_232: 5000, mpf: 138.56, landed_cost: 46138.56 });
    // Autos are not subject to note 52 (Japan 12.5% total).
    expect(owedOf(r)).toEqual(['s232_autos']);
    expect(exemptOf(r)).toEqual(['s301_forced_labor 9903.05.90']);
    // Japan has no FTA in the special column: claim=none changes nothing.
    expect(car('JP', { claim: 'none' })).toMatchObject({ duty: 1000, section_232: 5000 });
  });
  it('from Germany: the EU deal (9903.94.51), 15% total = 5,000; claim=none changes nothing (the general rate was applied anyway)', () => {
    expect(layerOf(car('DE'), 's232_autos')).toMatchObject({ heading: '9903.94.51', amount: 5000 });
    expect(car('DE', { claim: 'none' })).toMatchObject({ duty: 1000, section_232: 5000, total_duties_fees: 6138.56 });
  });
  it('from Mexico (USMCA claimed, Free): 9903.94.03, 25% of the non-U.S. content: no us_content given → 25% × 40,000 = 10,000, said', () => {
    const r = car('MX');
    expect(layerOf(r, 's232_autos')).toMatchObject({ heading: '9903.94.03', rate: 25, basis: 'non_us_content', amount: 10000 });
    expect(r).toMatchObject({ duty: 0, mpf: 0, total_duties_fees: 10000 });
    expect(r.assumptions.join(' ')).toMatch(/us_content not given/);
  });
  it('from Mexico with us_content 16,000: 25% × 24,000 = 6,000', () => {
    expect(layerOf(car('MX', { us_content: 16000 }), 's232_autos')).toMatchObject({ basis: 'non_us_content', amount: 6000 });
  });
  it('from Mexico with claim=none: general 2.5% (1,000) + 9903.94.01 25% × 40,000 (10,000) + MPF 138.56', () => {
    const r = car('MX', { claim: 'none' });
    expect(layerOf(r, 's232_autos')).toMatchObject({ heading: '9903.94.01', basis: 'full_value', amount: 10000 });
    expect(r).toMatchObject({ rate_basis: 'general', duty: 1000, mpf: 138.56, total_duties_fees: 11138.56 });
  });
  it('from China: +25% (10,000) and Section 301 9903.88.01 +25% (10,000)', () => {
    const r = car('CN');
    expect(owedOf(r)).toEqual(['s232_autos', 's301_china']);
    expect(exemptOf(r)).toEqual(['s301_forced_labor 9903.05.90']);
    expect(r).toMatchObject({ duty: 1000, section_232: 10000, section_301: 10000, additional_duty: 20000 });
  });
  it('from the UK within the quota (the default, said): 9903.94.31 +7.5% = 3,000; outside it (uk_quota=0) +25% = 10,000', () => {
    const r = car('GB');
    expect(layerOf(r, 's232_autos')).toMatchObject({ heading: '9903.94.31', rate: 7.5, amount: 3000 });
    expect(r.assumptions.join(' ')).toMatch(/uk_quota not given/);
    expect(layerOf(car('GB', { uk_quota: 0 }), 's232_autos')).toMatchObject({ heading: '9903.94.01', amount: 10000 });
  });
});

describe('auto part 8708.99.68 (general 2.5%), value 1,000', () => {
  const part = (origin: string, extra: Record<string, unknown> = {}) => t.duty({ hts: '8708.99.68', value: 1000, origin, date, ...extra });
  it('from Japan: 15% total (9903.94.43): 150 − 25 = 125; on both lists, taken as a passenger-vehicle part (said)', () => {
    const r = part('JP');
    expect(layerOf(r, 's232_auto_parts')).toMatchObject({ heading: '9903.94.43', rate_kind: 'total', amount: 125 });
    expect(r.assumptions.join(' ')).toMatch(/part_for not given/);
  });
  it('from Japan for medium/heavy-duty vehicles (part_for=mhd): 9903.74.08 +25% = 250, no deal rate', () => {
    expect(layerOf(part('JP', { part_for: 'mhd' }), 's232_mhd_parts')).toMatchObject({ heading: '9903.74.08', rate: 25, amount: 250 });
  });
  it('from Mexico under USMCA: 9903.94.06, no duty; no note 52 either (USMCA-qualifying)', () => {
    const r = part('MX', { part_for: 'passenger' });
    expect(r.additional_duties).toEqual([]);
    expect(r.notes.join(' ')).toMatch(/9903\.94\.06/);
    expect(r).toMatchObject({ duty: 0, total_duties_fees: 0 });
  });
  it('from China: +25% (250) and Section 301 9903.88.03 +25% (250)', () => {
    const r = part('CN', { part_for: 'passenger' });
    expect(owedOf(r)).toEqual(['s232_auto_parts', 's301_china']);
    expect(exemptOf(r)).toEqual(['s301_forced_labor 9903.05.90']);
    expect(r).toMatchObject({ duty: 25, section_232: 250, section_301: 250 });
  });
  it('part_for must be passenger or mhd', () => {
    expect(() => part('JP', { part_for: 'bus' })).toThrow(expect.objectContaining({ parameter: 'part_for' }));
  });
});

describe('bus 8702.10.31 (general 2%), value 100,000: note 38(c), 9903.74.02 +10%, no USMCA relief', () => {
  const bus = (origin: string, extra: Record<string, unknown> = {}) => t.duty({ hts: '8702.10.31', value: 100000, origin, date, ...extra });
  it('from Germany: base 2,000 + 10% = 10,000 + MPF 346.40 = 12,346.40; no metals 232 (MHD goods exclude it), no note 52', () => {
    const r = bus('DE');
    expect(owedOf(r)).toEqual(['s232_buses']);
    expect(exemptOf(r)).toEqual(['s301_forced_labor 9903.05.90']);
    expect(layerOf(r, 's232_buses')).toEqual({ program: 's232_buses', authority: 'Section 232', heading: '9903.74.02', rate: 10, rate_kind: 'add', basis: 'full_value', amount: 10000, refundable: false });
    expect(r).toMatchObject({ duty: 2000, section_232: 10000, mpf: 346.4, total_duties_fees: 12346.4 });
  });
  it('from Mexico under USMCA (Free, no MPF): still +10% = 10,000, the row that denies USMCA relief is not a USMCA route', () => {
    expect(bus('MX')).toMatchObject({ duty: 0, mpf: 0, section_232: 10000, total_duties_fees: 10000 });
    expect(bus('MX', { claim: 'none' })).toMatchObject({ duty: 2000, section_232: 10000 });
  });
  it('from China on 2025-11-15: +10% bus, Section 301 9903.88.01 +25%, IEEPA fentanyl +10%: 2,000 + 45,000 + 346.40', () => {
    const r = bus('CN', { date: '2025-11-15' });
    expect(owedOf(r)).toEqual(['s232_buses', 's301_china', 'ieepa_fentanyl']);
    expect(exemptOf(r)).toEqual(['ieepa_reciprocal 9903.01.33']);
    expect(r).toMatchObject({ section_232: 10000, section_301: 25000, additional_duty: 45000, total_duties_fees: 47346.4 });
  });
});

describe('auto part 8708.29.51.60 (also on the metals annex), value 10,000', () => {
  it('from Mexico under USMCA: 9903.94.06, no duty, and no metals 232 either: the parts program covers it at no duty (SPEC 3.2)', () => {
    for (const d of ['2025-06-01', date]) {
      const r = t.duty({ hts: '8708.29.51.60', value: 10000, origin: 'MX', date: d });
      expect(r.additional_duties).toEqual([]);
      expect(r.notes.join(' ')).toMatch(/9903\.94\.06/);
      expect(r).toMatchObject({ duty: 0, total_duties_fees: 0 });
    }
  });
  it('from Mexico without the claim: 9903.94.05 +25% = 2,500, not a metals heading', () => {
    const r = t.duty({ hts: '8708.29.51.60', value: 10000, origin: 'MX', date, claim: 'none' });
    expect(owedOf(r)).toEqual(['s232_auto_parts']);
    expect(exemptOf(r)).toEqual(['s301_forced_labor 9903.05.90']);
    expect(layerOf(r, 's232_auto_parts')).toMatchObject({ heading: '9903.94.05', amount: 2500 });
  });
  it('from Mexico under USMCA as a part of medium/heavy-duty vehicles (part_for=mhd): 9903.74.10, no duty, no metals 232', () => {
    const r = t.duty({ hts: '8708.29.51.60', value: 10000, origin: 'MX', date, part_for: 'mhd' });
    expect(r.additional_duties).toEqual([]);
    expect(r.notes.join(' ')).toMatch(/9903\.74\.10/);
    expect(r).toMatchObject({ total_duties_fees: 0 });
  });
});
