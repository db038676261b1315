/**
 * Section 232 metals under the annex regime (note 16, from 2026-04-06) and Russian aluminum, on
 * real lines; every figure worked out by hand from SPEC 2.3/2.4 beside it.
 */
import { describe, expect, it } from 'vitest';
import { exemptOf, owedOf, layerOf, realTariff } from '../../helpers/tariff.js';

const t = realTariff();
const date = '2026-11-22';

describe('Annex I-A steel: hot-rolled 7208.10.15 (general Free), value 10,000', () => {
  it('from Vietnam: 9903.82.02 +50% of the full value = 5,000; nothing else', () => {
    const r = t.duty({ hts: '7208.10.15', value: 10000, origin: 'VN', date });
    expect(layerOf(r, 's232_metals')).toEqual({ program: 's232_metals', authority: 'Section 232', heading: '9903.82.02', rate: 50, rate_kind: 'add', basis: 'full_value', amount: 5000, refundable: false });
    // Note 52 (Vietnam +12.5%) does not apply to Section 232 goods of the enumerated headings (note 52(f)).
    expect(owedOf(r)).toEqual(['s232_metals']);
    expect(exemptOf(r)).toEqual(['s301_forced_labor 9903.05.90']);
    expect(r).toMatchObject({ duty: 0, section_232: 5000, additional_duty: 5000, mpf: 34.64, total_duties_fees: 5034.64, origin_country: 'VN' });
  });
  it('from China: +50% (5,000) and Section 301 9903.91.01 +25% (2,500) = 7,500', () => {
    const r = t.duty({ hts: '7208.10.15', value: 10000, origin: 'CN', date });
    expect(owedOf(r)).toEqual(['s232_metals', 's301_china']);
    expect(exemptOf(r)).toEqual(['s301_forced_labor 9903.05.90']);
    expect(r).toMatchObject({ section_232: 5000, section_301: 2500, additional_duty: 7500, total_duties_fees: 7534.64 });
  });
  it('from the UK: 9903.82.04 +25% = 2,500 when the steel is UK-melted (the default, stated as an assumption)', () => {
    const r = t.duty({ hts: '7208.10.15', value: 10000, origin: 'GB', date });
    expect(layerOf(r, 's232_metals')).toMatchObject({ heading: '9903.82.04', rate: 25, amount: 2500 });
    expect(r.assumptions.join(' ')).toMatch(/uk_melted not given/);
  });
  it('from the UK, not UK-melted (uk_melted=0): the general +50% = 5,000, no assumption', () => {
    const r = t.duty({ hts: '7208.10.15', value: 10000, origin: 'GB', date, uk_melted: 0 });
    expect(layerOf(r, 's232_metals')).toMatchObject({ heading: '9903.82.02', amount: 5000 });
    expect(r.assumptions).toEqual([]);
  });
  it('before 2026-04-06 the annex does not apply (pre-annex regime instead)', () => {
    expect(layerOf(t.duty({ hts: '7208.10.15', value: 10000, origin: 'VN', date: '2026-04-05' }), 's232_metals')).toBeUndefined();
  });
});

describe('Korea', () => {
  it('Annex I-B steel derivative 7321.11.10 (KR rate Free): 9903.82.09 +25% × 10,000 = 2,500; no MPF (KORUS)', () => {
    const r = t.duty({ hts: '7321.11.10', value: 10000, origin: 'KR', date });
    expect(layerOf(r, 's232_metals')).toMatchObject({ heading: '9903.82.09', rate: 25, rate_kind: 'add', amount: 2500 });
    expect(r).toMatchObject({ special_program: 'KR', duty: 0, mpf: 0, total_duties_fees: 2500 });
  });
  it('Annex III steel derivative 8207.20.00.70 (KR rate Free): 15% total − 0% = 15% × 10,000 = 1,500', () => {
    const r = t.duty({ hts: '8207.20.00.70', value: 10000, origin: 'KR', date });
    expect(layerOf(r, 's232_metals')).toMatchObject({ heading: '9903.82.10', rate: 15, rate_kind: 'total', amount: 1500 });
    // Outside chapters 72/73/74/76 the 15% weight test applies: assumed met, and said.
    expect(r.assumptions.join(' ')).toMatch(/at least 15% of the article's weight/);
  });
  it('Annex III with claim=none: the general 3.9% (390) counts against the 15% total: 1,500 − 390 = 1,110', () => {
    const r = t.duty({ hts: '8207.20.00.70', value: 10000, origin: 'KR', date, claim: 'none' });
    expect(r).toMatchObject({ duty: 390, rate_basis: 'general' });
    expect(layerOf(r, 's232_metals')).toMatchObject({ rate_kind: 'total', amount: 1110 });
  });
});

describe('Annex I-C machinery: fork-lift 8427.10.40 (general Free), value 100,000', () => {
  it('from Japan (framework country, 9903.82.22): 15% total = 15,000', () => {
    const r = t.duty({ hts: '8427.10.40', value: 100000, origin: 'JP', date });
    expect(layerOf(r, 's232_metals')).toMatchObject({ heading: '9903.82.22', rate: 15, rate_kind: 'total', amount: 15000 });
  });
  it('from Vietnam (no framework): 9903.82.09 +25% = 25,000', () => {
    expect(layerOf(t.duty({ hts: '8427.10.40', value: 100000, origin: 'VN', date }), 's232_metals')).toMatchObject({ heading: '9903.82.09', amount: 25000 });
  });
  it('from Japan on 2026-05-01, before Annex I-C (2026-06-08): the line was in Annex I-B, +25% = 25,000', () => {
    expect(layerOf(t.duty({ hts: '8427.10.40', value: 100000, origin: 'JP', date: '2026-05-01' }), 's232_metals')).toMatchObject({ heading: '9903.82.09', rate: 25, amount: 25000 });
  });
});

describe('Russian aluminum 7601.10.30 (column 2 18.5%), value 10,000', () => {
  const r = t.duty({ hts: '7601.10.30', value: 10000, origin: 'RU', date });
  it('9903.85.67 (aluminum articles) 200% of the full value = 20,000 replaces the annex heading', () => {
    expect(layerOf(r, 's232_aluminum_russia')).toMatchObject({ rate: 200, amount: 20000 });
    expect(layerOf(r, 's232_metals')).toBeUndefined();
  });
  it('note 30: 70% in lieu of column 2 (9903.90.09): 7,000 − 1,850 = 5,150', () => {
    expect(r.duty).toBe(1850);
    expect(layerOf(r, 'russia_col2')).toMatchObject({ heading: '9903.90.09', rate: 70, rate_kind: 'total', amount: 5150 });
  });
  it('9903.85.67 is not an enumerated 232 heading: note 52 Russia +12.5% (1,250) applies, with a note', () => {
    expect(layerOf(r, 's301_forced_labor')).toMatchObject({ heading: '9903.05.66', amount: 1250 });
    expect(r.notes.join(' ')).toMatch(/literal reading/);
    // 1,850 + 5,150 + 20,000 + 1,250 + 34.64 MPF
    expect(r.total_duties_fees).toBe(28284.64);
  });
});
