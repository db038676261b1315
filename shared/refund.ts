/**
 * The IEEPA refund of an order (totals.refundable_by_heading): the refundable layers' amounts by the
 * 9903 heading the entry declared, in all and, when the lines carry entry numbers, per entry. IEEPA
 * duties were assessed on entries of IEEPA_REFUND_PERIOD only: an entry dated outside it refunds 0,
 * and says why.
 */
import { invalid } from './errors.js';
import { IEEPA_REFUND_PERIOD } from './policy.js';
import type { Layer } from './stacking.js';

/** Amounts in dollars; headings in the schedule's order. */
export interface RefundFigures {
  total: number;
  headings: Record<string, number>;
  /** Why nothing is refundable: the entry date is outside the IEEPA period. */
  reason?: string;
}

export interface EntryRefund extends RefundFigures {
  /** Null for the lines that carry none. */
  entry_number: string | null;
  date: string;
}

export interface RefundByHeading extends RefundFigures {
  /** Present when some line carries an entry number. */
  entries?: EntryRefund[];
}

/** An order line as the refund reads it: its entry number and date, and its layers (null for a line in error). */
export interface RefundLine {
  entryNumber: string | null;
  date: string;
  layers: readonly Layer[] | null;
}

const MAX_ENTRY_NUMBER = 40;

/** An item's entry number (CBP's `ABC-1234567-8`, or the broker's own reference): text, kept as written but trimmed. */
export function parseEntryNumber(input: unknown, parameter: string): string | null {
  if (input === undefined || input === null) return null;
  const s = typeof input === 'string' ? input.trim() : '';
  if (!s || s.length > MAX_ENTRY_NUMBER)
    throw invalid(parameter, `${parameter} must be text of 1 to ${MAX_ENTRY_NUMBER} characters (an entry number such as ABC-1234567-8)`);
  return s;
}

/** Why an entry of `date` has nothing to refund, or null when it is inside the IEEPA period. */
export function outsideRefundPeriod(date: string): string | null {
  const { from, through } = IEEPA_REFUND_PERIOD;
  if (date >= from && date <= through) return null;
  return `Entered ${date}, ${date < from ? 'before' : 'after'} the IEEPA duties (entries ${from} to ${through}): no IEEPA duty was assessed, nothing to refund.`;
}

/**
 * Cents by 9903 heading, summed: what the engine's order totals, the add-ins' sums of several
 * requests and their per-line cells all add up (spreadsheet/refund-*.ts use these too; this module
 * imports nothing that an Apps Script bundle cannot hold).
 */
export type HeadingCents = Map<string, number>;

/** Adds `cents` under `heading`. */
export function addHeadingCents(sums: HeadingCents, heading: string, cents: number): void {
  sums.set(heading, (sums.get(heading) ?? 0) + cents);
}

/** The figures of sums in cents: headings in order, their total, the reason when there is one. */
export function refundFigures(sums: HeadingCents, reason?: string | null): RefundFigures {
  const headings = [...sums.keys()].sort();
  let total = 0;
  for (const h of headings) total += sums.get(h)!;
  return { total: total / 100, headings: Object.fromEntries(headings.map((h) => [h, sums.get(h)! / 100])), ...(reason ? { reason } : {}) };
}

/** The refundable layers' amounts by heading (layers of the engine, or of an answer's additional_duties). */
export function refundableCents(layers: readonly Pick<Layer, 'refundable' | 'heading' | 'amount'>[], sums: HeadingCents = new Map()): HeadingCents {
  for (const l of layers) if (l.refundable && l.heading) addHeadingCents(sums, l.heading, Math.round(l.amount * 100)); // exact: whole cents
  return sums;
}

/**
 * The order's refund figures; entries (an entry number on a date) in the order they first appear.
 * The order's reason only when every line was entered outside the period (theirs, if one).
 */
export function refundByHeading(lines: readonly RefundLine[]): RefundByHeading {
  const all: HeadingCents = new Map();
  // Entries only when some line carries an entry number: an order without any needs no grouping.
  const byEntry = lines.some((l) => l.entryNumber !== null) ? new Map<string, { entry_number: string | null; date: string; sums: HeadingCents }>() : null;
  for (const l of lines) {
    // A line in error has no parsed date or entry number to be grouped by, nor anything to refund.
    if (!l.layers) continue;
    let entry;
    if (byEntry) {
      const key = `${l.entryNumber}\u0000${l.date}`;
      entry = byEntry.get(key);
      if (!entry) byEntry.set(key, (entry = { entry_number: l.entryNumber, date: l.date, sums: new Map() }));
    }
    refundableCents(l.layers, all);
    if (entry) refundableCents(l.layers, entry.sums);
  }
  // Once per date, not per line: an order's lines share a few dates.
  const reasons = new Set([...new Set(lines.filter((l) => l.layers).map((l) => l.date))].map(outsideRefundPeriod));
  const reason = reasons.has(null) || !reasons.size ? null : reasons.size === 1 ? [...reasons][0] : NONE_INSIDE;
  return {
    ...refundFigures(all, reason),
    ...(byEntry ? { entries: [...byEntry.values()].map(({ entry_number, date, sums }) => ({ entry_number, date, ...refundFigures(sums, outsideRefundPeriod(date)) })) } : {}),
  };
}

const NONE_INSIDE = `No line was entered within the IEEPA duties (entries ${IEEPA_REFUND_PERIOD.from} to ${IEEPA_REFUND_PERIOD.through}): nothing to refund.`;
