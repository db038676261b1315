/**
 * "Refund check (IEEPA)" in the task pane end to end: the add-in built fresh, served by the real API
 * server at /excel/, in headless Chromium with the Office/Excel stand-in (fixtures/office-stub.js).
 * The same past entry lines and the same cells as the Sheets sidebar (test/sheets/refund.test.ts),
 * from the fixture both read. Leaves the README's picture of the pane after the check.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import build from '../../excel-addin/build.mjs';
import { projectRoot } from '../../server/data/paths.js';
import { launchChromium } from '../helpers/browser.js';
import { startServer, type RunningServer } from '../helpers/server.js';
import { REFUND_BOLD_ROWS, REFUND_CHECKED, REFUND_ENTRIES, REFUND_RECORD, REFUND_REQUESTS, REFUND_STATUS, REFUND_TOTALS } from '../addins/refund-entries.js';

/** The README's picture of the pane after a refund check, renewed with UPDATE_SCREENSHOTS=1 (else left in the temporary folder). */
const SCREENSHOT = join(process.env.UPDATE_SCREENSHOTS ? join(projectRoot, 'docs') : tmpdir(), 'excel-refund-check.png');
const stub = readFileSync(join(import.meta.dirname, 'fixtures', 'office-stub.js'), 'utf8');

let dir: string;
let server: RunningServer;
let browser: BrowserContext;
let page: Page;
const bulkBodies: unknown[] = [];
const pageErrors: string[] = [];

interface StubSheet {
  set(row: number, col: number, values: unknown[][]): void;
  get(row: number, col: number, h: number, w: number): unknown[][];
  formats(row: number, col: number, h: number, w: number): string[][];
  bold(row: number, col: number, h: number, w: number): boolean[][];
  border(row: number, col: number): string | null;
  fills(row: number, col: number, h: number, w: number): (string | null)[][];
  select(row: number, col: number, h: number, w: number): void;
  clear(): void;
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'landed-excel-refund-'));
  await build(projectRoot, { outDir: join(dir, 'static', 'excel'), env: {} });
  server = await startServer({ staticRoot: join(dir, 'static') });
  ({ browser, page } = await launchChromium(join(dir, 'profile'), { width: 380, height: 1000 }));
  // office.js comes from Microsoft's CDN: the stand-in answers instead; nothing else leaves the machine.
  await page.route(/^https?:\/\/(?!127\.0\.0\.1)/, (route) =>
    route.request().url() === 'https://appsforoffice.microsoft.com/lib/1/hosted/office.js' ? route.fulfill({ status: 200, contentType: 'application/javascript', body: stub }) : route.abort(),
  );
  page.on('request', (r) => {
    if (new URL(r.url()).pathname === '/api/v1/duty/bulk') bulkBodies.push(r.postDataJSON());
  });
  page.on('pageerror', (e) => pageErrors.push(e.message));
  await page.goto(`${server.url}/excel/taskpane.html`);
  await page.locator('#app').waitFor({ state: 'visible' });
  await page.fill('#api-key', server.key);
  await page.click('#test');
  await page.locator('#order').waitFor({ state: 'visible' });
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const status = () => page.locator('#order-status').textContent();

it('past entries of China, Canada and after the IEEPA period, and a bad line: the same cells as the Sheets sidebar', async () => {
  await page.evaluate((values) => {
    (window as unknown as { __sheet: StubSheet }).__sheet.set(0, 0, values);
    (window as unknown as { __sheet: StubSheet }).__sheet.select(0, 0, 7, 7);
  }, REFUND_ENTRIES);
  await page.click('#refund');
  await expect.poll(status).toBe(REFUND_STATUS);
  // One request per entry date (no part is measured: each is one entry of a few lines).
  expect(bulkBodies).toEqual(REFUND_REQUESTS);
  const out = await page.evaluate(() => (window as unknown as { __sheet: StubSheet }).__sheet.get(0, 7, 19, 5));
  expect(out.slice(0, 18)).toEqual(REFUND_CHECKED);
  expect(out[18][0]).toMatch(REFUND_RECORD);
  expect(out[18][4]).toContain('Antidumping and countervailing duties are not included.');
  const formats = await page.evaluate(() => (window as unknown as { __sheet: StubSheet }).__sheet.formats(1, 7, 10, 5));
  expect(formats[0]).toEqual(['$#,##0.00', '@', '$#,##0.00', '$#,##0.00', '@']);
  expect(formats[9]).toEqual(['@', '@', '@', '$#,##0.00', '@']);
  const bold = await page.evaluate(() => (window as unknown as { __sheet: StubSheet }).__sheet.bold(0, 7, 19, 1).map((r) => r[0]));
  expect(bold.flatMap((b, i) => (b ? [i] : []))).toEqual(REFUND_BOLD_ROWS);
  expect(await page.evaluate(() => (window as unknown as { __sheet: StubSheet }).__sheet.border(7, 7))).toBe('EdgeTop:Continuous');
  const fills = await page.evaluate(() => (window as unknown as { __sheet: StubSheet }).__sheet.fills(1, 7, 6, 5).map((r) => r[0]));
  expect(fills).toEqual([null, null, null, null, null, '#f4cccc']);
  const shown = (await page.locator('#totals tr').allInnerTexts()).map((t) => t.replace(/\s+/g, ' ').trim());
  expect(shown).toEqual(REFUND_TOTALS);
  expect(await page.locator('#notes li').allTextContents()).toContain('Antidumping and countervailing duties are not included.');
  await page.screenshot({ path: SCREENSHOT, fullPage: true });
});

it('cells not empty: asks first; Cancel writes nothing', async () => {
  bulkBodies.length = 0;
  await page.click('#refund');
  await page.locator('#confirm').waitFor({ state: 'visible' });
  expect(await page.locator('#confirm-text').textContent()).toBe('Cells in Sheet1!H1:L19 are not empty. Overwrite them with the refund check?');
  await page.evaluate(() => (window as unknown as { __sheet: StubSheet }).__sheet.set(0, 7, [['changed']]));
  await page.click('#confirm-no');
  await expect.poll(status).toBe('Cancelled: nothing was written.');
  expect(await page.evaluate(() => (window as unknown as { __sheet: StubSheet }).__sheet.get(0, 7, 1, 1)[0][0])).toBe('changed');
});

it('a header without an entry number column says so', async () => {
  await page.evaluate(() => {
    const s = (window as unknown as { __sheet: StubSheet }).__sheet;
    s.clear();
    s.set(0, 0, [['HTS', 'Origin', 'Entry date', 'Value'], ['6109.10.00', 'China', '2025-05-20', 1000]]);
    s.select(0, 0, 2, 4);
  });
  await page.click('#refund');
  await expect.poll(status).toBe('A refund check needs a header row naming Entry number, Entry date, HTS and Value columns (Origin, Claim and Duty paid if known); this one names no Entry number column.');
  expect(pageErrors).toEqual([]);
});
