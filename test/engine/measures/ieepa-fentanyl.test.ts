/** IEEPA fentanyl duties (entries 2025-02-04 to 2026-02-23): China/HK, Canada, Mexico; USMCA exemption; refundable. */
import { describe, expect, it } from 'vitest';
import { exemptOf, owedOf, layerOf, realTariff } from '../../helpers/tariff.js';

const t = realTariff();
const shirt = (origin: string, date: string, extra: Record<string, unknown> = {}) => t.duty({ hts: '6109.10.00', value: 10000, origin, date, ...extra });

describe('IEEPA fentanyl', () => {
  it('China on 2025-06-01: +20% = 2,000, refundable; with 301 (750) and reciprocal 10% (1,000)', () => {
    const r = shirt('CN', '2025-06-01');
    expect(layerOf(r, 'ieepa_fentanyl')).toMatchObject({ rate: 20, amount: 2000, refundable: true });
    expect(r).toMatchObject({ section_301: 750, additional_duty: 3750 });
    expect(r.notes.join(' ')).toMatch(/refundable may be recovered/);
  });
  it('China on 2025-02-10: +10% = 1,000', () => {
    expect(layerOf(shirt('CN', '2025-02-10'), 'ieepa_fentanyl')).toMatchObject({ heading: '9903.01.20', rate: 10, amount: 1000 });
  });
  it('Hong Kong counts as China for IEEPA: +20% on 2025-06-01', () => {
    expect(layerOf(shirt('HK', '2025-06-01'), 'ieepa_fentanyl')).toMatchObject({ rate: 20, amount: 2000 });
  });
  it('Mexico on 2025-06-01: exempt under USMCA (the claim of origin mx); claim=none: +25% = 2,500', () => {
    expect(layerOf(shirt('MX', '2025-06-01'), 'ieepa_fentanyl')).toMatchObject({ heading: '9903.01.04', rate_kind: 'exempt', rate: 0, amount: 0 });
    expect(layerOf(shirt('MX', '2025-06-01', { claim: 'none' }), 'ieepa_fentanyl')).toMatchObject({ heading: '9903.01.01', rate: 25, amount: 2500, refundable: true });
  });
  it('Canadian crude oil 2709.00.10 without USMCA on 2025-06-01: the energy rate +10% (9903.01.13/.15) of 1,000 = 100', () => {
    expect(layerOf(t.duty({ hts: '2709.00.10', value: 1000, origin: 'CA', date: '2025-06-01', claim: 'none' }), 'ieepa_fentanyl')).toMatchObject({ rate: 10, amount: 100 });
  });
  it('Mexican steel 7208.10.15 without USMCA, value 10,000: fentanyl (+25%) displaced Section 232 until 2025-06-03 (EO 14289), then 232 (+50%) displaced fentanyl', () => {
    const april = t.duty({ hts: '7208.10.15', value: 10000, origin: 'MX', date: '2025-04-01', claim: 'none' });
    expect(april.additional_duties.map((l) => [l.program, l.amount])).toEqual([['ieepa_fentanyl', 2500]]);
    expect(april.notes.join(' ')).toMatch(/EO 14289/);
    const july = t.duty({ hts: '7208.10.15', value: 10000, origin: 'MX', date: '2025-07-01', claim: 'none' });
    expect(july.additional_duties.map((l) => [l.program, l.amount])).toEqual([['s232_steel', 5000]]);
  });
  it('Canadian copper wire bar 7407.10.30 without USMCA on 2025-09-01, value 10,000: fentanyl falls on the non-copper content only, so with the whole value as copper (content not given) there is none', () => {
    // Issue 38: a copper article is entered as 9903.78.01 on the copper content and 9903.78.02 on the rest, which alone owes
    // the other duties (CSMS #65794272, Proclamation 10962). Was 9903.01.10 +35% of the full value, 3,500 (refund figures fall with it).
    const r = t.duty({ hts: '7407.10.30', value: 10000, origin: 'CA', date: '2025-09-01', claim: 'none' });
    expect(r.additional_duties.map((l) => [l.program, l.heading, l.basis, l.amount])).toEqual([['s232_copper', '9903.78.01', 'copper_content', 5000]]);
    // Base 3% of 10,000 = 300; MPF 0.3464% = 34.64: 300 + 5,000 + 34.64.
    expect(r).toMatchObject({ duty: 300, section_232: 5000, additional_duty: 5000, total_duties_fees: 5334.64 });
  });
  it('the same with copper content 7,000: fentanyl 35% of the other 3,000 = 1,050', () => {
    const r = t.duty({ hts: '7407.10.30', value: 10000, origin: 'CA', date: '2025-09-01', claim: 'none', copper_content: 7000 });
    expect(layerOf(r, 'ieepa_fentanyl')).toMatchObject({ heading: '9903.01.10', basis: 'non_copper_content', amount: 1050 });
  });
  it('none after 2026-02-23', () => {
    expect(layerOf(shirt('CN', '2026-02-24'), 'ieepa_fentanyl')).toBeUndefined();
  });
});

describe('potash 3104.20.00 from Mexico (9903.01.05, 10%), value 10,000', () => {
  it('under USMCA (the default claim) from 2025-03-07: exempt like every USMCA-qualifying good of Mexico (SPEC 3.4), though its rate row does not repeat the condition', () => {
    const r = t.duty({ hts: '3104.20.00', value: 10000, origin: 'MX', date: '2025-06-01' });
    expect(owedOf(r)).toEqual([]);
    expect(exemptOf(r)).toEqual(['ieepa_fentanyl 9903.01.04']);
    expect(r.notes.join(' ')).toMatch(/9903\.01\.05: USMCA-qualifying goods are exempt/);
  });
  it('without the claim: 10% = 1,000 (+ MPF 34.64)', () => {
    const r = t.duty({ hts: '3104.20.00', value: 10000, origin: 'MX', date: '2025-06-01', claim: 'none' });
    expect(r.additional_duties).toEqual([expect.objectContaining({ heading: '9903.01.05', rate: 10, amount: 1000, refundable: true })]);
    expect(r).toMatchObject({ total_duties_fees: 1034.64 });
  });
  it('before 2025-03-07 the USMCA exemption did not exist yet: 2025-03-05 pays the general 25% = 2,500', () => {
    expect(t.duty({ hts: '3104.20.00', value: 10000, origin: 'MX', date: '2025-03-05' }).additional_duties).toEqual([expect.objectContaining({ heading: '9903.01.01', amount: 2500 })]);
  });
});

describe('Canadian energy before the USMCA exemption (2025-03-04 to 03-06)', () => {
  it('crude oil 2709.00.10, value 1,000: the energy rate +10% = 100 from the first day, not 25%; exempt under USMCA from 2025-03-07', () => {
    const crude = (date: string) => t.duty({ hts: '2709.00.10', value: 1000, origin: 'CA', date });
    for (const d of ['2025-03-04', '2025-03-06']) expect(crude(d).additional_duties).toEqual([expect.objectContaining({ heading: '9903.01.13', rate: 10, amount: 100 })]);
    expect(owedOf(crude('2025-03-07'))).toEqual([]);
    expect(exemptOf(crude('2025-03-07'))).toEqual(['ieepa_fentanyl 9903.01.14']);
  });
});
