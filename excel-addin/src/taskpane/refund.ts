/**
 * "Refund check" in Excel: reads the selected past entry lines, costs them through the shared client
 * (POST /duty/bulk, each item with its entry date, up to 1,000 a request) and writes the grid
 * spreadsheet/refund-check.ts decides beside them. This layer only moves cells, and asks before overwriting a non-empty one.
 */
/// <reference types="office-js" />
import type { OrderResult } from '../../../shared/order.js';
import { requestBody, requestItems } from '../../../spreadsheet/order-requests.js';
import type { OrderOptions } from '../../../spreadsheet/order-sheet.js';
import { capeSheets, readRefundSheet, refundChecked, refundCheckedText, refundGrid, refundNotes, refundRequests, refundTotalsBlock, REFUND_HEADERS, type RefundFound, type RefundGrid } from '../../../spreadsheet/refund-check.js';
import type { RefundOptions } from '../../../spreadsheet/refund-claims.js';
import type { TotalsRow } from '../../../spreadsheet/order-output.js';
import { readSelection, type CostDeps, type Selection } from './order-sheet.js';

function gridRange(context: Excel.RequestContext, sel: Selection, rows: number): Excel.Range {
  return context.workbook.worksheets.getActiveWorksheet().getRangeByIndexes(sel.rowIndex, sel.columnIndex + sel.columnCount, rows, REFUND_HEADERS.length);
}

async function inspect(sel: Selection, rows: number): Promise<{ address: string; empty: boolean }> {
  return Excel.run(async (context) => {
    const target = gridRange(context, sel, rows);
    target.load(['address', 'formulas']);
    await context.sync();
    return { address: target.address, empty: (target.formulas as unknown[][]).every((row) => row.every((v) => v === '' || v === null)) };
  });
}

async function write(sel: Selection, grid: RefundGrid): Promise<string> {
  return Excel.run(async (context) => {
    const target = gridRange(context, sel, grid.values.length);
    target.numberFormat = grid.formats;
    target.values = grid.values;
    target.format.fill.clear();
    target.format.font.bold = false;
    grid.fills.forEach((colour, i) => colour && (target.getRow(i).format.fill.color = colour));
    for (const i of grid.bold) target.getRow(i).format.font.bold = true;
    target.getRow(grid.ruled).format.borders.getItem('EdgeTop').style = 'Continuous';
    target.load('address');
    await context.sync();
    return target.address;
  });
}

/** The CAPE declaration sheets, each replaced if there: the entry numbers as text, under `Entry Number`. */
async function writeCape(found: RefundFound): Promise<void> {
  const sheets = capeSheets(found);
  if (!sheets.length) return;
  await Excel.run(async (context) => {
    const old = sheets.map((s) => context.workbook.worksheets.getItemOrNullObject(s.name));
    old.forEach((o) => o.load('isNullObject'));
    await context.sync();
    old.forEach((o) => !o.isNullObject && o.delete());
    for (const s of sheets) {
      const range = context.workbook.worksheets.add(s.name).getRangeByIndexes(0, 0, s.rows.length, 1);
      range.numberFormat = s.rows.map(() => ['@']);
      range.values = s.rows;
    }
    await context.sync();
  });
}

export interface RefundSummary {
  /** Null when the person chose not to overwrite. */
  address: string | null;
  status: string;
  errors: boolean;
  totals: TotalsRow[];
  notes: string[];
}

/** The whole flow behind the "Refund check" button. */
export async function checkSelectedRefund(options: OrderOptions, deps: CostDeps, refund: RefundOptions = {}): Promise<RefundSummary> {
  const sel = await readSelection();
  const sheet = readRefundSheet(sel.values, options.decimal);
  if (!sheet.lines.length) throw new Error(`The selection ${sel.address} has no entry lines under its header.`);
  // Each line is costed at its own entry date: the pane's Entry date does not apply.
  const sent = { ...options, date: undefined };
  const requests = refundRequests(sheet.lines);
  const lines = sheet.lines.filter((l) => l.item).length;
  const answers: OrderResult[] = [];
  let done = 0;
  for (const r of requests) {
    deps.progress(done, lines, lines);
    // A 429 is waited out (the client's), counted down in the pane like an order's.
    answers.push(await deps.client.api.post<OrderResult>('/duty/bulk', requestBody(r, sent), deps.signal, (ms) => deps.waiting?.(ms, done, lines, lines)));
    done += requestItems(r).length;
  }
  const checked = refundChecked(answers);
  const grid = refundGrid(sheet, sel.rowCount, checked, sent, (deps.now ?? (() => new Date()))(), refund);
  const target = await inspect(sel, grid.values.length);
  const summary = { totals: refundTotalsBlock(grid, sheet), notes: refundNotes(checked.notes), errors: grid.sums.errors > 0 };
  if (!target.empty && !(await deps.confirm(`Cells in ${target.address} are not empty. Overwrite them with the refund check?`)))
    return { address: null, status: 'Cancelled: nothing was written.', ...summary };
  const address = await write(sel, grid);
  await writeCape(grid);
  return { address, status: refundCheckedText(grid, sheet, address, 'excel'), ...summary };
}
