/**
 * IEEPA "fentanyl" duties (U.S. note 2(a)-(u), 9903.01.01-.24): China and Hong Kong (10% then 20%
 * then 10%), Canada (25%, 35%; energy and potash 10%) and Mexico (25%; potash 10%), for entries
 * from 2025-02-04 through 2026-02-23. USMCA-qualifying goods of Canada and Mexico are exempt from
 * 2025-03-07 (policy.ts), potash and energy included. Held unlawful: every amount is refundable.
 */
import type { TariffLine } from '../schedule.js';
import { IEEPA_FENTANYL_CA_ENERGY_FROM, IEEPA_FENTANYL_USMCA_FROM } from '../policy.js';
import { chargeOf, exemptCharge, exemptFinding, finding, listing, NOTHING, ProductList, usmcaGoods, type Finding, type Measure, type MeasureQuery, type ListTable, type RateTable } from './measure.js';

const PROGRAM = 'ieepa_fentanyl';

export function ieepaFentanyl(rates: RateTable, carveoutRows: ListTable): Measure {
  const carveouts = new ProductList(carveoutRows, 'hts8', (r) => ({ heading: r.heading, from: r.category === 'energy_ca' ? IEEPA_FENTANYL_CA_ENERGY_FROM : r.valid_from, to: r.valid_to }));

  function assess(q: MeasureQuery): Finding {
    const listed = carveouts.find(q.line, q.date);
    const row = rates.pick(PROGRAM, q.country, q.date, (r) => !r.scope.startsWith('list:') || listed.some((c) => c.heading === r.heading));
    if (!row) return NOTHING;
    if (usmcaGoods(q) && q.date >= IEEPA_FENTANYL_USMCA_FROM) return exemptFinding(exemptCharge(rates, PROGRAM, 'IEEPA', 'usmca', q), [`IEEPA ${row.heading}: USMCA-qualifying goods are exempt.`]);
    return finding([chargeOf(row, 'IEEPA', q.valueCents, 'full_value', true)]);
  }

  const listings = (line: TariffLine) => carveouts.all(line).map((e) => listing(PROGRAM, 'energy/potash rate (note 2)', e.heading, e));

  return { authority: 'IEEPA', assess, listings };
}
