/**
 * "Cost selected order" in the built Code.js: from the sidebar's steps and from the menu, on an
 * in-memory sheet, against the real API. Figures worked out by hand (2026 Revision 10; MPF 0.3464%,
 * HMF 0.125%, both above the minimum here and allocated to the lines by value, largest remainder).
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { AddonWorld } from './gas.js';
import { serverRequests, startAddon, type Addon } from './harness.js';
import { MIXED_ORDER_BY_VESSEL, writeDatedInvoice, writeMixedOrder } from './orders.js';
import { LINE_TOTAL_INVOICE, LINE_TOTAL_INVOICE_COSTED, UOM_INVOICE, UOM_INVOICE_COSTED, UOM_INVOICE_ITEMS } from '../addins/invoices.js';

let addon: Addon;
beforeAll(async () => {
  addon = await startAddon();
});
afterAll(async () => {
  await addon?.close();
});

interface Plan {
  lines: number;
  chunks: number;
  steps: { measure: boolean; part: number; lines: number }[];
  output: string;
  occupied: boolean;
  columns: { mapping: Record<string, number>; header: boolean };
}

/** The sidebar's sequence: plan, then its steps (measure the parts that share an entry, cost each part), totals. */
function costFromSidebar(w: AddonWorld, options: Record<string, unknown>, columns: Plan['columns'] | null = null) {
  const plan = w.call<Plan>('planSelectedOrder', options, columns);
  const bases: unknown[] = Array.from({ length: plan.chunks }, () => null);
  const parts: unknown[] = [];
  for (const step of plan.steps) {
    if (step.measure) bases[step.part] = w.call('measureOrderChunk', plan, step.part);
    else parts.push(w.call('costOrderChunk', plan, step.part, bases));
  }
  return { plan, summary: w.call<{ totals: Record<string, number>; output: string; notes: string[] }>('finishOrder', plan, parts) };
}

describe('the sidebar costs the selected order', () => {
  test('an invoice headed Tariff No., C/O, Qty, Unit Price, Line Total: costed on the Line Total (a discounted 7,700, not 100 × 78)', () => {
    const w = addon.fresh();
    w.sheet.getRange('A1:F3').setValues(LINE_TOTAL_INVOICE);
    w.select('A1:F3');
    costFromSidebar(w, {});
    // Its Description column is searched first (the codes are checked), then the order is costed.
    expect(w.requests.map((r) => r.url.replace(addon.server.url, ''))).toEqual(['/api/v1/hts/batch', '/api/v1/duty/bulk']);
    expect((w.requests[1].body as { items: unknown[] }).items[0]).toEqual({ hts: '6109.10.00', origin: 'Vietnam', qty: 100, value: 7700 });
    expect(w.sheet.values('G2:Q4')).toEqual(LINE_TOTAL_INVOICE_COSTED);
    // Both answers (1 KB or more) came compressed with brotli, the best UrlFetchApp offers; the sheet was written from the decoded text.
    expect(w.encodings).toEqual(['br', 'br']);
  });

  test('an invoice\'s UOM column: units mapped through the shared table, sent as the API names them; an unknown unit named on the line whose rate needs it', () => {
    const w = addon.fresh();
    w.sheet.getRange('A1:E5').setValues(UOM_INVOICE);
    w.select('A1:E5');
    costFromSidebar(w, {});
    expect(w.requests.map((r) => r.body)).toEqual([{ items: UOM_INVOICE_ITEMS }]);
    expect(w.sheet.values('F2:P6')).toEqual(UOM_INVOICE_COSTED);
    expect(w.sheet.getRange('F2:P5').getBackgrounds().map((r) => r[10])).toEqual([null, null, '#fff2cc', null]);
  });

  test('results beside the order, errors marked, totals below', async () => {
    const w = addon.fresh();
    writeMixedOrder(w);
    w.sheet.getRange('P4').setNote('Costed last week: OK'); // a note an earlier costing left on a Status cell
    w.select('A1:E7');
    const before = await serverRequests(addon.server, '/api/v1/duty/bulk');
    const { plan, summary } = costFromSidebar(w, { ocean: true });
    expect(plan).toMatchObject({ lines: 5, chunks: 1, output: 'Sheet1!F1:P9', occupied: false, columns: { header: true } });
    expect(await serverRequests(addon.server, '/api/v1/duty/bulk')).toBe(before + 1);
    expect(w.requests.map((r) => r.url.replace(addon.server.url, ''))).toEqual(['/api/v1/duty/bulk']);
    expect(w.requests[0].body).toEqual({
      items: [
        { hts: '6109.10.00', value: 10000, origin: 'China' },
        { hts: '9999.99.99', value: 5 },
        { hts: '8471.30.01', value: 5000 },
        { hts: '2204.21.50', value: 1000, qty: 100, unit: 'liter' },
        { hts: '0402.10.50', value: 2000 },
      ],
      ocean: true,
    });

    expect(w.sheet.values('F1:P8')).toEqual(MIXED_ORDER_BY_VESSEL);
    expect(String(w.sheet.values('F9')[0][0])).toMatch(/^Costed by landed on \d{4}-\d\d-\d\d \d\d:\d\d UTC · HTS 2026 Revision 10 · entry date .* · ocean freight \(HMF\) yes · numbers read as 1,234\.56( · MPF\/HMF figures of FY2026 used for FY2027 \(FY2027's adjustment is not yet in the table\))$/);
    // The order's notes (the fee year, the caveats) once, on the record; no note on the lines' Status cells,
    // which would repeat their Assumptions/Notes cell, and the one an earlier costing left is gone.
    expect(w.sheet.getRange('F9').getNotes()[0][0]).toMatch(/Antidumping and countervailing duties are not included\./);
    expect(w.sheet.getRange('F1:P8').getNotes().flat()).toEqual(Array(88).fill(''));
    expect(summary.totals).toMatchObject({ lines: 5, errors: 1, customs_value: 18000, duty: 1656.3, landed_cost: 19731.72, additional_duty: 2000, by_program: { s301_china: 750, s301_forced_labor: 1250 } });

    // Marks and formats.
    const bg = w.sheet.getRange('F2:P8').getBackgrounds().map((r) => r[10]);
    expect(bg).toEqual([null, '#f4cccc', null, null, null, '#fff2cc', null]);
    expect(w.sheet.getRange('F1:P1').getFontWeights()[0].every((x) => x === 'bold')).toBe(true);
    expect(w.sheet.getRange('F8:P8').getFontWeights()[0].every((x) => x === 'bold')).toBe(true);
    expect(w.sheet.getRange('F8:P8').getBorderTops()[0].every(Boolean)).toBe(true);
    expect(w.sheet.getRange('F2:P2').getNumberFormats()[0]).toEqual([...Array(7).fill('$#,##0.00'), '@', '@', '@', 'General']);
    // The order itself is untouched.
    expect(w.sheet.values('A2:B2')).toEqual([['6109.10.00', 10000]]);
  });

  test('nothing is overwritten without asking: the plan says the cells are taken, and planning writes nothing', () => {
    const w = addon.fresh();
    writeMixedOrder(w);
    w.sheet.getRange('H4').setValues([['my note']]);
    w.select('B3'); // one cell stands for the table around it, up to the blank row 6
    const plan = w.call<Plan>('planSelectedOrder', {}, null);
    expect(plan).toMatchObject({ output: 'Sheet1!F1:P7', occupied: true, lines: 4 });
    expect(w.requests).toHaveLength(0);
    expect(w.sheet.values('H4')).toEqual([['my note']]);
  });

  test('without a header row the columns are asked for, the header box unticked; with them every line is costed', () => {
    const w = addon.fresh();
    w.sheet.getRange('C5:E6').setValues([
      ['6109.10.00', 10000, 'kr'],
      ['6109.10.00', 10000, 'mfn'],
    ]);
    w.select('C5:E6');
    expect(w.call('planSelectedOrder', {}, null)).toEqual({
      needColumns: true,
      message: 'The selection has no header row naming HTS and Value columns: choose the columns under "Columns", and whether the first row is a header.',
      defaults: { mapping: {}, header: false },
      choices: [
        { value: '0', label: 'C · 6109.10.00' },
        { value: '1', label: 'D · 10000' },
        { value: '2', label: 'E · kr' },
      ],
    });
    expect(w.requests).toHaveLength(0);
    const { plan, summary } = costFromSidebar(w, {}, { mapping: { hts: 0, value: 1, origin: 2 }, header: false });
    expect(plan).toMatchObject({ lines: 2, output: 'Sheet1!F5:P8' });
    // Korea: free and MPF-exempt, note 52 12.5% total over Free (1,250, a Section 301 action) in landed; MFN: 16.5% and the whole entry's MPF (0.3464% of 10,000).
    expect(w.sheet.values('F5:L7')).toEqual([
      [0, 1250, 0, 0, 0, 0, 11250],
      [1650, 0, 0, 0, 34.64, 0, 11684.64],
      [1650, 1250, 0, 0, 34.64, 0, 22934.64],
    ]);
    expect(w.sheet.values('P7')).toEqual([['Total: 2 lines']]);
    expect(summary.totals.landed_cost).toBe(22934.64);

    w.sheet.getRange('A10:B11').setValues([
      ['Item', 'Price'],
      ['widget', 5],
    ]);
    w.select('A10:B11');
    // A header of other names: the picker starts with the box ticked, and a unit price is not offered as the value.
    expect(w.call('planSelectedOrder', {}, null)).toMatchObject({
      needColumns: true,
      message: expect.stringMatching(/^The header row \(Item, Price\) names no HTS and Value columns/),
      defaults: { mapping: {}, header: true },
    });
  });

  test('an invoice headed HTS, Origin, Qty, Price, Ext value: costed on Ext value, amounts in text read, a bad value marked', () => {
    const w = addon.fresh();
    w.sheet.getRange('A1:E4').setValues([
      ['HTS', 'Origin', 'Qty', 'Price', 'Ext value'],
      ['6109.10.00', 'China', 5000, 2.1, '$10,500.00'],
      ['8471.30.01', '', 10, 200, '2000'],
      ['6109.10.00', 'Korea', 100, 5, '12 boxes'],
    ]);
    w.select('A1:E4');
    const { summary } = costFromSidebar(w, {});
    // The value is Ext value, read from its text; the unit price is never the value; the unreadable line is not sent.
    expect(w.requests[0].body).toEqual({ items: [{ hts: '6109.10.00', origin: 'China', qty: 5000, value: 10500 }, { hts: '8471.30.01', qty: 10, value: 2000 }] });
    expect(w.sheet.values('F2:L5')).toEqual([
      // 16.5% and 7.5% of 10,500; MPF 0.3464% of the entry's 12,500 = 43.30, shared by value: 36.37 and 6.93;
      // Section 301, every action (issue 30): 787.50 and note 52 (China +12.5% of 10,500) 1,312.50.
      [1732.5, 2100, 0, 0, 36.37, 0, 14368.87],
      [0, 0, 0, 0, 6.93, 0, 2006.93],
      ['', '', '', '', '', '', ''],
      [1732.5, 2100, 0, 0, 43.3, 0, 16375.8],
    ]);
    expect(w.sheet.values('P2:P5')).toEqual([
      ['OK'],
      ['OK'],
      ['Error: Value "12 boxes" is not an amount in U.S. dollars written 1,234.56 (if it uses a decimal comma, choose 1.234,56 under Numbers)'],
      ['Total: 3 lines; 1 with errors (not in the totals)'],
    ]);
    expect(w.sheet.getRange('F4:P4').getBackgrounds()[0]).toEqual(Array(11).fill('#f4cccc'));
    expect(summary.totals).toMatchObject({ lines: 3, errors: 1, landed_cost: 16375.8 });
  });

  test('a unit price and a quantity only, with decimal commas: value = price × qty, said in the Status and the Assumptions/Notes, with no cell note repeating it', () => {
    const w = addon.fresh();
    w.sheet.getRange('A1:C3').setValues([
      ['HTS', 'Qty', 'Unit price'],
      ['6109.10.00', '5 000', '2,10'],
      ['6109.10.00', 10, 'n/a'],
    ]);
    w.select('A1:C3');
    costFromSidebar(w, { decimal: ',' });
    expect((w.requests[0].body as { items: unknown[] }).items).toEqual([{ hts: '6109.10.00', qty: 5000, value: 10500 }]);
    expect(w.sheet.values('D2:N2')).toEqual([[
      1732.5, 0, 0, 0, 36.37, 0, 12268.87, '16.5%', '', 'Value 10,500.00 = Qty 5000 × Unit price 2.1 (the order has no value column).\nNo origin country given (origin is a program, not a country): only the chapter 99 duties owed by goods of every country are included.',
      'OK (value = Qty × Unit price)',
    ]]);
    expect(w.sheet.getRange('D2:N3').getNotes().flat()).toEqual(Array(22).fill(''));
    expect(w.sheet.values('N3')[0][0]).toBe('Error: Unit price "n/a" is not an amount in U.S. dollars written 1.234,56 (if it uses a decimal point, choose 1,234.56 under Numbers)');
    expect(String(w.sheet.values('D5')[0][0])).toMatch(/numbers read as 1\.234,56 or 1 234,56 · MPF\/HMF figures of FY2026 used for FY2027 /);
  });

  test('order options apply to every line: default origin and Section 301', () => {
    const w = addon.fresh();
    w.sheet.getRange('A1:B2').setValues([
      ['HTS', 'Value'],
      ['6109.10.00', 10000],
    ]);
    w.select('A1:B2');
    costFromSidebar(w, { origin: 'china', s301: '25' });
    // 16.5% duty; Section 301: China's at 25% as asked (2,500) and note 52 China +12.5% (1,250); landed 10,000 + 1,650 + 2,500 + 1,250 + 34.64.
    expect(w.sheet.values('C2:I2')).toEqual([[1650, 3750, 0, 0, 34.64, 0, 15434.64]]);
    expect(w.requests[0].body).toMatchObject({ origin: 'china', s301: '25' });
  });
  test('Entry date and Claim columns: one request per entry date, each its own entry; programs, per-program and refundable totals', () => {
    const w = addon.fresh();
    writeDatedInvoice(w);
    w.select('A1:E4');
    const { plan, summary } = costFromSidebar(w, {});
    expect(plan).toMatchObject({ lines: 3, chunks: 2, output: 'Sheet1!F1:P6' });
    // The API takes one date per request: the lines without a date (and the unreadable one, not sent), then 2025-10-01.
    expect(w.requests.map((r) => r.body)).toEqual([
      { items: [{ hts: '7208.10.15', origin: 'VN', value: 12000, claim: 'none' }] },
      { items: [{ hts: '6109.10.00', origin: 'VN', value: 10000 }], date: '2025-10-01' },
    ]);
    expect(w.sheet.values('F2:N5')).toEqual([
      // Today (2026): steel of Annex I-A, Section 232 +50% of 12,000 = 6,000 (no reciprocal or note 52 on 232 metals);
      // MPF 0.3464% of 12,000 = 41.568 → 41.57; landed 12,000 + 6,000 + 41.57.
      [0, 0, 6000, 0, 41.57, 0, 18041.57, 'Free', 's232_metals 9903.82.02; s301_forced_labor 9903.05.90'],
      // 2025-10-01: 16.5% = 1,650; IEEPA reciprocal, Vietnam 20% (9903.02.69) = 2,000; MPF 0.3464% of 10,000 = 34.64,
      // its own entry; landed 10,000 + 1,650 + 2,000 + 34.64.
      [1650, 0, 0, 2000, 34.64, 0, 13684.64, '16.5%', 'ieepa_reciprocal 9903.02.69'],
      ['', '', '', '', '', '', '', '', ''],
      // 1,650; 6,000; 2,000; 41.57 + 34.64 = 76.21; landed 18,041.57 + 13,684.64 = 31,726.21.
      [1650, 0, 6000, 2000, 76.21, 0, 31726.21, '', 's232_metals $6,000.00; ieepa_reciprocal $2,000.00'],
    ]);
    expect(w.sheet.values('O5:P5')).toEqual([
      ['Refundable (IEEPA, past entry dates): $2,000.00', 'Total: 3 lines; 1 with errors (not in the totals); costed as 2 entries, one per entry date (MPF minimum and maximum apply to each)'],
    ]);
    expect(w.sheet.values('P4')[0][0]).toBe('Error: Entry date "next week" is not a date this add-in reads: write it YYYY-MM-DD (2026-11-30) or as a date cell');
    expect(w.sheet.values('O3')[0][0]).toMatch(/IEEPA duties \(entries 2025-02-04 to 2026-02-23\) were held unlawful/);
    expect(String(w.sheet.values('F6')[0][0])).toMatch(/ · entry dates 2025-10-01 \(per line; lines without one: entry date \d{4}-\d\d-\d\d \(the day of costing\)\) · /);
    expect(summary.totals).toMatchObject({ lines: 3, errors: 1, section_232: 6000, additional_duty: 8000, refundable: 2000, by_program: { s232_metals: 6000, ieepa_reciprocal: 2000 } });
  });
});

describe('a 1,000-line order, part by part', () => {
  test('four parts of 250 lines: each measured, then each costed and written in its own step; MPF once, to the cent', () => {
    const w = addon.fresh();
    w.sheet.getRange('A1:B1001').setValues([['HTS', 'Value'], ...Array.from({ length: 1000 }, (_, i) => ['6109.10.00', 100 + i])]);
    w.select('A1:B1001');
    const plan = w.call<Plan>('planSelectedOrder', {}, null);
    expect(plan).toMatchObject({ lines: 1000, chunks: 4 });
    expect(plan.steps.map((s) => [s.measure, s.part, s.lines])).toEqual([
      [true, 0, 250], [true, 1, 250], [true, 2, 250], [true, 3, 250],
      [false, 0, 250], [false, 1, 250], [false, 2, 250], [false, 3, 250],
    ]);
    const bases: unknown[] = [null, null, null, null];
    for (const part of [0, 1, 2, 3]) bases[part] = w.call('measureOrderChunk', plan, part);
    expect(w.sheet.values('C2:M1001').flat().filter((v) => v !== '')).toEqual([]); // measuring writes nothing
    // Each costing step writes its own 250 lines, and only those.
    w.call('costOrderChunk', plan, 0, bases);
    expect(w.sheet.values('C251:C252')).toEqual([[57.59], ['']]); // line 250: 16.5% of 349 = 57.585, half up
    for (const part of [1, 2, 3]) w.call('costOrderChunk', plan, part, bases);
    expect(w.requests.map((r) => [(r.body as { items: unknown[] }).items.length, (r.body as { entry?: { mpf_basis_before: number } }).entry?.mpf_basis_before ?? null])).toEqual([
      [250, null], [250, null], [250, null], [250, null],
      // The entry's liable value is 100 + … + 1,099 = 599,500; the parts before each: 100 + … + 349 = 56,125, 100 + … + 599, 100 + … + 849.
      [250, 0], [250, 56125], [250, 174750], [250, 355875],
    ]);
    // MPF of the one entry: 0.3464% of 599,500 = 2,076.67, above the FY2026 maximum: 651.50, the lines adding up to it.
    expect(w.sheet.values('G2:G1001').reduce((n, [c]) => n + Math.round(Number(c) * 100), 0)).toBe(65150);
  });
});

describe('the menu', () => {
  test('onOpen adds "Open sidebar" and "Cost selected order"; the sidebar opens', () => {
    const w = addon.fresh();
    w.call('onOpen', { authMode: 'LIMITED' });
    // Its own menu titled landed, whatever the Apps Script project is called.
    expect(w.menus).toEqual([{ name: 'landed', items: [['Open sidebar', 'showSidebar'], ['Cost selected order', 'costSelectedOrder']] }]);
    expect(w.globals()).toEqual(expect.arrayContaining(['showSidebar', 'costSelectedOrder']));
    w.call('showSidebar');
    expect(w.sidebar?.title).toBe('landed');
    expect(w.sidebar?.content).toContain('Cost selected order');
  });

  test('"Cost selected order" asks before overwriting, and costs a 5,000-line order as one entry: 5 requests measured, 5 costed, MPF once', () => {
    const w = addon.fresh();
    // 5,000 lines of 6109.10.00 at 100 dollars, MFN: 16.50 duty each.
    w.sheet.getRange('A1:B5001').setValues([['HTS code', 'Customs value'], ...Array.from({ length: 5000 }, () => ['6109.10.00', 100])]);
    w.sheet.getRange('D1').setValues([['keep me']]);
    w.select('A1:B5001');

    w.alertAnswers.push('NO');
    w.call('costSelectedOrder');
    expect(w.alerts[0][1]).toBe('The cells Sheet1!C1:M5003 are not empty. Overwrite them with the costing?');
    expect(w.requests).toHaveLength(0);
    expect(w.sheet.values('D1')).toEqual([['keep me']]);

    w.alertAnswers.push('YES');
    w.call('costSelectedOrder');
    const bodies = w.requests.map((r) => r.body as { items: unknown[]; entry?: Record<string, number> });
    expect(bodies.map((b) => b.items.length)).toEqual(Array(10).fill(1000));
    // Pass 1 without entry; pass 2 with the entry's 500,000 liable dollars and those of the parts before.
    expect(bodies.slice(0, 5).map((b) => b.entry)).toEqual(Array(5).fill(undefined));
    expect(bodies.slice(5).map((b) => b.entry)).toEqual([0, 1, 2, 3, 4].map((k) => ({ mpf_basis: 500000, hmf_basis: 0, mpf_basis_before: k * 100000, hmf_basis_before: 0 })));
    // The sidebar's progress text, in lines over both passes, before each request.
    expect(w.toasts.slice(0, 10)).toEqual(Array.from({ length: 10 }, (_, i) => `Costing 5,000 lines (twice: the fees are of one entry): ${(i * 1000).toLocaleString('en-US')} of 10,000 done…`));
    expect(w.sheet.values('C1:I2')).toEqual([
      ['Duty', 'Section 301', 'Section 232', 'Other additional duties', 'MPF', 'HMF', 'Landed cost'],
      // MPF of the entry: 0.3464% of 500,000 = 1,732.00, above the maximum 651.50 (FY2026), paid once; line 1's
      // share by cumulative rounding is 651.50 × 1/5,000 = 0.1303 → 0.13.
      [16.5, 0, 0, 0, 0.13, 0, 116.63],
    ]);
    // The lines' MPF add up to the entry's 651.50 to the cent.
    expect(w.sheet.values('G2:G5001').reduce((n, [c]) => n + Math.round(Number(c) * 100), 0)).toBe(65150);
    // Duty 5,000 × 16.50 = 82,500; landed 500,000 + 82,500 + 651.50.
    expect(w.sheet.values('C5002:I5002')).toEqual([[82500, 0, 0, 0, 651.5, 0, 583151.5]]);
    expect(w.sheet.values('M5002')).toEqual([['Total: 5,000 lines']]);
    // The last toast in the pane's words, its numbers formatted (it said "5000 lines costed: landed cost 583151.50").
    expect(w.toasts.at(-1)).toBe('Costed 5,000 lines into Sheet1!C1:M5003. Schedule 2026 Revision 10. Landed cost $583,151.50.');
  });

  test('the menu shows a problem as an alert', () => {
    const w = addon.fresh();
    w.select('A1');
    w.alertAnswers.push('OK');
    w.call('costSelectedOrder');
    expect(w.alerts[0][1]).toMatch(/^Select the order first/);
  });
});

describe('a Description column: suggested codes and "check the code" (issue 31 point 5)', () => {
  const T_SHIRTS = "men's cotton t-shirts";
  const CHECK_LAPTOP =
    'Check the code: its description reads "Automatic data processing machines and units thereof; magnetic or optical readers, machines for transcribing data onto data media in coded form and machines for processing such data, not elsewhere specified or included › Portable automatic data processing machines, weighing not more than 10 kg, consisting of at least a central processing unit, a keyboard and a display", and heading 8471 is not among the first 20 answers for "men\'s cotton t-shirts".';
  const writeDescribed = (w: AddonWorld) => {
    w.sheet.getRange('A1:C4').setValues([
      ['HTS', 'Description', 'Value'],
      ['', T_SHIRTS, 1000],
      ['6109.10.00', T_SHIRTS, 1000],
      ['8471.30.01', T_SHIRTS, 1000],
    ]);
    w.select('A1:C4');
  };

  test('a line without a code: three suggested codes in its notes, left uncosted; a code whose heading is not among the first 20 answers: "check the code"; one search request', () => {
    const w = addon.fresh();
    writeDescribed(w);
    costFromSidebar(w, {});
    expect(w.requests.map((r) => r.url.replace(addon.server.url, ''))).toEqual(['/api/v1/hts/batch', '/api/v1/duty/bulk']);
    expect(w.requests[0].body).toEqual({ queries: [T_SHIRTS, '61091000', '84713001'], limit: 20 });
    // Results from D: Duty (D) ... Landed cost (J), Rate (K), Program(s) (L), Assumptions/Notes (M), Status (N).
    const [noCode, fits, questioned] = w.sheet.values('D2:N4');
    expect(noCode.slice(0, 7)).toEqual(['', '', '', '', '', '', '']);
    expect(noCode[10]).toBe('Error: hts is blank: give a tariff code such as 6109.10.00');
    expect(noCode[9]).toMatch(/^Suggested codes: 6109\.10\.00\.12 \(T-shirts, singlets, tank tops and similar garments, knitted or crocheted › Men's \(338\)\); 6211\.11\.80\.10 \(.*\); 6205\.20\.20\.16 \(.*\)\. From a search of the description; the line is not costed until a code is chosen\.$/);
    // 16.5% of 1,000.
    expect([fits[0], fits[10]]).toEqual([165, 'OK']);
    expect(String(fits[9])).not.toMatch(/Check the code|Suggested/);
    expect([questioned[0], questioned[10]]).toEqual([0, 'OK']);
    expect(String(questioned[9]).split('\n')[0]).toBe(CHECK_LAPTOP);
  });

  test('Check codes off: only the line without a code is searched, no code is questioned; the setting is kept for the menu', () => {
    const w = addon.fresh();
    writeDescribed(w);
    costFromSidebar(w, { checkCodes: false });
    expect(w.requests[0].body).toEqual({ queries: [T_SHIRTS], limit: 20 });
    expect(String(w.sheet.values('M2')[0][0])).toMatch(/^Suggested codes: 6109\.10\.00\.12 /);
    expect(String(w.sheet.values('M4')[0][0])).not.toMatch(/Check the code/);
    // The menu's "Cost selected order" uses the options saved by the sidebar: the description's answer is
    // cached, and no request asks for the codes (with Check codes on, 61091000 and 84713001 would be searched).
    const before = w.requests.length;
    w.alertAnswers.push('YES'); // overwrite the first costing
    w.call('costSelectedOrder');
    expect(w.requests.slice(before).map((r) => r.url.replace(addon.server.url, ''))).toEqual(['/api/v1/duty/bulk']);
    expect(String(w.sheet.values('M4')[0][0])).not.toMatch(/Check the code/);
  });

  test('a 1,000-line order of galvanized steel coil under 7210.49: its description searched once for the four parts, and the code not questioned (issue 41)', () => {
    const w = addon.fresh();
    const coil = 'Galvanized steel coil 0.5 mm';
    // 7210.49.00.91: flat-rolled, width 600 mm or more, "Otherwise plated or coated with zinc", 0.4 mm thick or more:
    // galvanized is plated or coated with zinc (data/search/synonyms.csv), so heading 7210 is among the first 20 answers.
    w.sheet.getRange('A1:C1001').setValues([['HTS', 'Description', 'Value'], ...Array.from({ length: 1000 }, (_, i) => ['7210.49.00.91', coil, 1000 + i])]);
    w.select('A1:C1001');
    const plan = w.call<Plan>('planSelectedOrder', {}, null);
    expect(plan).toMatchObject({ lines: 1000, chunks: 4 });
    const bases: unknown[] = [null, null, null, null];
    for (const part of [0, 1, 2, 3]) bases[part] = w.call('measureOrderChunk', plan, part);
    for (const part of [0, 1, 2, 3]) w.call('costOrderChunk', plan, part, bases);
    const searches = w.requests.filter((r) => r.url.endsWith('/api/v1/hts/batch'));
    expect(searches.map((r) => r.body)).toEqual([{ queries: [coil, '7210490091'], limit: 20 }]);
    expect(w.requests.filter((r) => r.url.endsWith('/api/v1/duty/bulk'))).toHaveLength(8);
    const notes = w.sheet.values('M2:M1001').flat().map(String);
    expect(notes.filter((n) => /Check the code|Suggested codes/.test(n))).toEqual([]);
  });

  test('a 6-digit supplier code: costed when its U.S. lines share their rates, the line saying so; else an error listing them', () => {
    const w = addon.fresh();
    w.sheet.getRange('A1:B3').setValues([
      ['HTS', 'Value'],
      ['621133', 1000],
      ['610990', 1000],
    ]);
    w.select('A1:B3');
    costFromSidebar(w, {});
    const [shared, differing] = w.sheet.values('C2:M3');
    // 6211.33.50 and 6211.33.90 are both 16%: 160 on 1,000.
    expect([shared[0], shared[7], shared[10]]).toEqual([160, '16%', 'OK']);
    expect(String(shared[9]).split('\n')[0]).toBe('Supplier code 6211.33: 6211.33 is an HS subheading; costed on 6211.33.50, since every U.S. line of HS 6211.33 carries the same rates and chapter 99 citations.');
    expect(differing[10]).toBe('Error: hts 6109.90 is a subheading; duty needs an 8- or 10-digit tariff line. 4 8-digit lines lie under it: 6109.90.10 (32%), 6109.90.15 (5.6%), 6109.90.40 (2.6%), 6109.90.80 (16%).');
  });
});
