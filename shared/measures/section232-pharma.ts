/**
 * Section 232 on patented pharmaceuticals (U.S. note 40, 9903.04.60-.67, from 2026-07-31): 100%
 * total, 15% total for the EU/JP/KR/CH/LI deals, +0% for the UK; generic products owe nothing.
 * Whether the product is patented is the importer's fact (`patented`, default 0: no duty). The note
 * 40(c) list was revised on a date the product file records (149 provisions, not available here):
 * from then on, codes of chapters 29 and 30 that the first list does not name get a note naming the
 * heading to check instead of a guess.
 */
import type { TariffLine } from '../schedule.js';
import { chargeOf, finding, listing, NOTHING, ProductList, type Finding, type Measure, type MeasureQuery, type RateTable, type Table } from './measure.js';

const PROGRAM = 's232_pharma';
const PHARMA_CHAPTERS = ['29', '30'];
const genericRow = (scope: string): boolean => /generic/i.test(scope);

export function section232Pharma(rates: RateTable, rows: Table): Measure {
  const list = new ProductList(rows, 'hts_prefix', (r) => ({ from: r.valid_from, to: r.valid_to }));
  // "list revised 2026-09-29 to 149 provisions - not available here"
  const revised = rows.map((r) => /revised (\d{4}-\d{2}-\d{2})/.exec(r.source)?.[1]).find(Boolean) ?? '';
  const patentedRow = rates.rows(PROGRAM).find((r) => !genericRow(r.scope) && !r.origins);

  function assess(q: MeasureQuery): Finding {
    const listed = list.find(q.line, q.date).length > 0;
    const afterRevision = revised !== '' && q.date >= revised;
    const notes = afterRevision ? [revisionNote(q)] : [];
    if (!listed) return afterRevision && PHARMA_CHAPTERS.includes(q.line.digits.slice(0, 2)) ? finding([], notes) : NOTHING;
    const row = rates.pick(PROGRAM, q.country, q.date, (r) => genericRow(r.scope) === (q.facts.patented !== true));
    if (!row) return finding([], notes);
    if (q.facts.patented === null) return finding([], notes, [`patented not given: ${q.line.hts} is taken as a generic (unpatented) product, which owes no Section 232 pharmaceutical duty.`]);
    return row.kind === 'zero' ? finding([], notes) : finding([chargeOf(row, 'Section 232', q.valueCents)], notes);
  }

  function revisionNote(q: MeasureQuery): string {
    return `The Section 232 pharmaceutical list (note 40(c)) was revised on ${revised}; the revised list is not available here: check ${q.line.hts} against ${patentedRow?.heading ?? PROGRAM}.`;
  }

  const listings = (line: TariffLine) => list.all(line).map((e) => listing(PROGRAM, 'note 40(c) patented pharmaceuticals (first list)', patentedRow?.heading ?? null, e));

  return { authority: 'Section 232', assess, listings };
}
