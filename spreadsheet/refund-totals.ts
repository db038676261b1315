/**
 * The refund figures of an order costed in several requests (one per entry date, or parts of an
 * entry), added as addTotals adds the rest of the totals: heading by heading, in cents. Kept out of
 * shared/refund.ts so the add-ins' bundles take none of the engine's modules.
 */
import type { EntryRefund, RefundByHeading, RefundFigures } from '../shared/refund.js';

type Sums = Map<string, number>;

const cents = (n: number): number => Math.round(n * 100);

function add(sums: Sums, f: RefundFigures): void {
  for (const [h, v] of Object.entries(f.headings)) sums.set(h, (sums.get(h) ?? 0) + cents(v));
}

function figures(sums: Sums, reason: string | undefined): RefundFigures {
  const headings = [...sums.keys()].sort();
  const total = headings.reduce((s, h) => s + sums.get(h)!, 0);
  return { total: total / 100, headings: Object.fromEntries(headings.map((h) => [h, sums.get(h)! / 100])), ...(reason ? { reason } : {}) };
}

/** The requests' refunds as one: entries in the order the requests give them, one per entry number and date; a reason only when every request gives it. */
export function addRefunds(parts: readonly RefundByHeading[]): RefundByHeading {
  const all: Sums = new Map();
  const entries = new Map<string, { entry: EntryRefund; sums: Sums }>();
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
    ...figures(all, reason),
    ...(entries.size ? { entries: [...entries.values()].map(({ entry, sums }) => ({ entry_number: entry.entry_number, date: entry.date, ...figures(sums, entry.reason) })) } : {}),
  };
}
