/**
 * "Refund check" in Sheets: the selected past entry lines costed through POST /duty/bulk (each item
 * with its entry date, up to 1,000 a request, sent together) and the grid spreadsheet/refund-check.ts decides written
 * beside them, the same cells as Excel's task pane. This layer only moves cells.
 */
import { atOnce, selection, type RateLimited } from './order.js';
import type { OrderResult } from '../shared/order.js';
import type { TotalsRow } from '../spreadsheet/order-output.js';
import { requestBody } from '../spreadsheet/order-requests.js';
import { isBlank, type OrderOptions } from '../spreadsheet/order-sheet.js';
import { capeSheets, readRefundSheet, refundChecked, refundCheckedText, refundGrid, refundNotes, refundRequests, refundTotalsBlock, REFUND_HEADERS } from '../spreadsheet/refund-check.js';
import type { RefundOptions } from '../spreadsheet/refund-claims.js';

/** A check the rate limit refused (a 429): nothing was written; `lines` for the countdown's progress. */
export interface RefundWait extends RateLimited {
  lines: number;
}

export interface RefundAnswer {
  /** Set when the cells are not empty and `overwrite` was false: the question to ask; nothing was written. */
  confirm?: string;
  /** Where the check was written. */
  output?: string;
  status: string;
  errors: boolean;
  totals: TotalsRow[];
  notes: string[];
}

/**
 * Sidebar: the refund check of the selected entry lines (Entry number, Entry date, HTS, Origin,
 * Value, and Duty paid if known), written to the right of them.
 * @param {{origin: string, decimal: string}} options The default origin and how text amounts are written.
 * @param {boolean} overwrite Whether to write over cells that are not empty.
 * @param {{filingDate: string, refundDate: string, corporate: boolean}} refund The CAPE filing date (default today), the refund date of the interest (default filing + 90 days), corporate rates.
 */
export function checkSelectedRefund(options: OrderOptions, overwrite: boolean, refund: RefundOptions = {}): RefundAnswer | RefundWait {
  const range = selection();
  const sheet = range.getSheet();
  const read = readRefundSheet(range.getValues(), options.decimal);
  if (!read.lines.length) throw new Error(`The selection ${sheet.getName()}!${range.getA1Notation()} has no entry lines under its header.`);
  // Each line is costed at its own entry date: the sidebar's Entry date does not apply.
  const sent = { ...options, date: undefined };
  const requests = refundRequests(read.lines);
  const answers = requests.length ? atOnce<OrderResult>(requests.map((r) => ({ path: 'api/v1/duty/bulk', body: requestBody(r, sent) }))) : [];
  // Refused by the rate limit: nothing written; the sidebar counts the wait down and asks again.
  if ('waitMs' in answers) return { ...answers, lines: read.lines.length };
  const checked = refundChecked(answers);
  const grid = refundGrid(read, range.getNumRows(), checked, sent, new Date(), refund);
  const out = sheet.getRange(range.getRow(), range.getColumn() + range.getNumColumns(), grid.values.length, REFUND_HEADERS.length);
  const output = `${sheet.getName()}!${out.getA1Notation()}`;
  const summary = { totals: refundTotalsBlock(grid, read), notes: refundNotes(checked.notes), errors: grid.sums.errors > 0 };
  if (!overwrite && out.getValues().some((row) => row.some((c) => !isBlank(c))))
    return { confirm: `Cells in ${output} are not empty. Overwrite them with the refund check?`, status: '', ...summary };
  out.clearFormat();
  out.setNumberFormats(grid.formats);
  out.setValues(grid.values);
  out.setBackgrounds(grid.fills.map((colour) => REFUND_HEADERS.map(() => colour)));
  for (const i of grid.bold) out.offset(i, 0, 1, REFUND_HEADERS.length).setFontWeight('bold');
  out.offset(grid.ruled, 0, 1, REFUND_HEADERS.length).setBorder(true, null, null, null, null, null);
  // The CAPE declaration tabs, each replaced if there: the entry numbers as text, under `Entry Number`.
  const book = SpreadsheetApp.getActiveSpreadsheet();
  for (const cape of capeSheets(grid)) {
    const old = book.getSheetByName(cape.name);
    if (old) book.deleteSheet(old);
    const tab = book.insertSheet(cape.name).getRange(1, 1, cape.rows.length, 1);
    tab.setNumberFormat('@');
    tab.setValues(cape.rows);
  }
  return { output, status: refundCheckedText(grid, read, output, 'sheets'), ...summary };
}
