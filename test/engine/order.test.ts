/** Orders: each line costed like a single one; MPF and HMF once per entry, allocated cent for cent. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { allocate } from '../../shared/money.js';
import type { DutyResult, OrderLine } from '../../shared/index.js';
import { realTariff } from '../helpers/tariff.js';

const t = realTariff();
const ok = (l: OrderLine) => l as { line: number } & DutyResult;
const cents = (x: number) => Math.round(x * 100);

describe('an order is one entry', () => {
  const order = t.order({
    ocean: 1,
    items: [
      { hts: '6109.10.00', value: 1000, origin: 'china' },
      { hts: '6109.10.00.12', value: 3000, origin: 'kr' },
      { hts: '8471.30.01.00', value: 2000 },
      { hts: '9999.99.99', value: 10 },
      { hts: '6109.10.00', value: -5 },
    ],
  });

  it('a bad line is an error of its own; the others are costed', () => {
    expect(order.lines.map((l) => l.line)).toEqual([1, 2, 3, 4, 5]);
    expect(order.lines[3]).toMatchObject({ line: 4, error: { code: 'not_found', details: { parameter: 'items[3].hts' } } });
    expect(order.lines[4]).toMatchObject({ line: 5, error: { code: 'invalid_parameter', details: { parameter: 'items[4].value' } } });
    expect(order.totals).toMatchObject({ lines: 5, errors: 2, customs_value: 6000 });
  });

  it('MPF once on the lines liable to it, with the minimum applied once', () => {
    // Liable: 1,000 (CN) + 2,000 (mfn) = 3,000 × 0.3464% = 10.39 → minimum 33.58 for the entry; KR exempt.
    expect(order.totals.mpf).toBe(33.58);
    // Allocated by value: 33.58 × 1/3 = 11.193… and × 2/3 = 22.386…: floors 11.19 + 22.38 = 33.57, the cent left goes to the larger remainder.
    expect(ok(order.lines[0]).mpf).toBe(11.19);
    expect(ok(order.lines[2]).mpf).toBe(22.39);
    expect(ok(order.lines[1]).mpf).toBe(0);
  });

  it('HMF once on all lines of an ocean entry: 0.125% × 6,000 = 7.50', () => {
    expect(order.totals.hmf).toBe(7.5);
    expect([0, 1, 2].map((i) => ok(order.lines[i]).hmf)).toEqual([1.25, 3.75, 2.5]);
  });

  it('totals are the sums of the lines, cent for cent', () => {
    const lines = order.lines.filter((l) => !('error' in l)).map(ok);
    for (const f of ['customs_value', 'section_301', 'mpf', 'hmf', 'total_duties_fees', 'landed_cost'] as const)
      expect(cents(order.totals[f])).toBe(lines.reduce((s, l) => s + cents(l[f]), 0));
    expect(cents(order.totals.duty)).toBe(lines.reduce((s, l) => s + cents(l.duty ?? 0), 0));
    // Duty: 165 (16.5% × 1,000) + 0 + 0; Section 301: 75. Note 52 (since 2026-07-24): China +12.5% × 1,000 = 125,
    // Korea 12.5% total over the KR rate (Free) × 3,000 = 375; the third line has no origin country: none.
    // Total 165 + 75 + 125 + 375 + 33.58 MPF + 7.50 HMF = 781.08.
    // Section 301 is every Section 301 action (issue 30): 75 + 125 + 375, here the whole additional duty.
    expect(order.totals).toMatchObject({ duty: 165, section_301: 575, additional_duty: 575, total_duties_fees: 781.08, landed_cost: 6781.08 });
  });

  it('the same line alone is an entry of its own (the minimum applies to it)', () => {
    expect(t.duty({ hts: '6109.10.00', value: 1000, origin: 'china' }).mpf).toBe(33.58);
  });

  it('the MPF maximum applies once to the entry', () => {
    const big = t.order({ items: [{ hts: '8471.30.01.00', value: 150000 }, { hts: '8471.30.01.00', value: 150000 }] });
    expect(big.totals.mpf).toBe(651.5);
    expect(big.lines.map((l) => ok(l).mpf)).toEqual([325.75, 325.75]);
  });

  it('order-level origin is each item\'s default; specific lines are counted', () => {
    const o = t.order({ origin: 'china', items: [{ hts: '6109.10.00', value: 100 }, { hts: '2009.11.00', value: 100, origin: 'mfn' }] });
    expect(ok(o.lines[0]).origin).toBe('china');
    expect(ok(o.lines[1])).toMatchObject({ origin: 'mfn', duty: null, specific_rate: true });
    expect(o.totals.specific_rate_lines).toBe(1);
  });

  it('bad order-level options fail the whole order: they hold for every line', () => {
    expect(() => t.order({ items: [], ocean: 'perhaps' })).toThrow(expect.objectContaining({ parameter: 'ocean' }));
    expect(() => t.order({ items: [], origin: 'Narnia' })).toThrow(expect.objectContaining({ parameter: 'origin' }));
    expect(() => t.order({ items: 'x' as never })).toThrow(expect.objectContaining({ parameter: 'items' }));
  });
});

describe('allocation', () => {
  it('parts add up exactly and follow the weights', () => {
    expect(allocate(100, [1, 1, 1])).toEqual([34, 33, 33]);
    expect(allocate(3358, [100000, 200000])).toEqual([1119, 2239]);
    expect(allocate(0, [5, 5])).toEqual([0, 0]);
    expect(allocate(7, [0, 0])).toEqual([0, 0]);
  });

  it('is the largest-remainder split as defined: floors, then a cent each to the largest remainders, ties to the larger weight, then the earlier line', () => {
    // The definition, in BigInt with one sort: what the fast path (doubles, a threshold instead of a sort) must equal.
    const byDefinition = (total: number, ws: number[]): number[] => {
      const sum = ws.reduce((s, w) => s + BigInt(w), 0n);
      if (sum === 0n) return ws.map(() => 0);
      const exact = ws.map((w) => BigInt(total) * BigInt(w));
      const parts = exact.map((e) => Number(e / sum));
      const order = ws.map((_, i) => i).sort((a, b) => {
        const ra = exact[a] % sum;
        const rb = exact[b] % sum;
        return ra === rb ? ws[b] - ws[a] || a - b : ra > rb ? -1 : 1;
      });
      for (let k = 0, left = total - parts.reduce((s, p) => s + p, 0); k < left; k++) parts[order[k]]++;
      return parts;
    };
    // Few distinct weights and small totals make ties common; 2^50 weights take the BigInt path.
    const weight = fc.oneof(fc.constantFrom(0, 1, 2, 3, 7, 100, 12345), fc.integer({ min: 0, max: 5_000_000 }), fc.integer({ min: 0, max: 2 ** 50 }));
    fc.assert(
      fc.property(fc.oneof(fc.integer({ min: 0, max: 100 }), fc.integer({ min: 0, max: 100_000 })), fc.array(weight, { minLength: 1, maxLength: 300 }), (total, ws) => {
        expect(allocate(total, ws)).toEqual(byDefinition(total, ws));
      }),
      { numRuns: 3000 },
    );
  });
});
