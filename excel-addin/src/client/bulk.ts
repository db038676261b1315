/**
 * Costs a whole order with `POST /api/v1/duty/bulk`, in the requests shared/order-sheet.ts plans:
 * one per entry date, of at most 1,000 items (the API's limit). Each request is an entry of its own
 * for MPF (minimum and maximum per entry): the result says how many.
 */
import type { OrderLine, OrderResult } from '../../../shared/order.js';
import { requestBody, requestItems, type OrderOptions, type OrderRequest } from '../../../shared/order-sheet.js';
import { addTotals } from '../../../shared/order-output.js';
import type { LandedApi } from './api.js';

export type { OrderOptions };

export interface CostedOrder extends OrderResult {
  /** How many bulk requests (entries) the order took. */
  chunks: number;
}

export const BULK_LIMIT = 1000;

/** The answers' lines follow the requests' readable lines, request after request. */
export async function costOrder(
  api: LandedApi,
  requests: readonly OrderRequest[],
  options: OrderOptions,
  onProgress: (done: number, total: number) => void = () => {},
  signal?: AbortSignal,
): Promise<CostedOrder> {
  const total = requests.reduce((n, r) => n + requestItems(r).length, 0);
  const lines: OrderLine[] = [];
  const results: OrderResult[] = [];
  onProgress(0, total);
  for (const request of requests) {
    const body = requestBody(request, options);
    if (!(body.items as unknown[]).length) continue;
    const start = lines.length;
    const r = await api.post<OrderResult>('/duty/bulk', body, signal);
    for (const l of r.lines) lines.push(renumber(l, start));
    results.push(r);
    onProgress(lines.length, total);
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
