/** Section 122 (9903.03.01, +10%, entries 2026-02-24 to 2026-07-23), all countries, with its exemptions. */
import { describe, expect, it } from 'vitest';
import { exemptOf, owedOf, layerOf, realTariff } from '../../helpers/tariff.js';

const t = realTariff();
const shirt = (origin: string, date: string, extra: Record<string, unknown> = {}) => t.duty({ hts: '6109.10.00', value: 10000, origin, date, ...extra });

describe('Section 122', () => {
  it('T-shirts from Vietnam on 2026-05-01: +10% = 1,000, not refundable; total 1,650 + 1,000 + 34.64', () => {
    const r = shirt('VN', '2026-05-01');
    expect(r.additional_duties).toEqual([{ program: 's122', authority: 'Section 122', heading: '9903.03.01', rate: 10, rate_kind: 'add', basis: 'full_value', amount: 1000, refundable: false }]);
    expect(r.total_duties_fees).toBe(2684.64);
  });
  it('China too: 301 (750) + 10% (1,000) on 2026-05-01', () => {
    expect(shirt('CN', '2026-05-01')).toMatchObject({ section_301: 750, additional_duty: 1750 });
  });
  it('first and last days: 2026-02-24 and 2026-07-23; not on 2026-02-23 or 2026-07-24', () => {
    expect(layerOf(shirt('VN', '2026-02-24'), 's122')).toBeDefined();
    expect(layerOf(shirt('VN', '2026-07-23'), 's122')).toBeDefined();
    expect(layerOf(shirt('VN', '2026-02-23'), 's122')).toBeUndefined();
    expect(layerOf(shirt('VN', '2026-07-24'), 's122')).toBeUndefined();
  });
  it('USMCA-qualifying goods of Mexico are exempt; without the claim, +10%', () => {
    expect(layerOf(shirt('MX', '2026-05-01'), 's122')).toMatchObject({ heading: '9903.03.08', rate_kind: 'exempt', amount: 0 });
    expect(layerOf(shirt('MX', '2026-05-01', { claim: 'none' }), 's122')).toMatchObject({ amount: 1000 });
  });
  it('CAFTA-DR textiles entered duty-free are exempt', () => {
    expect(owedOf(shirt('GT', '2026-05-01', { claim: 'cafta-dr' }))).toEqual([]);
    expect(exemptOf(shirt('GT', '2026-05-01', { claim: 'cafta-dr' }))).toEqual(['s122 9903.03.09']);
  });
  it('a listed product (note 2(aa)(ii), 8471.50.01) is exempt', () => {
    expect(layerOf(t.duty({ hts: '8471.50.01', value: 10000, origin: 'VN', date: '2026-05-01' }), 's122')).toMatchObject({ heading: '9903.03.03', rate_kind: 'exempt', amount: 0 });
  });
  it('not on Section 232 annex goods: steel 7208.10.15 from Vietnam on 2026-05-01 owes 232 +50% only', () => {
    const r = t.duty({ hts: '7208.10.15', value: 10000, origin: 'VN', date: '2026-05-01' });
    expect(owedOf(r)).toEqual(['s232_metals']);
    expect(exemptOf(r)).toEqual(['s122 9903.03.06']);
  });
});
