/**
 * Section 301 forced-labor duties (U.S. note 52, 9903.05.20-.84, from 2026-07-24): +10% or +12.5%
 * by economy, 10% or 12.5% total for the EU, Taiwan, Japan, Korea and Switzerland; other origins owe
 * nothing. Exempt: the listed provisions (proposed Annex A), USMCA-qualifying goods of Canada and
 * Mexico, CAFTA-DR textiles entered duty-free. The thirteen country lists of note 52(j) are not
 * available: goods of those countries get a note naming the headings to check.
 */
import { cafTaDrTextile, chargeOf, exemptCharge, exemptFinding, finding, NOTHING, usmcaGoods, type Finding, type Measure, type ListTable, type MeasureQuery, type RateTable, type Table } from './measure.js';
import { proposedExemptions } from './proposed-exemptions.js';

const PROGRAM = 's301_forced_labor';

/**
 * `headingRows`: ch99_headings_post_rev10.csv. Its exemption rows of note 52(j) name the country and
 * the headings whose lists are not available.
 */
export function section301ForcedLabor(rates: RateTable, annexRows: ListTable, headingRows: Table, groups: ReadonlyMap<string, ReadonlySet<string>>): Measure {
  const exemption = proposedExemptions(annexRows, 'hts8', 'Section 301 forced labor', rates, PROGRAM);
  const countryLists = new Map<string, string>();
  for (const r of headingRows)
    if (r.program === PROGRAM && r.rate_kind === 'exempt' && /52\(j\)/.test(r.description))
      for (const c of groups.get(r.origin) ?? [r.origin]) countryLists.set(c, r.heading.replaceAll(';', ', '));

  function assess(q: MeasureQuery): Finding {
    const row = rates.pick(PROGRAM, q.country, q.date);
    if (!row) return NOTHING;
    const usmca = usmcaGoods(q);
    if (usmca || cafTaDrTextile(q)) return exemptFinding(exemptCharge(rates, PROGRAM, 'Section 301', usmca ? 'usmca' : 'cafta_dr', q), [`Section 301 forced labor: exempt as ${usmca ? 'USMCA-qualifying' : 'CAFTA-DR duty-free textile'} goods.`]);
    const { exempt, notes } = exemption(q, row.heading);
    if (exempt) return exempt;
    const list = countryLists.get(q.country!);
    if (list) notes.push(`Section 301 forced labor: goods of ${q.country} on the country list of note 52(j) (${list}) are exempt; that list is not available here — check ${q.line.hts} against it.`);
    return finding([chargeOf(row, 'Section 301', q.valueCents)], notes);
  }

  return { authority: 'Section 301', assess, listings: (line) => exemption.listings(line, PROGRAM) };
}
