/**
 * Issue 38: a query of 2025, costed on its own revision of the schedule, against a query of today (2026 Revision 10),
 * in this process's engine. The first 2025 query builds its revision from the dated schedule; after that warm-up the
 * two are timed over the same lines, alternately.
 */
import type { Tariff } from '../shared/index.js';

export interface DatedFigures {
  /** The first query of 2025: reading the dated schedule and building the revision. */
  firstOlderMs: number;
  /** Per query, after warm-up. */
  olderUs: number;
  todayUs: number;
  olderRevision: string;
  todayRevision: string;
}

export function datedBench(tariff: Tariff, rounds: number, older = '2025-06-01', today = '2026-11-21'): DatedFigures {
  const codes = [...tariff.schedule.lines()].filter((l) => l.rates && !l.hts.startsWith('99')).filter((_, i) => i % 40 === 0).map((l) => l.hts);
  const query = (hts: string, date: string) => tariff.duty({ hts, value: '1000', origin: 'china', date });
  const t0 = performance.now();
  const olderRevision = query(codes[0], older).hts_revision;
  const firstOlderMs = performance.now() - t0;
  const todayRevision = query(codes[0], today).hts_revision;
  const pass = (date: string) => {
    const start = performance.now();
    for (const hts of codes)
      try {
        query(hts, date);
      } catch {
        // A code of today that 2025 did not have is an error answer: timed all the same.
      }
    return performance.now() - start;
  };
  pass(older);
  pass(today);
  let olderMs = 0;
  let todayMs = 0;
  for (let r = 0; r < rounds; r++) {
    olderMs += pass(older);
    todayMs += pass(today);
  }
  const per = (ms: number) => (1000 * ms) / (rounds * codes.length);
  return { firstOlderMs, olderUs: per(olderMs), todayUs: per(todayMs), olderRevision, todayRevision };
}
