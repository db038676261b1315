/**
 * What the engine remembers between queries (a line's terms: origin, claim, date, s301) stays
 * bounded whatever is asked, and never changes a result.
 */
import { describe, expect, it } from 'vitest';
import { buildSchedule, Tariff, type DutyResult } from '../../shared/index.js';
import { readChapter99 } from '../../server/data/ch99.js';
import { readCountries } from '../../server/data/countries.js';
import { htsRows } from '../helpers/tariff.js';

const fresh = (): Tariff => new Tariff(buildSchedule(htsRows(), '2026 Revision 10'), readCountries(), readChapter99(), () => '2026-11-21');

describe('remembered terms', () => {
  const t = fresh();
  const codes = [...t.schedule.lines()].filter((l) => l.rates?.general && l.digits.length >= 8).slice(0, 1000).map((l) => l.hts);
  // 25 dates of 1,000 lines: 25,000 distinct terms, more than the engine keeps.
  const dates = Array.from({ length: 25 }, (_, i) => `2026-01-${String(i + 1).padStart(2, '0')}`);

  it('stay within 20,000 over all lines, and results equal those of a fresh engine', () => {
    let most = 0;
    for (const date of dates) {
      for (const hts of codes) t.duty({ hts, value: 10000, origin: 'china', date });
      most = Math.max(most, t.lines.termsHeld);
    }
    expect(most).toBeGreaterThan(15_000);
    expect(most).toBeLessThanOrEqual(20_000);
    const other = fresh();
    for (const date of [dates[0], dates[24]])
      for (const hts of codes.slice(0, 200)) expect(t.duty({ hts, value: 12345, origin: 'china', date })).toEqual(other.duty({ hts, value: 12345, origin: 'china', date }));
  });

  it('are found again for a claim parsed anew (past the 1,000 claims kept parsed)', () => {
    const letters = 'abcdefghijklmnopqrstuvwxyz';
    for (let i = 0; i < 1100; i++) t.duty({ hts: '6109.10.00', value: 100, origin: 'korea', claim: `x${letters[i % 26]}${letters[Math.floor(i / 26) % 26]}${letters[Math.floor(i / 676)]}` });
    const first = t.duty({ hts: '8471.30.01', value: 100, origin: 'korea', claim: 'qqq' });
    const held = t.lines.termsHeld;
    const again = t.duty({ hts: '8471.30.01', value: 100, origin: 'korea', claim: 'qqq' });
    expect(t.lines.termsHeld).toBe(held);
    expect(again).toEqual(first);
  });
});

describe('lists results share', () => {
  it("are frozen: changing one result's notes or assumptions cannot change another's", () => {
    const t = fresh();
    const item = { hts: '6109.10.00', value: 100, origin: 'mfn' };
    const [a, b] = t.order({ items: [item, item] }).lines as DutyResult[];
    expect(a.assumptions.length).toBeGreaterThan(0);
    for (const list of ['notes', 'assumptions'] as const) {
      const before = [...b[list]];
      expect(() => a[list].push('changed')).toThrow(TypeError);
      expect(b[list]).toEqual(before);
    }
  });
});
