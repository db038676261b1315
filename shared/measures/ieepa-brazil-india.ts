/**
 * IEEPA country duties on top of the reciprocal rate: Brazil +40% (9903.01.77, from 2025-08-06) and
 * India +25% (9903.01.84, 2025-08-27 to 2026-02-06), both ended with IEEPA. Their own exemption
 * lists (notes 2(x), 2(z)) are not available as data: the answer says so. Refundable.
 */
import { chargeOf, finding, NO_LISTINGS, NOTHING, type Finding, type Measure, type MeasureQuery, type RateTable } from './measure.js';

const PROGRAMS = ['ieepa_brazil', 'ieepa_india'];

export function ieepaBrazilIndia(rates: RateTable): Measure {
  function assess(q: MeasureQuery): Finding {
    for (const program of PROGRAMS) {
      const row = rates.pick(program, q.country, q.date);
      if (row) return finding([chargeOf(row, 'IEEPA', q.valueCents, 'full_value', true)], [`IEEPA ${row.heading}: the exemptions of U.S. note 2 for this country (energy, aircraft, listed products) are not checked; verify ${q.line.hts} against them.`]);
    }
    return NOTHING;
  }
  return { authority: 'IEEPA', assess, listings: NO_LISTINGS };
}
