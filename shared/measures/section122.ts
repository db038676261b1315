/**
 * Section 122 balance-of-payments surcharge (U.S. note 2(aa), 9903.03.01, +10%, entries 2026-02-24
 * through 2026-07-23), all countries. Exempt: the note 2(aa)(ii)-(iv) product lists (the civil
 * aircraft provisions only for civil aircraft: noted, not assumed), USMCA-qualifying goods of Canada
 * and Mexico, and CAFTA-DR textiles entered duty-free.
 */
import type { TariffLine } from '../schedule.js';
import { cafTaDrTextile, chargeOf, exemptCharge, exemptFinding, finding, listing, membership, NOTHING, usmcaGoods, type Finding, type Measure, type ListTable, type MeasureQuery, type RateTable } from './measure.js';

const PROGRAM = 's122';

export function section122(rates: RateTable, exemptRows: ListTable): Measure {
  const exempt = membership(exemptRows, 'hts_prefix');

  function assess(q: MeasureQuery): Finding {
    const row = rates.pick(PROGRAM, q.country, q.date);
    if (!row) return NOTHING;
    const listed = exempt.find(q.line, q.date)[0];
    if (listed?.scope.startsWith('all')) return exemptFinding(exemptCharge(rates, PROGRAM, 'Section 122', 'listed', q, listed.heading || undefined), [`Section 122: ${q.line.hts} is on the exempt list of note 2(aa).`]);
    const notes = listed ? [`Section 122: ${q.line.hts} is exempt for ${listed.scope}; not assumed.`] : [];
    const usmca = usmcaGoods(q);
    if (usmca || cafTaDrTextile(q)) return exemptFinding(exemptCharge(rates, PROGRAM, 'Section 122', usmca ? 'usmca' : 'cafta_dr', q), [`Section 122: exempt as ${usmca ? 'USMCA-qualifying' : 'CAFTA-DR duty-free textile'} goods.`]);
    return finding([chargeOf(row, 'Section 122', q.valueCents)], notes);
  }

  const listings = (line: TariffLine) => exempt.all(line).map((e) => listing(PROGRAM, `exempt (note 2(aa): ${e.scope})`, null, e));

  return { authority: 'Section 122', assess, listings };
}
