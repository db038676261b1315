/**
 * Issue 30 point 6: one behaviour in both hosts. The same orders (brokers' invoice layouts, test/addins/invoices.ts)
 * are costed in Excel's task pane (office.js stand-in) and in the Sheets sidebar (Apps Script
 * stand-ins), both in headless Chromium against the real service, selected three ways (the table with
 * blank rows above it, whole columns, one cell inside it), and every cell written (values, colours,
 * notes, bold, number formats), every status, the totals block, the notes listed and the overwrite
 * question are compared.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { columnLetter, RESULT_HEADERS } from '../../spreadsheet/order-sheet.js';
import { openPane, type Pane } from '../excel/pane.js';
import type { AddonWorld } from '../sheets/gas.js';
import { startAddon, type Addon } from '../sheets/harness.js';
import { openSidebar } from '../sheets/sidebar-page.js';
import { expectColumnsAddUp } from './column-sums.js';
import {
  BROKER_INVOICE, BROKER_INVOICE_COSTED, DATED_INVOICE_COSTED, datedInvoice, LINE_TOTAL_INVOICE, LINE_TOTAL_INVOICE_COSTED, UOM_INVOICE, UOM_INVOICE_COSTED,
} from './invoices.js';

let pane: Pane;
let addon: Addon;
let world: AddonWorld;
let sidebar: { browser: BrowserContext; page: Page };
let profile: string;
const pageErrors: string[] = [];

beforeAll(async () => {
  pane = await openPane();
  pane.page.on('pageerror', (e) => pageErrors.push(`Excel: ${e.message}`));
  await pane.page.goto(pane.url);
  await pane.page.locator('#app').waitFor({ state: 'visible' });
  await pane.page.fill('#api-key', pane.server.key);
  await pane.page.click('#test');
  await pane.page.locator('#order').waitFor({ state: 'visible' });

  addon = await startAddon();
  world = addon.fresh();
  world.call('testConnection'); // the key has worked: the order part shows
  profile = mkdtempSync(join(tmpdir(), 'landed-parity-chromium-'));
  sidebar = await openSidebar(world.dir, profile, (name, args) => world.call(name, ...args), { width: 380, height: 1000 });
  sidebar.page.on('pageerror', (e) => pageErrors.push(`Sheets: ${e.message}`));
  await sidebar.page.locator('#orderPart').waitFor({ state: 'visible' });
});

afterAll(async () => {
  await sidebar?.browser.close();
  await pane?.close();
  await addon?.close();
  if (profile) rmSync(profile, { recursive: true, force: true });
});

/** Where the table goes: under three blank rows (A4). */
const TOP = 3;

/** The ways a person selects the order: both hosts are given the same selection. */
const SELECTIONS = {
  'the table with the blank rows above it': (h: number, w: number) => ({ excel: [0, 0, TOP + h, w], sheets: `A1:${columnLetter(w - 1)}${TOP + h}` }),
  'whole columns': (_h: number, w: number) => ({ excel: [0, 0, 1_048_576, w], sheets: `A:${columnLetter(w - 1)}` }),
  'one cell inside the table': () => ({ excel: [TOP + 1, 1, 1, 1], sheets: `B${TOP + 2}` }),
} as const;

type Cells = readonly (readonly unknown[])[];

/**
 * Every order fixture of both hosts, as each host holds it (a date cell is Excel's serial and a Sheets
 * Date), and what costing it writes (worked out by hand in invoices.ts): the result columns of its
 * lines and totals, as far as the fixture gives them.
 */
const ORDERS: Record<string, { excel: Cells; sheets: Cells; costed: Cells }> = {
  'an invoice with a UOM column': { excel: UOM_INVOICE, sheets: UOM_INVOICE, costed: UOM_INVOICE_COSTED },
  'an invoice headed Tariff No., C/O, Line Total, with a bad origin': { excel: LINE_TOTAL_INVOICE, sheets: LINE_TOTAL_INVOICE, costed: LINE_TOTAL_INVOICE_COSTED },
  'a broker\'s invoice headed HTSUS No., Mfg Country, UOM, Sub Total, with CTN, a blank and an N/A value': { excel: BROKER_INVOICE, sheets: BROKER_INVOICE, costed: BROKER_INVOICE_COSTED },
  'an invoice with Entry date (a date cell) and Claim columns': { excel: datedInvoice(45931), sheets: datedInvoice(new Date(2025, 9, 1)), costed: DATED_INVOICE_COSTED },
};

/** A Sheets date cell as Excel holds it: its serial (days from 1899-12-30). */
const serial = (v: unknown): unknown =>
  v instanceof Date ? (Date.UTC(v.getFullYear(), v.getMonth(), v.getDate()) - Date.UTC(1899, 11, 30)) / 86_400_000 : v;

async function writeBoth(order: { excel: Cells; sheets: Cells }, selection: { excel: number[]; sheets: string }): Promise<void> {
  await pane.page.evaluate(
    ([order, sel]) => {
      window.__sheet.clear();
      window.__sheet.set(3, 0, order as unknown[][]);
      window.__sheet.select(sel[0], sel[1], sel[2], sel[3]);
    },
    [order.excel, selection.excel] as const,
  );
  world = addon.fresh();
  world.sheet.getRange(TOP + 1, 1, order.sheets.length, order.sheets[0].length).setValues(order.sheets.map((row) => [...row]) as (string | number)[][]);
  world.select(selection.sheets);
}

/** What each host shows and wrote: the status, the totals block, the notes listed, and the cells (values, colours, notes, bold, formats) around the order. */
async function shown(h: number, w: number) {
  const area = [0, 0, TOP + h + 4, w + 12] as const;
  const excel = await pane.page.evaluate(
    ([r, c, rows, cols]) => ({
      values: window.__sheet.get(r, c, rows, cols),
      fills: window.__sheet.fills(r, c, rows, cols),
      cellNotes: window.__sheet.notes(r, c, rows, cols).map((row) => row.map((n) => n ?? '')),
      bold: window.__sheet.bold(r, c, rows, cols),
      formats: window.__sheet.formats(r, c, rows, cols),
    }),
    area,
  );
  const range = world.sheet.getRange(area[0] + 1, area[1] + 1, area[2], area[3]);
  const sheets = {
    values: range.getValues().map((row) => row.map(serial)),
    fills: range.getBackgrounds(),
    cellNotes: range.getNotes(),
    bold: range.getFontWeights().map((row) => row.map((b) => b === 'bold')),
    formats: range.getNumberFormats().map((row) => row.map((f) => f ?? 'General')),
  };
  // The record says when it was costed: to the minute, which may differ between the two runs.
  const untimed = <T>(values: T[][]): T[][] => values.map((row) => row.map((v) => (typeof v === 'string' ? v.replace(/ \d\d:\d\d UTC/, ' hh:mm UTC') : v) as T));
  excel.values = untimed(excel.values);
  sheets.values = untimed(sheets.values);
  const ui = async (page: Page, status: string) => ({
    status: await page.locator(status).textContent(),
    totals: await page.locator('#totals tr').allTextContents(),
    listed: await page.locator('#notes li').allTextContents(),
  });
  return { excel: { ...excel, ...(await ui(pane.page, '#order-status')) }, sheets: { ...sheets, ...(await ui(sidebar.page, '#order')) } };
}

describe('the same order in both hosts', () => {
  for (const [orderName, order] of Object.entries(ORDERS))
    for (const [how, select] of Object.entries(SELECTIONS))
      it(`${orderName}, selected as ${how}: every cell and every message alike`, async () => {
        const [h, w] = [order.excel.length, order.excel[0].length];
        const costed = order.costed;
        await writeBoth(order, select(h, w));
        await pane.page.click('#cost');
        await sidebar.page.click('#cost');
        const output = `Sheet1!${columnLetter(w)}${TOP + 1}:${columnLetter(w + 10)}${TOP + h + 2}`;
        await expect.poll(() => pane.page.locator('#order-status').textContent()).toMatch(new RegExp(`^Costed (\\d+ of )?${h - 1} lines into ${output.replace(/[!:]/g, '\\$&')}`));
        await expect.poll(() => sidebar.page.locator('#order').textContent()).toMatch(/^Costed /);
        const { excel, sheets } = await shown(h, w);
        // The table read is the order itself wherever the selection was: results right of it, from its header row down, as worked out by hand.
        expect(excel.values.slice(TOP, TOP + h + 1).map((row) => row.slice(w, w + costed[0].length))).toEqual([RESULT_HEADERS.slice(0, costed[0].length), ...costed]);
        // The totals row is the sum of what is shown above it (issue 41 point 1).
        const written = excel.values.slice(TOP + 1, TOP + h + 1).map((row) => row.slice(w, w + 11));
        expectColumnsAddUp(written.slice(0, -1), written[written.length - 1]);
        expect(sheets).toEqual(excel);
      });

  it('asked before overwriting in the same words, and Cancel writes nothing in either', async () => {
    const [h, w] = [UOM_INVOICE.length, UOM_INVOICE[0].length];
    await writeBoth(ORDERS['an invoice with a UOM column'], SELECTIONS['the table with the blank rows above it'](h, w));
    for (const page of [pane.page, sidebar.page]) await page.click('#cost');
    await expect.poll(() => pane.page.locator('#order-status').textContent()).toMatch(/^Costed /);
    await expect.poll(() => sidebar.page.locator('#order').textContent()).toMatch(/^Costed /);
    const before = await shown(h, w);
    await pane.page.click('#cost');
    await sidebar.page.click('#cost');
    await pane.page.locator('#confirm').waitFor({ state: 'visible' });
    await sidebar.page.locator('#confirm').waitFor({ state: 'visible' });
    const question = `The cells Sheet1!F4:P10 are not empty. Overwrite them with the costing?`; // the header, 4 lines, the totals and the record
    expect(await pane.page.locator('#confirm-text').textContent()).toBe(question);
    expect(await sidebar.page.locator('#confirmText').textContent()).toBe(question);
    await pane.page.click('#confirm-no');
    await sidebar.page.click('#cancel');
    await expect.poll(() => pane.page.locator('#order-status').textContent()).toBe('Cancelled: the sheet is as it was.');
    await expect.poll(() => sidebar.page.locator('#order').textContent()).toBe('Cancelled: the sheet is as it was.');
    // The cells as they were, in both.
    const cells = ({ values, fills, cellNotes, bold, formats }: Awaited<ReturnType<typeof shown>>['excel']) => ({ values, fills, cellNotes, bold, formats });
    const after = await shown(h, w);
    expect(cells(after.excel)).toEqual(cells(before.excel));
    expect(cells(after.sheets)).toEqual(cells(before.sheets));
    expect(pageErrors).toEqual([]);
  });
});
