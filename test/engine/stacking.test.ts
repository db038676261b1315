/**
 * Stacking across an order (one entry): every line's layers, the totals per program, the refundable
 * total, and the order's claim and facts as defaults of its items. Figures by hand.
 */
import { describe, expect, it } from 'vitest';
import type { DutyResult, OrderLine } from '../../shared/index.js';
import { realTariff } from '../helpers/tariff.js';
import { topUpCents } from '../../shared/stacking.js';

const t = realTariff();
const ok = (l: OrderLine) => l as { line: number } & DutyResult;
const cents = (x: number) => Math.round(x * 100);

describe('an order mixing programs, entered 2025-10-01', () => {
  const order = t.order({
    date: '2025-10-01',
    items: [
      { hts: '6109.10.00', value: 10000, origin: 'VN' }, // reciprocal 20%: 2,000
      { hts: '6109.10.00', value: 1000, origin: 'CN' }, // 301 7.5%: 75; fentanyl 20%: 200; reciprocal 10%: 100
      { hts: '7308.90.95', value: 10000, origin: 'VN', steel_content: 4000 }, // 232 50% × 4,000: 2,000; reciprocal 20% × 6,000: 1,200
      { hts: '8703.23.01', value: 40000, origin: 'JP' }, // 232 15% total: 6,000 − 1,000 = 5,000
      { hts: '9999.99.99', value: 1 },
    ],
  });
  const lines = order.lines.filter((l) => !('error' in l)).map(ok);

  it('totals per program, by hand', () => {
    expect(order.totals.by_program).toEqual({ ieepa_reciprocal: 3300, s301_china: 75, ieepa_fentanyl: 200, s232_steel: 2000, s232_autos: 5000 });
    // Refundable: the IEEPA layers, 3,300 + 200.
    expect(order.totals).toMatchObject({ section_232: 7000, section_301: 75, additional_duty: 10575, refundable: 3500, errors: 1 });
  });
  it('every total is the sum of the lines, to the cent', () => {
    for (const f of ['section_232', 'additional_duty', 'section_301', 'total_duties_fees', 'landed_cost'] as const)
      expect(cents(order.totals[f])).toBe(lines.reduce((s, l) => s + cents(l[f]), 0));
    const byProgram: Record<string, number> = {};
    for (const l of lines) for (const d of l.additional_duties) byProgram[d.program] = (byProgram[d.program] ?? 0) + cents(d.amount);
    expect(Object.fromEntries(Object.entries(order.totals.by_program).map(([p, v]) => [p, cents(v)]))).toEqual(byProgram);
    expect(cents(order.totals.additional_duty)).toBe(Object.values(byProgram).reduce((s, v) => s + v, 0));
  });
  it('total_duties_fees = duty + additional_duty + MPF + HMF', () => {
    expect(cents(order.totals.total_duties_fees)).toBe(cents(order.totals.duty) + cents(order.totals.additional_duty) + cents(order.totals.mpf) + cents(order.totals.hmf));
  });
});

describe('the order\'s claim and facts are the defaults of its items', () => {
  it('claim=none and us_content at order level; an item overrides them', () => {
    const order = t.order({
      date: '2026-11-22',
      claim: 'none',
      items: [
        { hts: '8703.23.01', value: 40000, origin: 'MX' }, // no USMCA: 2.5% base 1,000 + 9903.94.01 25% = 10,000
        { hts: '8703.23.01', value: 40000, origin: 'MX', claim: 'usmca', us_content: 8000 }, // 9903.94.03: 25% × 32,000 = 8,000
      ],
    });
    expect(ok(order.lines[0])).toMatchObject({ duty: 1000, section_232: 10000 });
    expect(ok(order.lines[1])).toMatchObject({ duty: 0, section_232: 8000 });
    expect(order.totals.by_program).toEqual({ s232_autos: 18000 }); // the exemption headings (rate 0) are not programs of the totals
  });
  it('an order-level content larger than a line\'s value is that line\'s error, naming the order parameter', () => {
    const order = t.order({ us_content: 5000, items: [{ hts: '8703.23.01', value: 40000, origin: 'MX' }, { hts: '8703.23.01', value: 1000, origin: 'MX' }] });
    expect(order.lines[1]).toMatchObject({ error: { details: { parameter: 'us_content' } } });
  });
  it('a bad item claim is an error of that line, naming items[i].claim', () => {
    const order = t.order({ items: [{ hts: '8703.23.01', value: 1, claim: '??' }] });
    expect(order.lines[0]).toMatchObject({ error: { code: 'invalid_parameter', details: { parameter: 'items[0].claim' } } });
  });
});

describe('topUpCents: a "total" rate on part of the value, (rate − duty ÷ value) × basis, rounded once', () => {
  it('on the full value: rate × value − duty; never below 0', () => {
    expect(topUpCents(1_000_000, 15, 100, 25_000, 1_000_000)).toBe(125_000);
    expect(topUpCents(1_000_000, 15, 100, 200_000, 1_000_000)).toBe(0);
  });
  it('on 600,000 of 1,000,000 cents with a 2.5% duty (25,000): (15% − 2.5%) × 600,000 = 75,000', () => {
    expect(topUpCents(600_000, 15, 100, 25_000, 1_000_000)).toBe(75_000);
  });
  it('near the largest value accepted (10^14 cents) the products are exact: 12.5% total, 3,946,510,643,097.4995 cents rounds down', () => {
    expect(topUpCents(99_923_451_892_973, 125, 1000, 8_543_920_843_552, 99_923_451_893_299)).toBe(3_946_510_643_097);
  });
});
