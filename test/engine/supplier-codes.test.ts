/**
 * Supplier codes (shared/supplier-codes.ts): costed on a U.S. line only when every line under them
 * carries the same rates, and saying so in the assumptions; a subheading of one line, or of lines at
 * different rates, follows the schedule's own rule (issue 28).
 */
import { describe, expect, it } from 'vitest';
import { buildSchedule, Tariff } from '../../shared/index.js';
import { readChapter99 } from '../../server/data/ch99.js';
import { readCountries } from '../../server/data/countries.js';
import { htsRows, realTariff } from '../helpers/tariff.js';

const t = realTariff();

describe('a supplier\'s 6-digit HS code', () => {
  it('6109.10 (one U.S. line, 6109.10.00, 16.5%) is costed on it, and the result says so', () => {
    const r = t.duty({ hts: '6109.10', value: 10000, date: '2026-11-21' });
    const own = t.duty({ hts: '6109.10.00', value: 10000, date: '2026-11-21' });
    expect(r).toMatchObject({ hts: '6109.10.00', duty: 1650, duty_rate: '16.5%', landed_cost: own.landed_cost });
    expect(r.assumptions[0]).toBe('Code 6109.10 is a subheading with one 8-digit line, 6109.10.00: costed on it.');
    expect(own.assumptions.join(' ')).not.toMatch(/subheading|Supplier code/);
  });
  it('6109.90, whose four lines carry different rates, is refused, naming them', () => {
    expect(() => t.duty({ hts: '6109.90', value: 1 })).toThrow(/^hts 6109\.90 is a subheading; duty needs an 8- or 10-digit tariff line\. 4 8-digit lines lie under it: 6109\.90\.10 \(32%\), /);
  });
  it('a foreign 10-digit code that is no U.S. line is costed on its subheading\'s line when the rates agree', () => {
    const r = t.duty({ hts: '6109.10.9900', value: 10000, date: '2026-11-21' });
    expect(r).toMatchObject({ hts: '6109.10.00', duty: 1650 });
    expect(r.assumptions[0]).toMatch(/^Supplier code 6109\.10\.99\.00: 6109\.10\.99\.00 is not a U\.S\. line; costed on 6109\.10\.00/);
    // Of a subheading whose lines disagree it is just not in the schedule.
    expect(() => t.duty({ hts: '6109.90.9999', value: 1 })).toThrow(expect.objectContaining({ code: 'not_found' }));
  });
  it('in an order, the supplier\'s line is costed and says so; a line of another subheading is an error of its own', () => {
    const o = t.order({ items: [{ hts: '6109.10', value: 1000 }, { hts: '6109.90', value: 1000 }, { hts: '6109.10.00', value: 1000 }], date: '2026-11-21' });
    expect(o.lines[0]).toMatchObject({ hts: '6109.10.00', duty: 165 });
    expect((o.lines[0] as { assumptions: string[] }).assumptions[0]).toMatch(/^Code 6109\.10 is a subheading with one 8-digit line/);
    expect(o.lines[1]).toMatchObject({ line: 2, error: { code: 'invalid_parameter', details: { parameter: 'items[1].hts' } } });
    expect((o.lines[2] as { assumptions: string[] }).assumptions.join(' ')).not.toMatch(/subheading|Supplier code/);
  });
});

describe('a code found once serves every caller', () => {
  it('after an order line asked 3004.39.0050 and 8471.30, a query gets the same assumptions, naming no order line', () => {
    const fresh = new Tariff(buildSchedule(htsRows(), '2026 Revision 10'), readCountries(), readChapter99(), () => '2026-11-21');
    const o = fresh.order({ items: [{ hts: '3004.39.0050', value: 100 }, { hts: '8471.30', value: 100 }], date: '2026-11-21' });
    const [suffix, subheading] = o.lines as { assumptions: string[] }[];
    const q1 = fresh.duty({ hts: '3004.39.0050', value: 100, date: '2026-11-21' });
    const q2 = fresh.duty({ hts: '8471.30', value: 100, date: '2026-11-21' });
    expect(q1.assumptions[0]).toBe(suffix.assumptions[0]);
    expect(q2.assumptions[0]).toBe(subheading.assumptions[0]);
    expect([...q1.assumptions, ...q2.assumptions].join(' ')).not.toMatch(/items\[/);
    // The 6-digit code's line is kept like an 8-digit one: the same Found, not a second walk of the subheading.
    expect(fresh.lines.find('847130', 'hts')).toBe(fresh.lines.find('847130', 'items[5].hts'));
  });
});
