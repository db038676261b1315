/**
 * How both add-ins send an order to POST /api/v1/duty/bulk: the parts it is costed in, the two
 * passes that keep an entry of several parts one entry (MPF minimum and maximum once), and the
 * steps the progress counts. Pure functions; the hosts only send the requests and move cells.
 */
import type { OrderItem } from '../shared/order.js';
import { bulkOptions, type OrderOptions, type SheetLine } from './order-sheet.js';

/** The most items the API takes in one request. */
export const BULK_LIMIT = 1000;
/**
 * An entry is costed in up to MIN_PARTS parts (more only past the API's limit), so its progress
 * moves and Cancel stops it between parts, but in parts of at least PART_LINES lines: an entry of
 * fewer than 500 lines (an answer of about 260 KB per 250 lines) is one request, with no first
 * pass, as it is quick enough to need no progress.
 */
const MIN_PARTS = 4;
const PART_LINES = 250;

/**
 * How many parts an entry of `lines` lines is costed in: as many of PART_LINES as it holds, up to
 * MIN_PARTS, and more past 4,000 lines so that none exceeds BULK_LIMIT; every part of an entry in
 * several is thus of 250 to 1,000 lines. Parts grow with the entry, so the requests stay few for the
 * rate limit (120 a minute per key): with the first pass, 2 × parts requests, at most 8 for an entry
 * of up to 4,000 lines, 10 for 5,000 (as with parts of 1,000), where parts of 250 would take 40.
 */
export function partCount(lines: number): number {
  return Math.max(Math.ceil(lines / BULK_LIMIT), Math.min(MIN_PARTS, Math.floor(lines / PART_LINES)));
}

/**
 * One POST /duty/bulk of an order: its lines (unreadable ones too, so each part writes its own
 * rows) and the entry date it is sent with (absent: the order's).
 */
export interface OrderRequest {
  date?: string;
  lines: SheetLine[];
}

/**
 * The parts an order is costed in. The API takes one entry date per request, not per item, so the
 * lines are grouped by entry date, each date an entry of its own (in the order the dates first
 * appear), and each group is split into partCount parts of nearly equal size, still one entry (see
 * needsBasis and entryShares).
 */
export function orderRequests(lines: readonly SheetLine[]): OrderRequest[] {
  const groups = new Map<string | undefined, SheetLine[]>();
  for (const l of lines) {
    const group = groups.get(l.date);
    if (group) group.push(l);
    else groups.set(l.date, [l]);
  }
  return [...groups].flatMap(([date, group]) => {
    const parts = partCount(group.length);
    return Array.from({ length: parts }, (_, i) => ({
      ...(date ? { date } : {}),
      lines: group.slice(Math.floor((i * group.length) / parts), Math.floor(((i + 1) * group.length) / parts)),
    }));
  });
}

/** The value of a request's lines liable to MPF and to HMF (its answer's totals), in dollars. */
export interface FeeBasis {
  mpf_basis: number;
  hmf_basis: number;
}

/** The `entry` option of a request that is a part of a larger entry. */
export interface EntryShare extends FeeBasis {
  mpf_basis_before: number;
  hmf_basis_before: number;
}

/**
 * Which requests need a first pass: those of an entry (an entry date) sent in several requests, whose
 * fees the service can only share out once it knows the whole entry's liable value.
 */
export function needsBasis(requests: readonly OrderRequest[]): boolean[] {
  const sent = requests.map((r) => requestItems(r).length > 0);
  const parts = (date: string | undefined) => requests.filter((r, i) => sent[i] && r.date === date).length;
  return requests.map((r, i) => sent[i] && parts(r.date) > 1);
}

/**
 * Pass 2: each part's `entry` option from the first pass's bases (undefined where no first pass was
 * needed): the sums over the parts of the same entry date, and the sums of the parts before it.
 * Added in cents, so no floating error creeps in.
 */
export function entryShares(requests: readonly OrderRequest[], bases: readonly (FeeBasis | null)[]): (EntryShare | undefined)[] {
  const cents = (n: number) => Math.round(n * 100);
  const sum = (date: string | undefined, upTo: number, k: keyof FeeBasis) =>
    bases.reduce((s, b, i) => (b && i < upTo && requests[i].date === date ? s + cents(b[k]) : s), 0) / 100;
  return requests.map((r, i) =>
    bases[i]
      ? {
          mpf_basis: sum(r.date, requests.length, 'mpf_basis'),
          hmf_basis: sum(r.date, requests.length, 'hmf_basis'),
          mpf_basis_before: sum(r.date, i, 'mpf_basis'),
          hmf_basis_before: sum(r.date, i, 'hmf_basis'),
        }
      : undefined,
  );
}

/** The items a request sends: its readable lines. */
export const requestItems = (r: OrderRequest): OrderItem[] => r.lines.flatMap((l) => (l.item ? [l.item] : []));

/** The body of a request's POST /duty/bulk: its items, the order's options, its entry date and its share of the entry. */
export function requestBody(r: OrderRequest, o: OrderOptions, entry?: EntryShare): Record<string, unknown> {
  return { items: requestItems(r), ...bulkOptions(o), ...(r.date ? { date: r.date } : {}), ...(entry ? { entry } : {}) };
}

/** One step of costing an order: pass 1 measures a part (nothing is written), pass 2 costs it and writes its lines. */
export interface CostingStep {
  measure: boolean;
  /** The part, an index into the order's requests. */
  part: number;
  /** Its readable lines: what the step adds to the progress. */
  lines: number;
}

/** The steps in the order both add-ins take them: every part that needsBasis measured first, then every part costed. */
export function costingSteps(requests: readonly OrderRequest[]): CostingStep[] {
  const lines = requests.map((r) => requestItems(r).length);
  const measured = needsBasis(requests).flatMap((m, part) => (m ? [{ measure: true, part, lines: lines[part] }] : []));
  return [...measured, ...requests.map((_, part) => ({ measure: false, part, lines: lines[part] }))];
}

/** The progress before step `index` (steps.length: all done): line costings done and in all, over both passes, and the lines sent. */
export function progressAt(steps: readonly CostingStep[], index: number): { done: number; total: number; lines: number } {
  const sum = (s: readonly CostingStep[]) => s.reduce((n, step) => n + step.lines, 0);
  return { done: sum(steps.slice(0, index)), total: sum(steps), lines: sum(steps.filter((s) => !s.measure)) };
}
