/**
 * Section 232 on steel, aluminum and copper before the annex regime (entries to 2026-04-05): the
 * steel and aluminum headings of notes 16 and 19 (9903.80/.81/.85) and copper (9903.78). Steel mill
 * products pay on the full value; aluminum and all derivatives, and copper, on the value of their
 * metal content (note 19(f),(h),(k); Proclamation 10962). A derivative on two lists pays each metal
 * on its own content (note 19(h)). Russian aluminum pays 200% (9903.85.67/.68) instead.
 */
import type { ImporterFacts } from '../claims.js';
import { russianAluminum } from './section232-metals.js';
import type { TariffLine } from '../schedule.js';
import { chargeOf, finding, generalHeading, listing, NOTHING, ProductList, type Basis, type Charge, type Finding, type Measure, type MeasureQuery, type ListTable, type RateRow, type RateTable } from './measure.js';

interface PreAnnexEntry {
  metal: 'steel' | 'aluminum' | 'copper';
  /** `full_value`, or the metal content from `contentFrom` on (before it, the full value). */
  fullValue: boolean;
  contentFrom: string;
  heading: string;
  kind: string;
  from: string;
  to: string;
}

const CONTENT: Record<PreAnnexEntry['metal'], { basis: Basis; fact: keyof ImporterFacts; param: string }> = {
  steel: { basis: 'steel_content', fact: 'steelContent', param: 'steel_content' },
  aluminum: { basis: 'aluminum_content', fact: 'aluminumContent', param: 'aluminum_content' },
  copper: { basis: 'copper_content', fact: 'copperContent', param: 'copper_content' },
};

/**
 * Whether a rate row prices a product whose list entry names `heading`: rows scoped `ch99_heading=9903.81.89`
 * (from 2025-03-12, one heading per kind of article, and the UK's heading for it) price only those; the
 * others (9903.80.01, 9903.85.01, 9903.78.01, the arrangements) every product of the metal.
 */
const headingFits = (row: RateRow, heading: string): boolean => {
  const named = /^ch99_heading=(\S+)/.exec(row.scope)?.[1];
  return !named || named === heading;
};

export function section232MetalsPreAnnex(rates: RateTable, rows: ListTable): Measure {
  const list = new ProductList<PreAnnexEntry>(
    rows,
    (r) => r.hts_prefix,
    (r) => ({
      metal: r.metal as PreAnnexEntry['metal'],
      fullValue: r.duty_basis === 'full_value',
      // "metal_content (from 2025-06-04; full value before ...)"
      contentFrom: /from (\d{4}-\d{2}-\d{2})/.exec(r.duty_basis)?.[1] ?? '',
      heading: r.ch99_heading,
      kind: r.kind,
      from: r.valid_from,
      to: r.valid_to,
    }),
  );

  function assess(q: MeasureQuery): Finding {
    const entries = list.find(q.line, q.date);
    if (!entries.length) return NOTHING;
    const aluminum = entries.find((e) => e.metal === 'aluminum');
    const ru = aluminum ? russianAluminum(rates, q, aluminum.kind === 'derivative') : null;
    if (ru) return ru;
    const charges: Charge[] = [];
    const assumptions: string[] = [];
    for (const metal of new Set(entries.map((e) => e.metal))) {
      const e = entries.find((x) => x.metal === metal)!;
      const row = rates.pick(`s232_${metal}`, q.country, q.date, (r) => headingFits(r, e.heading));
      if (!row) continue;
      if (row.kind === 'zero') {
        assumptions.push(`Section 232 ${metal}: goods of ${q.country} had an exemption or quota arrangement until 2025-03-11; taken as within quota (no duty).`);
        continue;
      }
      const onContent = !e.fullValue && (!e.contentFrom || q.date >= e.contentFrom);
      const c = CONTENT[metal];
      const given = q.facts[c.fact] as number | null;
      if (onContent && given === null) assumptions.push(`${c.param} not given: the whole customs value is taken as ${metal} content (an upper bound).`);
      const charge = onContent ? chargeOf(row, 'Section 232', given ?? q.valueCents, c.basis) : chargeOf(row, 'Section 232', q.valueCents);
      charges.push(metal === 'steel' && e.kind === 'mill' ? { ...charge, steelArticle: true } : charge);
    }
    return finding(charges, [], assumptions);
  }

  const listings = (line: TariffLine) => list.all(line).map((e) => listing(`s232_${e.metal}`, `${e.metal} ${e.kind} (before the annex regime)`, e.heading || generalHeading(rates, `s232_${e.metal}`), e));

  return { authority: 'Section 232', assess, listings };
}
