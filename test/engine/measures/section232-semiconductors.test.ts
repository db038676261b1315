/** Section 232 on semiconductors (note 39, 9903.79.01 +25% from 2026-01-15): only articles meeting the note 39(b) parameters. */
import { describe, expect, it } from 'vitest';
import { exemptOf, owedOf, layerOf, realTariff } from '../../helpers/tariff.js';

const t = realTariff();
const unit = (extra: Record<string, unknown>) => t.duty({ hts: '8471.50.01', value: 10000, origin: 'TW', date: '2026-11-22', ...extra });

describe('processing unit 8471.50.01 from Taiwan (general Free), value 10,000', () => {
  it('chip_qualifies=1: +25% = 2,500, the only layer', () => {
    const r = unit({ chip_qualifies: 1 });
    expect(r.additional_duties).toEqual([{ program: 's232_semiconductors', authority: 'Section 232', heading: '9903.79.01', rate: 25, rate_kind: 'add', basis: 'full_value', amount: 2500, refundable: false }]);
  });
  it('not given: taken as not qualifying (SPEC default), and said; 8471.50 is also on the proposed note 52 exemption annex: no layer at all', () => {
    const r = unit({});
    expect(owedOf(r)).toEqual([]);
    expect(exemptOf(r)).toEqual(['s301_forced_labor 9903.05.86']);
    expect(r.assumptions.join(' ')).toMatch(/chip_qualifies not given/);
    expect(r.notes.join(' ')).toMatch(/exemption annex/);
  });
  it('chip_qualifies=0: no duty and no assumption about it', () => {
    const r = unit({ chip_qualifies: 0 });
    expect(layerOf(r, 's232_semiconductors')).toBeUndefined();
    expect(r.assumptions.join(' ')).not.toMatch(/chip_qualifies/);
  });
  it('chip_qualifies must be 0 or 1', () => {
    expect(() => unit({ chip_qualifies: 'maybe' })).toThrow(expect.objectContaining({ parameter: 'chip_qualifies' }));
  });
});
