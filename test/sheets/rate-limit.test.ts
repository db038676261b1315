/**
 * Issue 30 point 3 in Sheets' menu: an order that meets the rate limit waits it out, says so, and
 * finishes with its totals; never a partial costing. The real service runs with a small per-key
 * limit (6 requests in any 10 s) so a 5,000-line order (10 requests) meets it.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startLimitedServerProcess } from '../helpers/limited-server.js';
import { serverStatuses, startAddon, type Addon } from './harness.js';
import { REFUND_CHECKED, REFUND_ENTRIES, REFUND_FILING_DATE } from '../addins/refund-entries.js';

const LIMIT = 6;
const WINDOW_MS = 10_000;

let addon: Addon;

beforeAll(async () => {
  addon = await startAddon({}, () => startLimitedServerProcess(LIMIT, WINDOW_MS));
});

afterAll(async () => {
  await addon?.close();
});

describe('"Cost selected order" meets the rate limit', () => {
  test('a 5,000-line order waits out the 429s it gets, shows the wait in its toast, and finishes whole with its totals', async () => {
    const w = addon.fresh();
    // 5,000 lines of 6109.10.00 at 100 dollars, MFN: 16.50 duty each.
    w.sheet.getRange('A1:B5001').setValues([['HTS code', 'Customs value'], ...Array.from({ length: 5000 }, () => ['6109.10.00', 100])]);
    w.select('A1:B5001');
    w.call('costSelectedOrder');
    const statuses = await serverStatuses(addon.server, '/api/v1/duty/bulk');
    // 10 requests answered (5 measured, 5 costed), and the 429s between them: the 7th request met the limit first.
    expect(statuses.filter((s) => s === 200)).toHaveLength(10);
    expect(statuses.slice(0, LIMIT + 1)).toEqual([...Array(LIMIT).fill(200), 429]);
    expect(statuses.every((s) => s === 200 || s === 429)).toBe(true);
    // The wait was said, counted down every 5 s at most, and the progress it stood at: 6,000 of 10,000 (the 7th request's).
    const waits = w.toasts.filter((t) => t.startsWith('Waiting'));
    expect(waits[0]).toMatch(/^Waiting for the rate limit: resumes in (\d|10) s \(6,000 of 10,000 done\)\.$/);
    expect(w.slept.length).toBeGreaterThan(0);
    expect(w.slept.every((ms) => ms > 0 && ms <= 5000)).toBe(true);
    // Every line written, every one OK; the totals as without the limit: 5,000 × 16.50 = 82,500; MPF at its maximum 651.50 once.
    expect(w.sheet.values('M2:M5001').flat().filter((s) => s !== 'OK')).toEqual([]);
    expect(w.sheet.values('C5002:I5002')).toEqual([[82500, 0, 0, 0, 651.5, 0, 583151.5]]);
    expect(w.sheet.values('M5002')).toEqual([['Total: 5,000 lines']]);
    expect(w.toasts.at(-1)).toBe('Costed 5,000 lines into Sheet1!C1:M5003. Schedule 2026 Revision 10. Landed cost $583,151.50.');
  });

  test('a 429 on the searches of its Description column is waited out too: nothing written before, every line written after', async () => {
    const w = addon.fresh();
    // 200 lines of 6109.10.00 at 100, each with a description of its own: 201 queries (the code checked once), 5 POST /hts/batch.
    w.sheet.getRange('A1:C201').setValues([['HTS code', 'Description', 'Customs value'], ...Array.from({ length: 200 }, (_, i) => ['6109.10.00', `men's cotton t-shirt style ${i + 1}`, 100])]);
    w.select('A1:C201');
    // The key's window spent first: the order's first requests, its searches, meet the limit.
    await sleep(WINDOW_MS);
    for (let i = 0; i < LIMIT; i++) await fetch(`${addon.server.url}/api/v1/hts/6109.10.00`, { headers: { authorization: `Bearer ${addon.server.key}` } });
    w.call('costSelectedOrder');
    const searches = await serverStatuses(addon.server, '/api/v1/hts/batch');
    expect(searches.filter((s) => s === 429).length).toBeGreaterThan(0);
    expect(searches.filter((s) => s === 200)).toHaveLength(5);
    expect(w.toasts.some((t) => t.startsWith('Waiting for the rate limit: resumes in'))).toBe(true);
    // Every line costed and written, with its totals: 200 × 16.50 = 3,300.
    expect(w.sheet.values('N2:N201').flat().filter((s) => s !== 'OK')).toEqual([]);
    expect(w.sheet.values('D202')).toEqual([[3300]]);
    // A search batch counts as its queries (here the whole limit of 6): one batch a window, the answered ones kept.
  }, 120_000);

  test('the refund check refused by the rate limit writes nothing and says how long to wait; asked again after it, it writes the check', async () => {
    const w = addon.fresh();
    w.sheet.getRange('A1:J13').setValues(REFUND_ENTRIES);
    w.select('A1:J13');
    await sleep(WINDOW_MS);
    for (let i = 0; i < LIMIT; i++) await fetch(`${addon.server.url}/api/v1/hts/6109.10.00`, { headers: { authorization: `Bearer ${addon.server.key}` } });
    const refused = w.call<{ waitMs: number; lines: number }>('checkSelectedRefund', { origin: '', decimal: '.' }, false, { filingDate: REFUND_FILING_DATE });
    expect(refused.waitMs).toBeGreaterThan(0);
    expect(refused.waitMs).toBeLessThanOrEqual(WINDOW_MS);
    expect(refused.lines).toBe(REFUND_ENTRIES.length - 1);
    expect(w.sheet.values('K1:O13').flat().every((c) => c === '')).toBe(true);
    await sleep(refused.waitMs + 200);
    const answer = w.call<{ output: string }>('checkSelectedRefund', { origin: '', decimal: '.' }, false, { filingDate: REFUND_FILING_DATE });
    expect(answer.output).toBe('Sheet1!K1:O32');
    expect(w.sheet.values('K1:O31')).toEqual(REFUND_CHECKED);
  });
});
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

