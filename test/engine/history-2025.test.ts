/**
 * The 2025 history that refund figures rest on (issue 38, Why 1, 3, 4 and 5): Annex II membership by date, the
 * copper split as CBP files it (CSMS #65794272), the particular articles of 9903.02.78, and notes that must not say
 * what is not so. Real schedule lines; every amount worked out by hand in the comments.
 */
import { describe, expect, it } from 'vitest';
import { exemptOf, layerOf, owedOf, realTariff } from '../helpers/tariff.js';

const t = realTariff();

describe('Annex II (9903.01.32) by date: the lines that left the list during 2025 (annex_ii_first_appearance.csv)', () => {
  it('sawn wood 4407.11.00.42 of Brazil on 2025-04-10 (on the list until 2025-10-13): 9903.01.32, nothing added (was 9903.01.25, 1,000, refundable)', () => {
    const r = t.duty({ hts: '4407.11.00.42', value: 10000, origin: 'BR', date: '2025-04-10' });
    expect(owedOf(r)).toEqual([]);
    expect(exemptOf(r)).toEqual(['ieepa_reciprocal 9903.01.32']);
    expect(r.additional_duties.reduce((s, l) => s + l.amount, 0)).toBe(0);
  });
  it('CBP ruling N350189: 3824.99.9397 of Japan on 2025-07-08 (on the list until 2025-09-07): 9903.01.32, nothing added', () => {
    const r = t.duty({ hts: '3824.99.9397', value: 10000, origin: 'JP', date: '2025-07-08' });
    expect(owedOf(r)).toEqual([]);
    expect(exemptOf(r)).toEqual(['ieepa_reciprocal 9903.01.32']);
  });
  it('the same chemical on 2025-09-08 (off the list, EO 14346), no metal content: Japan 15% total, base 5%: 1,500 − 500 = 1,000 under 9903.02.73', () => {
    const r = t.duty({ hts: '3824.99.9397', value: 10000, origin: 'JP', date: '2025-09-08', steel_content: 0, aluminum_content: 0 });
    expect(layerOf(r, 'ieepa_reciprocal')).toMatchObject({ heading: '9903.02.73', rate_kind: 'total', amount: 1000, refundable: true });
  });
  it('3907.29.00 of Japan: 9903.01.32 on 2025-09-07; on 2025-09-08 15% total over the 6.5% base: 1,500 − 650 = 850', () => {
    expect(exemptOf(t.duty({ hts: '3907.29.00', value: 10000, origin: 'JP', date: '2025-09-07' }))).toEqual(['ieepa_reciprocal 9903.01.32']);
    expect(layerOf(t.duty({ hts: '3907.29.00', value: 10000, origin: 'JP', date: '2025-09-08' }), 'ieepa_reciprocal')).toMatchObject({ heading: '9903.02.73', amount: 850 });
  });
  it('fuel wood 4401.11.00 of Vietnam (not Section 232 wood): 9903.01.32 on 2025-10-13; on 2025-10-14 +20% (9903.02.69) = 2,000', () => {
    expect(exemptOf(t.duty({ hts: '4401.11.00', value: 10000, origin: 'VN', date: '2025-10-13' }))).toEqual(['ieepa_reciprocal 9903.01.32']);
    expect(layerOf(t.duty({ hts: '4401.11.00', value: 10000, origin: 'VN', date: '2025-10-14' }), 'ieepa_reciprocal')).toMatchObject({ heading: '9903.02.69', rate: 20, amount: 2000, refundable: true });
  });
  it('sawn wood 4407.11.00.42 of Brazil on 2025-10-14: Section 232 lumber (9903.76.01, 10% = 1,000) displaces the reciprocal duty (9903.01.33)', () => {
    const r = t.duty({ hts: '4407.11.00.42', value: 10000, origin: 'BR', date: '2025-10-14' });
    expect(layerOf(r, 's232_lumber')).toMatchObject({ heading: '9903.76.01', amount: 1000 });
    expect(exemptOf(r)).toContain('ieepa_reciprocal 9903.01.33');
  });
  it('copper 7419.80.50 of Vietnam: 9903.01.32 on 2025-07-31, the last day before Section 232 copper', () => {
    expect(exemptOf(t.duty({ hts: '7419.80.50', value: 10000, origin: 'VN', date: '2025-07-31' }))).toEqual(['ieepa_reciprocal 9903.01.32']);
  });
});

describe('the particular articles of 9903.02.78 (note 2(v)(iii)(b)) are noted, not a whole line exempted (as Brazil 9903.01.90)', () => {
  it('2008.99.21 ("Other" preserved fruit: only açaí is named) of Vietnam on 2025-12-01: +20% (9903.02.69) = 2,000, with the note', () => {
    const r = t.duty({ hts: '2008.99.21', value: 10000, origin: 'VN', date: '2025-12-01' });
    expect(layerOf(r, 'ieepa_reciprocal')).toMatchObject({ heading: '9903.02.69', rate: 20, amount: 2000, refundable: true });
    expect(exemptOf(r)).toEqual([]);
    expect(r.notes).toContain('IEEPA reciprocal: under 2008.99.21, note 2(v)(iii)(b) exempts only the particular articles it describes (9903.02.78); not assumed.');
  });
  it('3301.29.51 (essential oils nesoi: only those for religious use) of India on 2025-12-01: reciprocal +25% = 2,500 and 9903.01.84 +25% = 2,500, each noted', () => {
    const r = t.duty({ hts: '3301.29.51', value: 10000, origin: 'IN', date: '2025-12-01' });
    expect(r.additional_duties.map((l) => [l.heading, l.amount])).toEqual([
      ['9903.02.26', 2500],
      ['9903.01.84', 2500],
    ]);
    expect(r.notes).toContain('IEEPA 9903.01.84: under 3301.29.51, note 2(v)(iii)(b) exempts only the particular articles it describes (9903.02.78); not assumed.');
  });
});

describe('copper as CBP files it (CSMS #65794272, Proclamation 10962): 9903.78.01 on the copper content, 9903.78.02 on the rest, which alone owes the other duties', () => {
  const cable = (origin: string, extra: Record<string, unknown> = {}) => t.duty({ hts: '8544.42.90.90', value: 10000, origin, date: '2025-09-01', copper_content: 4000, ...extra });
  it('8544.42.90.90 of Canada on 2025-09-01, copper 4,000 of 10,000, not claimed under USMCA: copper 50% × 4,000 = 2,000; fentanyl 35% × 6,000 = 2,100 (not 3,500)', () => {
    const r = cable('CA', { claim: 'none', aluminum_content: 0 });
    expect(r.additional_duties.map((l) => [l.heading, l.rate_kind, l.basis, l.amount])).toEqual([
      ['9903.78.01', 'add', 'copper_content', 2000],
      ['9903.78.02', 'exempt', 'non_copper_content', 0],
      ['9903.01.10', 'add', 'non_copper_content', 2100],
    ]);
    expect(layerOf(r, 'ieepa_fentanyl')?.refundable).toBe(true);
  });
  it('aluminum_content not given: the aluminum upper bound (50% × 6,000 = 3,000) does not change the fentanyl duty on the non-copper content, 2,100', () => {
    const r = cable('CA', { claim: 'none' });
    expect(layerOf(r, 'ieepa_fentanyl')).toMatchObject({ basis: 'non_copper_content', amount: 2100 });
    expect(layerOf(r, 's232_aluminum')).toMatchObject({ amount: 3000 });
  });
  it('of Vietnam: the non-copper content is not exempt from the reciprocal duty: copper 2,000; reciprocal 20% × 6,000 = 1,200 (9903.02.69, refundable), no 9903.01.33', () => {
    const r = cable('VN', { aluminum_content: 0 });
    expect(r.additional_duties.map((l) => [l.heading, l.basis, l.amount])).toEqual([
      ['9903.78.01', 'copper_content', 2000],
      ['9903.78.02', 'non_copper_content', 0],
      ['9903.02.69', 'non_metal_content', 1200],
    ]);
    expect(layerOf(r, 'ieepa_reciprocal')?.refundable).toBe(true);
  });
  it('of China: copper 2,000; Section 301 25% on the whole value 2,500; fentanyl 20% × 6,000 = 1,200; reciprocal 10% × 6,000 = 600', () => {
    const r = cable('CN', { aluminum_content: 0 });
    expect(r.additional_duties.map((l) => [l.heading, l.amount])).toEqual([
      ['9903.78.01', 2000],
      ['9903.78.02', 0],
      ['9903.88.03', 2500],
      ['9903.01.24', 1200],
      ['9903.01.25', 600],
    ]);
  });
  it('copper wire 7408.11.60 of Vietnam, all copper (content not given, the whole value): 9903.78.01 5,000 and 9903.01.33, no 9903.78.02 line', () => {
    const r = t.duty({ hts: '7408.11.60', value: 10000, origin: 'VN', date: '2025-09-01' });
    expect(r.additional_duties.map((l) => [l.heading, l.amount])).toEqual([
      ['9903.78.01', 5000],
      ['9903.01.33', 0],
    ]);
  });
});

describe('notes that must not say what is not so', () => {
  it('3824.99.9397 (on the steel and the aluminum derivative lists) with steel_content equal to the value: steel 50% × 10,000 = 5,000; no aluminum upper bound, no content_needed', () => {
    const r = t.duty({ hts: '3824.99.9397', value: 10000, origin: 'JP', date: '2025-09-08', steel_content: 10000 });
    expect(r.additional_duties.filter((l) => l.authority === 'Section 232').map((l) => [l.heading, l.amount])).toEqual([['9903.81.91', 5000]]);
    expect(r.assumptions.filter((a) => a.includes('aluminum_content'))).toEqual([]);
    expect(r.content_needed).toBeUndefined();
  });
  it('aluminum sheet 7606.12.30.91 of Vietnam on 2025-09-01 is aluminum throughout: 9903.85.02 50% × 10,000 = 5,000 with no content assumed', () => {
    const r = t.duty({ hts: '7606.12.30.91', value: 10000, origin: 'VN', date: '2025-09-01' });
    expect(layerOf(r, 's232_aluminum')).toMatchObject({ heading: '9903.85.02', basis: 'aluminum_content', amount: 5000 });
    expect(r.assumptions).toEqual([]);
    expect(r.content_needed).toBeUndefined();
  });
  it('7616.99.51.90 of Canada on 2025-04-10 (not claimed under USMCA): fentanyl 25% × 10,000 = 2,500 displaces Section 232, so no aluminum content is assumed', () => {
    const r = t.duty({ hts: '7616.99.51.90', value: 10000, origin: 'CA', date: '2025-04-10', claim: 'none' });
    expect(r.additional_duties.map((l) => [l.heading, l.amount])).toEqual([['9903.01.10', 2500]]);
    expect(r.assumptions.filter((a) => a.includes('content'))).toEqual([]);
    expect(r.content_needed).toBeUndefined();
  });
  it('hoses 4009.12.00.20 of Germany with part_for=mhd: on 2025-10-01 the answer says it has no effect (auto parts 15% total over 2.5%: 1,250); on 2025-11-01 note 38 applies (9903.74.08 +25% = 2,500)', () => {
    const oct = t.duty({ hts: '4009.12.00.20', value: 10000, origin: 'DE', date: '2025-10-01', part_for: 'mhd' });
    expect(oct.additional_duties.map((l) => [l.heading, l.amount])).toEqual([['9903.94.53', 1250]]);
    expect(oct.notes).toContain('part_for=mhd has no effect before 2025-11-01: 4009.12.00.20 is on the note 38 list (medium- and heavy-duty vehicles, buses and their parts) only from that date.');
    const nov = t.duty({ hts: '4009.12.00.20', value: 10000, origin: 'DE', date: '2025-11-01', part_for: 'mhd' });
    expect(nov.additional_duties.map((l) => [l.heading, l.amount])).toEqual([['9903.74.08', 2500]]);
    expect(nov.notes.some((n) => n.startsWith('part_for=mhd'))).toBe(false);
  });
});
