/**
 * IEEPA "reciprocal" duties (U.S. note 2(v), 9903.01.25-.76 and 9903.02.02-.91), entries
 * 2025-04-05 through 2026-02-23: the 10% baseline, the country rates of 2025-04-09 and of phase 2
 * (2025-08-07), the China steps, and the "15% total" floors of the EU, Japan, Korea, Switzerland and
 * Liechtenstein. Exempt: the note 2(v)(iii) product list as it stood on the entry date (Annex II, 9903.01.32:
 * wood, copper and eight chemical lines left it during 2025), the deal-country exemption lists, and the
 * U.S. content of goods with at least 20% of it (9903.01.34). The particular articles of (iii)(b) (9903.02.78)
 * are a part of their lines only, so they are noted, not assumed. Held unlawful: refundable.
 */
import { IEEPA_US_CONTENT_SHARE } from '../policy.js';
import type { TariffLine } from '../schedule.js';
import { chargeOf, exemptCharge, exemptFinding, finding, listing, NOTHING, ProductList, type Finding, type ListTable, type Measure, type MeasureQuery, type RateTable } from './measure.js';

const PROGRAM = 'ieepa_reciprocal';

/** An entry of the note 2(v)(iii) list; `particular`: (iii)(b) names only particular articles of the line (9903.02.78). */
export interface AnnexIIEntry {
  heading: string;
  particular: boolean;
  from: string;
  to: string;
}

/** The note 2(v)(iii) list (ieepa_reciprocal_exempt_products.csv), each entry with the dates it was listed. */
export const annexII = (rows: ListTable): ProductList<AnnexIIEntry> =>
  new ProductList(rows, 'hts_prefix', (r) => ({ heading: r.heading, particular: r.us_note.includes('particular'), from: r.valid_from, to: r.valid_to }));

/** The note of a line of which (iii)(b) exempts particular articles only: the provision holds other goods too. */
export const particularNote = (program: string, line: TariffLine, e: AnnexIIEntry): string =>
  `${program}: under ${line.hts}, note 2(v)(iii)(b) exempts only the particular articles it describes (${e.heading}); not assumed.`;

export function ieepaReciprocal(rates: RateTable, exemptRows: ListTable, dealRows: ListTable, groups: ReadonlyMap<string, ReadonlySet<string>>): Measure {
  const exempt = annexII(exemptRows);
  /** The deal exemption lists name the country by group: `eu`, `korea`, `swiss` (Switzerland and Liechtenstein). */
  const dealCountries: Record<string, ReadonlySet<string>> = { eu: groups.get('EU') ?? new Set(), korea: new Set(['KR']), swiss: new Set(['CH', 'LI']) };
  // Goods of other countries never look the lists up (nor read them).
  const dealCountry = new Set(Object.values(dealCountries).flatMap((s) => [...s]));
  const deals = new ProductList(dealRows, 'hts8', (r) => ({ countries: dealCountries[r.country_group] ?? new Set<string>(), heading: r.heading, from: r.valid_from, to: r.valid_to }));

  function assess(q: MeasureQuery): Finding {
    const row = rates.pick(PROGRAM, q.country, q.date);
    if (!row || row.kind === 'zero') return NOTHING;
    const listed = exempt.find(q.line, q.date);
    const whole = listed.find((e) => !e.particular);
    if (whole) return exemptFinding(exemptCharge(rates, PROGRAM, 'IEEPA', 'listed', q, whole.heading), [`IEEPA reciprocal: ${q.line.hts} is exempt (${whole.heading}).`]);
    const notes = listed.map((e) => particularNote('IEEPA reciprocal', q.line, e));
    const deal = q.country && dealCountry.has(q.country) ? deals.find(q.line, q.date).find((d) => d.countries.has(q.country!)) : undefined;
    if (deal) return exemptFinding(exemptCharge(rates, PROGRAM, 'IEEPA', 'listed', q, deal.heading), [`IEEPA reciprocal: ${q.line.hts} is exempt for goods of ${q.country} (${deal.heading}).`]);
    const us = q.facts.usContent ?? 0;
    // 9903.01.34: with at least 20% U.S. content, the U.S. content is not subject to the duty.
    if (us * IEEPA_US_CONTENT_SHARE.den >= q.valueCents * IEEPA_US_CONTENT_SHARE.num && us > 0)
      return finding([chargeOf(row, 'IEEPA', q.valueCents - us, 'non_us_content', true)], notes);
    return finding([chargeOf(row, 'IEEPA', q.valueCents, 'full_value', true)], notes);
  }

  const listings = (line: TariffLine) => [
    ...exempt.all(line).map((e) => listing(PROGRAM, e.particular ? 'exempt: particular articles only (note 2(v)(iii)(b))' : 'exempt (note 2(v)(iii))', e.heading, e)),
    ...deals.all(line).map((e) => listing(PROGRAM, `exempt for ${[...e.countries].join(', ')} (deal lists)`, e.heading, e)),
  ];

  return { authority: 'IEEPA', assess, listings };
}
