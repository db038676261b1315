/**
 * The older revisions a request's dates need (docs/data.md), built between other requests: a step of
 * about 1,000 rows (5-10 ms) a turn of the event loop, so that a query of 2025 holds the others up by a
 * step, not by a revision's whole build (200-600 ms). A request whose revisions are built already (every
 * query for today) stays synchronous.
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Built, Tariff } from '../../shared/index.js';
import type { FoundLines } from '../../shared/line.js';

type Steps = NonNullable<ReturnType<Tariff['prepare']>>;

/** Only a date of the right form can need a revision; any other is the costing's error to give. */
const DATE = /^\d{4}-\d\d-\d\d$/;

/** `answer` on the revisions `dates` need: at once when they are built, else once they are. */
export function onRevisions<T>(tariff: Tariff, dates: readonly unknown[], answer: (built?: Built) => T): T | Promise<T> {
  const building = builtFor(tariff, dates);
  return building === null ? answer() : building.then(answer);
}

/** The revisions `dates` need, built step by step; null when none needs building. */
function builtFor(tariff: Tariff, dates: readonly unknown[]): Promise<Built> | null {
  for (let i = 0; i < dates.length; i++) {
    const steps = prepare(tariff, dates[i]);
    if (steps) return build(tariff, steps, dates.slice(i + 1));
  }
  return null;
}

const prepare = (tariff: Tariff, date: unknown): Steps | null => (typeof date === 'string' && DATE.test(date) ? tariff.prepare(date) : null);

async function build(tariff: Tariff, first: Steps, rest: readonly unknown[]): Promise<Built> {
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
    for (; i < rest.length && next === null; i++) next = prepare(tariff, rest[i]);
    if (next === null) return built;
    steps = next;
  }
}
