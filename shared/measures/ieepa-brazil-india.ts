/**
 * IEEPA country duties on top of the reciprocal rate: Brazil +40% (9903.01.77, from 2025-08-06) and
 * India +25% (9903.01.84, 2025-08-27 to 2026-02-06), both ended with IEEPA. India's goods of the note
 * 2(v)(iii) list (Annex II, as of the entry date; its particular articles only noted) are exempt under
 * 9903.01.86; Brazil's goods of the note 2(x)(iii)(a) list
 * (EO 14323 Annex I and its 2025-11-13 additions) under 9903.01.81, and the particular articles of
 * (x)(iii)(b) and the civil aircraft of (x)(iv) under 9903.01.90 and 9903.01.82 (noted, not assumed).
 * Section 232 goods are outside both (stacking.ts). Refundable.
 */
import type { TariffLine } from '../schedule.js';
import { annexII, particularNote } from './ieepa-reciprocal.js';
import { chargeOf, exemptCharge, exemptFinding, finding, listing, membership, NOTHING, type Finding, type ListTable, type Measure, type MeasureQuery, type RateTable } from './measure.js';

const PROGRAMS = ['ieepa_brazil', 'ieepa_india'];

/**
 * `annexRows`: the note 2(v)(iii) list (ieepa_reciprocal_exempt_products.csv), which 9903.01.86 exempts from India's duty;
 * `brazilRows`: the note 2(x) lists (ieepa_brazil_exempt_products.csv), each entry with its heading and scope.
 */
export function ieepaBrazilIndia(rates: RateTable, annexRows: ListTable, brazilRows: ListTable): Measure {
  const annex = annexII(annexRows);
  const brazil = membership(brazilRows, 'hts_prefix');

  function assess(q: MeasureQuery): Finding {
    for (const program of PROGRAMS) {
      const row = rates.pick(program, q.country, q.date);
      if (!row) continue;
      if (program === 'ieepa_india') {
        const listed = annex.find(q.line, q.date);
        if (listed.some((e) => !e.particular))
          return exemptFinding(exemptCharge(rates, program, 'IEEPA', 'listed', q), [`IEEPA ${row.heading}: ${q.line.hts} is on the note 2(v)(iii) list, which heading 9903.01.86 exempts.`]);
        return finding([chargeOf(row, 'IEEPA', q.valueCents, 'full_value', true)], listed.map((e) => particularNote(`IEEPA ${row.heading}`, q.line, e)));
      }
      const listed = brazil.find(q.line, q.date);
      const whole = listed.find((e) => e.scope.startsWith('all'));
      if (whole) return exemptFinding(exemptCharge(rates, program, 'IEEPA', 'listed', q, whole.heading), [`IEEPA ${row.heading}: ${q.line.hts} is on the note 2(x)(iii)(a) list, which heading ${whole.heading} exempts.`]);
      // A particular article or a civil aircraft article only: the provision holds other goods too.
      const notes = listed.map((e) => `IEEPA ${row.heading}: under ${q.line.hts}, heading ${e.heading} exempts ${e.scope}; not assumed.`);
      return finding([chargeOf(row, 'IEEPA', q.valueCents, 'full_value', true)], notes);
    }
    return NOTHING;
  }

  const listings = (line: TariffLine) => brazil.all(line).map((e) => listing('ieepa_brazil', `exempt (note 2(x): ${e.scope})`, e.heading, e));

  return { authority: 'IEEPA', assess, listings };
}
