/**
 * The refund figures of an order costed in several requests (one per entry date, or parts of an
 * entry), added as addTotals adds the rest of the totals: heading by heading, in cents.
 */
import { addHeadingCents, refundFigures, type EntryRefund, type HeadingCents, type RefundByHeading, type RefundFigures } from '../shared/refund.js';

function add(sums: HeadingCents, f: RefundFigures): void {
  for (const [h, v] of Object.entries(f.headings)) addHeadingCents(sums, h, Math.round(v * 100));
}

/** The requests' refunds as one: entries in the order the requests give them, one per entry number and date; a reason only when every request gives it. */
export function addRefunds(parts: readonly RefundByHeading[]): RefundByHeading {
  const all: HeadingCents = new Map();
  const entries = new Map<string, { entry: EntryRefund; sums: HeadingCents }>();
  for (const p of parts) {
    add(all, p);
    for (const e of p.entries ?? []) {
      const key = `${e.entry_number}\u0000${e.date}`;
      let found = entries.get(key);
      if (!found) entries.set(key, (found = { entry: e, sums: new Map() }));
      add(found.sums, e);
    }
  }
  const reasons = new Set(parts.map((p) => p.reason));
  const reason = reasons.size === 1 ? parts[0]?.reason : undefined;
  return {
    ...refundFigures(all, reason),
    ...(entries.size ? { entries: [...entries.values()].map(({ entry, sums }) => ({ entry_number: entry.entry_number, date: entry.date, ...refundFigures(sums, entry.reason) })) } : {}),
  };
}
