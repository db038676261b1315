/**
 * Answers written as bytes (server/serialize.ts, server/http/json-bytes.ts): a duty result, an
 * order's and a batch's answer are byte for byte what JSON.stringify writes, whatever results of the
 * same code were written before; an order and a batch are written a line at a time into kept buffers.
 */
import { describe, expect, it } from 'vitest';
import { BufferPool, JsonBytes } from '../../server/http/json-bytes.js';
import { batchJson, dutyJson, orderJson } from '../../server/serialize.js';
import { linePools, mixedItems } from '../../bench/lib/lines.js';
import { realTariff } from '../helpers/tariff.js';

const t = realTariff();
const pools = linePools(t);

describe('an order and a batch written a line at a time', () => {
  it('are the bytes of JSON.stringify, bad lines, non-ASCII text and entry totals included', () => {
    const items: unknown[] = mixedItems(pools, 1000, 5);
    items.splice(3, 1, { hts: '0000.00.00', value: 1 }, 'not an object', { hts: '6109.10.00', value: -1 });
    const order = t.order({ items: items.slice(0, 1000) as never, ocean: true, date: '2026-11-21', entry: { mpf_basis: 90_000_000, hmf_basis: 90_000_000, mpf_basis_before: 0, hmf_basis_before: 0 } });
    expect(order.totals.errors).toBe(3);
    expect(order.totals.entry_mpf).toBe(651.5);
    const expected = JSON.stringify(order);
    expect(expected).toMatch(/[^\x00-\x7f]/);
    const written = orderJson(order);
    expect(written.bytes().toString('utf8')).toBe(expected);
    expect(written.bytes().equals(Buffer.from(expected))).toBe(true);
    written.release();

    const results = mixedItems(pools, 300, 6).map((q) => t.duty({ ...q, date: '2026-11-21' }));
    const batch = batchJson(results);
    expect(batch.bytes().toString('utf8')).toBe(JSON.stringify({ results }));
    batch.release();
    expect(orderJson({ ...order, lines: [] }).bytes().toString()).toBe(JSON.stringify({ ...order, lines: [] }));
  });
});

describe("GET /duty's answer", () => {
  it('is the bytes of JSON.stringify of the result, over every origin, claims, quantities, dates and s301 settings', () => {
    const origins = ['china', 'CN', 'mexico', 'canada', 'korea', 'japan', 'germany', 'vietnam', 'india', 'brazil', 'russia', 'mfn', 'col2', 'australia', 'israel'];
    const dates = ['2024-06-01', '2025-03-15', '2025-08-20', '2026-02-01', '2026-11-21'];
    let n = 0;
    for (const [i, q] of mixedItems(pools, 3000, 7).entries()) {
      const query = { ...q, origin: origins[i % origins.length], date: dates[i % dates.length], ...(i % 7 === 0 ? { s301: i % 2 ? 'none' : '25' } : {}) };
      let r;
      try {
        r = t.duty(query);
      } catch {
        continue;
      }
      n++;
      expect(dutyJson(r).toString('utf8')).toBe(JSON.stringify(r));
    }
    expect(n).toBeGreaterThan(2500);
  });

  it('is written anew for a result of the same code that differs in anything but its amounts', () => {
    const r = t.duty({ hts: '6109.10.00', value: 1000, origin: 'china', date: '2026-11-21' });
    expect(r.additional_duties.length).toBeGreaterThan(0);
    expect(r.notes.length).toBeGreaterThan(0);
    const layer = r.additional_duties[0];
    const withLayer = (change: Partial<typeof layer>) => ({ ...r, additional_duties: [{ ...layer, ...change }, ...r.additional_duties.slice(1)] });
    // One field each: a template used for any of them would answer with another's bytes.
    const variants = [
      { ...r, customs_value: 2000, duty: 165, landed_cost: 2500.5 },
      { ...r, duty: null },
      { ...r, description: `${r.description} (other)` },
      { ...r, origin: 'mfn' as const },
      { ...r, duty_rate: `${r.duty_rate} (other)` },
      { ...r, duty_rate: null },
      { ...r, rate_basis: r.rate_basis === 'special' ? ('general' as const) : ('special' as const) },
      { ...r, specific_rate: !r.specific_rate },
      { ...r, special_program: `${r.special_program ?? ''}AU` },
      { ...r, section_301_rate: r.section_301_rate + 1 },
      { ...r, section_301_heading: `${r.section_301_heading ?? ''}.1` },
      { ...r, hts_revision: `${r.hts_revision} (other)` },
      { ...r, origin_country: null },
      { ...r, notes: [...r.notes.slice(0, -1), 'Another note.'] },
      { ...r, notes: [...r.notes, 'One more note.'] },
      { ...r, assumptions: ['Something assumed.'] },
      withLayer({ program: 'another' }),
      withLayer({ authority: `${layer.authority} (other)` }),
      withLayer({ heading: layer.heading === null ? '9903.01.25' : null }),
      withLayer({ rate: layer.rate + 1 }),
      withLayer({ rate_kind: layer.rate_kind === 'add' ? 'total' : 'add' }),
      withLayer({ basis: `${layer.basis}_other` as never }),
      withLayer({ refundable: !layer.refundable }),
      { ...r, additional_duties: [...r.additional_duties, { ...layer, amount: 1.25 }] },
      { ...r, additional_duties: [] },
    ];
    for (const v of variants) expect(JSON.stringify(v)).not.toBe(JSON.stringify(r));
    // Each after the original and after each other: none is answered with bytes written for another.
    for (const v of variants) {
      expect(dutyJson(r).toString()).toBe(JSON.stringify(r));
      expect(dutyJson(v).toString()).toBe(JSON.stringify(v));
    }
    for (const v of variants) expect(dutyJson(v).toString()).toBe(JSON.stringify(v));
  });

  it('stays exact past 5,000 templates, when the codes made longest ago are forgotten and made again', () => {
    const origins = ['china', 'mexico', 'germany', 'vietnam', 'india', 'brazil', 'japan', 'mfn'];
    const results = [];
    for (const q of mixedItems(pools, 4000, 11)) for (const origin of origins.slice(0, 2)) results.push(t.duty({ ...q, origin, date: '2026-11-21' }));
    for (const q of mixedItems(pools, 1500, 12)) for (const origin of origins.slice(2)) results.push(t.duty({ ...q, origin, date: '2026-11-21' }));
    // As many results as templates, at the least: each differs from the others in something but its amounts.
    const amounts = new Set(['customs_value', 'duty', 'section_301', 'mpf', 'hmf', 'total_duties_fees', 'landed_cost', 'section_232', 'additional_duty', 'amount']);
    const kinds = new Set(results.map((r) => JSON.stringify(r, (k, v) => (amounts.has(k) ? undefined : v))));
    expect(kinds.size).toBeGreaterThan(6000);
    for (const r of results) expect(dutyJson(r).toString()).toBe(JSON.stringify(r));
    for (const r of results.slice(0, 1000)) expect(dutyJson(r).toString()).toBe(JSON.stringify(r));
  });

  it('writes numbers as JSON.stringify does: integers, cents, fractions of a cent, large, negative, not finite', () => {
    for (const x of [0, -0, 1, 9, 10, 99, 100, 2 ** 31 - 1, 2 ** 31, 2 ** 53, 0.01, 0.1, 0.5, 7.5, 33.58, 1398.58, 21474836.47, 21474836.48, 123456789.01, 0.001, 0.125, 1e-7, 1e21, -1, -33.58, NaN, Infinity]) {
      const out = new JsonBytes(64);
      out.number(x);
      expect(out.bytes().toString(), String(x)).toBe(JSON.stringify(x));
      out.release();
    }
  });

  it('writes every integer to 10,000, each length of integer and its neighbours, and their cents', () => {
    const xs = Array.from({ length: 10_001 }, (_, i) => i);
    for (let p = 10; p < 2 ** 31; p *= 10) xs.push(p - 1, p, p + 1, p + 10, p * 2 + 7);
    for (const x of [...xs]) if (x < 2 ** 31 / 100) xs.push(x + 0.01, x + 0.09, x + 0.1, x + 0.99);
    const wrong: string[] = [];
    for (const x of xs) {
      const out = new JsonBytes(64);
      out.number(x);
      if (out.bytes().toString() !== JSON.stringify(x)) wrong.push(`${x} written as ${out.bytes().toString()}`);
      out.release();
    }
    expect(wrong).toEqual([]);
  });
});

describe('kept buffers', () => {
  it('keep the largest given back, and a request takes the smallest that fits', () => {
    const pool = new BufferPool(2);
    const [tiny, small, large] = [10, 100, 1000].map((n) => Buffer.alloc(n));
    // Small ones first, as GET answers fill the list: the large one (an order's) still takes a place.
    pool.give(tiny);
    pool.give(small);
    pool.give(large);
    expect(pool.take(500) === large).toBe(true);
    expect(pool.take(50) === small).toBe(true);
    expect(pool.take(50)).toBe(null);
    // The smallest that fits, wherever it stands; a buffer given twice is kept once.
    pool.give(small);
    pool.give(large);
    pool.give(large);
    expect(pool.take(50) === small).toBe(true);
    expect(pool.take(50) === large).toBe(true);
    expect(pool.take(50)).toBe(null);
  });

  it("keep an order's buffer after small answers filled the list", () => {
    // Several small answers at once (GET /duty under load): their buffers fill the list of idle ones.
    const smalls = [new JsonBytes(1000), new JsonBytes(1000), new JsonBytes(1000)];
    for (const s of smalls) s.release();
    const order = new JsonBytes(4 << 20);
    order.add('{"lines":[]}');
    const held = order.bytes().buffer;
    order.release();
    // Compared as booleans: a failing comparison of two 4 MB buffers would be printed in full.
    const next = new JsonBytes(4 << 20);
    expect(next.bytes().buffer === held).toBe(true);
    next.release();
  });

  it('small answers are views of a shared slab: each keeps its bytes while later ones are written, past the slab\'s end too', () => {
    const held: [Buffer, string][] = [];
    // 200 answers of 1 to 3 kB: several 64 kB slabs, each answer still unsent when the next is written.
    for (let i = 0; i < 200; i++) {
      const text = JSON.stringify({ i, pad: 'é'.repeat(500 + ((i * 37) % 1000)) });
      const out = new JsonBytes('small');
      out.add(text);
      held.push([out.sent(), text]);
    }
    expect(held.filter(([bytes, text]) => bytes.toString() !== text).length).toBe(0);
    expect(new Set(held.map(([bytes]) => bytes.buffer)).size).toBeGreaterThan(4);
  });

  it('a small answer that outgrows its room in the slab moves to memory of its own, not to a kept buffer', () => {
    // The pool emptied (it keeps two buffers), then given one: an order's.
    const drained = [new JsonBytes(1), new JsonBytes(1)];
    const order = new JsonBytes(1 << 20);
    const kept = order.bytes().buffer;
    order.release();
    const out = new JsonBytes('small');
    // Longer than a whole slab, then longer again: it cannot stay there, and grows twice.
    const text = 'x'.repeat(70_000);
    out.add(text);
    out.add(text);
    out.add(text);
    const bytes = out.sent();
    expect(bytes.toString()).toBe(text.repeat(3));
    expect(bytes.buffer === kept).toBe(false);
    // Handed over, never given back; and a kept buffer is never handed over.
    expect(() => out.release()).toThrow(/sent\(\)/);
    const pooled = new JsonBytes(100);
    expect(() => pooled.sent()).toThrow(/release\(\)/);
    pooled.release();
    // The order's buffer is still the pool's: the next order is written into it.
    const next = new JsonBytes(1 << 20);
    expect(next.bytes().buffer === kept).toBe(true);
    next.release();
    for (const d of drained) d.release();
  });

  it('are reused once released, never shared while held, and grow for text longer than they are', () => {
    const a = new JsonBytes(1000);
    a.add('{"a":1}');
    const b = new JsonBytes(1000);
    b.add('[2]');
    expect(a.bytes().buffer).not.toBe(b.bytes().buffer);
    expect(a.bytes().toString()).toBe('{"a":1}');
    const held = a.bytes().buffer;
    a.release();
    const c = new JsonBytes(1000);
    c.add('x');
    expect(c.bytes().buffer).toBe(held);
    // 300,000 units of three bytes each: far past the first buffer, never cut mid-character.
    const long = '—'.repeat(300_000);
    c.add(long);
    c.add('é¢');
    expect(c.bytes().equals(Buffer.from(`x${long}é¢`))).toBe(true);
    expect(b.bytes().toString()).toBe('[2]');
    b.release();
    c.release();
  });
});
