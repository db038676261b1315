/**
 * "Cost selected order": the selection is an order, one line per row (a header row naming HTS,
 * Value, Origin, Qty, Unit is recognised, else the columns are taken in that order). Lines go to
 * POST /api/v1/duty/bulk, 1,000 per request; each line's duty, Section 301, MPF, HMF, landed cost,
 * rate and status are written beside the order, errors marked, then a totals row below them. The
 * work is split in steps (plan, one chunk, totals) so the sidebar can show progress between them.
 */
import { sendAll } from './api.js';
import { isBlank, param, htsParam, type Cell } from './grid.js';
import { dutyNotComputed } from './results.js';
import type { OrderOptions } from './settings.js';
import type { OrderLine, OrderResult, OrderTotals } from '../shared/order.js';
import { headerMapping, ORDER_COLUMNS, RESULT_FORMATS, RESULT_HEADERS, type ColumnMapping, type OrderColumn } from '../shared/order-sheet.js';

export const CHUNK_LINES = 1000;
const ERROR_BACKGROUND = '#f4cccc';
const WARNING_BACKGROUND = '#fff2cc';

export type Columns = ColumnMapping & { hts: number; value: number };

export interface OrderPlan {
  sheet: string;
  /** The selection (1-based row and column). */
  top: number;
  left: number;
  rows: number;
  cols: number;
  header: boolean;
  /** Offset of each field's column within the selection. */
  columns: Columns;
  lines: number;
  chunks: number;
  /** First column of the results, right of the selection. */
  outLeft: number;
  /** Row of the totals, below the last line. */
  totalsRow: number;
  /** The cells the results will take, e.g. Sheet1!D1:J12. */
  output: string;
  /** Whether any of those cells holds something (the caller asks before overwriting). */
  occupied: boolean;
  options: OrderOptions;
}

export interface ChunkResult {
  totals: OrderTotals;
  /** Lines costed but without a duty (a specific or compound rate without Qty, a text rate). */
  dutyMissing: number;
  notes: string[];
}

export interface OrderSummary {
  totals: OrderTotals;
  chunks: number;
  output: string;
  notes: string[];
}

function detectColumns(values: readonly Cell[][]): { header: boolean; columns: Columns } {
  const first = values[0] ?? [];
  const named = headerMapping(first) as Columns | null;
  if (named) return { header: true, columns: named };
  const looksLikeHeader = first.some((c) => typeof c === 'string' && /[a-z]{3}/i.test(c) && !/^[\d.\s]+$/.test(c)) && !first.some((c) => typeof c === 'number');
  if (looksLikeHeader && values.length > 1)
    throw new Error(`The header row (${first.filter((c) => !isBlank(c)).join(', ')}) names no HTS and Value columns: name them HTS and Value (Origin, Qty, Unit optional), or select the lines without their header.`);
  if (first.length < 2) throw new Error('Select the order: at least an HTS column and a Value column (then Origin, Qty, Unit), with or without a header row.');
  const columns = Object.fromEntries(ORDER_COLUMNS.slice(0, first.length).map((f, i) => [f, i])) as Columns;
  return { header: false, columns };
}

/** The rows of the selection that are order lines (not the header, not blank), with their items. */
function orderLines(values: readonly Cell[][], plan: Pick<OrderPlan, 'header' | 'columns'>) {
  const lines: { offset: number; item: Record<string, string | number | boolean | undefined> }[] = [];
  values.forEach((row, offset) => {
    if (plan.header && offset === 0) return;
    const cell = (f: OrderColumn) => (plan.columns[f] === undefined ? undefined : row[plan.columns[f]!]);
    if (ORDER_COLUMNS.every((f) => isBlank(cell(f)))) return;
    lines.push({ offset, item: { hts: htsParam(cell('hts')), value: param(cell('value')), origin: param(cell('origin')), qty: param(cell('qty')), unit: param(cell('unit')) } });
  });
  return lines;
}

function sheetNamed(name: string): GoogleAppsScript.Spreadsheet.Sheet {
  const sheet = SpreadsheetApp.getActiveSpreadsheet().getSheetByName(name);
  if (!sheet) throw new Error(`The sheet "${name}" is gone`);
  return sheet;
}

function selectionValues(plan: Pick<OrderPlan, 'sheet' | 'top' | 'left' | 'rows' | 'cols'>): Cell[][] {
  return sheetNamed(plan.sheet).getRange(plan.top, plan.left, plan.rows, plan.cols).getValues() as Cell[][];
}

/** Reads the selected order (a single selected cell stands for the table around it) and plans its costing. */
export function planOrder(options: OrderOptions): OrderPlan {
  let range = SpreadsheetApp.getActiveRange();
  if (!range) throw new Error('Select the order first: its rows of HTS code and value.');
  if (range.getNumRows() === 1 && range.getNumColumns() === 1) range = range.getDataRegion();
  const sheet = range.getSheet();
  const values = range.getValues() as Cell[][];
  const { header, columns } = detectColumns(values);
  const base = { sheet: sheet.getName(), top: range.getRow(), left: range.getColumn(), rows: range.getNumRows(), cols: range.getNumColumns(), header, columns };
  const lines = orderLines(values, base);
  if (!lines.length) throw new Error('The selection holds no order lines.');
  const outLeft = base.left + base.cols;
  const firstRow = base.top + (header ? 0 : lines[0].offset);
  const totalsRow = base.top + lines[lines.length - 1].offset + 1;
  const area = sheet.getRange(firstRow, outLeft, totalsRow - firstRow + 1, RESULT_HEADERS.length);
  const occupied = (area.getValues() as Cell[][]).some((row) => row.some((c) => !isBlank(c)));
  return {
    ...base,
    lines: lines.length,
    chunks: Math.ceil(lines.length / CHUNK_LINES),
    outLeft,
    totalsRow,
    output: `${sheet.getName()}!${area.getA1Notation()}`,
    occupied,
    options,
  };
}

function lineOutput(line: OrderLine): { row: (string | number)[]; background: string | null } {
  // Beside its row, `items[12].hts must…` reads better as `hts must…`.
  if ('error' in line) return { row: ['', '', '', '', '', '', `Error: ${line.error.message.replace(/^items\[\d+\]\./, '')}`], background: ERROR_BACKGROUND };
  // Without the duty, the landed cost would be understated: it is left blank, with the reason.
  if (line.duty === null)
    return { row: ['', line.section_301, line.mpf, line.hmf, '', line.duty_rate ?? '', dutyNotComputed(line)], background: WARNING_BACKGROUND };
  return { row: [line.duty, line.section_301, line.mpf, line.hmf, line.landed_cost, line.duty_rate ?? '', 'OK'], background: null };
}

/** Costs chunk `index` of the plan (one POST /duty/bulk) and writes its lines' results. */
export function costChunk(plan: OrderPlan, index: number): ChunkResult {
  const sheet = sheetNamed(plan.sheet);
  const lines = orderLines(selectionValues(plan), plan).slice(index * CHUNK_LINES, (index + 1) * CHUNK_LINES);
  if (!lines.length) throw new Error(`The order has no chunk ${index + 1}: its lines changed since it was read; cost it again.`);
  const o = plan.options;
  const [reply] = sendAll<OrderResult>([
    { path: 'api/v1/duty/bulk', body: { items: lines.map((l) => l.item), origin: o.origin || undefined, s301: o.s301 || undefined, ocean: o.ocean || undefined, date: o.date || undefined } },
  ]);
  const result = reply.data;
  if (result.lines.length !== lines.length) throw new Error(`The landed API answered ${result.lines.length} lines for ${lines.length}`);

  // One block from the chunk's first line to its last; blank rows between lines stay blank.
  const first = lines[0].offset;
  const height = lines[lines.length - 1].offset - first + 1;
  const values: (string | number)[][] = Array.from({ length: height }, () => RESULT_HEADERS.map(() => ''));
  const backgrounds: (string | null)[][] = Array.from({ length: height }, () => RESULT_HEADERS.map(() => null));
  result.lines.forEach((line, i) => {
    const out = lineOutput(line);
    values[lines[i].offset - first] = out.row;
    backgrounds[lines[i].offset - first] = RESULT_HEADERS.map(() => out.background);
  });
  const block = sheet.getRange(plan.top + first, plan.outLeft, height, RESULT_HEADERS.length);
  block.setNumberFormats(values.map(() => [...RESULT_FORMATS]));
  block.setValues(values);
  block.setBackgrounds(backgrounds);
  if (index === 0 && plan.header) sheet.getRange(plan.top, plan.outLeft, 1, RESULT_HEADERS.length).setValues([[...RESULT_HEADERS]]).setFontWeight('bold');
  const dutyMissing = result.lines.filter((l) => !('error' in l) && l.duty === null).length;
  return { totals: result.totals, dutyMissing, notes: result.notes };
}

/** Adds the chunks' totals (in cents, so dollars add up exactly). */
export function addTotals(parts: readonly OrderTotals[]): OrderTotals {
  // by_program is a record of its own: added program by program.
  const sum = addCents(parts.map((p) => ({ ...p, by_program: 0 })));
  return { ...(sum as unknown as OrderTotals), by_program: addCents(parts.map((p) => p.by_program)) };
}

/** Field-wise sums of records of dollar amounts (and counts), added in cents. */
function addCents(parts: readonly Record<string, number>[]): Record<string, number> {
  const sum: Record<string, number> = {};
  for (const part of parts) for (const [k, v] of Object.entries(part)) sum[k] = (sum[k] ?? 0) + Math.round(v * 100);
  for (const k of Object.keys(sum)) sum[k] /= 100;
  return sum;
}

/** Writes the totals row below the last line and returns the order's totals. */
export function writeTotals(plan: OrderPlan, parts: readonly ChunkResult[]): OrderSummary {
  const t = addTotals(parts.map((p) => p.totals));
  const missing = parts.reduce((n, p) => n + p.dutyMissing, 0);
  const notes: string[] = [];
  if (t.errors) notes.push(`${t.errors} with errors (not in the totals)`);
  if (missing) notes.push(`${missing} without a duty (0 in the totals): a specific or compound rate needs its Qty (and Unit)`);
  if (plan.chunks > 1) notes.push(`costed as ${plan.chunks} entries of up to ${CHUNK_LINES.toLocaleString('en-US')} lines (MPF minimum and maximum apply to each)`);
  const status = [`Total: ${t.lines} line${t.lines === 1 ? '' : 's'}`, ...notes].join('; ');
  const row = sheetNamed(plan.sheet).getRange(plan.totalsRow, plan.outLeft, 1, RESULT_HEADERS.length);
  row.setNumberFormats([[...RESULT_FORMATS]]);
  row.setValues([[t.duty, t.section_301, t.mpf, t.hmf, t.landed_cost, '', status]]);
  row.setFontWeight('bold').setBackground(null).setBorder(true, null, null, null, null, null);
  return { totals: t, chunks: plan.chunks, output: plan.output, notes: [...notes.map((n) => `Of ${t.lines} lines, ${n}.`), ...new Set(parts.flatMap((p) => p.notes))] };
}
