/**
 * IEEPA country duties on top of the reciprocal rate: Brazil +40% (9903.01.77, from 2025-08-06) and
 * India +25% (9903.01.84, 2025-08-27 to 2026-02-06), both ended with IEEPA. India's goods of the note
 * 2(v)(iii) list (Annex II) are exempt under 9903.01.86; Brazil's own exemption list (note 2(x)) is not
 * available as data: the answer says so. Refundable.
 */
import { chargeOf, exemptCharge, exemptFinding, finding, NO_LISTINGS, NOTHING, ProductList, type Finding, type ListTable, type Measure, type MeasureQuery, type RateTable } from './measure.js';

const PROGRAMS = ['ieepa_brazil', 'ieepa_india'];

/** `annexRows`: the note 2(v)(iii) list (ieepa_reciprocal_exempt_products.csv), which 9903.01.86 exempts from India's duty. */
export function ieepaBrazilIndia(rates: RateTable, annexRows: ListTable): Measure {
  const annex = new ProductList(annexRows, (r) => r.hts_prefix, (r) => ({ from: r.valid_from, to: r.valid_to }));

  function assess(q: MeasureQuery): Finding {
    for (const program of PROGRAMS) {
      const row = rates.pick(program, q.country, q.date);
      if (!row) continue;
      if (program === 'ieepa_india' && annex.find(q.line, q.date).length)
        return exemptFinding(exemptCharge(rates, program, 'IEEPA', 'listed', q), [`IEEPA ${row.heading}: ${q.line.hts} is on the note 2(v)(iii) list, which heading 9903.01.86 exempts.`]);
      const notes = program === 'ieepa_india' ? [] : [`IEEPA ${row.heading}: the exemptions of U.S. note 2(x) for Brazil (energy, aircraft, listed products) are not checked; verify ${q.line.hts} against them.`];
      return finding([chargeOf(row, 'IEEPA', q.valueCents, 'full_value', true)], notes);
    }
    return NOTHING;
  }
  return { authority: 'IEEPA', assess, listings: NO_LISTINGS };
}
