/**
 * Programs in force whose product lists are not available as data: Section 338 on products of
 * Canada (note 51, 9903.03.12-.14) and Section 232 on unmanned aircraft (note 43, 9903.08.2x). No
 * amount is guessed: a line of a possibly affected origin or heading gets a note naming the
 * headings to check.
 */
import { finding, inWindow, NO_LISTINGS, NOTHING, type Finding, type Measure, type MeasureQuery, type Table } from './measure.js';

interface Unlisted {
  program: string;
  /** Who may be affected: a country, or a code prefix (UAS: heading 8806, unmanned aircraft). */
  applies: (q: MeasureQuery) => boolean;
  what: string;
}

const UNLISTED: readonly Unlisted[] = [
  { program: 's338_canada', applies: (q) => q.country === 'CA', what: 'Section 338 (products of Canada, note 51; applies even with a USMCA claim)' },
  { program: 's232_uas', applies: (q) => q.line.digits.startsWith('8806'), what: 'Section 232 on unmanned aircraft systems (note 43)' },
];

/** `headingRows`: ch99_headings_post_rev10.csv: the duty headings (rate_kind add/total) of each program and their dates. */
export function unlisted(headingRows: Table): Measure {
  const programs = UNLISTED.map((u) => {
    const rows = headingRows.filter((r) => r.program === u.program && (r.rate_kind === 'add' || r.rate_kind === 'total'));
    return { ...u, rows, headings: rows.map((r) => `${r.heading} (${r.rate_kind === 'add' ? '+' : ''}${r.rate_pct}%${r.rate_kind === 'total' ? ' total' : ''})`).join(', ') };
  });

  function assess(q: MeasureQuery): Finding {
    const notes: string[] = [];
    for (const p of programs)
      if (p.applies(q) && p.rows.some((r) => inWindow(q.date, r.valid_from, r.valid_to)))
        notes.push(`${p.what}: the product lists are not available here, so no amount is included; check ${q.line.hts} against ${p.headings}.`);
    return notes.length ? finding([], notes) : NOTHING;
  }

  return { authority: 'various', assess, listings: NO_LISTINGS };
}
