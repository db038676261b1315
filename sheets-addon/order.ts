/**
 * "Cost selected order" in Sheets: the selection is an order, one line per row, its columns named
 * by a header row or chosen in the sidebar's column picker. Lines go to POST /api/v1/duty/bulk in the
 * parts spreadsheet/order-requests.ts plans (per entry date, one request below 500 lines, else parts of
 * 250 to 1,000 lines, four up to 4,000 lines; an entry date of several parts is first measured, then costed
 * with its share of the one entry's fees); each line's results and colour are written beside the
 * order, then the totals row and the record of what the costing used. What is read and written is
 * decided in spreadsheet/order-sheet.ts and spreadsheet/order-output.ts; this layer only moves cells. The
 * work is split in the plan's steps (measure one part, cost one part) and the totals, so the
 * sidebar can show progress and cancel between them.
 */
import { ApiError, send, sendAll, type Call } from './api.js';
import { cachedLookup, type Fetched } from './cache.js';
import type { OrderResult, OrderTotals } from '../shared/order.js';
import {
  columnChoices, ColumnsNeeded, FOOTER_ROWS, isBlank, pickerDefaults, readSheetOrder, RESULT_FORMATS, RESULT_HEADERS, STATUS_COLUMN, type ColumnChoice, type OrderOptions, type SheetLine,
} from '../spreadsheet/order-sheet.js';
import { costingSteps, entryShares, orderRequests, requestBody, requestItems, type CostingStep, type FeeBasis, type OrderRequest } from '../spreadsheet/order-requests.js';
import { addCodeNotes, answersByQuery, codeQueries, searchBatches, type BatchAnswer } from '../spreadsheet/code-check.js';
import { addTotals, costingRecord, dutyMissing, KIND_COLOURS, lineOutput, shownNotes, shownTotals, totalsOutput } from '../spreadsheet/order-output.js';
import { orderBlock } from '../spreadsheet/selection.js';

export interface OrderPlan {
  sheet: string;
  /** The selection (1-based row and column). */
  top: number;
  left: number;
  rows: number;
  cols: number;
  /** The columns, found from the header row or chosen by the user. */
  columns: ColumnChoice;
  lines: number;
  /** How many parts (each a POST /duty/bulk in pass 2) the order is costed in. */
  chunks: number;
  /** The steps in order: the parts to measure first (pass 1), then every part costed; for the progress, their lines. */
  steps: CostingStep[];
  /** How many entries (entry dates) the order makes. */
  entries: number;
  /** The lines' own entry dates (Entry date column), for the costing record. */
  dates: string[];
  /** First column of the results, right of the selection. */
  outLeft: number;
  /** Row of the totals, below the last line; the costing record is the row under it. */
  totalsRow: number;
  /** The cells the results will take, e.g. Sheet1!D1:J12. */
  output: string;
  /** Whether any of those cells holds something (the caller asks before overwriting). */
  occupied: boolean;
  /** The hidden sheet that keeps those cells as they were, from the first part written until the costing ends (see keepOverwritten). */
  undo: string;
  options: OrderOptions;
}

/** No header names the columns: what the sidebar's column picker starts from. */
export interface ColumnsQuestion {
  needColumns: true;
  message: string;
  defaults: ColumnChoice;
  choices: { value: string; label: string }[];
}

/**
 * A step the rate limit refused (a 429): nothing was written; the caller waits `waitMs` (showing it)
 * and runs the same step again, so an order is never left half costed.
 */
export interface RateLimited {
  waitMs: number;
}

/** The requests of an order step, answered at once: a 429 is the caller's to wait out, in view, before anything is written. */
export function atOnce<T>(calls: readonly Call[]): T[] | RateLimited {
  try {
    return sendAll<T>(calls, 0).map((r) => r.data);
  } catch (e) {
    if (e instanceof ApiError && e.status === 429) return { waitMs: e.retryAfterMs };
    throw e;
  }
}

/** One POST /duty/bulk of an order step. */
function bulk(body: Record<string, unknown>): OrderResult | RateLimited {
  const answers = atOnce<OrderResult>([{ path: 'api/v1/duty/bulk', body }]);
  return 'waitMs' in answers ? answers : answers[0];
}

export interface ChunkResult {
  /** As the sheet shows them (spreadsheet/order-output.ts shownTotals). */
  totals: OrderTotals;
  /** Lines costed but without a duty (a specific or compound rate without Qty, a text rate). */
  dutyMissing: number;
  notes: string[];
  revision: string;
}

export interface OrderSummary {
  totals: OrderTotals;
  /** Lines without a duty, left out of the Landed cost total. */
  dutyMissing: number;
  /** The schedule revision the costing used. */
  revision: string;
  chunks: number;
  output: string;
  notes: string[];
}

function sheetNamed(name: string): GoogleAppsScript.Spreadsheet.Sheet {
  const sheet = SpreadsheetApp.getActiveSpreadsheet().getSheetByName(name);
  if (!sheet) throw new Error(`The sheet "${name}" is gone`);
  return sheet;
}

/** The selected order's cells, as spreadsheet/selection.ts specifies for both add-ins: one cell stands for the table around it; blank rows and columns around a larger selection are left out. */
export function selection(): GoogleAppsScript.Spreadsheet.Range {
  const range = SpreadsheetApp.getActiveRange();
  if (!range) throw new Error('Select the order first: its rows of HTS code and value.');
  if (range.getNumRows() === 1 && range.getNumColumns() === 1) return range.getDataRegion();
  const block = orderBlock(range.getValues());
  return block ? range.offset(block.top, block.left, block.rows, block.cols) : range;
}

/** The column picker's entries for the selection, and where it starts. */
export function selectionColumns(): Omit<ColumnsQuestion, 'needColumns' | 'message'> {
  const range = selection();
  const first = range.getValues()[0] ?? [];
  return { defaults: pickerDefaults(first), choices: columnChoices(first, range.getColumn() - 1, range.getNumColumns()) };
}

function requestsOf(plan: Pick<OrderPlan, 'sheet' | 'top' | 'left' | 'rows' | 'cols' | 'columns' | 'options'>): OrderRequest[] {
  const values = sheetNamed(plan.sheet).getRange(plan.top, plan.left, plan.rows, plan.cols).getValues();
  return orderRequests(readSheetOrder(values, plan.columns, plan.options.decimal).lines);
}

/** Runs of consecutive rows, so the lines of one request are written in as few blocks as the sheet allows. */
function runs(lines: readonly SheetLine[]): SheetLine[][] {
  const sorted = [...lines].sort((a, b) => a.row - b.row);
  const out: SheetLine[][] = [];
  for (const l of sorted) {
    const last = out[out.length - 1];
    if (last && last[last.length - 1].row + 1 === l.row) last.push(l);
    else out.push([l]);
  }
  return out;
}

/** Reads the selected order and plans its costing; without a header and a choice, asks for the columns. */
export function planOrder(options: OrderOptions, choice: ColumnChoice | null): OrderPlan | ColumnsQuestion {
  const range = selection();
  const sheet = range.getSheet();
  const values = range.getValues();
  if (values.every((row) => row.every(isBlank))) throw new Error('Select the order first: its rows of HTS code and value, with its header row.');
  let order;
  try {
    order = readSheetOrder(values, choice, options.decimal);
  } catch (e) {
    if (!(e instanceof ColumnsNeeded)) throw e;
    return { needColumns: true, message: e.message, defaults: e.defaults, choices: columnChoices(values[0], range.getColumn() - 1, range.getNumColumns()) };
  }
  const { lines, header, mapping } = order;
  if (!lines.length) throw new Error('The selection holds no order lines.');
  const requests = orderRequests(lines);
  const top = range.getRow();
  const outLeft = range.getColumn() + range.getNumColumns();
  const firstRow = top + (header ? 0 : lines[0].row);
  const totalsRow = top + lines[lines.length - 1].row + 1;
  const area = sheet.getRange(firstRow, outLeft, totalsRow - firstRow + FOOTER_ROWS, RESULT_HEADERS.length);
  return {
    sheet: sheet.getName(),
    top,
    left: range.getColumn(),
    rows: range.getNumRows(),
    cols: range.getNumColumns(),
    columns: { mapping, header },
    lines: lines.length,
    chunks: requests.length,
    steps: costingSteps(requests),
    entries: new Set(requests.filter((r) => requestItems(r).length).map((r) => r.date)).size,
    dates: [...new Set(lines.flatMap((l) => l.date ?? []))],
    outLeft,
    totalsRow,
    output: `${sheet.getName()}!${area.getA1Notation()}`,
    occupied: area.getValues().some((row) => row.some((c) => !isBlank(c))),
    undo: `landed undo ${Date.now().toString(36)}`,
    options,
  };
}

function requestOf(requests: readonly OrderRequest[], index: number): OrderRequest {
  const request = requests[index];
  if (!request) throw new Error(`The order has no request ${index + 1}: its lines changed since it was read; cost it again.`);
  return request;
}

/** Pass 1: the liable values of request `index` (a part of an entry of several requests); nothing is written. */
export function measureChunk(plan: OrderPlan, index: number): FeeBasis | RateLimited {
  const data = bulk(requestBody(requestOf(requestsOf(plan), index), plan.options));
  return 'waitMs' in data ? data : { mpf_basis: data.totals.mpf_basis, hmf_basis: data.totals.hmf_basis };
}

/**
 * Costs request `index` of the plan (one POST /duty/bulk for its readable lines, with its share of
 * the entry when `bases` measured it) and writes its lines' results; refused by the rate limit, writes nothing.
 */
export function costChunk(plan: OrderPlan, index: number, bases: readonly (FeeBasis | null)[] = []): ChunkResult | RateLimited {
  const sheet = sheetNamed(plan.sheet);
  const requests = requestsOf(plan);
  const request = requestOf(requests, index);
  const items = requestItems(request);
  const searched = searchCodes(request.lines, plan.options);
  if (searched) return searched;
  let result: OrderResult = { lines: [], totals: addTotals([]), hts_revision: '', notes: [] };
  if (items.length) {
    const share = entryShares(requests, requests.map((_, i) => bases[i] ?? null))[index];
    const answer = bulk(requestBody(request, plan.options, share));
    if ('waitMs' in answer) return answer;
    result = answer;
    if (result.lines.length !== items.length) throw new Error(`The landed API answered ${result.lines.length} lines for ${items.length}`);
  }

  keepOverwritten(plan);
  const answers = [...result.lines];
  const outputs = new Map(request.lines.map((line) => [line, lineOutput(line, line.item ? answers.shift() : undefined, result.notes)]));
  // A block per run of consecutive rows; blank rows and other requests' lines are left alone.
  for (const run of runs(request.lines)) {
    const block = sheet.getRange(plan.top + run[0].row, plan.outLeft, run.length, RESULT_HEADERS.length);
    block.setNumberFormats(run.map(() => [...RESULT_FORMATS]));
    block.setValues(run.map((l) => outputs.get(l)!.cells));
    block.setBackgrounds(run.map((l) => RESULT_HEADERS.map(() => KIND_COLOURS[outputs.get(l)!.kind])));
    // The lines carry no note (their Assumptions/Notes cell says it); one an earlier costing left on a Status cell goes.
    sheet.getRange(plan.top + run[0].row, plan.outLeft + STATUS_COLUMN, run.length, 1).clearNote();
  }
  if (index === 0 && plan.columns.header) sheet.getRange(plan.top, plan.outLeft, 1, RESULT_HEADERS.length).setValues([[...RESULT_HEADERS]]).setFontWeight('bold');
  const written = [...outputs.values()];
  return { totals: shownTotals(result.totals, written, request.lines.length - items.length), dutyMissing: dutyMissing(written), notes: result.notes, revision: result.hts_revision };
}

/**
 * The notes the searches of the lines' descriptions give (spreadsheet/code-check.ts): the part's
 * POST /hts/batch requests, sent together. Answers are cached by query (cache.ts), so the parts of a
 * large order, each an execution of its own, search a description the order repeats once. Refused by
 * the rate limit, the step waits like its bulk request (and sends the batches not yet answered again),
 * so no part is written without its notes.
 */
function searchCodes(lines: readonly SheetLine[], options: OrderOptions): RateLimited | null {
  const queries = codeQueries(lines, options);
  if (!queries.length) return null;
  // A search batch counts as its queries against the key's limit, so the batches of a long Description
  // column may not all pass in one window: those answered are kept (cached) and only the rest are sent
  // again after the wait, never the whole step (which would never pass once it asks for more than the limit).
  let limited: RateLimited | null = null;
  const answers = cachedLookup<BatchAnswer>('code-check', queries, (missing) => {
    const batches = searchBatches(missing);
    const replies = send<{ answers: BatchAnswer[] }>(batches.map((body) => ({ path: 'api/v1/hts/batch', body })), 0);
    const fetched = new Map<string, Fetched<BatchAnswer>>();
    let at = 0;
    replies.forEach((reply, b) => {
      const asked = missing.slice(at, (at += batches[b].queries.length));
      if (reply instanceof ApiError) {
        if (reply.status !== 429) throw reply;
        limited = { waitMs: Math.max(limited?.waitMs ?? 0, reply.retryAfterMs) };
        return;
      }
      const got = reply.data.answers;
      if (got.length !== asked.length) throw new Error(`The landed API answered ${got.length} searches for ${asked.length}`);
      asked.forEach((q, i) => fetched.set(q, { value: got[i], cacheable: true, revision: 'error' in got[i] ? undefined : got[i].hts_revision }));
    });
    return fetched;
  });
  if (limited) return limited;
  addCodeNotes(lines, answersByQuery(queries, queries.map((q) => answers.get(q)!)), options);
  return null;
}

/** Writes the totals row and the costing record below the last line and returns the order's totals. */
export function writeTotals(plan: OrderPlan, parts: readonly ChunkResult[]): OrderSummary {
  const t = addTotals(parts.map((p) => p.totals));
  const missing = parts.reduce((n, p) => n + p.dutyMissing, 0);
  const notes = [...new Set(parts.flatMap((p) => p.notes))];
  const sheet = sheetNamed(plan.sheet);
  const row = sheet.getRange(plan.totalsRow, plan.outLeft, 1, RESULT_HEADERS.length);
  const totals = totalsOutput(t, missing, plan.entries);
  row.setNumberFormats([[...RESULT_FORMATS]]);
  row.setValues([totals]);
  row.setFontWeight('bold').setBackground(null).setBorder(true, null, null, null, null, null);
  const revision = parts.find((p) => p.revision)?.revision ?? '';
  const record = sheet.getRange(plan.totalsRow + 1, plan.outLeft);
  record.setNumberFormat('General').setValue(costingRecord({ revision, options: plan.options, dates: plan.dates, at: new Date() })).setNote(notes.join('\n'));
  dropKept(plan);
  return { totals: t, dutyMissing: missing, revision, chunks: plan.chunks, output: plan.output, notes: shownNotes(totals, notes) };
}

const outputArea = (plan: OrderPlan) => sheetNamed(plan.sheet).getRange(plan.output.split('!')[1]);

/**
 * Before the first part is written: a copy of the output area as it is (values, formulas, formats,
 * notes: cells the person agreed to overwrite too) in a hidden sheet, put back if the costing is
 * cancelled (clearOutput) and dropped when it is finished. Parts are written as they are costed (an
 * Apps Script call has 6 minutes, and the sidebar keeps no results between calls), so a cancelled
 * costing is undone rather than never written, as Excel's is.
 */
function keepOverwritten(plan: OrderPlan): void {
  const book = SpreadsheetApp.getActiveSpreadsheet();
  if (book.getSheetByName(plan.undo)) return;
  const copy = book.insertSheet(plan.undo);
  copy.hideSheet();
  outputArea(plan).copyTo(copy.getRange(1, 1));
}

function dropKept(plan: OrderPlan): void {
  const book = SpreadsheetApp.getActiveSpreadsheet();
  const copy = book.getSheetByName(plan.undo);
  if (copy) book.deleteSheet(copy);
}

/** Undoes a cancelled costing: the output area as it was before its first part was written (nothing written: nothing to do). */
export function clearOutput(plan: OrderPlan): void {
  const copy = SpreadsheetApp.getActiveSpreadsheet().getSheetByName(plan.undo);
  if (!copy) return;
  const area = outputArea(plan);
  area.clearContent().clearNote().clearFormat();
  copy.getRange(1, 1, area.getNumRows(), area.getNumColumns()).copyTo(area);
  dropKept(plan);
}
