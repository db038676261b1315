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
import { readRefundSheet, refundChecked, refundCheckedText, refundGrid, refundRequests, refundTotalsBlock, REFUND_HEADERS } from '../spreadsheet/refund-check.js';

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
 */
export function checkSelectedRefund(options: OrderOptions, overwrite: boolean): RefundAnswer | RefundWait {
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
  const grid = refundGrid(read, range.getNumRows(), checked, sent, new Date());
  const out = sheet.getRange(range.getRow(), range.getColumn() + range.getNumColumns(), grid.values.length, REFUND_HEADERS.length);
  const output = `${sheet.getName()}!${out.getA1Notation()}`;
  const summary = { totals: refundTotalsBlock(checked, grid.sums, read), notes: [...checked.notes], errors: grid.sums.errors > 0 };
  if (!overwrite && out.getValues().some((row) => row.some((c) => !isBlank(c))))
    return { confirm: `Cells in ${output} are not empty. Overwrite them with the refund check?`, status: '', ...summary };
  out.clearFormat();
  out.setNumberFormats(grid.formats);
  out.setValues(grid.values);
  out.setBackgrounds(grid.fills.map((colour) => REFUND_HEADERS.map(() => colour)));
  for (const i of grid.bold) out.offset(i, 0, 1, REFUND_HEADERS.length).setFontWeight('bold');
  out.offset(grid.ruled, 0, 1, REFUND_HEADERS.length).setBorder(true, null, null, null, null, null);
  return { output, status: refundCheckedText(checked, grid.sums, read, output), ...summary };
}
