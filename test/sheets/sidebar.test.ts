/**
 * The sidebar page as built (dist Sidebar.html) in headless Chromium, as a person uses it: its
 * google.script.run is a stand-in that calls the server-side functions of the same build loaded in
 * the Apps Script stand-ins, which call the real API. Leaves a screenshot of the sidebar after costing
 * an invoice with entry dates (see SCREENSHOT).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { AddonWorld } from './gas.js';
import { serverStatuses, startAddon, type Addon } from './harness.js';
import { cutOff } from '../helpers/browser.js';
import { openSidebar } from './sidebar-page.js';
import { startLimitedServerProcess } from '../helpers/limited-server.js';
import { MIXED_ORDER_BY_VESSEL, writeDatedInvoice, writeMixedOrder } from './orders.js';
import { CAPE_SAVE } from '../../spreadsheet/refund-check.js';
import { REFUND_CAPE_SHEETS, REFUND_CHECKED, REFUND_ENTRIES, REFUND_FILING_DATE, REFUND_TOTALS, refundStatus } from '../addins/refund-entries.js';

/** The README's picture of the sidebar after costing an invoice with entry dates (the Excel pane's order), renewed with UPDATE_SCREENSHOTS=1 (else left in the temporary folder). */
const SCREENSHOT = join(process.env.UPDATE_SCREENSHOTS ? fileURLToPath(new URL('../../docs', import.meta.url)) : tmpdir(), 'sheets-sidebar.png');

let addon: Addon;
let world: AddonWorld;
let profile: string;
let browser: BrowserContext;
let page: Page;
const calls: string[] = [];
const pageErrors: string[] = [];
/** When set, a call of costOrderChunk for a chunk after the first waits for it (the person presses Cancel meanwhile). */
let holdChunks: Promise<void> | null = null;
/** When set, costOrderChunk of this part fails as Apps Script calls fail (a quota met). */
let failChunk: number | null = null;

beforeAll(async () => {
  addon = await startAddon();
  world = addon.fresh();
  world.call('saveSettings', { clearKey: true }); // the person pastes the key in the sidebar
  profile = mkdtempSync(join(tmpdir(), 'landed-sheets-chromium-'));
  ({ browser, page } = await openSidebar(world.dir, profile, async (name, args) => {
    calls.push(name);
    if (name === 'costOrderChunk' && args[1] !== 0 && holdChunks) await holdChunks;
    if (name === 'costOrderChunk' && args[1] === failChunk) throw new Error('Exception: Service invoked too many times for one day: urlfetch.');
    return world.call(name, ...args);
  }));
  page.on('pageerror', (e) => pageErrors.push(e.message));
});

afterAll(async () => {
  await browser?.close();
  await addon?.close();
  if (profile) rmSync(profile, { recursive: true, force: true });
});

const text = (selector: string) => page.locator(selector).innerText();
/** The sidebar's totals table, a row a string. */
const shownTotals = async () => (await page.locator('#totals tr').allInnerTexts()).map((t) => t.replace(/\s+/g, ' ').trim());

test('set the key and test the connection: the connection comes first until a key works', async () => {
  expect(await page.inputValue('#apiUrl')).toBe(`${addon.server.url}/`);
  expect(await text('#keyState')).toBe('No key saved: paste one above. Keys are issued by whoever runs your landed service (on its server: npm run keys -- create --label YOUR-NAME).');
  expect(await page.locator('body').getAttribute('class')).toBe('setup');
  expect(await page.locator('#orderPart').isHidden()).toBe(true);
  await page.click('#test');
  await expect.poll(() => text('#connection')).toMatch(/No landed API key is set for this spreadsheet/);

  await page.fill('#apiKey', 'wrong-key');
  await page.click('#save');
  await expect.poll(() => text('#connection')).toBe('Saved.');
  await page.click('#test');
  await expect.poll(() => text('#connection')).toMatch(/The landed API refused the key .* Keys are issued by whoever runs your landed service/);
  expect(await page.locator('#orderPart').isHidden()).toBe(true);
  await page.click('#forget');
  await expect.poll(() => text('#keyState')).toMatch(/^No key saved: paste one above. Keys are issued/);
  expect(world.documentProperties.has('landed.apiKey')).toBe(false);

  // Another address than the build's is refused, in one sentence.
  await page.fill('#apiUrl', 'https://elsewhere.example.net/');
  await page.click('#save');
  await expect.poll(() => text('#connection')).toMatch(/^This copy of the add-on may only call http:\/\/127\.0\.0\.1:\d+\/ .* rebuild it with SHEETS_API_ORIGIN=https:\/\/elsewhere\.example\.net\/ npm run build and push it again with clasp\.$/);
  await page.fill('#apiUrl', `${addon.server.url}/`);

  await page.fill('#apiKey', addon.server.key);
  await page.click('#save');
  await expect.poll(() => text('#keyState')).toBe(`A key ending in …${addon.server.key.slice(-4)} is saved for this spreadsheet.`);
  expect(await page.inputValue('#apiKey')).toBe('');
  expect(world.documentProperties.get('landed.apiKey')).toBe(addon.server.key);
  await page.click('#test');
  await expect.poll(() => text('#connection')).toMatch(/^Connected to http:\/\/127\.0\.0\.1:\d+\/: schedule 2026 Revision 10, \d+ of 120 requests left this minute\.$/);
  expect(await page.locator('#orderPart').isVisible()).toBe(true);
  expect(await page.locator('body').getAttribute('class')).toBe('');
});

test('cost the selected order: asked before overwriting, cancel writes nothing, overwrite writes the results', async () => {
  writeMixedOrder(world);
  world.sheet.getRange('G3').setValues([['old figure']]);
  world.select('A1:E7');
  await page.check('#ocean');
  // On by default; unticked here to see it saved (this order has no Description column to check).
  expect(await page.isChecked('#checkCodes')).toBe(true);
  await page.uncheck('#checkCodes');

  await page.click('#cost');
  await expect.poll(() => text('#confirmText')).toBe('The cells Sheet1!F1:P9 are not empty. Overwrite them with the costing?');
  await page.click('#cancel');
  await expect.poll(() => text('#order')).toBe('Cancelled: the sheet is as it was.');
  expect(world.sheet.values('F3:G3')).toEqual([['', 'old figure']]);
  expect(world.requests.filter((r) => r.url.endsWith('/duty/bulk'))).toHaveLength(0);

  await page.click('#cost');
  await page.locator('#confirm').waitFor({ state: 'visible' });
  await page.click('#overwrite');
  // The pane's words (one shared status text).
  await expect.poll(() => text('#order')).toBe('Costed 4 of 5 lines into Sheet1!F1:P9; 1 with errors (see the Status column). Schedule 2026 Revision 10.');
  expect(world.sheet.values('F1:P8')).toEqual(MIXED_ORDER_BY_VESSEL);
  expect(calls.filter((c) => c !== 'getSettings' && c !== 'saveSettings' && c !== 'testConnection')).toEqual(['planSelectedOrder', 'planSelectedOrder', 'costOrderChunk', 'finishOrder']);

  expect(await shownTotals()).toEqual([
    // Labelled as the sheet's columns, in dollars as the sheet shows them (one shared block with the Excel pane).
    'Lines 5 (1 with errors)',
    'Customs value $18,000.00',
    'Duty $1,656.30',
    'Section 301 $2,000.00', // 750 (List 4A) + note 52 China +12.5% of 10,000
    'Section 232 $0.00',
    'Other additional duties $0.00',
    'MPF $62.35',
    'HMF $22.50',
    'Duties and fees $3,741.15',
    'Landed cost (1 line without a duty left out) $19,731.72', // the milk powder's blank Landed cost left out: 21,741.15 − 2,009.43
  ]);
  // No progress bar is left behind.
  expect(await page.locator('#progress').isHidden()).toBe(true);
  expect(String(world.sheet.values('F9')[0][0])).toMatch(/^Costed by landed on .* · HTS 2026 Revision 10 · /);
  // The options were saved for the menu's "Cost selected order".
  expect(JSON.parse(world.documentProperties.get('landed.orderOptions')!)).toMatchObject({ ocean: true, checkCodes: false });
  expect(pageErrors).toEqual([]);
});

test('an invoice with Entry date and Claim columns: Section 232 and the refundable IEEPA total in the sidebar, the README\'s picture', async () => {
  world.sheet.getRange('A1:P9').clearContent().clearNote().clearFormat();
  writeDatedInvoice(world);
  world.select('A1:E4');
  await page.uncheck('#ocean');
  await page.check('#checkCodes');
  await page.click('#cost');
  await expect.poll(() => text('#order')).toBe('Costed 2 of 3 lines into Sheet1!F1:P6; 1 with errors (see the Status column). Schedule 2026 Revision 10.');
  // The same figures as the Excel pane's for this invoice: 232 steel today, IEEPA reciprocal on 2025-10-01.
  expect(await shownTotals()).toEqual([
    'Lines 3 (1 with errors)',
    'Customs value $22,000.00',
    'Duty $1,650.00',
    'Section 301 $0.00',
    'Section 232 $6,000.00',
    'Other additional duties $2,000.00',
    'MPF $76.21',
    'HMF $0.00',
    'Duties and fees $9,726.21',
    'Landed cost $31,726.21',
    'Refundable (IEEPA) $2,000.00',
  ]);
  expect(await page.locator('#notes li').first().innerText()).toBe(
    'Total: 3 lines; 1 with errors (not in the totals); costed as 2 entries, one per entry date (MPF minimum and maximum apply to each)',
  );
  // Nothing cut off at the sidebar's 300 px (Sheets' fixed width, narrower than Excel's 350 px pane): no select box, no option's text.
  expect(await cutOff(page)).toEqual([]);
  await page.screenshot({ path: SCREENSHOT, fullPage: true });
  expect(pageErrors).toEqual([]);
});

test('Refund check (IEEPA): the entries of the Excel pane\'s test, the filing date set in the sidebar: the same cells, CAPE tab and totals; asked before overwriting', async () => {
  world.sheet.getRange('A1100:J1112').setValues(REFUND_ENTRIES);
  world.select('A1100:J1112');
  await page.locator('#refund-options summary').click();
  await page.fill('#filing-date', REFUND_FILING_DATE);
  await page.click('#refund');
  await expect.poll(() => text('#order')).toBe(refundStatus('Sheet1!K1100:O1131', CAPE_SAVE.sheets));
  expect(world.sheet.values('K1100:O1130')).toEqual(REFUND_CHECKED);
  expect(world.sheets.get('CAPE declaration 1')!.values('A1:A3')).toEqual(REFUND_CAPE_SHEETS['CAPE declaration 1']);
  expect(await shownTotals()).toEqual(REFUND_TOTALS);
  world.sheet.getRange('K1100').setValue('changed');
  await page.click('#refund');
  await page.locator('#confirm').waitFor({ state: 'visible' });
  expect(await text('#confirmText')).toBe('Cells in Sheet1!K1100:O1131 are not empty. Overwrite them with the refund check?');
  await page.click('#cancel');
  await expect.poll(() => text('#order')).toBe('Cancelled: nothing was written.');
  expect(world.sheet.values('K1100')[0][0]).toBe('changed');
  expect(pageErrors).toEqual([]);
  // The tests after this one read a workbook of Sheet1 alone.
  world.sheets.delete('CAPE declaration 1');
});

test('a header of other names: the column picker is offered with the header box ticked', async () => {
  world.sheet.getRange('A20:B21').setValues([
    ['Item', 'Price'],
    ['widget', 5],
  ]);
  world.select('A20:B21');
  await page.click('#cost');
  await expect.poll(() => text('#order')).toMatch(/^The header row \(Item, Price\) names no HTS and Value columns: choose the columns under "Columns"/);
  expect(await page.locator('#order').getAttribute('class')).toBe('message error');
  expect(await page.locator('#columns').evaluate((d: HTMLDetailsElement) => d.open)).toBe(true);
  expect(await page.isChecked('#hasHeader')).toBe(true);
  expect(await page.locator('#col-value option').allTextContents()).toEqual(['(none)', 'A · Item', 'B · Price']);
  expect(await page.inputValue('#col-value')).toBe(''); // a price is not offered as the value
  await page.click('#columns summary'); // closed: back to the header row
});

test('no header row: the picker starts with the header box unticked, and every line is costed', async () => {
  world.sheet.getRange('A30:C31').setValues([
    [10000, '6109.10.00', 'china'],
    [2000, '8471.30.01', 'china'],
  ]);
  world.select('A30:C31');
  await page.click('#cost');
  await expect.poll(() => text('#order')).toMatch(/^The selection has no header row naming HTS and Value columns/);
  expect(await page.isChecked('#hasHeader')).toBe(false);
  await page.selectOption('#col-hts', '1');
  await page.selectOption('#col-value', '0');
  await page.selectOption('#col-origin', '2');
  await page.click('#cost');
  await expect.poll(() => text('#order')).toBe('Costed 2 lines into Sheet1!D30:N33. Schedule 2026 Revision 10.');
  // 16.5%; Section 301 7.5% + note 52's 12.5% of 10,000, note 52's 12.5% of 2,000; MPF of the entry: 0.3464% of 12,000 = 41.57.
  expect(world.sheet.values('D30:E32')).toEqual([[1650, 2000], [0, 250], [1650, 2250]]);
  expect(world.sheet.values('H30:H32')).toEqual([[34.64], [6.93], [41.57]]);
  await page.click('#columns summary'); // closed: back to the header row
});

test('a 1,000-line order shows its progress part by part over both passes, and Cancel between parts takes back what was written, puts back what it overwrote and leaves no bar', async () => {
  world.sheet.getRange('A40:B1040').setValues([['HTS', 'Value'], ...Array.from({ length: 1000 }, (_, i) => ['6109.10.00', 100 + i])]);
  // A cell of the first part's lines the person agrees to overwrite, with a note and a colour.
  world.sheet.getRange('E41').setValues([['old figure']]).setNote('checked by hand').setBackground('#d9ead3');
  world.select('A40:B1040');
  await page.evaluate(() => {
    // Every message the sidebar shows, as it shows it.
    const shown: string[] = ((window as unknown as { __shown: string[] }).__shown = []);
    const box = document.getElementById('order')!;
    new MutationObserver(() => shown.push(box.textContent ?? '')).observe(box, { childList: true, characterData: true, subtree: true });
  });
  let release!: () => void;
  holdChunks = new Promise((r) => (release = r));
  await page.click('#cost');
  await page.locator('#confirm').waitFor({ state: 'visible' });
  await page.click('#overwrite');
  // Pass 1 measured the 4 parts of 250 lines, pass 2 costed and wrote the first and waits on the second.
  await expect.poll(() => text('#order')).toBe('Costing 1,000 lines (twice: the fees are of one entry): 1,250 of 2,000 done…');
  expect(await page.locator('#progress').evaluate((p: HTMLProgressElement) => [getComputedStyle(p).display, p.value, p.max])).toEqual(['block', 1250, 2000]);
  expect(await page.evaluate(() => (window as unknown as { __shown: string[] }).__shown.filter((t) => t.startsWith('Costing')))).toEqual(
    ['0', '250', '500', '750', '1,000', '1,250'].map((n) => `Costing 1,000 lines (twice: the fees are of one entry): ${n} of 2,000 done…`),
  );
  expect(world.sheet.values('C41:E41')).toEqual([[16.5, 0, 0]]); // the first 250 lines are on the sheet, E41 overwritten
  expect([...world.sheets.values()].filter((sh) => sh.hidden)).toHaveLength(1); // the overwritten cells, kept
  expect(world.sheet.values('C290:C291')).toEqual([[57.59], ['']]); // up to line 250 (16.5% of 349), not beyond
  await page.click('#stop');
  release();
  holdChunks = null;
  await expect.poll(() => text('#order')).toBe('Cancelled: the sheet is as it was.');
  expect(calls.slice(-8)).toEqual(['planSelectedOrder', 'measureOrderChunk', 'measureOrderChunk', 'measureOrderChunk', 'measureOrderChunk', 'costOrderChunk', 'costOrderChunk', 'discardOrder']);
  expect(world.sheet.values('C40:M1042').flat().filter((v) => v !== '')).toEqual(['old figure']);
  const e41 = world.sheet.getRange('E41');
  expect([e41.getValues(), e41.getNotes(), e41.getBackgrounds(), e41.getNumberFormats()]).toEqual([[['old figure']], [['checked by hand']], [['#d9ead3']], [[null]]]);
  expect([...world.sheets.keys()]).toEqual(['Sheet1']); // the hidden copy is gone
  expect(await page.locator('#progress').isHidden()).toBe(true);
  expect(await page.locator('#stop').isHidden()).toBe(true);
  expect(pageErrors).toEqual([]);
});

test('a failure part-way (Apps Script refuses the second part) takes back what the costing wrote: no half-costed order', async () => {
  // The 1,000-line order above, its output area as the Cancel left it: empty but for the old figure in E41.
  world.select('A40:B1040');
  failChunk = 1;
  try {
    await page.click('#cost');
    await page.locator('#confirm').waitFor({ state: 'visible' });
    await page.click('#overwrite');
    await expect.poll(() => text('#order')).toBe('Exception: Service invoked too many times for one day: urlfetch. The costing stopped: the sheet is as it was.');
  } finally {
    failChunk = null;
  }
  expect(calls.slice(-3)).toEqual(['costOrderChunk', 'costOrderChunk', 'discardOrder']);
  expect(world.sheet.values('C40:M1042').flat().filter((v) => v !== '')).toEqual(['old figure']);
  expect(world.sheet.getRange('E41').getNotes()).toEqual([['checked by hand']]);
  expect([...world.sheets.keys()]).toEqual(['Sheet1']);
  expect(await page.locator('#progress').isHidden()).toBe(true);
});

test('an order that meets the rate limit waits it out, counting the seconds down, and finishes whole; Cancel while waiting leaves the sheet as it was, cells it had overwritten put back', async () => {
  // The real service with 5 requests per key in any 10 s: a 1,500-line order (4 parts measured, then costed: 8 requests) meets it.
  const limited = await startAddon({}, () => startLimitedServerProcess(5, 10_000));
  const previous = world;
  try {
    world = limited.fresh();
    world.sheet.getRange('A1:B1501').setValues([['HTS', 'Value'], ...Array.from({ length: 1500 }, (_, i) => ['6109.10.00', 100 + i])]);
    world.select('A1:B1501');
    await page.evaluate(() => {
      const shown: string[] = ((window as unknown as { __shown: string[] }).__shown = []);
      const box = document.getElementById('order')!;
      new MutationObserver(() => shown.push(box.textContent ?? '')).observe(box, { childList: true, characterData: true, subtree: true });
    });
    await page.click('#cost');
    await expect.poll(() => text('#order'), { timeout: 40_000 }).toBe('Costed 1,500 lines into Sheet1!C1:M1503. Schedule 2026 Revision 10.');
    const statuses = await serverStatuses(limited.server, '/api/v1/duty/bulk');
    expect(statuses.slice(0, 6)).toEqual([200, 200, 200, 200, 200, 429]);
    expect(statuses.filter((s) => s === 200)).toHaveLength(8);
    // The 6th request (the second part costed) met the limit: 4 × 375 measured + 375 costed = 1,875 of 3,000; the seconds counted down.
    const waits = await page.evaluate(() => (window as unknown as { __shown: string[] }).__shown.filter((t) => t.startsWith('Waiting')));
    expect(waits[0]).toMatch(/^Waiting for the rate limit: resumes in (\d|10) s \(1,875 of 3,000 done\)\.$/);
    const seconds = [...new Set(waits.filter((t) => t.endsWith('(1,875 of 3,000 done).')).map((t) => Number(/in (\d+) s/.exec(t)![1])))];
    expect(seconds.length).toBeGreaterThan(1);
    expect(seconds).toEqual([...seconds].sort((a, b) => b - a));
    // Whole: every line OK; 16.5% of 100 … 1,599, each rounded half away from zero: (16.5 × 1,274,250 + 0.5 × 750 odd values) cents = 210,255.00;
    // MPF of the one entry at its maximum 651.50 (0.3464% of 1,274,250 is 4,414.00).
    expect(world.sheet.values('M2:M1501').flat().filter((v) => v !== 'OK')).toEqual([]);
    expect(world.sheet.values('C1502:I1502')).toEqual([[210255, 0, 0, 0, 651.5, 0, 1485156.5]]);
    expect(world.sheet.values('M1502')).toEqual([['Total: 1,500 lines']]);
    expect((await shownTotals())[0]).toBe('Lines 1,500');

    // Again at once, lower down: the limit is met early; Cancel during the wait stops it, and what it wrote is cleared.
    world.sheet.getRange('A1601:B3101').setValues([['HTS', 'Value'], ...Array.from({ length: 1500 }, (_, i) => ['6109.10.00', 100 + i])]);
    world.select('A1601:B3101');
    const area = () => {
      const r = world.sheet.getRange('C1601:M3103');
      return [r.getValues(), r.getNotes(), r.getBackgrounds(), r.getNumberFormats(), r.getFontWeights(), r.getBorderTops()];
    };
    // A cell the costing will overwrite, with a note and a colour: put back as it was.
    world.sheet.getRange('E1700').setValues([['old figure']]).setNote('checked by hand').setBackground('#d9ead3');
    const before = area();
    await page.click('#cost');
    await page.locator('#confirm').waitFor({ state: 'visible' });
    await page.click('#overwrite');
    await expect.poll(() => text('#order'), { timeout: 20_000 }).toMatch(/^Waiting for the rate limit: resumes in \d+ s/);
    const sent = (await serverStatuses(limited.server, '/api/v1/duty/bulk')).length;
    // One run at a time: the refund check cannot start while the order runs.
    expect(await page.locator('#refund').isDisabled()).toBe(true);
    await page.click('#stop');
    await expect.poll(() => text('#order')).toBe('Cancelled: the sheet is as it was.');
    expect(calls.at(-1)).toBe('discardOrder');
    expect(area()).toEqual(before);
    expect([...world.sheets.keys()]).toEqual(['Sheet1']); // the hidden copy is gone
    // Nothing more was sent once Cancel was pressed.
    expect(await serverStatuses(limited.server, '/api/v1/duty/bulk')).toHaveLength(sent);
    expect(await page.locator('#progress').isHidden()).toBe(true);
    expect(pageErrors).toEqual([]);
  } finally {
    world = previous;
    await limited.close();
  }
});
