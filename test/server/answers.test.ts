/**
 * Large answers (server/serialize.ts, server/http/kept-buffers.ts): an order's and a batch's
 * answer are written a line at a time into kept buffers, byte for byte what JSON.stringify writes.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { KeptBytes } from '../../server/http/kept-buffers.js';
import { batchJson, orderJson } from '../../server/serialize.js';
import { linePools, mixedItems } from '../../bench/lib/lines.js';
import { realTariff } from '../helpers/tariff.js';
import { dutyResultJsonPath, dutyResultJsonSource } from '../../scripts/serializers.js';
import { dutyJson } from '../../server/serialize.js';

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

describe("GET /duty's serializer, compiled ahead of time", () => {
  it('is what fast-json-stringify compiles from the published DutyResult schema now (else: npm run generate)', () => {
    expect(readFileSync(dutyResultJsonPath, 'utf8')).toBe(dutyResultJsonSource());
  });
  it('writes what JSON.stringify writes of a result, field for field', () => {
    for (const q of mixedItems(pools, 200, 7)) {
      const r = t.duty({ ...q, date: '2026-11-21' });
      expect(JSON.parse(dutyJson(r))).toEqual(JSON.parse(JSON.stringify(r)));
    }
  });
});

describe('kept buffers', () => {
  it('are reused once released, never shared while held, and grow for text longer than they are', () => {
    const a = new KeptBytes(1000);
    a.add('{"a":1}');
    const b = new KeptBytes(1000);
    b.add('[2]');
    expect(a.bytes().buffer).not.toBe(b.bytes().buffer);
    expect(a.bytes().toString()).toBe('{"a":1}');
    const held = a.bytes().buffer;
    a.release();
    const c = new KeptBytes(1000);
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
