/**
 * How both add-ins read an order from cells (spreadsheet/order-sheet.ts): which column is the customs
 * value, amounts written as text, value = unit price × quantity, and what is an error on its line;
 * the parts and steps it is sent in (spreadsheet/order-requests.ts); and a line's output beside it.
 */
import { describe, expect, it } from 'vitest';
import { ColumnsNeeded, headerMapping, looksLikeHeader, NOTES_COLUMN, readAmount, readDate, readSheetOrder, STATUS_COLUMN } from '../../spreadsheet/order-sheet.js';
import { costingSteps, entryShares, needsBasis, orderRequests, partCount, progressAt } from '../../spreadsheet/order-requests.js';
import { lineOutput } from '../../spreadsheet/order-output.js';
import { sharedTariff } from '../helpers/server.js';

describe('headerMapping', () => {
  it('finds the columns by the names people give them', () => {
    expect(headerMapping(['Item', 'HTS code', 'Customs value', 'Country of origin', 'Qty', 'UOM'])).toEqual({ hts: 1, value: 2, origin: 3, qty: 4, unit: 5 });
    expect(headerMapping(['hts', 'notes'])).toBeNull(); // no value column
  });

  it('takes Ext value as the value on an invoice, never the unit Price', () => {
    expect(headerMapping(['HTS', 'Origin', 'Qty', 'Price', 'Ext value'])).toEqual({ hts: 0, origin: 1, qty: 2, price: 3, value: 4 });
    for (const name of ['Extended value', 'Line value', 'Total value', 'Amount', 'Ext. Amount', 'Customs Value (USD)'])
      expect(headerMapping(['HTS', name])?.value, name).toBe(1);
    for (const name of ['Price', 'Unit price', 'Cost', 'Unit cost']) expect(headerMapping(['HTS', name]), name).toBeNull();
  });

  it('accepts a unit price with a quantity, to multiply them', () => {
    expect(headerMapping(['HTS', 'Qty', 'Unit price'])).toEqual({ hts: 0, qty: 1, price: 2 });
    expect(headerMapping(['HTS', 'Unit price'])).toBeNull();
  });

  it('tells a header of unknown names from a first order line', () => {
    expect(looksLikeHeader(['Item', 'Price'])).toBe(true);
    expect(looksLikeHeader(['6109.10.00', 10000, 'china'])).toBe(false);
    expect(looksLikeHeader(['6109.10.00', '$1,200.00'])).toBe(false);
  });
});

describe('readAmount', () => {
  const ok = (cell: unknown, mark: '.' | ',') => {
    const r = readAmount(cell, mark, 'Value');
    return typeof r === 'string' ? r : r[0] / 10 ** r[1];
  };
  it.each([
    [1200, '.', 1200],
    ['1200', '.', 1200],
    ['$1,200.00', '.', 1200],
    ['USD 1,200.50', '.', 1200.5],
    ['1 200,00', ',', 1200],
    ['1.234.567,89', ',', 1234567.89],
    ['1\u00a0200,5', ',', 1200.5],
    ['0.125', '.', 0.125],
  ] as const)('reads %j with decimal mark %s as %d', (cell, mark, expected) => {
    expect(ok(cell, mark)).toBe(expected);
  });

  it.each([
    ['1 200,00', '.', /not an amount in U.S. dollars written 1,234.56 \(if it uses a decimal comma, choose 1.234,56 under Numbers\)/],
    ['1,20', '.', /not an amount/],
    ['12 boxes', '.', /"12 boxes" is not an amount/],
    ['€1.200,00', ',', /not an amount in U.S. dollars/],
    ['1,200 300', '.', /not an amount/],
    [-5, '.', /not an amount of 0 or more/],
    [true, '.', /true, not an amount/],
    ['', '.', /not an amount/],
  ] as const)('refuses %j (mark %s)', (cell, mark, message) => {
    expect(ok(cell, mark)).toMatch(message);
  });
});

describe('readSheetOrder', () => {
  it('reads the lines under the header, skips blank rows, keeps each line\'s row, and marks unreadable values', () => {
    const order = readSheetOrder([
      ['HTS', 'Value', 'Origin'],
      ['6109.10.00', '$10,000.00', 'china'],
      ['', '', ''],
      [' 8471.30.01 ', '12 boxes', ''],
      [8471.3, 500, 'kr'],
    ], null);
    expect(order.header).toBe(true);
    expect(order.lines).toEqual([
      { row: 1, item: { hts: '6109.10.00', value: 10000, origin: 'china' }, notes: [] },
      { row: 3, item: null, error: expect.stringMatching(/^Value "12 boxes" is not an amount/), notes: [] },
      // A code Excel or Sheets turned into a number keeps its two decimals.
      { row: 4, item: { hts: '8471.30', value: 500, origin: 'kr' }, notes: [] },
    ]);
  });

  it('computes value = qty × unit price exactly, and says so', () => {
    const order = readSheetOrder([['HTS', 'Qty', 'Unit price'], ['6109.10.00', 5000, 2.1], ['6109.10.00', '3', '0.335'], ['6109.10.00', '', 4]], null);
    expect(order.lines[0].item).toEqual({ hts: '6109.10.00', qty: 5000, value: 10500 });
    expect(order.lines[0].notes).toEqual(['Value 10,500.00 = Qty 5000 × Unit price 2.1 (the order has no value column).']);
    expect(order.lines[1].item?.value).toBe(1.01); // 1.005, rounded half away from zero
    expect(order.lines[2].error).toMatch(/lacks one of them/);
  });

  it('without a header asks for the columns; the choice says whether the first row is a header', () => {
    const values = [[10000, '6109.10.00'], [500, '8471.30.01']];
    let asked: unknown;
    try {
      readSheetOrder(values, null);
    } catch (e) {
      asked = e;
    }
    expect(asked).toBeInstanceOf(ColumnsNeeded);
    expect((asked as ColumnsNeeded).defaults).toEqual({ mapping: {}, header: false });
    expect(readSheetOrder(values, { mapping: { hts: 1, value: 0 }, header: false }).lines.map((l) => l.item)).toEqual([
      { hts: '6109.10.00', value: 10000 },
      { hts: '8471.30.01', value: 500 },
    ]);
  });
});

describe('the optional columns and the requests an order is sent in', () => {
  const order = readSheetOrder(
    [
      ['HTS', 'Value', 'Entry date', 'Claim', 'Steel content', 'Part for', 'Patented'],
      ['7208.10.15', 1000, '', 'none', '$600.00', '', ''],
      ['8708.99.81', 2000, '2025-10-01', '', '', 'passenger', 'yes'],
      ['6109.10.00', 3000, 'soon', '', '', '', ''],
      ['6109.10.00', 4000, '', '', '', '', true],
    ],
    null,
  );

  it('reads each line\'s claim, facts and entry date by header; an unreadable date is an error on its line', () => {
    expect(order.lines.map((l) => [l.item, l.date, l.error])).toEqual([
      [{ hts: '7208.10.15', value: 1000, claim: 'none', steel_content: 600 }, undefined, undefined],
      [{ hts: '8708.99.81', value: 2000, part_for: 'passenger', patented: 1 }, '2025-10-01', undefined],
      [null, undefined, 'Entry date "soon" is not a date this add-in reads: write it YYYY-MM-DD (2026-11-30) or as a date cell'],
      [{ hts: '6109.10.00', value: 4000, patented: 1 }, undefined, undefined],
    ]);
  });

  it('reads a date typed, as a date cell or as an Excel serial', () => {
    expect(['2026-03-01', new Date(2026, 2, 1), 46082].map(readDate)).toEqual(['2026-03-01', '2026-03-01', '2026-03-01']);
    expect(['1.3.2026', 1.5].map(readDate)).toEqual([null, null]);
  });

  it('one request per entry date while it has fewer than 500 lines, the unreadable ones written with their date\'s', () => {
    const requests = orderRequests(order.lines);
    // The lines without a date (the unreadable one among them, not sent), then 2025-10-01.
    expect(requests.map((r) => [r.date, r.lines.map((l) => l.row)])).toEqual([[undefined, [1, 3, 4]], ['2025-10-01', [2]]]);
    expect(needsBasis(requests)).toEqual([false, false]);
    expect(costingSteps(requests)).toEqual([{ measure: false, part: 0, lines: 2 }, { measure: false, part: 1, lines: 1 }]);
  });
});

describe('the parts an order is costed in', () => {
  it('one part per 250 lines up to four, more only past 4,000 lines: none under 250 lines or over 1,000', () => {
    const sizes = [1, 499, 500, 999, 1000, 2500, 4000, 4001, 5000, 10000];
    expect(sizes.map(partCount)).toEqual([1, 1, 2, 3, 4, 4, 4, 5, 5, 10]);
    // The smallest and the largest part of each entry of several parts.
    expect(sizes.slice(2).map((n) => [Math.floor(n / partCount(n)), Math.ceil(n / partCount(n))])).toEqual([
      [250, 250], [333, 333], [250, 250], [625, 625], [1000, 1000], [800, 801], [1000, 1000], [1000, 1000],
    ]);
  });

  /** An order of `n` lines of HTS and value, line i on row i + 1 and dated `date(i)` when that gives one. */
  const lines = (n: number, date: (i: number) => string | undefined = () => undefined) =>
    readSheetOrder([['HTS', 'Value', 'Entry date'], ...Array.from({ length: n }, (_, i) => [i === 7 ? 'bad' : '6109.10.00', i === 7 ? '12 boxes' : 100, date(i) ?? ''])], null).lines;

  it('a 1,000-line order in four parts of 250, each measured first, then costed: the progress moves by 250 lines', () => {
    const requests = orderRequests(lines(1000));
    expect(requests.map((r) => [r.lines[0].row, r.lines.length])).toEqual([[1, 250], [251, 250], [501, 250], [751, 250]]);
    const steps = costingSteps(requests);
    // The first part holds the unreadable line: 249 lines sent.
    expect(steps.map((s) => [s.measure, s.part, s.lines])).toEqual([
      [true, 0, 249], [true, 1, 250], [true, 2, 250], [true, 3, 250],
      [false, 0, 249], [false, 1, 250], [false, 2, 250], [false, 3, 250],
    ]);
    expect(steps.map((_, i) => progressAt(steps, i).done)).toEqual([0, 249, 499, 749, 999, 1248, 1498, 1748]);
    expect(progressAt(steps, steps.length)).toEqual({ lines: 999, done: 1998, total: 1998 });
  });

  it('parts of nearly equal size, split per entry date; each date that takes several parts is measured and shares its entry', () => {
    // 1,100 lines: every seventh dated 2025-10-01 (157 lines, one part), the other 943 in three parts of 314 or 315.
    const requests = orderRequests(lines(1100, (i) => (i % 7 === 6 ? '2025-10-01' : undefined)));
    expect(requests.map((r) => [r.date, r.lines.length])).toEqual([[undefined, 314], [undefined, 314], [undefined, 315], ['2025-10-01', 157]]);
    expect(requests.flatMap((r) => r.lines.map((l) => l.row)).sort((a, b) => a - b)).toEqual(Array.from({ length: 1100 }, (_, i) => i + 1));
    expect(needsBasis(requests)).toEqual([true, true, true, false]);
    const bases = [1000.1, 2000.2, 3000.3].map((mpf_basis) => ({ mpf_basis, hmf_basis: 0 }));
    expect(entryShares(requests, [...bases, null])).toEqual([
      { mpf_basis: 6000.6, hmf_basis: 0, mpf_basis_before: 0, hmf_basis_before: 0 },
      { mpf_basis: 6000.6, hmf_basis: 0, mpf_basis_before: 1000.1, hmf_basis_before: 0 },
      { mpf_basis: 6000.6, hmf_basis: 0, mpf_basis_before: 3000.3, hmf_basis_before: 0 },
      undefined,
    ]);
  });

  it('5,000 lines in five parts of 1,000: ten requests with the first pass, as few as the API\'s limit allows', () => {
    const steps = costingSteps(orderRequests(lines(5000)));
    expect(steps).toHaveLength(10);
    expect(steps.filter((s) => s.measure)).toHaveLength(5);
    expect(steps.map((s) => s.lines)).toEqual([999, 1000, 1000, 1000, 1000, 999, 1000, 1000, 1000, 1000]);
  });
});

describe('a line\'s output (spreadsheet/order-output.ts)', () => {
  // The real engine costs the order the sheet holds: value = Qty × Unit price on both lines, the second's code unknown.
  const order = readSheetOrder([['HTS', 'Qty', 'Unit price'], ['6109.10.00', 4, '2.50'], ['9999.99.99', 2, 3]], null);
  const costed = sharedTariff().order({ items: order.lines.map((l) => l.item!) });
  const [ok, refused] = order.lines.map((l, i) => lineOutput(l, costed.lines[i], costed.notes));

  it('carries no cell note: what the add-in did and the line\'s notes are in its Assumptions/Notes cell', () => {
    expect(ok).not.toHaveProperty('note');
    expect(ok.cells[NOTES_COLUMN]).toMatch(/^Value 10\.00 = Qty 4 × Unit price 2\.5 \(the order has no value column\)\.\nNo origin country given/);
    expect(ok.cells[STATUS_COLUMN]).toBe('OK (value = Qty × Unit price)');
  });

  it('Status names the content columns an upper bound stands in for, and a statistical suffix that decides a heading (issue 28)', () => {
    // A steel-frame seat of China entered 2025-09-15 (N353020's kind of goods), a Steel content column blank on the first line.
    const sheet = readSheetOrder([['HTS', 'Value', 'Origin', 'Steel content'], ['9401.79.0015', 10000, 'CN', ''], ['9401.79.0015', 10000, 'CN', 4000], ['6307.90.9899', 1000, 'CN', '']], null);
    const answer = sharedTariff().order({ items: sheet.lines.map((l) => l.item!), date: '2025-09-15' });
    const status = sheet.lines.map((l, i) => lineOutput(l, answer.lines[i], answer.notes).cells[STATUS_COLUMN]);
    expect(status).toEqual([
      'OK (upper bound: give Steel content, Aluminum content)',
      'OK (upper bound: give Aluminum content)',
      // 6307.90.98.99 is no line: costed at 6307.90.98. Issue 38: on 2025-09-15 (2025 Revision 22) none of its ten-digit
      // lines cites a Section 301 list of its own (the footnote is the 8-digit line's), so the suffix decides nothing.
      'OK',
    ]);
    // From 2026's basic edition its ten-digit lines .42-.75 cite 9903.91.07 and the others do not: the suffix decides.
    const later = sharedTariff().order({ items: [sheet.lines[2].item!], date: '2026-06-10' });
    expect(lineOutput(sheet.lines[2], later.lines[0], later.notes).cells[STATUS_COLUMN]).toBe('OK (give the full ten-digit code)');
  });

  it('a line the API refused keeps what the add-in did beside its error', () => {
    expect(refused).toEqual({
      kind: 'error',
      cells: ['', '', '', '', '', '', '', '', '', 'Value 6.00 = Qty 2 × Unit price 3 (the order has no value column).', 'Error: hts 9999.99.99 is not in the schedule (2026 Revision 10)'],
    });
  });
});
