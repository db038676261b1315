/** IEEPA Brazil +40% (9903.01.77) and India +25% (9903.01.84), on top of the reciprocal rate; refundable. */
import { describe, expect, it } from 'vitest';
import { exemptOf, owedOf, layerOf, realTariff } from '../../helpers/tariff.js';

const t = realTariff();
const mixer = (origin: string, date: string) => t.duty({ hts: '8509.40.00', value: 10000, origin, date });

describe('IEEPA Brazil and India', () => {
  it('Brazil on 2025-10-01: +40% (4,000) and reciprocal +10% (1,000), both refundable', () => {
    const r = mixer('BR', '2025-10-01');
    expect(layerOf(r, 'ieepa_brazil')).toEqual({ program: 'ieepa_brazil', authority: 'IEEPA', heading: '9903.01.77', rate: 40, rate_kind: 'add', basis: 'full_value', amount: 4000, refundable: true });
    expect(layerOf(r, 'ieepa_reciprocal')).toMatchObject({ amount: 1000, refundable: true });
  });
  it('India on 2025-09-01: +25% (2,500) and reciprocal +25% (2,500); on 2026-02-10 (after 2026-02-06) the reciprocal only', () => {
    const r = mixer('IN', '2025-09-01');
    expect(layerOf(r, 'ieepa_india')).toMatchObject({ amount: 2500 });
    expect(layerOf(r, 'ieepa_reciprocal')).toMatchObject({ amount: 2500 });
    expect(layerOf(mixer('IN', '2026-02-10'), 'ieepa_india')).toBeUndefined();
  });
  it('not on Section 232 goods: Brazilian steel 7208.10.15 on 2025-10-01 owes 232 (+50%) only', () => {
    const r = t.duty({ hts: '7208.10.15', value: 10000, origin: 'BR', date: '2025-10-01' });
    expect(owedOf(r)).toEqual(['s232_steel']);
    // N351392, N352566: Section 232 goods declare 9903.01.33, outside the reciprocal duty; and 9903.01.83 (heading text, note 2(x)(v)) outside Brazil's.
    expect(exemptOf(r)).toEqual(['ieepa_reciprocal 9903.01.33', 'ieepa_brazil 9903.01.83']);
  });
});
