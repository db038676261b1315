/**
 * IEEPA "fentanyl" duties (U.S. note 2(a)-(u), 9903.01.01-.24): China and Hong Kong (10% then 20%
 * then 10%), Canada (25%, 35%; energy and potash 10%) and Mexico (25%; potash 10%), for entries
 * from 2025-02-04 through 2026-02-23. USMCA-qualifying goods of Canada and Mexico are exempt from
 * the date the conditions give. Held unlawful: every amount is refundable.
 */
import type { TariffLine } from '../schedule.js';
import { chargeOf, claims, finding, listing, NOTHING, ProductList, usmcaRow, type Finding, type Measure, type MeasureQuery, type ListTable, type RateTable } from './measure.js';

const PROGRAM = 'ieepa_fentanyl';

export function ieepaFentanyl(rates: RateTable, carveoutRows: ListTable): Measure {
  const carveouts = new ProductList(carveoutRows, (r) => r.hts8, (r) => ({ heading: r.heading, from: r.valid_from, to: r.valid_to }));

  function assess(q: MeasureQuery): Finding {
    const listed = carveouts.find(q.line, q.date);
    const row = rates.pick(PROGRAM, q.country, q.date, (r) => !r.scope.startsWith('list:') || listed.some((c) => r.heading.includes(c.heading)));
    if (!row) return NOTHING;
    // "not if USMCA claim (from 2025-03-07, 9903.01.14)"
    const usmcaFrom = /from (\d{4}-\d{2}-\d{2})/.exec(row.conditions)?.[1] ?? '';
    if (usmcaRow(row) && claims(q, 'usmca') && q.date >= usmcaFrom) return finding([], [`IEEPA ${row.heading}: USMCA-qualifying goods are exempt.`]);
    return finding([chargeOf(row, 'IEEPA', q.valueCents, 'full_value', true)]);
  }

  const listings = (line: TariffLine) => carveouts.all(line).map((e) => listing(PROGRAM, 'energy/potash rate (note 2)', e.heading, e));

  return { authority: 'IEEPA', assess, listings };
}
