/**
 * Section 232 on semiconductors (U.S. note 39, 9903.79.01, +25% from 2026-01-15): only articles of
 * the listed provisions that meet the note 39(b) technical parameters. Whether an article does is
 * the importer's fact (`chip_qualifies`); without it, no duty, and the answer says so.
 */
import type { TariffLine } from '../schedule.js';
import { chargeOf, finding, generalHeading, listing, NOTHING, programList, type Finding, type Measure, type MeasureQuery, type RateTable, type Table } from './measure.js';

const PROGRAM = 's232_semiconductors';

export function section232Semiconductors(rates: RateTable, rows: Table): Measure {
  const list = programList(rows.filter((r) => r.program === PROGRAM));

  function assess(q: MeasureQuery): Finding {
    if (!list.find(q.line, q.date).length) return NOTHING;
    const row = rates.pick(PROGRAM, q.country, q.date);
    if (!row) return NOTHING;
    if (q.facts.chipQualifies === null)
      return finding([], [], [`chip_qualifies not given: ${q.line.hts} is taken as not meeting the note 39(b) parameters, so ${row.heading} (+${row.rate.percent}%) is not charged.`]);
    return q.facts.chipQualifies ? finding([chargeOf(row, 'Section 232', q.valueCents)]) : NOTHING;
  }

  const listings = (line: TariffLine) => list.all(line).map((e) => listing(PROGRAM, 'note 39(b) (only articles meeting its parameters)', generalHeading(rates, PROGRAM), e));

  return { authority: 'Section 232', assess, listings };
}
