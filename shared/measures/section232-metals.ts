/**
 * Section 232 on steel, aluminum and copper under the annex regime (U.S. note 16, Proclamations
 * 11021 and 11032, entries from 2026-04-06), and the 200% duty on Russian aluminum (9903.85.67/.68),
 * which prevails over the annex headings (note 16(a)). The annex tier of the product (I-A, I-B,
 * I-C, III; II = removed) and the origin select one row of program_rates.csv; the basis is the
 * full customs value (note 16(c)).
 */
import type { TariffLine } from '../schedule.js';
import { chapterOf, chargeOf, finding, generalHeading, listing, NOTHING, ProductList, type Finding, type Measure, type MeasureQuery, type ListTable, type RateRow, type RateTable } from './measure.js';

interface AnnexEntry {
  tier: string;
  metals: string[];
  subdivision: string;
  from: string;
  to: string;
}

/** Tiers in the order a product on several lists takes them (the heaviest first); `2` = removed from the regime. */
const TIERS = ['1A', '1B', '1C', '3'];
/** Chapters where the metal content test of note 16(c) does not apply (the article is the metal). */
const METAL_CHAPTERS = new Set([72, 73, 74, 76]);

export const annexTier = (row: RateRow): string | null => /annex_tier=(\w+)/.exec(row.scope)?.[1] ?? null;
/** Rows that need an importer input the API does not take (≥95% U.S. metal, Commerce authorizations, the I-C USMCA content rule). */
const needsUntakenInput = (row: RateRow): boolean => row.conditions.startsWith('input:');
/** The UK rows require the metal to be ≥95% melted and poured (smelted and cast) in the UK (note 16(d)). */
const ukMeltRow = (row: RateRow): boolean => /melt/i.test(row.conditions);

export function section232Metals(rates: RateTable, annexRows: ListTable): Measure {
  const annex = new ProductList<AnnexEntry>(
    annexRows,
    'hts_prefix',
    (r) => ({ tier: r.annex_tier, metals: r.metal.split('+'), subdivision: r.note16c_subdivision, from: r.valid_from, to: r.valid_to }),
  );

  function assess(q: MeasureQuery): Finding {
    const entries = annex.find(q.line, q.date);
    if (!entries.length) return NOTHING;
    const entry = TIERS.map((t) => entries.find((e) => e.tier === t)).find(Boolean);
    if (!entry) return finding([], [`${q.line.hts} is in Annex II of the Section 232 metals proclamation (removed): no Section 232 metals duty.`]);
    const assumptions: string[] = [];
    // Note 16(c)(i) lists aluminum articles; every other subdivision naming aluminum, derivatives.
    const ru = entry.metals.includes('aluminum') ? russianAluminum(rates, q, entry.subdivision !== 'i') : null;
    if (ru) return ru;
    const row = rates.pick('s232_metals', q.country, q.date, (r) => {
      if (annexTier(r) !== entry.tier || needsUntakenInput(r)) return false;
      if (!ukMeltRow(r)) return true;
      // UK rates: steel and aluminum only (not copper); I-B only for derivatives (vi), (vii).
      if (entry.metals.every((m) => m === 'copper')) return false;
      // A code on both derivative lists is written `vi;vii` or `vi/vii`: each of its subdivisions must be (vi) or (vii).
      if (entry.tier === '1B' && !entry.subdivision.split(/[;/]/).every((d) => d === 'vi' || d === 'vii')) return false;
      return q.facts.ukMelted !== false;
    });
    if (!row || row.kind === 'zero') return NOTHING;
    if (ukMeltRow(row) && q.facts.ukMelted === null)
      assumptions.push(`uk_melted not given: the metal is taken to be at least 95% melted and poured (smelted and cast) in the United Kingdom (${row.heading}).`);
    if (!METAL_CHAPTERS.has(chapterOf(q)))
      assumptions.push(`The ${entry.metals.join(' and ')} is taken to be at least 15% of the article's weight (U.S. note 16(c)); below that, ${q.line.hts} owes no Section 232 metals duty.`);
    return finding(
      [chargeOf(row, 'Section 232', q.valueCents)],
      [`Section 232 metals: Annex ${tierName(entry.tier)} (${entry.metals.join(', ')}).`],
      assumptions,
    );
  }

  const listings = (line: TariffLine) =>
    annex.all(line).map((e) =>
      listing('s232_metals', `Annex ${tierName(e.tier)} (${e.metals.join(', ')}; note 16(c)(${e.subdivision}))`, e.tier === '2' ? null : generalHeading(rates, 's232_metals', (r) => annexTier(r) === e.tier && !needsUntakenInput(r)), e),
    );

  return { authority: 'Section 232', assess, listings };
}

/**
 * Aluminum of Russia: 200% on the full value, in place of any other metals heading: 9903.85.67 for
 * aluminum articles, 9903.85.68 for derivatives (the rows' `kind=` scope).
 */
export function russianAluminum(rates: RateTable, q: MeasureQuery, derivative: boolean): Finding | null {
  const kind = derivative ? 'kind=derivative' : 'kind=article';
  const row = q.country === 'RU' ? rates.pick('s232_aluminum_russia', q.country, q.date, (r) => r.scope.startsWith(kind)) : null;
  return row ? finding([chargeOf(row, 'Section 232', q.valueCents)]) : null;
}

const tierName = (t: string): string => ({ '1A': 'I-A', '1B': 'I-B', '1C': 'I-C', '2': 'II (removed)', '3': 'III' })[t] ?? t;
