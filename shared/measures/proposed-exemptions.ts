/**
 * The exemption lists of the two 2026 Section 301 actions (Brazil, note 50; forced labor, note 52)
 * are known only as the proposed annexes. A provision on the annex without a scope limitation is
 * taken as exempt, and the answer says the list is the proposed one; a provision limited to
 * aircraft or to part of its goods (`Aircraft`, `Ex`) is noted, not exempted.
 */
import type { TariffLine } from '../schedule.js';
import { exemptCharge, exemptFinding, listing, membership, type Finding, type Listing, type ListTable, type MeasureQuery, type RateTable } from './measure.js';

/** The finding when the line is exempt; otherwise the notes to add to the charge (none when not listed). */
export interface ProposedExemptions {
  (q: MeasureQuery, heading: string): { exempt: Finding | null; notes: string[] };
  /** The annex entries naming a line's code. */
  listings(line: TariffLine, program: string): Listing[];
}

/** `program`'s listed-provision heading (9903.05.86, 9903.05.03) is the layer an exempt line declares. */
export function proposedExemptions(rows: ListTable, prefixColumn: string, action: string, rates: RateTable, program: string): ProposedExemptions {
  const list = membership(rows, prefixColumn);
  const check = (q: MeasureQuery, heading: string) => {
    const listed = list.find(q.line, q.date)[0];
    if (!listed) return { exempt: null, notes: [] };
    if (listed.scope === '' || listed.scope.startsWith('unknown'))
      return {
        exempt: exemptFinding(exemptCharge(rates, program, 'Section 301', 'listed', q), [`${action}: ${q.line.hts} is on the exemption annex, so ${heading} is not charged.`], [`The ${action} exemption list used is the proposed annex; the final list may differ.`]),
        notes: [],
      };
    return { exempt: null, notes: [`${action}: ${q.line.hts} is on the proposed exemption annex only for some goods (${listed.scope}); ${heading} is charged — check whether the goods are exempt.`] };
  };
  return Object.assign(check, {
    listings: (line: TariffLine, program: string) => list.all(line).map((e) => listing(program, `exempt (proposed annex${e.scope ? `, ${e.scope} only` : ''})`, null, e)),
  });
}
