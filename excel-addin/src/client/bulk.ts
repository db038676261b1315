/**
 * Costs a whole order with `POST /api/v1/duty/bulk`, in the parts spreadsheet/order-requests.ts plans:
 * per entry date, one request below 500 lines, else parts of 250 to 1,000 lines (four up to 4,000
 * lines). Each entry date is one entry: when it takes several parts, a first pass asks each for its lines'
 * liable value, and the second sends each with its share of the entry (MPF minimum and maximum
 * once). The result says how many entries the order made.
 */
import type { OrderLine, OrderResult } from '../../../shared/order.js';
import type { OrderOptions } from '../../../spreadsheet/order-sheet.js';
import { costingSteps, entryShares, progressAt, requestBody, type FeeBasis, type OrderRequest } from '../../../spreadsheet/order-requests.js';
import { addTotals } from '../../../spreadsheet/order-output.js';
import type { LandedApi } from './api.js';

export type { OrderOptions };

export interface CostedOrder extends OrderResult {
  /** How many entries (entry dates) the order made. */
  entries: number;
}

/**
 * The answers' lines follow the requests' readable lines, request after request. Progress is
 * reported after each step, counted in lines over both passes, and each wait for the rate limit
 * (a 429) before it starts (`onWait`: its milliseconds and the progress so far): the order waits
 * and goes on. `signal` stops the costing at the request or wait under way or before the next.
 */
export async function costOrder(
  api: LandedApi,
  requests: readonly OrderRequest[],
  options: OrderOptions,
  onProgress: (done: number, total: number) => void = () => {},
  signal?: AbortSignal,
  onWait: (ms: number, done: number, total: number) => void = () => {},
): Promise<CostedOrder> {
  const steps = costingSteps(requests);
  const progress = (index: number) => {
    const { done, total } = progressAt(steps, index);
    onProgress(done, total);
  };
  const post = (index: number, body: Record<string, unknown>) =>
    api.post<OrderResult>('/duty/bulk', body, signal, (ms) => {
      const { done, total } = progressAt(steps, index);
      onWait(ms, done, total);
    });
  progress(0);
  const bases: (FeeBasis | null)[] = requests.map(() => null);
  const answers: (OrderResult | null)[] = requests.map(() => null);
  for (const [index, { measure, part, lines }] of steps.entries()) {
    // A part of unreadable lines only: nothing to send, its rows are written as errors.
    if (!lines) continue;
    if (measure) bases[part] = (await post(index, requestBody(requests[part], options))).totals;
    // The measures come first, so every share of the entry is known by now.
    else answers[part] = await post(index, requestBody(requests[part], options, entryShares(requests, bases)[part]));
    progress(index + 1);
  }
  const results = answers.filter((r): r is OrderResult => r !== null);
  const lines: OrderLine[] = [];
  for (const r of results) {
    const start = lines.length;
    for (const l of r.lines) lines.push(renumber(l, start));
  }
  return {
    lines,
    totals: addTotals(results.map((r) => r.totals)),
    hts_revision: results[0]?.hts_revision ?? '',
    notes: [...new Set(results.flatMap((r) => r.notes))],
    entries: new Set(requests.filter((_, i) => answers[i]).map((r) => r.date)).size,
  };
}

/** A line of the request starting at `start` as a line of the whole order (its number, and `items[i]` in an error). */
function renumber(l: OrderLine, start: number): OrderLine {
  if (!start) return l;
  if (!('error' in l)) return { ...l, line: l.line + start };
  const shift = (s: string) => s.replace(/^items\[(\d+)\]/, (_, i: string) => `items[${Number(i) + start}]`);
  const { parameter } = l.error.details;
  const details = typeof parameter === 'string' ? { ...l.error.details, parameter: shift(parameter) } : l.error.details;
  return { line: l.line + start, error: { ...l.error, message: shift(l.error.message), details } };
}
