/**
 * "Cost selected order" in the built Code.js: from the sidebar's steps and from the menu, on an
 * in-memory sheet, against the real API. Figures worked out by hand (2026 Revision 10; MPF 0.3464%,
 * HMF 0.125%, both above the minimum here and allocated to the lines by value, largest remainder).
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { AddonWorld } from './gas.js';
import { serverRequests, startAddon, type Addon } from './harness.js';
import { MIXED_ORDER_BY_VESSEL, writeMixedOrder } from './orders.js';

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
  output: string;
  occupied: boolean;
  header: boolean;
}

/** The sidebar's sequence: plan, each chunk, totals. */
function costFromSidebar(w: AddonWorld, options: Record<string, unknown>) {
  const plan = w.call<Plan>('planSelectedOrder', options);
  const parts = Array.from({ length: plan.chunks }, (_, i) => w.call('costOrderChunk', plan, i));
  return { plan, summary: w.call<{ totals: Record<string, number>; output: string; notes: string[] }>('finishOrder', plan, parts) };
}

describe('the sidebar costs the selected order', () => {
  test('results beside the order, errors marked, totals below', async () => {
    const w = addon.fresh();
    writeMixedOrder(w);
    w.select('A1:E7');
    const before = await serverRequests(addon.server, '/api/v1/duty/bulk');
    const { plan, summary } = costFromSidebar(w, { ocean: true });
    expect(plan).toMatchObject({ lines: 5, chunks: 1, output: 'Sheet1!F1:L8', occupied: false, header: true });
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

    expect(w.sheet.values('F1:L8')).toEqual(MIXED_ORDER_BY_VESSEL);
    expect(summary.totals).toMatchObject({ lines: 5, errors: 1, customs_value: 18000, duty: 1656.3, landed_cost: 21741.15, additional_duty: 2000, by_program: { s301_china: 750, s301_forced_labor: 1250 } });

    // Marks and formats.
    const bg = w.sheet.getRange('F2:L8').getBackgrounds().map((r) => r[6]);
    expect(bg).toEqual([null, '#f4cccc', null, null, null, '#fff2cc', null]);
    expect(w.sheet.getRange('F1:L1').getFontWeights()[0].every((x) => x === 'bold')).toBe(true);
    expect(w.sheet.getRange('F8:L8').getFontWeights()[0].every((x) => x === 'bold')).toBe(true);
    expect(w.sheet.getRange('F8:L8').getBorderTops()[0].every(Boolean)).toBe(true);
    expect(w.sheet.getRange('F2:L2').getNumberFormats()[0]).toEqual(['$#,##0.00', '$#,##0.00', '$#,##0.00', '$#,##0.00', '$#,##0.00', '@', 'General']);
    // The order itself is untouched.
    expect(w.sheet.values('A2:B2')).toEqual([['6109.10.00', 10000]]);
  });

  test('nothing is overwritten without asking: the plan says the cells are taken, and planning writes nothing', () => {
    const w = addon.fresh();
    writeMixedOrder(w);
    w.sheet.getRange('H4').setValues([['my note']]);
    w.select('B3'); // one cell stands for the table around it, up to the blank row 6
    const plan = w.call<Plan>('planSelectedOrder', {});
    expect(plan).toMatchObject({ output: 'Sheet1!F1:L6', occupied: true, lines: 4 });
    expect(w.requests).toHaveLength(0);
    expect(w.sheet.values('H4')).toEqual([['my note']]);
  });

  test('without a header row the columns are HTS, Value, Origin; an unrecognised header is refused', () => {
    const w = addon.fresh();
    w.sheet.getRange('C5:E6').setValues([
      ['6109.10.00', 10000, 'kr'],
      ['6109.10.00', 10000, 'mfn'],
    ]);
    w.select('C5:E6');
    const { plan, summary } = costFromSidebar(w, {});
    expect(plan).toMatchObject({ header: false, output: 'Sheet1!F5:L7' });
    // Korea: free and MPF-exempt, note 52 12.5% total over Free (1,250) in landed; MFN: 16.5% and the whole entry's MPF (0.3464% of 10,000).
    expect(w.sheet.values('F5:L7')).toEqual([
      [0, 0, 0, 0, 11250, 'Free', 'OK'],
      [1650, 0, 34.64, 0, 11684.64, '16.5%', 'OK'],
      [1650, 0, 34.64, 0, 22934.64, '', 'Total: 2 lines'],
    ]);
    expect(summary.totals.landed_cost).toBe(22934.64);

    w.sheet.getRange('A10:B11').setValues([
      ['Item', 'Price'],
      ['widget', 5],
    ]);
    w.select('A10:B11');
    expect(() => w.call('planSelectedOrder', {})).toThrow(/The header row \(Item, Price\) names no HTS and Value columns/);
  });

  test('order options apply to every line: default origin and Section 301', () => {
    const w = addon.fresh();
    w.sheet.getRange('A1:B2').setValues([
      ['HTS', 'Value'],
      ['6109.10.00', 10000],
    ]);
    w.select('A1:B2');
    costFromSidebar(w, { origin: 'china', s301: '25' });
    // 16.5% duty, Section 301 at 25% as asked; note 52 China +12.5% (1,250); landed 10,000 + 1,650 + 2,500 + 1,250 + 34.64.
    expect(w.sheet.values('C2:I2')).toEqual([[1650, 2500, 34.64, 0, 15434.64, '16.5%', 'OK']]);
    expect(w.requests[0].body).toMatchObject({ origin: 'china', s301: '25' });
  });
});

describe('the menu', () => {
  test('onOpen adds "Open sidebar" and "Cost selected order"; the sidebar opens', () => {
    const w = addon.fresh();
    w.call('onOpen', { authMode: 'LIMITED' });
    expect(w.menus).toEqual([{ name: 'Extensions ▸ add-on', items: [['Open sidebar', 'showSidebar'], ['Cost selected order', 'costSelectedOrder']] }]);
    expect(w.globals()).toEqual(expect.arrayContaining(['showSidebar', 'costSelectedOrder']));
    w.call('showSidebar');
    expect(w.sidebar?.title).toBe('landed');
    expect(w.sidebar?.content).toContain('Cost selected order');
  });

  test('"Cost selected order" asks before overwriting, and costs a 2,500-line order in 3 requests', () => {
    const w = addon.fresh();
    // 2,500 lines of 6109.10.00 at 100 dollars, MFN: 16.50 duty each.
    w.sheet.getRange('A1:B2501').setValues([['HTS code', 'Customs value'], ...Array.from({ length: 2500 }, () => ['6109.10.00', 100])]);
    w.sheet.getRange('D1').setValues([['keep me']]);
    w.select('A1:B2501');

    w.alertAnswers.push('NO');
    w.call('costSelectedOrder');
    expect(w.alerts[0][1]).toBe('The cells Sheet1!C1:I2502 are not empty. Overwrite them with the costing?');
    expect(w.requests).toHaveLength(0);
    expect(w.sheet.values('D1')).toEqual([['keep me']]);

    w.alertAnswers.push('YES');
    w.call('costSelectedOrder');
    expect(w.requests.map((r) => (r.body as { items: unknown[] }).items.length)).toEqual([1000, 1000, 500]);
    expect(w.toasts.slice(0, 3)).toEqual(['Costing lines 1–1000 of 2500…', 'Costing lines 1001–2000 of 2500…', 'Costing lines 2001–2500 of 2500…']);
    expect(w.sheet.values('C1:I2')).toEqual([
      ['Duty', 'Section 301', 'MPF', 'HMF', 'Landed cost', 'Rate', 'Status'],
      // Each request is an entry of 1,000 × 100 = 100,000: MPF 346.40, 0.3464 a line.
      [16.5, 0, 0.35, 0, 116.85, '16.5%', 'OK'],
    ]);
    // Duty 2,500 × 16.50; MPF 346.40 + 346.40 + 173.20 (0.3464% of each entry); landed 250,000 + 41,250 + 866.
    expect(w.sheet.values('C2502:I2502')).toEqual([
      [41250, 0, 866, 0, 292116, '', 'Total: 2500 lines; costed as 3 entries of up to 1,000 lines (MPF minimum and maximum apply to each)'],
    ]);
  });

  test('the menu shows a problem as an alert', () => {
    const w = addon.fresh();
    w.select('A1');
    w.alertAnswers.push('OK');
    w.call('costSelectedOrder');
    expect(w.alerts[0][1]).toMatch(/Select the order|no order lines/);
  });
});
