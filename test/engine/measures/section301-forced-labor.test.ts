/**
 * Section 301 forced labor (note 52, from 2026-07-24): +10%/+12.5% by economy, "x% total" for the
 * EU, Taiwan, Japan, Korea and Switzerland, nothing for others; the exemptions. Mixer 8509.40.00
 * (general 4.2%, 420 on 10,000) on 2026-11-22 unless said.
 */
import { describe, expect, it } from 'vitest';
import { exemptOf, owedOf, layerOf, realTariff } from '../../helpers/tariff.js';

const t = realTariff();
const mixer = (origin: string, extra: Record<string, unknown> = {}) => t.duty({ hts: '8509.40.00', value: 10000, origin, date: '2026-11-22', ...extra });

describe('rates by origin', () => {
  it('Germany: the EU\'s 10% total (9903.05.39, base under 10%): 1,000 − 420 = 580; a note on the EU country list 52(j) that is not available', () => {
    const r = mixer('DE');
    expect(layerOf(r, 's301_forced_labor')).toEqual({ program: 's301_forced_labor', authority: 'Section 301', heading: '9903.05.39', rate: 10, rate_kind: 'total', basis: 'full_value', amount: 580, refundable: false });
    expect(r.notes.join(' ')).toMatch(/note 52\(j\) \(9903\.05\.97\)/);
    expect(r.total_duties_fees).toBe(1034.64); // 420 + 580 + 34.64
  });
  it('Japan: 12.5% total (9903.05.49): 1,250 − 420 = 830', () => {
    expect(layerOf(mixer('JP'), 's301_forced_labor')).toMatchObject({ heading: '9903.05.49', rate_kind: 'total', amount: 830 });
  });
  it('Liechtenstein: not covered — base duty only (420 + 34.64)', () => {
    const r = mixer('LI');
    expect(r.additional_duties).toEqual([]);
    expect(r.total_duties_fees).toBe(454.64);
  });
  it('Mexico: exempt with USMCA claimed; +10% (1,000) with claim=none, on top of the general 4.2%', () => {
    expect(layerOf(mixer('MX'), 's301_forced_labor')).toMatchObject({ heading: '9903.05.94', rate_kind: 'exempt', amount: 0 });
    expect(mixer('MX', { claim: 'none' })).toMatchObject({ duty: 420, additional_duty: 1000 });
  });
});

describe('T-shirts 6109.10.00 from Vietnam (general 16.5%), value 10,000', () => {
  it('2026-09-01: 9903.05.84 +12.5% = 1,250; total 1,650 + 1,250 + 34.64', () => {
    const r = t.duty({ hts: '6109.10.00', value: 10000, origin: 'VN', date: '2026-09-01' });
    expect(r.additional_duties).toEqual([{ program: 's301_forced_labor', authority: 'Section 301', heading: '9903.05.84', rate: 12.5, rate_kind: 'add', basis: 'full_value', amount: 1250, refundable: false }]);
    expect(r.total_duties_fees).toBe(2934.64);
  });
  it('from Guatemala under CAFTA-DR (duty-free textiles): exempt', () => {
    const r = t.duty({ hts: '6109.10.00', value: 10000, origin: 'GT', date: '2026-09-01', claim: 'cafta-dr' });
    expect(r).toMatchObject({ duty: 0, special_program: 'P', additional_duty: 0 });
    expect(exemptOf(r)).toEqual(['s301_forced_labor 9903.05.95']);
  });
});

describe('the proposed exemption annex A', () => {
  it('beef 0201.10.05 from Australia is exempt, and the answer says the list is the proposed one', () => {
    const r = t.duty({ hts: '0201.10.05', value: 10000, origin: 'AU', date: '2026-11-22' });
    expect(owedOf(r)).toEqual([]);
    expect(exemptOf(r)).toEqual(['s301_forced_labor 9903.05.86']);
    expect(r.assumptions.join(' ')).toMatch(/forced labor exemption list used is the proposed annex/);
  });
  it('a provision limited to aircraft (8806.21.00, Aircraft) is charged, with a note to check', () => {
    const r = t.duty({ hts: '8806.21.00', value: 1000, origin: 'CN', date: '2026-11-22' });
    expect(layerOf(r, 's301_forced_labor')).toMatchObject({ amount: 125 });
    expect(r.notes.join(' ')).toMatch(/only for some goods \(Aircraft\)/);
  });
});

describe('a heading the research could only infer is declared with an assumption saying so', () => {
  it('Türkiye 9903.05.79 (program_rates.csv confidence low): T-shirts 6109.10.00 on 2026-08-01, 12.5% × 10,000 = 1,250, and the assumption', () => {
    const r = t.duty({ hts: '6109.10.00', value: 10000, origin: 'TR', date: '2026-08-01' });
    expect(r.additional_duties.map((l) => [l.heading, l.amount])).toEqual([['9903.05.79', 1250]]);
    expect(r.assumptions).toEqual(['9903.05.79 is inferred by the research, with no primary text at hand to confirm it: check it before declaring it.']);
    // A heading of confidence high says nothing: Vietnam's 9903.05.84 the same day.
    expect(t.duty({ hts: '6109.10.00', value: 10000, origin: 'VN', date: '2026-08-01' }).assumptions).toEqual([]);
  });
});
