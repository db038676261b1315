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

describe('the Section 301 ships action on China (note 31(k), (l)): a note, no amount', () => {
  it('8716.39.00.90 from China on 2026-11-25: a note naming 9903.91.12 (+100% from 2026-11-10, intermodal chassis); Section 301 stays 9903.88.03 +25% = 2,500', () => {
    const r = t.duty({ hts: '8716.39.00.90', value: 10000, origin: 'CN', date: '2026-11-25' });
    expect(r.notes.join(' ')).toMatch(/9903\.91\.12, \+100% from 2026-11-10 .*intermodal chassis.*8716\.39\.0090, 8716\.90\.30, 8716\.90\.50: not included/);
    expect(r).toMatchObject({ section_301_heading: '9903.88.03', section_301: 2500 });
  });
  it('8426.19.00 from China: 9903.91.14 (ship-to-shore gantry cranes); not before 2026-11-10, not for goods of Japan', () => {
    const note = (origin: string, date: string) => t.duty({ hts: '8426.19.00', value: 10000, origin, date }).notes.join(' ');
    expect(note('CN', '2026-11-10')).toMatch(/9903\.91\.14, \+100% .*ship-to-shore gantry cranes under 8426\.19\.00/);
    expect(note('CN', '2026-11-09')).not.toMatch(/9903\.91\.14/);
    expect(note('JP', '2026-11-25')).not.toMatch(/9903\.91\.14/);
  });
});

describe('the Section 201 safeguards (program_rates.csv s201_*): a note naming each heading in force, no amount', () => {
  it('modules 8541.43.00.10 from China on 2025-09-01: 9903.45.25 +14%; the last day 2026-02-06 too; not from 2026-02-07 (note 18 expired)', () => {
    const r = t.duty({ hts: '8541.43.00.10', value: 100000, origin: 'CN', date: '2025-09-01' });
    expect(r.notes).toContain(
      "Section 201 safeguard 9903.45.25, +14% from 2025-02-07 to 2026-02-06 (CSPV modules (note 18): 8541.43.0010): not included, since the safeguard's quotas and exempt countries are not modelled here.",
    );
    expect(r.additional_duties.some((l) => l.heading?.startsWith('9903.45'))).toBe(false);
    expect(t.duty({ hts: '8541.43.00.10', value: 100000, origin: 'CN', date: '2026-02-06' }).notes.join(' ')).toMatch(/9903\.45\.25/);
    expect(t.duty({ hts: '8541.43.00.10', value: 100000, origin: 'CN', date: '2026-02-07' }).notes.join(' ')).not.toMatch(/Section 201/);
  });
  it('cells 8541.42.00.10: 9903.45.22 above the quota; other photovoltaic modules (8541.43.00.80) nothing', () => {
    expect(t.duty({ hts: '8541.42.00.10', value: 1000, origin: 'KR', date: '2025-09-01' }).notes.join(' ')).toMatch(/Section 201 safeguard 9903\.45\.22, \+14%/);
    expect(t.duty({ hts: '8541.43.00.80', value: 1000, origin: 'KR', date: '2025-09-01' }).notes.join(' ')).not.toMatch(/Section 201/);
  });
  it('quartz surface products 6810.99.00.20 from Vietnam today: 9903.45.30 +25% within the quota and 9903.45.31 +50% above it, from 2026-08-15', () => {
    const notes = t.duty({ hts: '6810.99.00.20', value: 10000, origin: 'VN', date: '2026-11-27' }).notes.join(' ');
    expect(notes).toMatch(/Section 201 safeguard 9903\.45\.30, \+25% from 2026-08-15 .*within the quota/);
    expect(notes).toMatch(/Section 201 safeguard 9903\.45\.31, \+50% from 2026-08-15 .*above the quota/);
    expect(t.duty({ hts: '6810.99.00.20', value: 10000, origin: 'VN', date: '2026-08-14' }).notes.join(' ')).not.toMatch(/Section 201/);
  });
});

describe('import quotas a line footnotes (chapter 99, subchapter IV): named, not checked', () => {
  it('chocolate 1806.90.20.00 cites 9904.18.09 and 9904.18.18', () => {
    const r = t.duty({ hts: '1806.90.20.00', value: 1000, origin: 'VN', qty: 10, unit: 'kg' });
    expect(r.notes).toContain("This line's footnotes also cite 9904.18.09, 9904.18.18: import quotas of chapter 99, subchapter IV, not checked in this estimate.");
    expect(t.duty({ hts: '6109.10.00', value: 1000, origin: 'VN' }).notes.join(' ')).not.toMatch(/subchapter IV/);
  });
});
