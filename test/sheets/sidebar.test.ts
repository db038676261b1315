/**
 * The sidebar page as built (dist Sidebar.html) in headless Chromium, as a person uses it: its
 * google.script.run is a stand-in that calls the server-side functions of the same build loaded in
 * the Apps Script stand-ins, which call the real API. Leaves a screenshot at /tmp/landed-sheets-sidebar.png.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { launchChromium } from '../helpers/browser.js';
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { AddonWorld } from './gas.js';
import { startAddon, type Addon } from './harness.js';
import { MIXED_ORDER_BY_VESSEL, writeMixedOrder } from './orders.js';

const SCREENSHOT = '/tmp/landed-sheets-sidebar.png';
/** Where Apps Script serves sidebars from; answered locally, as nothing may leave the machine. */
const SIDEBAR_URL = 'https://n-sidebar-0-script.googleusercontent.com/userCodeAppPanel';

let addon: Addon;
let world: AddonWorld;
let profile: string;
let browser: BrowserContext;
let page: Page;
const calls: string[] = [];
const pageErrors: string[] = [];

/** google.script.run: withSuccessHandler/withFailureHandler, then any server function by name. */
const RUN_STUB = `(() => {
  const runner = (ok, fail) => new Proxy({}, {
    get(_, name) {
      if (name === 'withSuccessHandler') return (f) => runner(f, fail);
      if (name === 'withFailureHandler') return (f) => runner(ok, f);
      return (...args) => {
        window.__callServer(name, JSON.parse(JSON.stringify(args))).then(
          (v) => ok && ok(v),
          (e) => fail && fail(new Error(String(e && e.message || e).replace(/^Error: /, ''))),
        );
      };
    },
  });
  window.google = { script: { run: runner(null, null) } };
})();`;

beforeAll(async () => {
  addon = await startAddon();
  world = addon.fresh();
  world.call('saveSettings', { clearKey: true }); // the person pastes the key in the sidebar
  profile = mkdtempSync(join(tmpdir(), 'landed-sheets-chromium-'));
  ({ browser, page } = await launchChromium(profile, { width: 300, height: 900 }));
  const html = readFileSync(join(world.dir, 'Sidebar.html'), 'utf8');
  await page.route('**/*', (route) => (route.request().url() === SIDEBAR_URL ? route.fulfill({ status: 200, contentType: 'text/html; charset=utf-8', body: html }) : route.abort()));
  await page.exposeFunction('__callServer', (name: string, args: unknown[]) => {
    calls.push(name);
    return world.call(name, ...args);
  });
  await page.addInitScript(RUN_STUB);
  page.on('pageerror', (e) => pageErrors.push(e.message));
  await page.goto(SIDEBAR_URL);
  // The page asks for the settings on load.
  await page.waitForFunction(() => (document.getElementById('apiUrl') as HTMLInputElement).value !== '');
});

afterAll(async () => {
  await browser?.close();
  await addon?.close();
  if (profile) rmSync(profile, { recursive: true, force: true });
});

const text = (selector: string) => page.locator(selector).innerText();

test('set the key and test the connection', async () => {
  expect(await page.inputValue('#apiUrl')).toBe(`${addon.server.url}/`);
  expect(await text('#keyState')).toBe('No key saved: paste one above.');
  await page.click('#test');
  await expect.poll(() => text('#connection')).toMatch(/No landed API key is set for this spreadsheet/);

  await page.fill('#apiKey', 'wrong-key');
  await page.click('#save');
  await expect.poll(() => text('#connection')).toBe('Saved.');
  await page.click('#test');
  await expect.poll(() => text('#connection')).toMatch(/The landed API refused the key/);
  await page.click('#forget');
  await expect.poll(() => text('#keyState')).toBe('No key saved: paste one above.');
  expect(world.documentProperties.has('landed.apiKey')).toBe(false);

  await page.fill('#apiKey', addon.server.key);
  await page.click('#save');
  await expect.poll(() => text('#keyState')).toBe(`A key ending in …${addon.server.key.slice(-4)} is saved for this spreadsheet.`);
  expect(await page.inputValue('#apiKey')).toBe('');
  expect(world.documentProperties.get('landed.apiKey')).toBe(addon.server.key);
  await page.click('#test');
  await expect.poll(() => text('#connection')).toMatch(/^Connected to http:\/\/127\.0\.0\.1:\d+\/: schedule 2026 Revision 10, \d+ of 120 requests left this minute\.$/);
});

test('cost the selected order: asked before overwriting, cancel writes nothing, overwrite writes the results', async () => {
  writeMixedOrder(world);
  world.sheet.getRange('G3').setValues([['old figure']]);
  world.select('A1:E7');
  await page.check('#ocean');

  await page.click('#cost');
  await expect.poll(() => text('#confirmText')).toBe('The cells Sheet1!F1:L8 are not empty. Overwrite them with the costing?');
  await page.click('#cancel');
  await expect.poll(() => text('#order')).toBe('Cancelled: nothing was written.');
  expect(world.sheet.values('F3:G3')).toEqual([['', 'old figure']]);
  expect(world.requests.filter((r) => r.url.endsWith('/duty/bulk'))).toHaveLength(0);

  await page.click('#cost');
  await page.locator('#confirm').waitFor({ state: 'visible' });
  await page.click('#overwrite');
  await expect.poll(() => text('#order')).toBe('Results written to Sheet1!F1:L8. 1 line(s) could not be costed: see their Status.');
  expect(world.sheet.values('F1:L8')).toEqual(MIXED_ORDER_BY_VESSEL);
  expect(calls.filter((c) => c !== 'getSettings' && c !== 'saveSettings' && c !== 'testConnection')).toEqual(['planSelectedOrder', 'planSelectedOrder', 'costOrderChunk', 'finishOrder']);

  const totals = await page.locator('#totals tr').allInnerTexts();
  expect(totals.map((t) => t.replace(/\s+/g, ' ').trim())).toEqual([
    'Lines 5 (1 with errors)',
    'Customs value 18,000.00',
    'Duty 1,656.30',
    'Section 301 750.00',
    'Chapter 99 duties 2,000.00', // 750 + note 52 China +12.5% of 10,000
    'MPF 62.35',
    'HMF 22.50',
    'Landed cost 21,741.15',
  ]);
  expect(await page.locator('#progress').evaluate((p: HTMLProgressElement) => [p.value, p.max])).toEqual([1, 1]);
  // The options were saved for the menu's "Cost selected order".
  expect(JSON.parse(world.documentProperties.get('landed.orderOptions')!)).toMatchObject({ ocean: true });
  await page.screenshot({ path: SCREENSHOT, fullPage: true });
  expect(pageErrors).toEqual([]);
});

test('a problem with the selection is shown in the sidebar', async () => {
  world.sheet.getRange('A20:B21').setValues([
    ['Item', 'Price'],
    ['widget', 5],
  ]);
  world.select('A20:B21');
  await page.click('#cost');
  await expect.poll(() => text('#order')).toMatch(/The header row \(Item, Price\) names no HTS and Value columns/);
  expect(await page.locator('#order').getAttribute('class')).toBe('message error');
});
