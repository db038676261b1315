/**
 * One heading per layer (issue 28): every additional-duty layer names exactly the provision the entry
 * declares for that line, origin and date, as CBP's rulings state them. Where the law offers a pair,
 * the pick is program_rates.csv's (heading_at_or_above; ch99_heading= and kind= scopes), see SPEC §0.
 * Amounts by hand from the lines' real rates.
 */
import { describe, expect, it } from 'vitest';
import { readChapter99 } from '../../server/data/ch99.js';
import { layerOf, realTariff } from '../helpers/tariff.js';

const t = realTariff();
const ONE = /^9903\.\d\d\.\d\d$/;

describe('the rate table names one provision per row', () => {
  it('every row of program_rates.csv has a single 9903.xx.xx heading (none only for the pre-2025 arrangements, which add nothing)', () => {
    const rows = readChapter99().programRates;
    const bad = rows.filter((r) => !ONE.test(r.heading) && !(r.heading === '' && r.rate_kind === 'zero'));
    expect(bad.map((r) => `${r.program} ${r.heading}`)).toEqual([]);
    for (const r of rows) if (r.heading_at_or_above) expect([r.rate_kind, ONE.test(r.heading_at_or_above)]).toEqual(['total', true]);
  });
});

describe('China fentanyl: 9903.01.20 for the 10%, 9903.01.24 for the 20% (plastic article 3926.90.99, 5.3%, value 10,000)', () => {
  const fentanyl = (date: string) => layerOf(t.duty({ hts: '3926.90.99', value: 10000, origin: 'CN', date, claim: 'none' }), 'ieepa_fentanyl');
  it('N345200 (2025-02-10): 9903.01.20, 10% × 10,000 = 1,000; N342622 and N346885 (2025-03-20): 9903.01.24, 20% × 10,000 = 2,000', () => {
    expect(fentanyl('2025-02-10')).toMatchObject({ heading: '9903.01.20', rate: 10, amount: 1000 });
    expect(fentanyl('2025-03-20')).toMatchObject({ heading: '9903.01.24', rate: 20, amount: 2000 });
  });
  it('the same heading for Hong Kong on 2025-09-15, and the China reciprocal 10% from 2025-05-14 under 9903.01.25 (9903.01.63 suspended)', () => {
    const hk = t.duty({ hts: '3926.90.99', value: 10000, origin: 'HK', date: '2025-09-15' });
    expect(layerOf(hk, 'ieepa_fentanyl')).toMatchObject({ heading: '9903.01.24', amount: 2000 });
    expect(layerOf(hk, 'ieepa_reciprocal')).toMatchObject({ heading: '9903.01.25', rate: 10, amount: 1000 });
  });
});

describe('Canada: potash 9903.01.15, not the energy heading (3104.20.00 Free, value 10,000, 2025-04-01, claim=none)', () => {
  it('9903.01.15, 10% = 1,000', () => {
    expect(layerOf(t.duty({ hts: '3104.20.00', value: 10000, origin: 'CA', date: '2025-04-01', claim: 'none' }), 'ieepa_fentanyl')).toMatchObject({ heading: '9903.01.15', amount: 1000 });
  });
});

describe('"total" pairs: the heading depends on the base rate (sweater 6110.30.30, general 32%, value 10,000, Germany)', () => {
  it('EU reciprocal on 2025-10-01: base 32% ≥ 15%, so 9903.02.19 and nothing added (a 10% base would be 9903.02.20)', () => {
    expect(layerOf(t.duty({ hts: '6110.30.30', value: 10000, origin: 'DE', date: '2025-10-01' }), 'ieepa_reciprocal')).toMatchObject({ heading: '9903.02.19', rate_kind: 'total', amount: 0 });
  });
  it('note 52 on 2026-08-01: base 32% ≥ 10%, so 9903.05.38, nothing added', () => {
    expect(layerOf(t.duty({ hts: '6110.30.30', value: 10000, origin: 'DE', date: '2026-08-01' }), 's301_forced_labor')).toMatchObject({ heading: '9903.05.38', amount: 0 });
  });
});

describe('Section 232 steel and aluminum before the annex: article, derivative by the note 16 subdivision listing it, the UK heading', () => {
  it('UK hot-rolled steel 7208.10.15 on 2025-10-01: 9903.81.94 (UK steel articles), 25% × 10,000 = 2,500', () => {
    expect(layerOf(t.duty({ hts: '7208.10.15', value: 10000, origin: 'GB', date: '2025-10-01' }), 's232_steel')).toMatchObject({ heading: '9903.81.94', rate: 25, amount: 2500 });
  });
  it('Vietnamese steel structure 7308.90.95 (chapter 73, on note 16(m)\'s list) on 2025-10-01, steel content 4,000: 9903.81.90 (as CBP declares for chapter 73 goods of 16(m)), 50% × 4,000 = 2,000', () => {
    const r = t.duty({ hts: '7308.90.95', value: 10000, origin: 'VN', date: '2025-10-01', steel_content: 4000 });
    expect(layerOf(r, 's232_steel')).toMatchObject({ heading: '9903.81.90', amount: 2000 });
  });
  it('nails 7317.00.55.03 (note 16(l), Proclamation 9980) from Vietnam on 2025-10-01, steel content 10,000: 9903.81.89, 50% = 5,000', () => {
    expect(layerOf(t.duty({ hts: '7317.00.55.03', value: 10000, origin: 'VN', date: '2025-10-01', steel_content: 10000 }), 's232_steel')).toMatchObject({ heading: '9903.81.89', amount: 5000 });
  });
  it('N350489: UK aluminum article 7616.99.51.90 on 2025-07-14, aluminum content 6,000: 9903.85.14 25% × 6,000 = 1,500, and 9903.01.25 10% × 4,000 = 400', () => {
    const r = t.duty({ hts: '7616.99.51.90', value: 10000, origin: 'GB', date: '2025-07-14', aluminum_content: 6000 });
    expect(r.additional_duties.map((l) => [l.heading, l.amount])).toEqual([
      ['9903.85.14', 1500],
      ['9903.01.25', 400],
    ]);
  });
  it('Russian aluminum derivative 7616.99.51.90 on 2025-10-01: 9903.85.68 (derivatives), 200% = 20,000; the article 7601.10.30: 9903.85.67', () => {
    expect(layerOf(t.duty({ hts: '7616.99.51.90', value: 10000, origin: 'RU', date: '2025-10-01' }), 's232_aluminum_russia')).toMatchObject({ heading: '9903.85.68', amount: 20000 });
    expect(layerOf(t.duty({ hts: '7601.10.30', value: 10000, origin: 'RU', date: '2025-10-01' }), 's232_aluminum_russia')).toMatchObject({ heading: '9903.85.67', amount: 20000 });
  });
});
