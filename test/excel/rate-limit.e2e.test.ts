/**
 * Issue 30 point 3 in the Excel task pane: an order that meets the rate limit waits it out, counting
 * the seconds down in the status, and finishes with its totals; Cancel while it waits stops it at
 * once and writes nothing. The real service runs with 5 requests per key in any 10 s, so a 1,500-line
 * order (4 parts measured, then costed: 8 requests) meets it.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { MemoryRateLimiter } from '../../server/auth/rate-limit.js';
import { openPane, type Pane } from './pane.js';

let pane: Pane;
/** The status of each POST /duty/bulk the page got an answer to, and how many it sent. */
const statuses: number[] = [];
let sent = 0;
const pageErrors: string[] = [];

beforeAll(async () => {
  pane = await openPane({ keyLimiter: new MemoryRateLimiter(5, 10_000) });
  const { page } = pane;
  page.on('request', (r) => void (new URL(r.url()).pathname === '/api/v1/duty/bulk' && sent++));
  page.on('response', (r) => void (new URL(r.url()).pathname === '/api/v1/duty/bulk' && statuses.push(r.status())));
  page.on('pageerror', (e) => pageErrors.push(e.message));
  await page.goto(pane.url);
  await page.locator('#app').waitFor({ state: 'visible' });
  await page.fill('#api-key', pane.server.key);
  await page.click('#test'); // one request of the 5
  await page.locator('#order').waitFor({ state: 'visible' }); // the key worked
});

afterAll(async () => {
  await pane?.close();
});

const status = () => pane.page.locator('#order-status').textContent();

/** 1,500 lines of 6109.10.00 valued 100 … 1,599 under a header, at `row` (0-based), selected. */
async function writeOrder(row: number): Promise<void> {
  await pane.page.evaluate((row) => {
    window.__sheet.set(row, 0, [['HTS', 'Value'], ...Array.from({ length: 1500 }, (_, i) => ['6109.10.00', 100 + i])]);
    window.__sheet.select(row, 0, 1501, 2);
    const shown: string[] = ((window as unknown as { __shown: string[] }).__shown = []);
    const box = document.getElementById('order-status')!;
    new MutationObserver(() => shown.push(box.textContent ?? '')).observe(box, { childList: true, characterData: true, subtree: true });
  }, row);
}

it('a 1,500-line order meets the limit, waits it out counting down, and finishes whole with its totals', async () => {
  const { page } = pane;
  await writeOrder(0);
  await page.click('#cost');
  await expect.poll(status, { timeout: 40_000 }).toBe('Costed 1,500 lines into Sheet1!C1:M1503. Schedule 2026 Revision 10.');
  // 4 requests after the connection test, then the 5th (the first part costed) met the limit: 4 × 375 of 3,000 line costings done.
  expect(statuses.slice(0, 5)).toEqual([200, 200, 200, 200, 429]);
  expect(statuses.filter((s) => s === 200)).toHaveLength(8);
  const waits = await page.evaluate(() => (window as unknown as { __shown: string[] }).__shown.filter((t) => t.startsWith('Waiting')));
  expect(waits[0]).toMatch(/^Waiting for the rate limit: resumes in (\d|10) s \(1,500 of 3,000 done\)\.$/);
  const seconds = [...new Set(waits.filter((t) => t.endsWith('(1,500 of 3,000 done).')).map((t) => Number(/in (\d+) s/.exec(t)![1])))];
  expect(seconds.length).toBeGreaterThan(1); // counted down, not frozen
  expect(seconds).toEqual([...seconds].sort((a, b) => b - a));
  // Whole: every line OK; 16.5% of 100 … 1,599, each rounded half away from zero: (16.5 × 1,274,250 + 0.5 × 750 odd values) cents = 210,255.00;
  // MPF of the one entry at its maximum 651.50 (0.3464% of 1,274,250 is 4,414.00).
  const out = await page.evaluate(() => window.__sheet.get(1, 2, 1501, 11));
  expect(out.slice(0, 1500).map((r) => r[10]).filter((s) => s !== 'OK')).toEqual([]);
  expect(out[1500].slice(0, 7)).toEqual([210255, 0, 0, 0, 651.5, 0, 1485156.5]);
  expect(out[1500][10]).toBe('Total: 1,500 lines');
  expect(await page.locator('#totals tr').first().textContent()).toBe('Lines1,500');
});

it('Cancel while waiting for the limit stops at once: nothing sent after it, nothing written, the cells it would overwrite as they were', async () => {
  const { page } = pane;
  await writeOrder(1600);
  await page.evaluate(() => window.__sheet.set(1700, 4, [['old figure']]));
  const area = () => page.evaluate(() => [window.__sheet.get(1600, 2, 1503, 11), window.__sheet.fills(1600, 2, 1503, 11), window.__sheet.notes(1600, 2, 1503, 11), window.__sheet.formats(1600, 2, 1503, 11)]);
  const before = await area();
  await page.click('#cost');
  await page.locator('#confirm').waitFor({ state: 'visible' });
  await page.click('#confirm-yes');
  await expect.poll(status, { timeout: 20_000 }).toMatch(/^Waiting for the rate limit: resumes in \d+ s/);
  const left = Number(/in (\d+) s/.exec((await status())!)![1]);
  // One run at a time: the refund check cannot start (and take Cancel) while the order runs.
  expect([await page.locator('#cost').isDisabled(), await page.locator('#refund').isDisabled()]).toEqual([true, true]);
  const sentBefore = sent;
  await page.click('#cancel-cost');
  await expect.poll(status).toBe('Cancelled: the sheet is as it was.');
  expect(await area()).toEqual(before);
  await new Promise((r) => setTimeout(r, left * 1000 + 500)); // past the wait it was in
  expect(sent).toBe(sentBefore);
  expect(await page.locator('#progress').isHidden()).toBe(true);
  expect(await page.locator('#refund').isDisabled()).toBe(false);
  expect(pageErrors).toEqual([]);
});

it('the description search meets the limit: the status counts the wait down (not "Reading the selection…"), then the order is costed (issue 41)', async () => {
  const { page } = pane;
  await new Promise((r) => setTimeout(r, 10_500)); // a fresh window of 5 requests
  await page.evaluate(
    (row) => {
      window.__sheet.set(row, 0, [['HTS', 'Description', 'Value'], ['6109.10.00', "men's cotton t-shirts", 1000]]);
      window.__sheet.select(row, 0, 2, 3);
      const shown: string[] = ((window as unknown as { __shown: string[] }).__shown = []);
      const box = document.getElementById('order-status')!;
      new MutationObserver(() => shown.push(box.textContent ?? '')).observe(box, { childList: true, characterData: true, subtree: true });
    },
    3300,
  );
  // Spend the window's 5 requests with the pane's key, so the search that follows gets a 429.
  const codes = await page.evaluate(
    async ({ url, key }) => Promise.all(Array.from({ length: 5 }, () => fetch(`${url}/api/v1/hts/6109`, { headers: { Authorization: `Bearer ${key}` } }).then((r) => r.status))),
    { url: new URL(pane.url).origin, key: pane.server.key },
  );
  expect(codes).toEqual([200, 200, 200, 200, 200]);
  await page.click('#cost');
  await expect.poll(status, { timeout: 10_000 }).toMatch(/^Waiting for the rate limit: resumes in (\d|10) s \(0 of 1 done\)\.$/);
  await expect.poll(status, { timeout: 30_000 }).toBe('Costed 1 line into Sheet1!D3301:N3304. Schedule 2026 Revision 10.');
  const waits = await page.evaluate(() => (window as unknown as { __shown: string[] }).__shown.filter((t) => t.startsWith('Waiting')));
  const seconds = [...new Set(waits.map((t) => Number(/in (\d+) s/.exec(t)![1])))];
  expect(seconds.length).toBeGreaterThan(1); // counted down, not frozen
  // 16.5% of 1,000; the code fits its description (no "check the code").
  const out = await page.evaluate(() => window.__sheet.get(3301, 3, 1, 11));
  expect([out[0][0], out[0][10]]).toEqual([165, 'OK']);
  expect(pageErrors).toEqual([]);
});
