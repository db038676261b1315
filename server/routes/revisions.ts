/**
 * The older revisions a request's dates need (docs/data.md), with the chapters of the codes it costs
 * on them, built between other requests: a step of about 1,000 rows (5-10 ms) a turn of the event
 * loop, so that a query of 2025 holds the others up by a step, not by a whole build. A request whose
 * revisions and chapters are built already (every query for today) stays synchronous.
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Built, Tariff } from '../../shared/index.js';
import type { FoundLines } from '../../shared/line.js';

type Steps = NonNullable<ReturnType<Tariff['prepare']>>;

/** Only a date of the right form can need a revision; any other is the costing's error to give. */
const DATE = /^\d{4}-\d\d-\d\d$/;

/** What a request costs: an entry date, and the code costed on it (undefined: none, the date's revision only). */
export type Need = readonly [date: unknown, code: unknown];

/** `answer` on the revisions (and their chapters) `needs` calls for: at once when they are built, else once they are. */
export function onRevisions<T>(tariff: Tariff, needs: readonly Need[], answer: (built?: Built) => T): T | Promise<T> {
  const building = builtFor(tariff, needs);
  return building === null ? answer() : building.then(answer);
}

/** The revisions of `needs`' dates, with their codes' chapters, built step by step; null when none needs building. */
function builtFor(tariff: Tariff, needs: readonly Need[]): Promise<Built> | null {
  const byDate = new Map<string, unknown[]>();
  for (const [date, code] of needs) {
    if (typeof date !== 'string' || !DATE.test(date)) continue;
    const codes = byDate.get(date);
    if (codes === undefined) byDate.set(date, [code]);
    else codes.push(code);
  }
  const dates = [...byDate];
  for (let i = 0; i < dates.length; i++) {
    const steps = tariff.prepare(...dates[i]);
    if (steps) return build(tariff, steps, dates.slice(i + 1));
  }
  return null;
}

async function build(tariff: Tariff, first: Steps, rest: readonly [string, unknown[]][]): Promise<Built> {
  const built = new Map<number, FoundLines>();
  let steps: Steps | null = first;
  for (let i = 0; ; ) {
    for (let r = steps.next(); ; r = steps.next()) {
      if (r.done) {
        built.set(r.value[0], r.value[1]);
        break;
      }
      await nextTurn();
    }
    // Another date of a revision built meanwhile (by this request or another) needs nothing more.
    let next: Steps | null = null;
    for (; i < rest.length && next === null; i++) next = tariff.prepare(...rest[i]);
    if (next === null) return built;
    steps = next;
  }
}
