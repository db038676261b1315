/**
 * A product list (shared/measures/measure.ts) reads its table only when a line reaches a prefix it
 * names: when the table's reader knows its codes (the prebuilt index does), a line on no prefix of it
 * never reads the rows. On the real Section 232 metals annex.
 */
import { describe, expect, it } from 'vitest';
import { readChapter99 } from '../../server/data/ch99.js';
import { listCode, ProductList, type Table } from '../../shared/measures/measure.js';
import type { TariffLine } from '../../shared/schedule.js';

const annex = readChapter99().metalsAnnex;
const line = (digits: string) => ({ digits }) as TariffLine;

/** The annex as a reader that counts the reads of its rows, with or without its codes. */
function counted(withCodes: boolean) {
  const reads = { rows: 0 };
  const codes = new Set(annex.map((r) => listCode(r.hts_prefix)));
  const source = {
    rows: (): Table => (reads.rows++, annex),
    codes: withCodes ? (column: string) => (column === 'hts_prefix' ? codes : undefined) : undefined,
  };
  return { reads, list: new ProductList(source, 'hts_prefix', (r) => ({ tier: r.annex_tier, from: r.valid_from, to: r.valid_to })) };
}

describe('a product list and the codes of its table', () => {
  it('a line on no prefix of the list: rows never read with the codes, read without them; the same answer', () => {
    const known = counted(true);
    const unknown = counted(false);
    // 6109.10.00.12 (cotton T-shirts): not a metal article.
    expect(known.list.find(line('6109100012'), '2026-11-21')).toEqual([]);
    expect(unknown.list.find(line('6109100012'), '2026-11-21')).toEqual([]);
    expect([known.reads.rows, unknown.reads.rows]).toEqual([0, 1]);
  });

  it('a line on the list: rows read once, the same entries either way', () => {
    const known = counted(true);
    const unknown = counted(false);
    const first = annex[0];
    const digits = listCode(first.hts_prefix).padEnd(10, '0');
    const found = known.list.find(line(digits), '2026-11-21');
    expect(found.length).toBeGreaterThan(0);
    expect(found).toEqual(unknown.list.find(line(digits), '2026-11-21'));
    known.list.find(line(digits.slice(0, 8) + '99'), '2026-11-21');
    expect(known.reads.rows).toBe(1);
  });
});
