/**
 * Section 232 on timber and lumber, upholstered wooden furniture and kitchen cabinets and vanities
 * (U.S. note 37, 9903.76, from 2025-10-14): +10% lumber, +25% furniture and cabinets (rising on
 * 2027-01-01), UK +10%, EU/JP/KR/TW 15% total. No USMCA relief.
 */
import type { TariffLine } from '../schedule.js';
import { chargeOf, finding, generalHeading, listing, listOfRow, NOTHING, programList, type Finding, type Measure, type MeasureQuery, type RateTable, type Table } from './measure.js';

/** Product list → the program of program_rates.csv that prices it. */
const RATE_PROGRAM: Readonly<Record<string, string>> = {
  s232_softwood_lumber: 's232_lumber',
  s232_upholstered_wood_furniture: 's232_furniture',
  s232_kitchen_cabinets_vanities: 's232_cabinets',
};

export function section232Wood(rates: RateTable, rows: Table): Measure {
  const list = programList(rows.filter((r) => RATE_PROGRAM[r.program]));

  function assess(q: MeasureQuery): Finding {
    const product = list.find(q.line, q.date)[0];
    if (!product) return NOTHING;
    const row = rates.pick(RATE_PROGRAM[product.program], q.country, q.date, (r) => listOfRow(r) === product.program);
    return row && row.kind !== 'zero' ? finding([chargeOf(row, 'Section 232', q.valueCents)]) : NOTHING;
  }

  const listings = (line: TariffLine) => list.all(line).map((e) => listing(RATE_PROGRAM[e.program], e.program, generalHeading(rates, RATE_PROGRAM[e.program], (r) => listOfRow(r) === e.program), e));

  return { authority: 'Section 232', assess, listings };
}
