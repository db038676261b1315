/**
 * "Cost selected order" in Excel: reads the selected range, costs it with POST /duty/bulk through
 * the shared client, and writes the results, colours, totals and the costing record (with the
 * order's notes as its cell note) beside it. What is read and written is decided in spreadsheet/order-sheet.ts and spreadsheet/order-output.ts;
 * this layer only moves cells. It never overwrites a non-empty cell without asking.
 */
/// <reference types="office-js" />
import type { OrderLine, OrderTotals } from '../../../shared/order.js';
import type { CostedOrder, Landed } from '../client/index.js';
import {
  columnLetter, FOOTER_ROWS, readSheetOrder, RESULT_FORMATS, RESULT_HEADERS, STATUS_COLUMN, type ColumnChoice, type OrderOptions, type SheetOrder,
} from '../../../spreadsheet/order-sheet.js';
import { orderRequests, type OrderRequest } from '../../../spreadsheet/order-requests.js';
import { addCodeNotes, codeQueries } from '../../../spreadsheet/code-check.js';
import { costingRecord, dutyMissing, KIND_COLOURS, lineOutput, overwriteQuestion, shownNotes, shownTotals, totalsOutput, type LineOutput } from '../../../spreadsheet/order-output.js';

export interface Selection {
  address: string;
  rowIndex: number;
  columnIndex: number;
  rowCount: number;
  columnCount: number;
  values: unknown[][];
}

export interface OutputBlock {
  values: (string | number)[][];
  numberFormat: string[][];
  /** Each row's background, null for none. */
  fills: (string | null)[];
  /**
   * Each row's note: the record row's holds the order's notes; the others are '' (a line's own notes
   * are in its Assumptions/Notes cell), which removes a note an earlier costing left there.
   */
  notes: string[];
  /** The totals as the totals row shows them (spreadsheet/order-output.ts shownTotals), and the lines without a duty. */
  totals: OrderTotals;
  dutyMissing: number;
}

/** What is written next to the selection: a header row (when it has one), a row per row, the totals and the record. */
export function outputBlock(sel: Selection, order: SheetOrder, requests: readonly OrderRequest[], costed: CostedOrder, options: OrderOptions, at: Date): OutputBlock {
  const height = sel.rowCount + FOOTER_ROWS;
  const values: (string | number)[][] = Array.from({ length: height }, () => RESULT_HEADERS.map(() => ''));
  const fills: (string | null)[] = values.map(() => null);
  const notes: string[] = values.map(() => '');
  if (order.header) values[0] = [...RESULT_HEADERS];
  const answers = [...costed.lines] as (OrderLine | undefined)[];
  const outputs: LineOutput[] = [];
  // The answers come request by request, in the order the lines were sent.
  for (const line of requests.flatMap((r) => r.lines)) {
    const out = lineOutput(line, line.item ? answers.shift() : undefined, costed.notes);
    values[line.row] = out.cells;
    fills[line.row] = KIND_COLOURS[out.kind];
    outputs.push(out);
  }
  const totals = shownTotals(costed.totals, outputs, order.lines.filter((l) => !l.item).length);
  const missing = dutyMissing(outputs);
  values[sel.rowCount] = totalsOutput(totals, missing, costed.entries);
  values[sel.rowCount + 1][0] = costingRecord({ revision: costed.hts_revision, options, dates: order.lines.flatMap((l) => l.date ?? []), at });
  notes[sel.rowCount + 1] = costed.notes.join('\n');
  // The header and the record are text (as Sheets leaves them); the lines and the totals take the results' formats.
  const text = (i: number) => i === sel.rowCount + 1 || (order.header && i === 0);
  return { values, numberFormat: values.map((_, i) => (text(i) ? RESULT_HEADERS.map(() => 'General') : [...RESULT_FORMATS])), fills, notes, totals, dutyMissing: missing };
}

/**
 * Reads the order, as spreadsheet/selection.ts specifies for both add-ins: one selected cell stands
 * for the table around it (its surrounding region); of a larger selection, the used part.
 */
export async function readSelection(): Promise<Selection> {
  return Excel.run(async (context) => {
    const selected = context.workbook.getSelectedRange();
    selected.load(['rowCount', 'columnCount']);
    await context.sync();
    const range = selected.rowCount === 1 && selected.columnCount === 1 ? selected.getSurroundingRegion() : selected;
    const used = range.getUsedRangeOrNullObject(true);
    used.load(['isNullObject', 'address', 'rowIndex', 'columnIndex', 'rowCount', 'columnCount', 'values']);
    await context.sync();
    if (used.isNullObject) throw new Error('The selection is empty: select the order, header row included.');
    const { address, rowIndex, columnIndex, rowCount, columnCount, values } = used;
    return { address, rowIndex, columnIndex, rowCount, columnCount, values };
  });
}

/** The cells the output goes to: to the right of the selection, with the totals and record rows below. */
function outputRange(context: Excel.RequestContext, sel: Selection): Excel.Range {
  const sheet = context.workbook.worksheets.getActiveWorksheet();
  return sheet.getRangeByIndexes(sel.rowIndex, sel.columnIndex + sel.columnCount, sel.rowCount + FOOTER_ROWS, RESULT_HEADERS.length);
}

/** The output range's address, and whether any of its cells holds something. */
export async function inspectTarget(sel: Selection): Promise<{ address: string; empty: boolean }> {
  return Excel.run(async (context) => {
    const target = outputRange(context, sel);
    target.load(['address', 'formulas']);
    await context.sync();
    const empty = (target.formulas as unknown[][]).every((row) => row.every((v) => v === '' || v === null));
    return { address: target.address, empty };
  });
}

/** Cell notes need ExcelApi 1.18; where Excel lacks it, the Status text stands alone. */
const notesSupported = (): boolean => typeof Office !== 'undefined' && Office.context?.requirements?.isSetSupported('ExcelApi', '1.18') === true;

export async function writeBlock(sel: Selection, order: SheetOrder, block: OutputBlock): Promise<string> {
  return Excel.run(async (context) => {
    const target = outputRange(context, sel);
    target.numberFormat = block.numberFormat;
    target.values = block.values;
    target.format.fill.clear();
    block.fills.forEach((colour, i) => colour && (target.getRow(i).format.fill.color = colour));
    if (order.header) target.getRow(0).format.font.bold = true;
    const totals = target.getRow(sel.rowCount);
    totals.format.font.bold = true;
    totals.format.borders.getItem('EdgeTop').style = 'Continuous';
    if (notesSupported()) {
      // A costing again replaces the notes of the last one.
      const sheet = context.workbook.worksheets.getActiveWorksheet();
      const status = sel.columnIndex + sel.columnCount + STATUS_COLUMN;
      const cells = block.notes.map((text, i) => ({ text, address: `${columnLetter(i === sel.rowCount + 1 ? status - RESULT_HEADERS.length + 1 : status)}${sel.rowIndex + i + 1}` }));
      const existing = cells.map((c) => sheet.notes.getItemOrNullObject(c.address).load('isNullObject'));
      await context.sync();
      cells.forEach((c, i) => {
        if (!existing[i].isNullObject) {
          if (c.text) existing[i].content = c.text;
          else existing[i].delete();
        } else if (c.text) sheet.notes.add(c.address, c.text);
      });
    }
    target.load('address');
    await context.sync();
    return target.address;
  });
}

export interface CostRequest {
  options: OrderOptions;
  /** Columns chosen by the user; null to detect them from the header row. */
  columns: ColumnChoice | null;
}

export interface CostDeps {
  client: Landed;
  /** Asks the user; resolves true to go on. */
  confirm(message: string): Promise<boolean>;
  /** `done` of `total` line costings (both passes) of an order of `lines` lines sent. */
  progress(done: number, total: number, lines: number): void;
  /** The costing waits `ms` for the rate limit (a 429) with `done` of `total` line costings done, then goes on. */
  waiting?(ms: number, done: number, total: number, lines: number): void;
  /** Aborts the requests when the user cancels. */
  signal?: AbortSignal;
  now?: () => Date;
}

export interface CostSummary {
  address: string | null;
  order: SheetOrder;
  costed: CostedOrder | null;
  /** The totals as the sheet shows them and the lines without a duty (absent when cancelled). */
  totals?: OrderTotals;
  dutyMissing?: number;
  /** What the pane lists under the totals, as the Sheets sidebar does (spreadsheet/order-output.ts shownNotes). */
  notes: string[];
}

/** The whole flow behind the "Cost selected order" button. */
export async function costSelectedOrder(req: CostRequest, deps: CostDeps): Promise<CostSummary> {
  const sel = await readSelection();
  const order = readSheetOrder(sel.values, req.columns, req.options.decimal);
  if (!order.lines.length) throw new Error(`The selection ${sel.address} has no order lines${order.header ? ' under its header' : ''}.`);
  const target = await inspectTarget(sel);
  if (!target.empty && !(await deps.confirm(overwriteQuestion(target.address))))
    return { address: null, order, costed: null, notes: [] };
  const sent = order.lines.filter((l) => l.item).length;
  const queries = codeQueries(order.lines, req.options);
  // The description search waits out a 429 in view too, the countdown at 0 line costings done.
  if (queries.length) addCodeNotes(order.lines, await deps.client.searchAll(queries, deps.signal, (ms) => deps.waiting?.(ms, 0, sent, sent)), req.options);
  const requests = orderRequests(order.lines);
  // Nothing is written before every part is costed: a cancel, even while waiting for the rate limit, leaves the sheet as it was.
  const costed = await deps.client.costOrder(requests, req.options, (done, total) => deps.progress(done, total, sent), deps.signal, (ms, done, total) =>
    deps.waiting?.(ms, done, total, sent),
  );
  const block = outputBlock(sel, order, requests, costed, req.options, (deps.now ?? (() => new Date()))());
  const address = await writeBlock(sel, order, block);
  return { address, order, costed, totals: block.totals, dutyMissing: block.dutyMissing, notes: shownNotes(block.values[sel.rowCount], costed.notes) };
}
