/**
 * Russia, U.S. note 30: for the products whose footnotes cite 9903.90.08 (35%) or 9903.90.09 (70%),
 * that rate applies to products of Russia in lieu of the column 2 rate. The layer is the difference
 * (`col2_override`: rate × value less the column 2 duty, never below 0).
 */
import type { TariffLine } from '../schedule.js';
import { chargeOf, finding, listing, NOTHING, type Finding, type Measure, type MeasureQuery, type RateTable } from './measure.js';

const PROGRAM = 'russia_col2';

export function russia(rates: RateTable): Measure {
  function assess(q: MeasureQuery): Finding {
    if (q.country !== 'RU' || q.line.chapter99.length === 0) return NOTHING;
    const row = rates.pick(PROGRAM, q.country, q.date, (r) => q.line.chapter99.includes(r.heading));
    return row ? finding([chargeOf(row, 'Column 2 (Pub. L. 117-110)', q.valueCents)]) : NOTHING;
  }
  const listings = (line: TariffLine) =>
    rates.rows(PROGRAM).filter((r) => line.chapter99.includes(r.heading)).map((r) => listing(PROGRAM, `note 30 (products of Russia: ${r.rate.percent}% in lieu of column 2)`, r.heading, r));

  return { authority: 'Column 2 (Pub. L. 117-110)', assess, listings };
}
