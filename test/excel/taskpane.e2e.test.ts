/**
 * The task pane end to end: the add-in built fresh, served by the real API server at /excel/, loaded
 * in headless Chromium with office.js replaced by a stand-in Office/Excel (fixtures/office-stub.js).
 * A person's steps: set the key, test the connection, cost a selected order (and be asked before
 * anything is overwritten), choose columns when there is no header; and the custom functions of
 * the same runtime filling a 2,000-row sheet.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import build from '../../excel-addin/build.mjs';
import { projectRoot } from '../../server/data/paths.js';
import { launchChromium } from '../helpers/browser.js';
import { startServer, type RunningServer } from '../helpers/server.js';

const SCREENSHOT = '/tmp/landed-excel-taskpane.png';
const SHEET_SCREENSHOT = '/tmp/landed-excel-sheet.png';
const stub = readFileSync(join(import.meta.dirname, 'fixtures', 'office-stub.js'), 'utf8');

let dir: string;
let server: RunningServer;
let browser: BrowserContext;
let page: Page;
/** Every /api/v1 request the page made: method and path. */
const api: string[] = [];
const pageErrors: string[] = [];

declare global {
  interface Window {
    __sheet: {
      set(row: number, col: number, values: unknown[][]): void;
      get(row: number, col: number, h: number, w: number): unknown[][];
      formats(row: number, col: number, h: number, w: number): string[][];
      bold(row: number, col: number, h: number, w: number): boolean[][];
      border(row: number, col: number): string | null;
      select(row: number, col: number, h: number, w: number): void;
      clear(): void;
      letter(i: number): string;
    };
    __storage: Map<string, string>;
    __associated: Map<string, (...args: unknown[]) => Promise<unknown>>;
  }
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'landed-excel-e2e-'));
  await build(projectRoot, { outDir: join(dir, 'static', 'excel'), env: {} });
  server = await startServer({ staticRoot: join(dir, 'static') });
  ({ browser, page } = await launchChromium(join(dir, 'profile'), { width: 380, height: 1000 }));
  // office.js comes from Microsoft's CDN: the stand-in answers instead; nothing else leaves the machine.
  await page.route(/^https?:\/\/(?!127\.0\.0\.1)/, (route) =>
    route.request().url() === 'https://appsforoffice.microsoft.com/lib/1/hosted/office.js'
      ? route.fulfill({ status: 200, contentType: 'application/javascript', body: stub })
      : route.abort(),
  );
  page.on('request', (r) => {
    const u = new URL(r.url());
    if (u.pathname.startsWith('/api/v1/')) api.push(`${r.method()} ${u.pathname}`);
  });
  page.on('pageerror', (e) => pageErrors.push(e.message));
  await page.goto(`${server.url}/excel/taskpane.html`);
  await page.locator('#app').waitFor({ state: 'visible' });
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
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
  it('loads with the API address defaulting to its own origin, and asks for a key', async () => {
    expect(await page.locator('#base-url').inputValue()).toBe(server.url);
    expect(await statusOf('settings-status')).toBe('Set your API key to start.');
    expect((await page.evaluate(() => [...window.__associated.keys()])).sort()).toEqual(['DESC', 'DUTY', 'EXPORTERS', 'FEES', 'HMF', 'LANDED', 'MPF', 'RATE', 'RESULT', 'SECTION301']);
  });

  it('without a key, costing says where to set it and sends nothing', async () => {
    await page.evaluate(() => {
      window.__sheet.set(1, 1, [['HTS', 'Value'], ['6109.10.00', 10000]]);
      window.__sheet.select(1, 1, 2, 2);
    });
    await page.click('#cost');
    await expect.poll(() => statusOf('order-status')).toMatch(/No landed API key is set: open the landed task pane .* under Settings/);
    expect(api).toEqual([]);
    await page.evaluate(() => window.__sheet.clear());
  });

  it('saves the key in OfficeRuntime.storage and tests the connection', async () => {
    await page.fill('#api-key', 'lk_wrong_key_00000000');
    await page.click('#test');
    await expect.poll(() => statusOf('settings-status')).toMatch(/rejected the key ending …0000/);
    await page.fill('#api-key', server.key);
    await page.click('#test');
    await expect.poll(() => statusOf('settings-status')).toMatch(/^Connected to http:\/\/127\.0\.0\.1:\d+: schedule 2026 Revision 10; \d+ of 120 requests left this minute\.$/);
    expect(await page.evaluate(() => window.__storage.get('landed.apiKey'))).toBe(server.key);
    expect(await page.evaluate(() => window.__storage.get('landed.baseUrl'))).toBe(server.url);
    expect(await page.locator('#settings-status').getAttribute('class')).toContain('ok');
  });

  it('costs the selected order next to it, with formats and a totals row', async () => {
    api.length = 0;
    await page.evaluate(() => {
      window.__sheet.set(1, 1, [
        ['HTS', 'Value', 'Origin'],
        ['6109.10.00', 10000, 'china'],
        ['6109.10.00', 10000, 'kr'],
        ['6109.1', 500, 'VN'],
        ['0201.10.05', 1000, ''],
      ]);
      window.__sheet.select(1, 1, 5, 3);
    });
    await page.click('#cost');
    await expect.poll(() => statusOf('order-status')).toMatch(/^Costed 4 lines into Sheet1!E2:K7; 1 with errors \(see the Status column\)\. Schedule 2026 Revision 10\.$/);
    expect(api).toEqual(['POST /api/v1/duty/bulk']);
    const out = await page.evaluate(() => window.__sheet.get(1, 4, 6, 7));
    expect(out[0]).toEqual(['Duty', 'Section 301', 'MPF', 'HMF', 'Landed cost', 'Rate', 'Status']);
    // One entry: MPF 0.3464% of the liable value 11,000 (China 10,000 + MFN 1,000) = 38.10, shared by value.
    // Landed cost includes note 52 (today): China +12.5% = 1,250; Korea 12.5% total over Free = 1,250.
    expect(out[1]).toEqual([1650, 750, 34.64, 0, 13684.64, '16.5%', 'OK']); // HMF 0: not by vessel
    expect(out[2]).toEqual([0, 0, 0, 0, 11250, 'Free', 'OK']);
    expect(out[3][6]).toMatch(/^Error: hts must have 4, 6, 8 or 10 digits; "6109\.1" has 5/);
    expect(out[4].slice(0, 6)).toEqual(['', 0, 3.46, 0, '', '4.4¢/kg']);
    expect(out[5].slice(0, 5)).toEqual([1650, 750, 38.1, 0, 25938.1]); // 21,000 + 1,650 + 750 + 2 × 1,250 + 38.10
    const formats = await page.evaluate(() => window.__sheet.formats(2, 4, 1, 7));
    expect(formats[0]).toEqual(['$#,##0.00', '$#,##0.00', '$#,##0.00', '$#,##0.00', '$#,##0.00', '@', 'General']);
    const bold = await page.evaluate(() => window.__sheet.bold(1, 4, 6, 1).map((r) => r[0]));
    expect(bold).toEqual([true, false, false, false, false, true]);
    expect(await page.evaluate(() => window.__sheet.border(6, 4))).toBe('EdgeTop:Continuous');
    // The pane's summary.
    await expect.poll(() => page.locator('#totals').textContent()).toContain('Duty$1,650.00');
    expect(await page.locator('#totals').textContent()).toContain('Landed cost$25,938.10');
    expect(await page.locator('#totals').textContent()).toContain('Chapter 99 duties$3,250.00'); // 750 + 1,250 + 1,250
    // The data itself is untouched.
    expect(await page.evaluate(() => window.__sheet.get(1, 1, 2, 3))).toEqual([['HTS', 'Value', 'Origin'], ['6109.10.00', 10000, 'china']]);
  });

  it('asks before overwriting: Cancel writes nothing, Overwrite writes with the new options', async () => {
    api.length = 0;
    await page.click('#cost');
    await page.locator('#confirm').waitFor({ state: 'visible' });
    expect(await page.locator('#confirm-text').textContent()).toBe('Cells in Sheet1!E2:K7 are not empty. Overwrite them with the costing?');
    await page.click('#confirm-no');
    await expect.poll(() => statusOf('order-status')).toBe('Cancelled: nothing was written.');
    expect(api).toEqual([]);

    await page.check('#ocean');
    await page.selectOption('#s301', '25');
    await page.click('#cost');
    await page.locator('#confirm').waitFor({ state: 'visible' });
    await page.click('#confirm-yes');
    await expect.poll(() => statusOf('order-status')).toMatch(/^Costed 4 lines/);
    expect(api).toEqual(['POST /api/v1/duty/bulk']);
    const row = await page.evaluate(() => window.__sheet.get(2, 4, 1, 7)[0]);
    // Section 301 at 25% = 2,500; HMF 0.125% = 12.50; note 52 China +12.5% = 1,250 (in landed).
    expect(row).toEqual([1650, 2500, 34.64, 12.5, 15447.14, '16.5%', 'OK']);
    await page.uncheck('#ocean');
    await page.selectOption('#s301', '');
  });

  it('without a header row, offers the columns to choose, then costs with them', async () => {
    await page.evaluate(() => {
      window.__sheet.clear();
      window.__sheet.set(20, 0, [[10000, '6109.10.00', 'china'], [2000, '8471.30.01', 'china']]);
      window.__sheet.select(20, 0, 2, 3);
    });
    await page.click('#cost');
    await expect.poll(() => statusOf('order-status')).toMatch(/^No header row naming HTS and Value columns/);
    await expect.poll(() => page.locator('#col-hts option').allTextContents()).toEqual(['(auto)', 'A', 'B · 6109.10.00', 'C · china']);
    await page.selectOption('#col-hts', '1');
    await page.selectOption('#col-value', '0');
    await page.selectOption('#col-origin', '2');
    await page.uncheck('#has-header');
    await page.click('#cost');
    await expect.poll(() => statusOf('order-status')).toMatch(/^Costed 2 lines into Sheet1!D21:J23\./);
    const out = await page.evaluate(() => window.__sheet.get(20, 3, 3, 7));
    expect(out[0].slice(0, 3)).toEqual([1650, 750, 34.64]);
    expect(out[1].slice(0, 3)).toEqual([0, 0, 6.93]); // 8471.30.01 is Free, not on a Section 301 list here; MPF 0.3464% of 2,000
    expect(out[2].slice(0, 3)).toEqual([1650, 750, 41.57]); // MPF of the entry: 0.3464% of 12,000
    // Back to detection for whoever comes next.
    for (const c of ['hts', 'value', 'origin']) await page.selectOption(`#col-${c}`, '');
    await page.check('#has-header');
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
    expect(result.specific).toMatchObject({ code: '#N/A', message: expect.stringContaining('the general rate 4.4¢/kg is specific, so the duty needs a quantity') });
    expect(result.rate).toBe('Free');
  });

  it('left no script error, and looks right', async () => {
    expect(pageErrors).toEqual([]);
    await page.evaluate(() => {
      window.__sheet.set(1, 1, [['HTS', 'Value', 'Origin'], ['6109.10.00', 10000, 'china'], ['6109.10.00', 10000, 'kr'], ['6109.1', 500, 'VN'], ['0201.10.05', 1000, '']]);
      window.__sheet.select(1, 1, 5, 3);
    });
    await page.click('#cost');
    await expect.poll(() => statusOf('order-status')).toMatch(/^Costed 4 lines/);
    await page.screenshot({ path: SCREENSHOT, fullPage: true });
    // The worksheet as the stand-in holds it, drawn as a grid for a person to look at.
    const grid = await page.evaluate(() => ({ v: window.__sheet.get(0, 0, 8, 11), f: window.__sheet.formats(0, 0, 8, 11), l: Array.from({ length: 11 }, (_, i) => window.__sheet.letter(i)) }));
    const sheetPage = await browser.newPage();
    const money = (x: unknown, f: string) => (typeof x === 'number' && f.startsWith('$') ? `$${x.toLocaleString('en-US', { minimumFractionDigits: 2 })}` : String(x));
    const rows = grid.v.map((r, i) => `<tr><th>${i + 1}</th>${r.map((x, j) => `<td class="${typeof x === 'number' ? 'n' : ''}">${money(x, grid.f[i][j])}</td>`).join('')}</tr>`);
    await sheetPage.setViewportSize({ width: 1400, height: 320 });
    await sheetPage.setContent(
      `<style>body{font:12px sans-serif}table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:2px 6px;max-width:260px;white-space:nowrap;overflow:hidden;text-overflow:ellipsis}th{background:#eee}.n{text-align:right}</style><table><tr><th></th>${grid.l.map((l) => `<th>${l}</th>`).join('')}</tr>${rows.join('')}</table>`,
    );
    await sheetPage.screenshot({ path: SHEET_SCREENSHOT });
    await sheetPage.close();
    expect(readFileSync(SCREENSHOT).subarray(1, 4).toString('latin1')).toBe('PNG');
  });
});
