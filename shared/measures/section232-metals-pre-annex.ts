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

type Metal = 'steel' | 'aluminum' | 'copper';

interface PreAnnexEntry {
  metal: Metal;
  /** `full_value`, or the metal content from `contentFrom` on (before it, the full value). */
  fullValue: boolean;
  contentFrom: string;
  heading: string;
  kind: string;
  from: string;
  to: string;
}

const METALS: readonly Metal[] = ['steel', 'aluminum', 'copper'];

const CONTENT: Record<Metal, { basis: Basis; fact: keyof ImporterFacts; param: string }> = {
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
    'hts_prefix',
    (r) => ({
      metal: r.metal as Metal,
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
    // Every prefix: a derivative may be on the steel list at 8 digits and on the aluminum list at 10.
    const entries = list.findAll(q.line, q.date);
    if (!entries.length) return NOTHING;
    const aluminum = entries.find((e) => e.metal === 'aluminum');
    const ru = aluminum ? russianAluminum(rates, q, aluminum.kind === 'derivative') : null;
    if (ru) return ru;
    const assumptions: string[] = [];
    const priced: { metal: Metal; entry: PreAnnexEntry; row: RateRow; onContent: boolean }[] = [];
    // In a fixed order, so that of two metals of the same rate steel is the one taken (as the schedule lists them).
    for (const metal of METALS.filter((m) => entries.some((e) => e.metal === m))) {
      // The longest prefix naming the metal (findAll lists the longest first).
      const entry = entries.find((x) => x.metal === metal)!;
      const row = rates.pick(`s232_${metal}`, q.country, q.date, (r) => headingFits(r, entry.heading));
      if (!row) continue;
      if (row.kind === 'zero') {
        assumptions.push(`Section 232 ${metal}: goods of ${q.country} had an exemption or quota arrangement until 2025-03-11; taken as within quota (no duty).`);
        continue;
      }
      priced.push({ metal, entry, row, onContent: !entry.fullValue && (!entry.contentFrom || q.date >= entry.contentFrom) });
    }
    // An article of the metal itself (steel mill products, aluminum of note 19(b)) is its metal throughout: its content is the value.
    const givenOf = (p: (typeof priced)[number]) => (q.facts[CONTENT[p.metal].fact] as number | null) ?? (p.entry.kind === 'mill' || p.entry.kind === 'primary' ? q.valueCents : null);
    // The metal contents together are at most the value: what no full-value metal nor given content takes is the rest.
    const taken = priced.reduce((s, p) => s + (!p.onContent ? q.valueCents : (givenOf(p) ?? 0)), 0);
    const rest = Math.max(0, q.valueCents - taken);
    // Nothing left (the given contents make up the value): the contents not given are 0, nothing assumed.
    const unknown = rest === 0 ? [] : priced.filter((p) => p.onContent && givenOf(p) === null);
    // Unknown contents: the rest as the content of the one metal of the highest rate (an upper bound).
    const top = unknown.reduce<(typeof unknown)[number] | null>((best, p) => (!best || p.row.rate.num * best.row.rate.den > best.row.rate.num * p.row.rate.den ? p : best), null);
    if (top) {
      const params = unknown.map((p) => CONTENT[p.metal].param).join(' and ');
      const others = unknown.filter((p) => p !== top).map((p) => p.metal);
      assumptions.push(
        `${params} not given: ${rest === q.valueCents ? 'the whole customs value' : 'the rest of the customs value'} (${(rest / 100).toFixed(2)}) is taken as ${top.metal} content, ` +
          `${others.length ? `the metal of the highest rate (${others.join(' and ')} content taken as 0)` : `${top.row.heading} +${top.row.rate.percent}%`}: an upper bound.`,
      );
    }
    const charges: Charge[] = [];
    for (const p of priced) {
      const c = CONTENT[p.metal];
      const content = !p.onContent ? q.valueCents : (givenOf(p) ?? (p === top ? rest : 0));
      if (p.onContent && content === 0) continue;
      const charge = p.onContent ? chargeOf(p.row, 'Section 232', content, c.basis) : chargeOf(p.row, 'Section 232', q.valueCents);
      charges.push(p.metal === 'steel' && p.entry.kind === 'mill' ? { ...charge, steelArticle: true } : charge);
    }
    return { ...finding(charges, [], assumptions), ...(unknown.length ? { contentNeeded: unknown.map((p) => p.metal) } : {}) };
  }

  const listings = (line: TariffLine) => list.all(line).map((e) => listing(`s232_${e.metal}`, `${e.metal} ${e.kind} (before the annex regime)`, e.heading || generalHeading(rates, `s232_${e.metal}`), e));

  return { authority: 'Section 232', assess, listings };
}
