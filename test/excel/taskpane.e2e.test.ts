/**
 * The task pane end to end: the add-in built fresh, served by the real API server at /excel/, loaded
 * in headless Chromium with office.js replaced by a stand-in Office/Excel (fixtures/office-stub.js).
 * A person's steps: set the key, test the connection, cost a selected order (and be asked before
 * anything is overwritten), choose columns when there is no header; and the custom functions of
 * the same runtime filling a 2,000-row sheet.
 */
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../../server/data/paths.js';
import type { RunningServer } from '../helpers/server.js';
import { CAPE_SAVE } from '../../spreadsheet/refund-check.js';
import {
  CAPE_10001, CAPE_10001_FIRST, CAPE_10001_LAST_OF_FIRST, CAPE_10001_SECOND, CAPE_10001_STATUS,
  REFUND_BOLD_ROWS, REFUND_CAPE_SHEETS, REFUND_CHECKED, REFUND_ENTRIES, REFUND_FILING_DATE, REFUND_RECORD, REFUND_RECORD_NOTES, REFUND_RED_ROWS, REFUND_REQUESTS, REFUND_TOTALS, refundStatus,
} from '../addins/refund-entries.js';
import { cutOff } from '../helpers/browser.js';
import { openPane, type Pane } from './pane.js';

/** The README's picture of the pane after costing an invoice with entry dates, renewed with UPDATE_SCREENSHOTS=1 (else left in the temporary folder). */
const SCREENSHOT = join(process.env.UPDATE_SCREENSHOTS ? join(projectRoot, 'docs') : tmpdir(), 'excel-taskpane.png');
/** The README's picture of the pane after a refund check, renewed the same way. */
const REFUND_SCREENSHOT = join(process.env.UPDATE_SCREENSHOTS ? join(projectRoot, 'docs') : tmpdir(), 'excel-refund-check.png');

let pane: Pane;
let server: RunningServer;
let page: Page;
/** Every /api/v1 request the page made: method and path; and the bodies of the bulk requests. */
const api: string[] = [];
const bulkBodies: any[] = [];
/** The Content-Encoding of each /duty/bulk answer as Chromium received it (its fetch decodes it for the pane). */
const bulkEncodings: (string | undefined)[] = [];
const pageErrors: string[] = [];

beforeAll(async () => {
  pane = await openPane();
  ({ server, page } = pane);
  page.on('request', (r) => {
    const u = new URL(r.url());
    if (u.pathname.startsWith('/api/v1/')) api.push(`${r.method()} ${u.pathname}`);
    if (u.pathname === '/api/v1/duty/bulk') bulkBodies.push(r.postDataJSON());
  });
  page.on('response', async (r) => {
    if (new URL(r.url()).pathname === '/api/v1/duty/bulk') bulkEncodings.push((await r.allHeaders())['content-encoding']);
  });
  page.on('pageerror', (e) => pageErrors.push(e.message));
  await page.goto(pane.url);
  await page.locator('#app').waitFor({ state: 'visible' });
});

afterAll(async () => {
  await pane?.close();
});

const statusOf = (id: string) => page.locator(`#${id}`).textContent();

describe('the add-in served by the API server at /excel/', () => {
  it('serves the page, the scripts, the metadata and the icons', async () => {
    for (const [path, type] of [
      ['/excel/taskpane.html', 'text/html'],
      ['/excel/functions.js', 'javascript'],
      ['/excel/functions.json', 'application/json'],
      ['/excel/assets/icon-32.png', 'image/png'],
      ['/excel/manifest.xml', 'xml'],
      ['/excel/help.html', 'text/html'],
    ]) {
      const res = await fetch(`${server.url}${path}`);
      expect(res.status, path).toBe(200);
      expect(res.headers.get('content-type'), path).toContain(type);
    }
    const meta = await (await fetch(`${server.url}/excel/functions.json`)).json();
    expect(meta.functions.map((f: { id: string }) => f.id)).toContain('DUTY');
  });
});

describe('the task pane in Chromium', () => {
  it('loads with the API address defaulting to its own origin, settings first, and says where keys come from', async () => {
    expect(await page.locator('#base-url').inputValue()).toBe(server.url);
    expect(await statusOf('settings-status')).toBe(
      'Paste your API key, then press Test connection. Keys are issued by whoever runs your landed service (on its server: npm run keys -- create --label YOUR-NAME).',
    );
    // Until a key works there is nothing to cost with: the order part waits.
    expect(await page.locator('#app').getAttribute('class')).toBe('setup');
    expect(await page.locator('#order').isHidden()).toBe(true);
    expect((await page.evaluate(() => [...window.__associated.keys()])).sort()).toEqual(['ADDITIONAL', 'DESC', 'DUTY', 'EXPORTERS', 'FEES', 'HMF', 'LANDED', 'MPF', 'RATE', 'RESULT', 'S232', 'SEARCH', 'SECTION301']);
  });

  it('a wrong key says so and where to get one; a good one opens the order part', async () => {
    await page.fill('#api-key', 'lk_wrong_key_00000000');
    await page.click('#test');
    await expect.poll(() => statusOf('settings-status')).toMatch(/rejected the key ending …0000 .* Keys are issued by whoever runs your landed service/);
    expect(await page.locator('#order').isHidden()).toBe(true);
    await page.fill('#api-key', server.key);
    await page.click('#test');
    await expect.poll(() => statusOf('settings-status')).toMatch(/^Connected to http:\/\/127\.0\.0\.1:\d+: schedule 2026 Revision 10; \d+ of 120 requests left this minute\.$/);
    expect(await page.evaluate(() => window.__storage.get('landed.apiKey'))).toBe(server.key);
    expect(await page.evaluate(() => window.__storage.get('landed.baseUrl'))).toBe(server.url);
    expect(await page.locator('#settings-status').getAttribute('class')).toContain('ok');
    expect(await page.locator('#order').isVisible()).toBe(true);
    expect(await page.locator('#app').getAttribute('class')).toBe('');
  });

  it('fits a pane 350 px wide: no select box, nor the text of any of its options, is cut (issue 41: "auto (from the schedule", "1,234.56 (decimal point")', async () => {
    await page.locator('#columns summary').click(); // the picker's selects too
    expect(await cutOff(page)).toEqual([]);
    await page.locator('#columns summary').click();
  });

  it('an invoice headed HTS, Origin, Qty, Price, Ext value: costed on Ext value, a bad value marked on its line', async () => {
    api.length = 0;
    bulkBodies.length = 0;
    bulkEncodings.length = 0;
    await page.evaluate(() => {
      window.__sheet.set(0, 0, [
        ['HTS', 'Origin', 'Qty', 'Price', 'Ext value'],
        ['6109.10.00', 'China', 5000, 2.1, '$10,500.00'],
        ['8471.30.01', '', 10, 200, '2000'],
        ['6109.10.00', 'Korea', 100, 5, '12 boxes'],
      ]);
      window.__sheet.select(0, 0, 4, 5);
      // A note an earlier costing left on a Status cell (P3).
      window.__sheet.note(2, 15, 'Costed last week: OK');
    });
    await page.click('#cost');
    await expect.poll(() => statusOf('order-status')).toMatch(/^Costed 2 of 3 lines into Sheet1!F1:P6; 1 with errors \(see the Status column\)\. Schedule 2026 Revision 10\.$/);
    expect(api).toEqual(['POST /api/v1/duty/bulk']);
    // The value is Ext value, read from its text; the unit price is not the value; the unreadable line is not sent.
    expect(bulkBodies).toEqual([{ items: [{ hts: '6109.10.00', origin: 'China', qty: 5000, value: 10500 }, { hts: '8471.30.01', qty: 10, value: 2000 }] }]);
    // The answer came compressed (zstd or br: what this Chromium offers first among the server's preferences), and the pane read it.
    // (The response listener reads the headers asynchronously: its entry may come after the pane has written.)
    await expect.poll(() => bulkEncodings.length).toBe(1);
    expect(['zstd', 'br']).toContain(bulkEncodings[0]);
    const out = await page.evaluate(() => window.__sheet.get(0, 5, 6, 11));
    expect(out[0]).toEqual(['Duty', 'Section 301', 'Section 232', 'Other additional duties', 'MPF', 'HMF', 'Landed cost', 'Rate', 'Program(s)', 'Assumptions/Notes', 'Status']);
    // 16.5% and 7.5% of 10,500; MPF 0.3464% of the entry's 12,500 = 43.30, shared by value: 36.37 and 6.93.
    // Section 301 is every Section 301 action (issue 30): 787.50 and note 52 (China +12.5% of 10,500) 1,312.50.
    expect(out[1]).toEqual([1732.5, 2100, 0, 0, 36.37, 0, 14368.87, '16.5%', 's301_china 9903.88.15; s301_forced_labor 9903.05.31', '', 'OK']);
    expect(out[2]).toEqual([0, 0, 0, 0, 6.93, 0, 2006.93, 'Free', '', 'No origin country given (origin is a program, not a country): only the chapter 99 duties owed by goods of every country are included.\npart_for not given: 8471.30.01.00 (a dual-use provision of note 33(g)) is taken as not a part of passenger vehicles or light trucks; give part_for=passenger if it is one (9903.94.05, +25%).', 'OK']);
    expect(out[3]).toEqual(['', '', '', '', '', '', '', '', '', '', 'Error: Value "12 boxes" is not an amount in U.S. dollars written 1,234.56 (if it uses a decimal comma, choose 1.234,56 under Numbers)']);
    expect(out[4]).toEqual([1732.5, 2100, 0, 0, 43.3, 0, 16375.8, '', 's301_china $787.50; s301_forced_labor $1,312.50', '', 'Total: 3 lines; 1 with errors (not in the totals)']);
    expect(out[5][0]).toMatch(/^Costed by landed on \d{4}-\d\d-\d\d \d\d:\d\d UTC · HTS 2026 Revision 10 · entry date \d{4}-\d\d-\d\d \(the day of costing\) · default origin mfn \(general rate\) · Section 301 auto \(from the schedule\) · ocean freight \(HMF\) no · numbers read as 1,234\.56 · MPF\/HMF figures of FY2026 used for FY2027 \(FY2027's adjustment is not yet in the table\)$/);
    // Error colouring, and the order's notes on the record.
    expect((await page.evaluate(() => window.__sheet.fills(1, 5, 3, 11))).map((r) => r[10])).toEqual([null, null, '#f4cccc']);
    const notes = await page.evaluate(() => window.__sheet.notes(0, 5, 6, 11));
    // The caveats once, on the record; no note on the lines' Status cells, which would repeat their
    // Assumptions/Notes cell, and the one an earlier costing left is gone.
    expect(notes[5][0]).toMatch(/Antidumping and countervailing duties are not included\./);
    expect(notes.slice(0, 5).flat()).toEqual(Array(55).fill(null));
    const formats = await page.evaluate(() => window.__sheet.formats(1, 5, 1, 11));
    expect(formats[0]).toEqual([...Array(7).fill('$#,##0.00'), '@', '@', '@', 'General']);
    const bold = await page.evaluate(() => window.__sheet.bold(0, 5, 6, 1).map((r) => r[0]));
    expect(bold).toEqual([true, false, false, false, true, false]);
    expect(await page.evaluate(() => window.__sheet.border(4, 5))).toBe('EdgeTop:Continuous');
    await expect.poll(() => page.locator('#totals').textContent()).toContain('Duty$1,732.50');
    expect(await page.locator('#totals').textContent()).toContain('Landed cost$16,375.80');
    // The pane's totals, labelled as the sheet's columns (one shared block with the Sheets sidebar).
    expect(await page.locator('#totals').textContent()).toContain('Section 301$2,100.00'); // 787.50 + 1,312.50
    expect(await page.locator('#totals').textContent()).toContain('Other additional duties$0.00');
    expect(await page.locator('#totals').textContent()).toContain('Duties and fees$3,875.80'); // 1,732.50 + 2,100 + 43.30
    expect(await page.locator('#progress').isHidden()).toBe(true);
  });

  it('asks before overwriting: Cancel writes nothing, Overwrite writes with the new options', async () => {
    api.length = 0;
    await page.click('#cost');
    await page.locator('#confirm').waitFor({ state: 'visible' });
    expect(await page.locator('#confirm-text').textContent()).toBe('The cells Sheet1!F1:P6 are not empty. Overwrite them with the costing?');
    await page.click('#confirm-no');
    await expect.poll(() => statusOf('order-status')).toBe('Cancelled: the sheet is as it was.');
    expect(api).toEqual([]);

    await page.check('#ocean');
    await page.selectOption('#s301', '25');
    await page.click('#cost');
    await page.locator('#confirm').waitFor({ state: 'visible' });
    await page.click('#confirm-yes');
    await expect.poll(() => statusOf('order-status')).toMatch(/^Costed 2 of 3 lines/);
    expect(api).toEqual(['POST /api/v1/duty/bulk']);
    const row = await page.evaluate(() => window.__sheet.get(1, 5, 1, 7)[0]);
    // Section 301: China at 25% = 2,625 and note 52 +12.5% = 1,312.50; HMF 0.125% of 10,500 = 13.13 (of the entry's 15.63, by value).
    expect(row).toEqual([1732.5, 3937.5, 0, 0, 36.37, 13.13, 16219.5]);
    expect(await page.evaluate(() => window.__sheet.get(5, 5, 1, 1)[0][0])).toMatch(/Section 301 25% · ocean freight \(HMF\) yes/);
    await page.uncheck('#ocean');
    await page.selectOption('#s301', '');
    await page.evaluate(() => window.__sheet.clear());
  });

  it('a Description column: a line without a code gets suggested codes; with Check codes unticked no code is questioned', async () => {
    api.length = 0;
    await page.evaluate(() => {
      window.__sheet.set(30, 0, [['HTS', 'Description', 'Value'], ['', "men's cotton t-shirts", 1000], ['8471.30.01', "men's cotton t-shirts", 1000]]);
      window.__sheet.select(30, 0, 3, 3);
    });
    expect(await page.isChecked('#check-codes')).toBe(true);
    await page.uncheck('#check-codes');
    await page.click('#cost');
    await expect.poll(() => statusOf('order-status')).toMatch(/^Costed 1 of 2 lines into .*; 1 with errors/);
    expect(api).toEqual(['POST /api/v1/hts/batch', 'POST /api/v1/duty/bulk']);
    // Assumptions/Notes and Status, right of the three columns.
    const [noCode, laptop] = await page.evaluate(() => window.__sheet.get(31, 12, 2, 2));
    expect(noCode[0]).toMatch(/^Suggested codes: 6109\.10\.00\.12 /);
    expect(noCode[1]).toBe('Error: hts is blank: give a tariff code such as 6109.10.00');
    expect([String(laptop[0]).includes('Check the code'), laptop[1]]).toEqual([false, 'OK']);

    // Ticked again: the laptop code is questioned for a t-shirt description.
    await page.check('#check-codes');
    await page.click('#cost');
    await page.locator('#confirm').waitFor({ state: 'visible' });
    await page.click('#confirm-yes');
    await expect.poll(() => page.evaluate(() => String(window.__sheet.get(32, 12, 1, 1)[0][0]))).toMatch(/^Check the code: its description reads "Automatic data processing machines/);
    await page.evaluate(() => window.__sheet.clear());
  });

  it('without a header row, offers the columns with the header box unticked, and costs every line', async () => {
    await page.evaluate(() => {
      window.__sheet.set(20, 0, [[10000, '6109.10.00', 'china'], [2000, '8471.30.01', 'china']]);
      window.__sheet.select(20, 0, 2, 3);
    });
    await page.click('#cost');
    await expect.poll(() => statusOf('order-status')).toMatch(/^The selection has no header row naming HTS and Value columns: choose the columns under "Columns"/);
    await expect.poll(() => page.locator('#col-hts option').allTextContents()).toEqual(['(none)', 'A · 10000', 'B · 6109.10.00', 'C · china']);
    // The first row is an order line: the box says so, so choosing the columns is enough.
    expect(await page.locator('#has-header').isChecked()).toBe(false);
    await page.selectOption('#col-hts', '1');
    await page.selectOption('#col-value', '0');
    await page.selectOption('#col-origin', '2');
    await page.click('#cost');
    await expect.poll(() => statusOf('order-status')).toMatch(/^Costed 2 lines into Sheet1!D21:N24\./);
    const out = await page.evaluate(() => window.__sheet.get(20, 3, 3, 7));
    // Section 301: 750 (List 4A) + 1,250 (note 52, China +12.5%).
    expect([0, 1, 4].map((i) => out[0][i])).toEqual([1650, 2000, 34.64]);
    expect([0, 1, 4].map((i) => out[1][i])).toEqual([0, 250, 6.93]); // 8471.30.01 is Free, on no China list here, note 52's 12.5% of 2,000; MPF 0.3464% of 2,000
    expect([0, 1, 4].map((i) => out[2][i])).toEqual([1650, 2250, 41.57]); // MPF of the entry: 0.3464% of 12,000
    await page.click('#columns summary'); // closed: back to detection for whoever comes next
    await page.evaluate(() => window.__sheet.clear());
  });

  it('only a unit price and a quantity: value = price × qty, said in the Status and the line’s Assumptions/Notes, with no cell note repeating it', async () => {
    await page.evaluate(() => {
      window.__sheet.set(0, 0, [['HTS', 'Qty', 'Unit price'], ['6109.10.00', 5000, '2.10']]);
      window.__sheet.select(0, 0, 2, 3);
    });
    await page.click('#cost');
    await expect.poll(() => statusOf('order-status')).toMatch(/^Costed 1 line into /); // "1 lines" was wrong
    expect(await page.evaluate(() => window.__sheet.get(1, 3, 1, 11)[0])).toEqual([
      1732.5, 0, 0, 0, 36.37, 0, 12268.87, '16.5%', '', 'Value 10,500.00 = Qty 5000 × Unit price 2.1 (the order has no value column).\nNo origin country given (origin is a program, not a country): only the chapter 99 duties owed by goods of every country are included.', 'OK (value = Qty × Unit price)',
    ]);
    expect(await page.evaluate(() => window.__sheet.notes(1, 3, 1, 11)[0])).toEqual(Array(11).fill(null));
    await page.evaluate(() => window.__sheet.clear());
  });

  it('Entry date and Claim columns: one request per entry date, programs, per-program and refundable IEEPA totals', async () => {
    bulkBodies.length = 0;
    await page.evaluate(() => {
      window.__sheet.set(0, 0, [
        ['HTS', 'Origin', 'Ext value', 'Entry date', 'Claim'],
        ['7208.10.15', 'VN', 12000, '', 'none'],
        // A date cell reaches the add-in as Excel's serial: 45931 is 2025-10-01.
        ['6109.10.00', 'VN', 10000, 45931, ''],
        ['6109.10.00', 'VN', 500, 'next week', ''],
      ]);
      window.__sheet.select(0, 0, 4, 5);
    });
    await page.click('#cost');
    // The invoice of the Sheets sidebar's picture (test/sheets/orders.ts), so the README's two pictures show one order.
    await expect.poll(() => statusOf('order-status')).toBe('Costed 2 of 3 lines into Sheet1!F1:P6; 1 with errors (see the Status column). Schedule 2026 Revision 10.');
    // The API takes one date per request: the line without a date, then 2025-10-01, each its own entry.
    expect(bulkBodies).toEqual([
      { items: [{ hts: '7208.10.15', origin: 'VN', value: 12000, claim: 'none' }] },
      { items: [{ hts: '6109.10.00', origin: 'VN', value: 10000 }], date: '2025-10-01' },
    ]);
    const out = await page.evaluate(() => window.__sheet.get(1, 5, 4, 11));
    // Today (2026): Annex I-A steel, Section 232 +50% of 12,000 = 6,000; MPF 0.3464% of 12,000 = 41.57; landed 18,041.57.
    expect(out[0].slice(0, 9)).toEqual([0, 0, 6000, 0, 41.57, 0, 18041.57, 'Free', 's232_metals 9903.82.02; s301_forced_labor 9903.05.90']);
    // 2025-10-01: 16.5% = 1,650; IEEPA reciprocal Vietnam 20% (9903.02.69) = 2,000; MPF 34.64; landed 13,684.64.
    expect(out[1].slice(0, 9)).toEqual([1650, 0, 0, 2000, 34.64, 0, 13684.64, '16.5%', 'ieepa_reciprocal 9903.02.69']);
    expect(out[2][10]).toBe('Error: Entry date "next week" is not a date this add-in reads: write it YYYY-MM-DD (2026-11-30) or as a date cell');
    // Totals: MPF 41.57 + 34.64 = 76.21; landed 31,726.21; each program; the IEEPA amount that may be refunded.
    expect(out[3]).toEqual([
      1650, 0, 6000, 2000, 76.21, 0, 31726.21, '', 's232_metals $6,000.00; ieepa_reciprocal $2,000.00', 'Refundable (IEEPA, past entry dates): $2,000.00',
      'Total: 3 lines; 1 with errors (not in the totals); costed as 2 entries, one per entry date (MPF minimum and maximum apply to each)',
    ]);
    expect(await page.evaluate(() => window.__sheet.get(5, 5, 1, 1)[0][0])).toMatch(/ · entry dates 2025-10-01 \(per line; lines without one: entry date \d{4}-\d\d-\d\d \(the day of costing\)\) · /);
    expect(await page.locator('#totals').textContent()).toContain('Section 232$6,000.00');
    // The order's notes in the pane, as in the sidebar (they were only in the record's cell note): the fee years used, the caveats.
    const notes = await page.locator('#notes li').allTextContents();
    expect(notes).toContain('Antidumping and countervailing duties are not included.');
    expect(notes.some((n) => /^MPF\/HMF figures of the fiscal year/.test(n))).toBe(true);
    expect(await page.locator('#totals').textContent()).toContain('Refundable (IEEPA)$2,000.00');
    expect(await cutOff(page)).toEqual([]);
    await page.screenshot({ path: SCREENSHOT, fullPage: true });
    await page.evaluate(() => window.__sheet.clear());
  });

  it('a 1,000-line order shows its progress part by part over both passes, and Cancel between parts writes nothing and leaves no bar', async () => {
    bulkBodies.length = 0;
    await page.evaluate(() => {
      window.__sheet.set(0, 0, [['HTS', 'Value'], ...Array.from({ length: 1000 }, (_, i) => ['6109.10.00', 100 + i])]);
      window.__sheet.select(0, 0, 1001, 2);
      // Every status the pane shows, as it shows it.
      const shown: string[] = ((window as unknown as { __shown: string[] }).__shown = []);
      const status = document.getElementById('order-status')!;
      new MutationObserver(() => shown.push(status.textContent ?? '')).observe(status, { childList: true, characterData: true, subtree: true });
    });
    // Pass 1 measures the 4 parts of 250 lines, pass 2 costs them; its second part is held until the person has pressed Cancel.
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    let bulk = 0;
    await page.route('**/api/v1/duty/bulk', async (route) => {
      if (++bulk === 6) await held;
      await route.continue().catch(() => undefined);
    });
    await page.click('#cost');
    await expect.poll(() => statusOf('order-status')).toBe('Costing 1,000 lines (twice: the fees are of one entry): 1,250 of 2,000 done…');
    expect(await page.locator('#progress').evaluate((p: HTMLProgressElement) => [p.hidden, p.value, p.max])).toEqual([false, 1250, 2000]);
    expect(await page.evaluate(() => (window as unknown as { __shown: string[] }).__shown.filter((t) => t.startsWith('Costing')))).toEqual(
      ['0', '250', '500', '750', '1,000', '1,250'].map((n) => `Costing 1,000 lines (twice: the fees are of one entry): ${n} of 2,000 done…`),
    );
    await page.click('#cancel-cost');
    await expect.poll(() => statusOf('order-status')).toBe('Cancelled: the sheet is as it was.');
    release();
    await page.unroute('**/api/v1/duty/bulk');
    expect(await page.locator('#progress').isHidden()).toBe(true);
    expect(await page.locator('#cancel-cost').isHidden()).toBe(true);
    expect((await page.evaluate(() => window.__sheet.get(0, 2, 1002, 11))).flat().filter((v) => v !== '')).toEqual([]);
    // The held request was the last: it was aborted, and no other part was sent.
    expect(bulk).toBe(6);
    expect(bulkBodies.map((b) => [b.items.length, b.entry?.mpf_basis_before ?? null])).toEqual([
      [250, null], [250, null], [250, null], [250, null], [250, 0], [250, 56125], // 100 + … + 349 = (100 + 349) × 250 / 2
    ]);
    await page.evaluate(() => window.__sheet.clear());
  });

  it('runs the TARIFF functions in the same runtime: 2,000 cells in 2 requests, errors as Excel shows them', async () => {
    api.length = 0;
    const sheet = await page.evaluate(async () => {
      const duty = window.__associated.get('DUTY')!;
      const cells = await Promise.all(Array.from({ length: 2000 }, (_, i) => duty('6109.10.00', 1000 + i, 'china').catch((e) => `${e.code} ${e.message}`)));
      return { first: cells[0], last: cells[1999], numbers: cells.filter((c) => typeof c === 'number').length };
    });
    expect(api).toEqual(['POST /api/v1/duty/batch', 'POST /api/v1/duty/batch']);
    expect(sheet).toEqual({ first: 165, last: 494.84, numbers: 2000 });
    const result = await page.evaluate(async () => {
      const duty = window.__associated.get('DUTY')!;
      const specific = await duty('0201.10.05', 1000).catch((e) => ({ code: e.code, message: e.message }));
      const rate = await window.__associated.get('RATE')!('6109.10.00', 'kr');
      return { specific, rate };
    });
    expect(result.specific).toMatchObject({ code: '#N/A', message: '0201.10.05: The rate "4.4¢/kg" is specific: give qty and unit (per kg) to compute the duty. For example =TARIFF.DUTY(hts, value, origin, , , 100, "kg").' });
    expect(result.rate).toBe('Free');
  });

  // Refund check (IEEPA): the past entries the Sheets sidebar checks (test/sheets/refund.test.ts), the same cells from one fixture.
  it('Refund check: entries across every channel, the filing date set in the pane: per line, per entry, by heading and channel, the CAPE sheet, totals and record', async () => {
    bulkBodies.length = 0;
    await page.evaluate((values) => {
      window.__sheet.clear();
      window.__sheet.set(0, 0, values);
      window.__sheet.select(0, 0, 13, 10);
    }, REFUND_ENTRIES);
    await page.locator('#refund-options summary').click();
    await page.fill('#filing-date', REFUND_FILING_DATE);
    await page.click('#refund');
    await expect.poll(() => statusOf('order-status')).toBe(refundStatus('Sheet1!K1:O32', CAPE_SAVE.excel));
    // One request, each costed line with its entry date, its entry number in CBP's form and its claim as entered.
    expect(bulkBodies).toEqual(REFUND_REQUESTS);
    const out = await page.evaluate(() => window.__sheet.get(0, 10, 32, 5));
    expect(out.slice(0, 31)).toEqual(REFUND_CHECKED);
    expect(out[31][0]).toMatch(REFUND_RECORD);
    expect(out[31][4]).toBe(REFUND_RECORD_NOTES);
    const cape = await page.evaluate(() => ({ names: window.__worksheets.names(), values: window.__worksheets.values('CAPE declaration 1'), formats: window.__worksheets.formats('CAPE declaration 1') }));
    expect(cape).toEqual({ names: Object.keys(REFUND_CAPE_SHEETS), values: REFUND_CAPE_SHEETS['CAPE declaration 1'], formats: REFUND_CAPE_SHEETS['CAPE declaration 1'].map(() => ['@']) });
    const formats = await page.evaluate(() => window.__sheet.formats(1, 10, 15, 5));
    expect(formats[0]).toEqual(['$#,##0.00', '@', '$#,##0.00', '$#,##0.00', '@']);
    expect(formats[14]).toEqual(['@', '@', '$#,##0.00', '$#,##0.00', '@']);
    const bold = await page.evaluate(() => window.__sheet.bold(0, 10, 32, 1).map((r) => r[0]));
    expect(bold.flatMap((b, i) => (b ? [i] : []))).toEqual(REFUND_BOLD_ROWS);
    expect(await page.evaluate(() => window.__sheet.border(13, 10))).toBe('EdgeTop:Continuous');
    const red = await page.evaluate(() => window.__sheet.fills(0, 10, 32, 1).map((r) => r[0]));
    expect(red.flatMap((f, i) => (f === '#f4cccc' ? [i] : []))).toEqual(REFUND_RED_ROWS);
    expect((await page.locator('#totals tr').allInnerTexts()).map((t) => t.replace(/\s+/g, ' ').trim())).toEqual(REFUND_TOTALS);
    expect(await page.locator('#notes li').allTextContents()).toContain('Antidumping and countervailing duties are not included.');
    expect(await cutOff(page)).toEqual([]);
    await page.screenshot({ path: REFUND_SCREENSHOT, fullPage: true });
  });

  it('Refund check: cells not empty, asks once the lines are costed; Cancel writes nothing', async () => {
    await page.click('#refund');
    await page.locator('#confirm').waitFor({ state: 'visible' });
    expect(await page.locator('#confirm-text').textContent()).toBe('Cells in Sheet1!K1:O32 are not empty. Overwrite them with the refund check?');
    await page.evaluate(() => window.__sheet.set(0, 10, [['changed']]));
    await page.click('#confirm-no');
    await expect.poll(() => statusOf('order-status')).toBe('Cancelled: nothing was written.');
    expect(await page.evaluate(() => window.__sheet.get(0, 10, 1, 1)[0][0])).toBe('changed');
  });

  it('Refund check: 10,001 entries for CAPE make two declaration sheets, 9,999 and 2', async () => {
    await page.evaluate((values) => {
      window.__sheet.clear();
      window.__sheet.set(0, 0, values);
      window.__sheet.select(0, 0, values.length, 6);
    }, CAPE_10001);
    await page.click('#refund');
    await expect.poll(() => statusOf('order-status'), { timeout: 120_000 }).toContain(CAPE_10001_STATUS);
    const cape = await page.evaluate(() => ({ first: window.__worksheets.values('CAPE declaration 1')!, second: window.__worksheets.values('CAPE declaration 2') }));
    expect([cape.first.length, cape.first.slice(0, 2), cape.first[9999][0]]).toEqual([10000, CAPE_10001_FIRST, CAPE_10001_LAST_OF_FIRST]);
    expect(cape.second).toEqual(CAPE_10001_SECOND);
    await page.evaluate(() => window.__sheet.clear());
  }, 180_000);

  it('Refund check: a header without an entry number column says so, and sends nothing', async () => {
    bulkBodies.length = 0;
    await page.evaluate(() => {
      window.__sheet.clear();
      window.__sheet.set(0, 0, [['HTS', 'Origin', 'Entry date', 'Value'], ['6109.10.00', 'China', '2025-05-20', 1000]]);
      window.__sheet.select(0, 0, 2, 4);
    });
    await page.click('#refund');
    await expect.poll(() => statusOf('order-status')).toBe(
      'A refund check needs a header row naming Entry number, Entry date, HTS and Value columns (Origin, Claim and Duty paid if known); this one names no Entry number column.',
    );
    expect(bulkBodies).toEqual([]);
    await page.evaluate(() => window.__sheet.clear());
  });

  it('left no script error', async () => {
    expect(pageErrors).toEqual([]);
  });
});
