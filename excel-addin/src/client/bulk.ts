/**
 * Costs a whole order with `POST /api/v1/duty/bulk`, in requests of at most 1,000 items (the API's
 * limit). Each request is an entry of its own for MPF (minimum and maximum per entry), so an order
 * of more than 1,000 lines is costed as several entries: the result says how many.
 */
import type { OrderItem, OrderLine, OrderResult } from '../../../shared/order.js';
import { bulkOptions, type OrderOptions } from '../../../shared/order-sheet.js';
import { addTotals } from '../../../shared/order-output.js';
import type { LandedApi } from './api.js';

export type { OrderOptions };

export interface CostedOrder extends OrderResult {
  /** How many bulk requests (entries) the order took. */
  chunks: number;
}

export const BULK_LIMIT = 1000;

export async function costOrder(
  api: LandedApi,
  items: readonly OrderItem[],
  options: OrderOptions,
  onProgress: (done: number, total: number) => void = () => {},
  signal?: AbortSignal,
): Promise<CostedOrder> {
  const opts = bulkOptions(options);
  const lines: OrderLine[] = [];
  const results: OrderResult[] = [];
  onProgress(0, items.length);
  for (let start = 0; start < items.length; start += BULK_LIMIT) {
    const r = await api.post<OrderResult>('/duty/bulk', { ...opts, items: items.slice(start, start + BULK_LIMIT) }, signal);
    for (const l of r.lines) lines.push(renumber(l, start));
    results.push(r);
    onProgress(Math.min(start + BULK_LIMIT, items.length), items.length);
  }
  return {
    lines,
    totals: addTotals(results.map((r) => r.totals)),
    hts_revision: results[0]?.hts_revision ?? '',
    notes: [...new Set(results.flatMap((r) => r.notes))],
    chunks: results.length,
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
