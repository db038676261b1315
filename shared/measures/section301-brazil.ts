/**
 * Section 301 on products of Brazil (U.S. note 50, 9903.05.01, +25% from 2026-07-22), except the
 * listed provisions (9903.05.03, approximated by the proposed annex). Section 232 goods of the
 * enumerated headings are excluded by stacking.
 */
import { chargeOf, finding, NOTHING, type Finding, type Measure, type MeasureQuery, type ListTable, type RateTable } from './measure.js';
import { proposedExemptions } from './proposed-exemptions.js';

const PROGRAM = 's301_brazil';

export function section301Brazil(rates: RateTable, annexRows: ListTable): Measure {
  const exemption = proposedExemptions(annexRows, 'hts_prefix', 'Section 301 Brazil', rates, PROGRAM);

  function assess(q: MeasureQuery): Finding {
    const row = rates.pick(PROGRAM, q.country, q.date);
    if (!row) return NOTHING;
    const { exempt, notes } = exemption(q, row.heading);
    return exempt ?? finding([chargeOf(row, 'Section 301', q.valueCents)], notes);
  }

  return { authority: 'Section 301', assess, listings: (line) => exemption.listings(line, PROGRAM) };
}
