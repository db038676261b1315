/** Programs whose product lists are not available (Section 338 Canada, UAS): a note naming the headings, never an amount. */
import { describe, expect, it } from 'vitest';
import { realTariff } from '../../helpers/tariff.js';

const t = realTariff();

describe('unlisted programs', () => {
  it('goods of Canada from 2026-08-22: a note naming 9903.03.12-.14 (+50%), no amount', () => {
    const r = t.duty({ hts: '0401.10.00', value: 1000, origin: 'CA', date: '2026-11-22' });
    expect(r.notes.join(' ')).toMatch(/Section 338.*9903\.03\.12 \(\+50%\), 9903\.03\.13 \(\+50%\), 9903\.03\.14 \(\+50%\)/);
    expect(r.additional_duties.filter((l) => l.program === 's338_canada')).toEqual([]);
    expect(t.duty({ hts: '0401.10.00', value: 1000, origin: 'CA', date: '2026-08-21' }).notes.join(' ')).not.toMatch(/Section 338/);
  });
  it('unmanned aircraft (8806) from 2026-09-03: a note naming the note 43 headings', () => {
    expect(t.duty({ hts: '8806.21.00', value: 1000, origin: 'JP', date: '2026-11-22' }).notes.join(' ')).toMatch(/unmanned aircraft.*9903\.08\.22 \(\+25%\)/);
  });
});
