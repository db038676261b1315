/**
 * Section 232 steel, aluminum and copper before the annex regime (to 2026-04-05): rates by date,
 * the full value for steel mill products and the metal content for derivatives, the country
 * arrangements before 2025-03-12, and how IEEPA and Section 122 charge only the rest. Figures by
 * hand from SPEC 2.1, 2.2, 2.13, 2.15 and section 3.
 */
import { describe, expect, it } from 'vitest';
import { exemptOf, owedOf, layerOf, realTariff } from '../../helpers/tariff.js';

const t = realTariff();

describe('steel mill product 7208.10.15 (general Free), value 10,000', () => {
  it('2025-10-01 from Vietnam: +50% of the full value = 5,000; IEEPA reciprocal not charged (all steel)', () => {
    const r = t.duty({ hts: '7208.10.15', value: 10000, origin: 'VN', date: '2025-10-01' });
    expect(layerOf(r, 's232_steel')).toMatchObject({ heading: '9903.81.87', rate: 50, basis: 'full_value', amount: 5000 });
    expect(owedOf(r)).toEqual(['s232_steel']);
    expect(exemptOf(r)).toEqual(['ieepa_reciprocal 9903.01.33']);
  });
  it('2025-05-01 (before the 50% of 2025-06-04): +25% = 2,500, under 9903.81.87 (9903.80.01 ended 2025-03-11)', () => {
    expect(layerOf(t.duty({ hts: '7208.10.15', value: 10000, origin: 'VN', date: '2025-05-01' }), 's232_steel')).toMatchObject({ heading: '9903.81.87', rate: 25, amount: 2500 });
  });
  it('2025-02-15 from Japan (a tariff-rate-quota country until 2025-03-11): taken as in quota, no duty, and said', () => {
    const r = t.duty({ hts: '7208.10.15', value: 10000, origin: 'JP', date: '2025-02-15' });
    expect(layerOf(r, 's232_steel')).toBeUndefined();
    expect(r.assumptions.join(' ')).toMatch(/taken as within quota/);
  });
});

describe('steel derivative 7308.90.95 (general Free), value 10,000, from Vietnam', () => {
  it('2025-10-01 with steel_content 4,000: 50% × 4,000 = 2,000; reciprocal 20% on the other 6,000 = 1,200 (refundable)', () => {
    const r = t.duty({ hts: '7308.90.95', value: 10000, origin: 'VN', date: '2025-10-01', steel_content: 4000 });
    expect(layerOf(r, 's232_steel')).toMatchObject({ basis: 'steel_content', amount: 2000 });
    expect(layerOf(r, 'ieepa_reciprocal')).toMatchObject({ heading: '9903.02.69', rate: 20, basis: 'non_metal_content', amount: 1200, refundable: true });
    expect(r).toMatchObject({ section_232: 2000, additional_duty: 3200 });
    expect(r.assumptions).toEqual([]);
  });
  it('2025-10-01 without steel_content: the whole value is taken as steel (5,000), so no reciprocal; the assumption is stated', () => {
    const r = t.duty({ hts: '7308.90.95', value: 10000, origin: 'VN', date: '2025-10-01' });
    expect(owedOf(r)).toEqual(['s232_steel']);
    expect(exemptOf(r)).toEqual(['ieepa_reciprocal 9903.01.33']);
    expect(layerOf(r, 's232_steel')).toMatchObject({ amount: 5000 });
    expect(r.assumptions.join(' ')).toMatch(/steel_content not given/);
  });
  it('2025-05-01, before the content rule of 2025-06-04: 25% of the full value = 2,500 even with steel_content', () => {
    expect(layerOf(t.duty({ hts: '7308.90.95', value: 10000, origin: 'VN', date: '2025-05-01', steel_content: 4000 }), 's232_steel')).toMatchObject({ basis: 'full_value', amount: 2500 });
  });
  it('2026-03-01 (Section 122) with steel_content 4,000: 2,000 + 10% of the non-steel 6,000 = 600', () => {
    const r = t.duty({ hts: '7308.90.95', value: 10000, origin: 'VN', date: '2026-03-01', steel_content: 4000 });
    expect(layerOf(r, 's122')).toMatchObject({ basis: 'non_metal_content', amount: 600 });
    expect(r.additional_duty).toBe(2600);
  });
});

describe('copper 7407.10.15 from Chile, 2025-09-01, value 10,000', () => {
  it('9903.78.01 +50% of the copper content 6,000 = 3,000; 9903.78.02 on the other 4,000, which owes the reciprocal 10%: 400', () => {
    // Issue 38 (CSMS #65794272): the non-copper content is not exempt from the reciprocal duty (was: no reciprocal, 9903.01.33).
    const r = t.duty({ hts: '7407.10.15', value: 10000, origin: 'CL', date: '2025-09-01', copper_content: 6000 });
    expect(layerOf(r, 's232_copper')).toMatchObject({ heading: '9903.78.01', basis: 'copper_content', amount: 3000 });
    expect(owedOf(r)).toEqual(['s232_copper', 'ieepa_reciprocal']);
    expect(exemptOf(r)).toEqual(['s232_copper 9903.78.02']);
    expect(layerOf(r, 'ieepa_reciprocal')).toMatchObject({ heading: '9903.01.25', basis: 'non_metal_content', amount: 400 });
  });
  it('a content above the customs value is refused, naming the parameter', () => {
    expect(() => t.duty({ hts: '7407.10.15', value: 100, origin: 'CL', copper_content: 200 })).toThrow(expect.objectContaining({ parameter: 'copper_content' }));
  });
});

describe('washing machine 8450.11.00.40 (general 1.4%) from China, value 10,000, steel content 3,000: a steel derivative of note 16(n) from 2025-06-23', () => {
  // 90 FR 25208 and CBP CSMS #65405824: washing machines (8450.11.00, 8450.20.00), dryers, dishwashers, refrigerator-freezers,
  // freezers, cooking ranges, food waste disposals and welded wire racks (9403.99.9020) owe 9903.81.91 on the steel content from 2025-06-23.
  it('2025-06-23: 9903.81.91 +50% of 3,000 = 1,500; reciprocal 10% on the other 7,000 = 700; fentanyl 20% and Section 301 7.5% on the full value', () => {
    const r = t.duty({ hts: '8450.11.00.40', value: 10000, origin: 'CN', date: '2025-06-23', steel_content: 3000 });
    expect(r.duty).toBe(140);
    expect(layerOf(r, 's232_steel')).toMatchObject({ heading: '9903.81.91', rate: 50, basis: 'steel_content', amount: 1500 });
    expect(layerOf(r, 'ieepa_reciprocal')).toMatchObject({ heading: '9903.01.25', amount: 700 });
    expect(layerOf(r, 'ieepa_fentanyl')).toMatchObject({ heading: '9903.01.24', amount: 2000 });
  });
  it('2025-06-22, the day before: no Section 232 layer, reciprocal on the full value (1,000)', () => {
    const r = t.duty({ hts: '8450.11.00.40', value: 10000, origin: 'CN', date: '2025-06-22', steel_content: 3000 });
    expect(layerOf(r, 's232_steel')).toBeUndefined();
    expect(layerOf(r, 'ieepa_reciprocal')).toMatchObject({ amount: 1000 });
  });
});
