/**
 * "Cost selected order": reads the selected range (header row detected by its names, or columns
 * chosen by the user), costs it with POST /duty/bulk through the shared client, and writes duty,
 * Section 301, MPF, HMF, landed cost, rate and a status column next to the data, with a totals row.
 * It never overwrites a non-empty cell without asking.
 */
/// <reference types="office-js" />
import type { OrderItem, OrderLine } from '../../../shared/order.js';
import type { CostedOrder, Landed, OrderOptions } from '../client/index.js';
import { headerMapping, ORDER_COLUMNS, RESULT_FORMATS, RESULT_HEADERS, type ColumnMapping } from '../../../shared/order-sheet.js';

/** Which column of the selection (0-based) holds each input. */
export type Mapping = ColumnMapping;

export interface Selection {
  address: string;
  rowIndex: number;
  columnIndex: number;
  rowCount: number;
  columnCount: number;
  values: unknown[][];
}

export interface Order {
  header: boolean;
  mapping: Mapping;
  items: OrderItem[];
  /** For each item, its row within the selection. */
  rows: number[];
}

/** 0 → A, 26 → AA. */
export function columnLetter(index: number): string {
  let s = '';
  for (let n = index + 1; n > 0; n = Math.floor((n - 1) / 26)) s = String.fromCharCode(65 + ((n - 1) % 26)) + s;
  return s;
}

const isBlank = (v: unknown): boolean => v === undefined || v === null || (typeof v === 'string' && v.trim() === '');

/**
 * The order in a selection. With no mapping chosen, the first row must be a header that names the
 * columns; a chosen mapping says itself whether the first row is a header. Rows whose mapped cells
 * are all blank are skipped.
 */
export function readOrder(sel: Selection, chosen: { mapping: Mapping; header: boolean } | null): Order {
  const detected = chosen ? null : headerMapping(sel.values[0] ?? []);
  if (!chosen && !detected)
    throw new Error('No header row naming HTS and Value columns was found in the selection: choose the columns under "Columns", or add a header row.');
  const mapping = chosen?.mapping ?? detected!;
  const header = chosen ? chosen.header : true;
  if (mapping.hts === undefined || mapping.value === undefined) throw new Error('Choose at least the HTS and Value columns.');
  const items: OrderItem[] = [];
  const rows: number[] = [];
  for (let r = header ? 1 : 0; r < sel.values.length; r++) {
    const row = sel.values[r];
    const cells = ORDER_COLUMNS.filter((c) => mapping[c] !== undefined).map((c) => [c, row[mapping[c]!]] as const);
    if (cells.every(([, v]) => isBlank(v))) continue;
    const item: OrderItem = { hts: null };
    for (const [c, v] of cells) if (!isBlank(v)) item[c] = typeof v === 'string' ? v.trim() : v;
    items.push(item);
    rows.push(r);
  }
  if (!items.length) throw new Error(`The selection ${sel.address} has no order lines under its header.`);
  return { header, mapping, items, rows };
}

function lineCells(l: OrderLine): (string | number)[] {
  // The row shows which line it is: `items[12].hts must…` reads better as `hts must…` beside it.
  if ('error' in l) return ['', '', '', '', '', '', `Error: ${l.error.message.replace(/^items\[\d+\]\./, '')}`];
  const status = l.duty === null ? (l.notes.find((n) => n.startsWith('The rate ')) ?? `Duty not computed for the rate ${l.duty_rate}.`) : 'OK';
  return [l.duty ?? '', l.section_301, l.mpf, l.hmf, l.duty === null ? '' : l.landed_cost, l.duty_rate ?? '', status];
}

export interface OutputBlock {
  values: (string | number)[][];
  numberFormat: string[][];
}

/** What is written next to the selection: a header row (when it has one), a row per row, totals. */
export function outputBlock(sel: Selection, order: Order, costed: CostedOrder): OutputBlock {
  const values: (string | number)[][] = sel.values.map(() => RESULT_HEADERS.map(() => ''));
  if (order.header) values[0] = [...RESULT_HEADERS];
  costed.lines.forEach((l) => (values[order.rows[l.line - 1]] = lineCells(l)));
  const t = costed.totals;
  const parts = [`Total: ${t.lines} line${t.lines === 1 ? '' : 's'}`];
  if (t.errors) parts.push(`${t.errors} with errors (not in the totals)`);
  if (t.specific_rate_lines) parts.push(`${t.specific_rate_lines} with a specific rate not computed (duty 0 in the totals)`);
  if (costed.chunks > 1) parts.push(`costed as ${costed.chunks} entries of up to 1,000 lines`);
  values.push([t.duty, t.section_301, t.mpf, t.hmf, t.landed_cost, '', parts.join('; ')]);
  return { values, numberFormat: values.map(() => [...RESULT_FORMATS]) };
}

/** Reads the used part of the selection. */
export async function readSelection(): Promise<Selection> {
  return Excel.run(async (context) => {
    const used = context.workbook.getSelectedRange().getUsedRangeOrNullObject(true);
    used.load(['isNullObject', 'address', 'rowIndex', 'columnIndex', 'rowCount', 'columnCount', 'values']);
    await context.sync();
    if (used.isNullObject) throw new Error('The selection is empty: select the order, header row included.');
    const { address, rowIndex, columnIndex, rowCount, columnCount, values } = used;
    return { address, rowIndex, columnIndex, rowCount, columnCount, values };
  });
}

/** The cells the output goes to: to the right of the selection, one row more for the totals. */
function outputRange(context: Excel.RequestContext, sel: Selection): Excel.Range {
  const sheet = context.workbook.worksheets.getActiveWorksheet();
  return sheet.getRangeByIndexes(sel.rowIndex, sel.columnIndex + sel.columnCount, sel.rowCount + 1, RESULT_HEADERS.length);
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

export async function writeBlock(sel: Selection, order: Order, block: OutputBlock): Promise<string> {
  return Excel.run(async (context) => {
    const target = outputRange(context, sel);
    target.numberFormat = block.numberFormat;
    target.values = block.values;
    if (order.header) target.getRow(0).format.font.bold = true;
    target.getLastRow().format.font.bold = true;
    target.getLastRow().format.borders.getItem('EdgeTop').style = 'Continuous';
    target.load('address');
    await context.sync();
    return target.address;
  });
}

export interface CostRequest {
  options: OrderOptions;
  /** Columns chosen by the user; null to detect them from the header row. */
  columns: { mapping: Mapping; header: boolean } | null;
}

export interface CostDeps {
  client: Landed;
  /** Asks the user; resolves true to go on. */
  confirm(message: string): Promise<boolean>;
  progress(done: number, total: number): void;
}

export interface CostSummary {
  address: string | null;
  order: Order;
  costed: CostedOrder | null;
}

/** The whole flow behind the "Cost selected order" button. */
export async function costSelectedOrder(req: CostRequest, deps: CostDeps): Promise<CostSummary> {
  const sel = await readSelection();
  const order = readOrder(sel, req.columns);
  const target = await inspectTarget(sel);
  if (!target.empty && !(await deps.confirm(`Cells in ${target.address} are not empty. Overwrite them with the costing?`)))
    return { address: null, order, costed: null };
  const costed = await deps.client.costOrder(order.items, req.options, deps.progress);
  const address = await writeBlock(sel, order, outputBlock(sel, order, costed));
  return { address, order, costed };
}
