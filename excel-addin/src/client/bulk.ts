/**
 * Costs a whole order with `POST /api/v1/duty/bulk`, in the requests shared/order-sheet.ts plans:
 * one per entry date, of at most 1,000 items (the API's limit). Each entry date is one entry: when
 * it takes several requests, a first pass asks each for its lines' liable value, and the second
 * sends each with its share of the entry (MPF minimum and maximum once). The result says how many
 * entries the order made.
 */
import type { OrderLine, OrderResult } from '../../../shared/order.js';
import { entryShares, needsBasis, requestBody, requestItems, type FeeBasis, type OrderOptions, type OrderRequest } from '../../../shared/order-sheet.js';
import { addTotals } from '../../../shared/order-output.js';
import type { LandedApi } from './api.js';

export type { OrderOptions };

export interface CostedOrder extends OrderResult {
  /** How many entries (entry dates) the order made. */
  entries: number;
}

export const BULK_LIMIT = 1000;

/** The answers' lines follow the requests' readable lines, request after request; progress counts both passes. */
export async function costOrder(
  api: LandedApi,
  requests: readonly OrderRequest[],
  options: OrderOptions,
  onProgress: (done: number, total: number) => void = () => {},
  signal?: AbortSignal,
): Promise<CostedOrder> {
  const sizes = requests.map((r) => requestItems(r).length);
  const first = needsBasis(requests);
  const total = sizes.reduce((n, size, i) => n + size * (first[i] ? 2 : 1), 0);
  let done = 0;
  onProgress(0, total);
  const bases: (FeeBasis | null)[] = [];
  for (const [i, request] of requests.entries()) {
    if (!first[i]) bases.push(null);
    else {
      bases.push((await api.post<OrderResult>('/duty/bulk', requestBody(request, options), signal)).totals);
      onProgress((done += sizes[i]), total);
    }
  }
  const shares = entryShares(requests, bases);
  const lines: OrderLine[] = [];
  const results: OrderResult[] = [];
  for (const [i, request] of requests.entries()) {
    if (!sizes[i]) continue;
    const start = lines.length;
    const r = await api.post<OrderResult>('/duty/bulk', requestBody(request, options, shares[i]), signal);
    for (const l of r.lines) lines.push(renumber(l, start));
    results.push(r);
    onProgress((done += sizes[i]), total);
  }
  return {
    lines,
    totals: addTotals(results.map((r) => r.totals)),
    hts_revision: results[0]?.hts_revision ?? '',
    notes: [...new Set(results.flatMap((r) => r.notes))],
    entries: new Set(requests.filter((_, i) => sizes[i]).map((r) => r.date)).size,
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
