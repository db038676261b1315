/**
 * One order, one entry, whatever the request size limit: an order sent in several parts pays MPF
 * (minimum and maximum once) and HMF on the whole entry, and the parts' lines add up to those fees
 * to the cent. The real schedule; fee figures of FY2026 (19 CFR 24.23: 0.3464%, min 33.58, max
 * 651.50; HMF 0.125%), used for entries after 2026-09-30 until FY2027's are in the table.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { allocatePart } from '../../shared/money.js';
import type { DutyResult, OrderItem, OrderLine, OrderResult } from '../../shared/index.js';
import { realTariff } from '../helpers/tariff.js';

const t = realTariff();
const cents = (x: number) => Math.round(x * 100);
const lineMpf = (r: OrderResult) => r.lines.reduce((s, l) => s + ('error' in l ? 0 : cents((l as OrderLine & DutyResult).mpf)), 0);
const lineHmf = (r: OrderResult) => r.lines.reduce((s, l) => s + ('error' in l ? 0 : cents((l as OrderLine & DutyResult).hmf)), 0);

/** Two passes over the parts: add up their bases, then cost each part as its share of the entry. */
function costInParts(items: OrderItem[], size: number, options: Record<string, unknown>): OrderResult[] {
  const parts = Array.from({ length: Math.ceil(items.length / size) }, (_, i) => items.slice(i * size, (i + 1) * size));
  const bases = parts.map((p) => t.order({ ...options, items: p }).totals);
  const mpf = bases.reduce((s, b) => s + cents(b.mpf_basis), 0);
  const hmf = bases.reduce((s, b) => s + cents(b.hmf_basis), 0);
  let mpfBefore = 0;
  let hmfBefore = 0;
  return parts.map((p, i) => {
    const r = t.order({ ...options, items: p, entry: { mpf_basis: mpf / 100, hmf_basis: hmf / 100, mpf_basis_before: mpfBefore / 100, hmf_basis_before: hmfBefore / 100 } });
    mpfBefore += cents(bases[i].mpf_basis);
    hmfBefore += cents(bases[i].hmf_basis);
    return r;
  });
}

describe('an order of 2,500 lines sent in parts of 1,000', () => {
  // Lines of 1,000 dollars: every fifth from Korea (KORUS: no MPF), the rest from China.
  const items: OrderItem[] = Array.from({ length: 2500 }, (_, i) => ({ hts: '6109.10.00', value: 1000, origin: i % 5 === 0 ? 'kr' : 'china' }));
  const parts = costInParts(items, 1000, { ocean: 1, date: '2026-11-21' });

  it('each part reports the value liable to each fee', () => {
    // Part 1: 200 Korean lines, 800 Chinese: MPF basis 800,000; HMF basis (ocean) all 1,000,000.
    expect(parts.map((p) => [p.totals.mpf_basis, p.totals.hmf_basis])).toEqual([[800_000, 1_000_000], [800_000, 1_000_000], [400_000, 500_000]]);
  });

  it('MPF is the maximum once: 0.3464% × 2,000,000 = 6,928 > 651.50; the lines of all parts add up to 651.50', () => {
    for (const p of parts) expect(p.totals.entry_mpf).toBe(651.5);
    expect(parts.reduce((s, p) => s + lineMpf(p), 0)).toBe(65_150);
    expect(parts.reduce((s, p) => s + cents(p.totals.mpf), 0)).toBe(65_150);
    // Each liable line's exact share is 651.50 × 1,000 / 2,000,000 = 0.32575: 0.32 or 0.33; Korean lines 0.
    const shares = parts.flatMap((p) => p.lines.map((l) => cents((l as OrderLine & DutyResult).mpf)));
    expect(new Set(shares.filter((_, i) => i % 5 !== 0))).toEqual(new Set([32, 33]));
    expect(shares.filter((_, i) => i % 5 === 0).every((c) => c === 0)).toBe(true);
  });

  it('HMF once on the whole entry: 0.125% × 2,500,000 = 3,125.00, added up to the cent', () => {
    expect(parts.reduce((s, p) => s + lineHmf(p), 0)).toBe(312_500);
    for (const p of parts) expect(p.totals.entry_hmf).toBe(3125);
  });

  it('the parts together equal the same order costed whole', () => {
    const whole = t.order({ ocean: 1, date: '2026-11-21', items });
    expect(cents(whole.totals.mpf)).toBe(65_150);
    expect(cents(whole.totals.hmf)).toBe(312_500);
    expect(parts.reduce((s, p) => s + cents(p.totals.total_duties_fees), 0)).toBe(cents(whole.totals.total_duties_fees));
  });

  it('without entry, each part would have paid its own maximum: the reason for it', () => {
    const alone = [0, 1, 2].map((i) => t.order({ ocean: 1, date: '2026-11-21', items: items.slice(i * 1000, (i + 1) * 1000) }).totals.mpf);
    // 0.3464% × 800,000 = 2,771.20 > 651.50 for the first two; × 400,000 = 1,385.60 > 651.50 for the last.
    expect(alone).toEqual([651.5, 651.5, 651.5]);
  });
});

describe('the minimum, once for a small entry in three parts', () => {
  it('three parts of 2,000 dollars: 0.3464% × 6,000 = 20.78 < 33.58, so 33.58 for the entry', () => {
    const items = [1, 2, 3].map(() => ({ hts: '8471.30.01.00', value: 2000 }));
    const parts = costInParts(items, 1, { date: '2026-11-21' });
    expect(parts.map((p) => p.totals.entry_mpf)).toEqual([33.58, 33.58, 33.58]);
    // 33.58 × 1/3 = 11.1933…: cumulative rounding gives round(11.193) = 11.19, round(22.387) − 11.19 = 11.20, 33.58 − 22.39 = 11.19.
    expect(parts.map((p) => p.totals.mpf)).toEqual([11.19, 11.2, 11.19]);
  });
});

describe('entry is checked', () => {
  const item = { hts: '8471.30.01.00', value: 2000 };
  it('parts that hold more than the entry: refused, naming the basis', () => {
    expect(() => t.order({ items: [item], entry: { mpf_basis: 1000, hmf_basis: 0, mpf_basis_before: 0, hmf_basis_before: 0 } })).toThrow(
      expect.objectContaining({ parameter: 'entry.mpf_basis', message: expect.stringMatching(/^entry\.mpf_basis is 1000 but the parts before this one \(0\) and this one \(2000\) hold more/) }),
    );
  });
  it('an unknown or missing field, a negative basis, not an object', () => {
    expect(() => t.order({ items: [item], entry: { mpf_basis: 2000, hmf_basis: 0, mpf_basis_before: 0, hmf_basis_before: 0, extra: 1 } })).toThrow(expect.objectContaining({ parameter: 'entry.extra' }));
    expect(() => t.order({ items: [item], entry: { mpf_basis: 2000, hmf_basis: 0, mpf_basis_before: 0 } })).toThrow(expect.objectContaining({ parameter: 'entry.hmf_basis_before' }));
    expect(() => t.order({ items: [item], entry: { mpf_basis: -1, hmf_basis: 0, mpf_basis_before: 0, hmf_basis_before: 0 } })).toThrow(expect.objectContaining({ parameter: 'entry.mpf_basis' }));
    expect(() => t.order({ items: [item], entry: [1] })).toThrow(expect.objectContaining({ parameter: 'entry' }));
  });
});

describe('cumulative rounding', () => {
  it('for any split of any weights, the parts add up to the total and each is within a cent of its exact share', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10_000_000 }), fc.array(fc.integer({ min: 0, max: 100_000_000 }), { minLength: 1, maxLength: 60 }), fc.integer({ min: 1, max: 20 }), (total, weights, size) => {
        const sum = weights.reduce((s, w) => s + w, 0);
        const parts: number[] = [];
        for (let i = 0, before = 0; i < weights.length; i += size) {
          const chunk = weights.slice(i, i + size);
          parts.push(...allocatePart(total, sum, before, chunk));
          before += chunk.reduce((s, w) => s + w, 0);
        }
        expect(parts.reduce((s, p) => s + p, 0)).toBe(sum === 0 ? 0 : total);
        parts.forEach((p, i) => expect(Math.abs(p - (sum ? (total * weights[i]) / sum : 0))).toBeLessThanOrEqual(1));
      }),
    );
  });
});
