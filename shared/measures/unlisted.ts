/**
 * Programs in force whose product lists are not available as data: Section 338 on products of
 * Canada (note 51, 9903.03.12-.14) and Section 232 on unmanned aircraft (note 43, 9903.08.2x); and
 * Section 301 headings on China that name goods narrower than their codes (the ships action, note
 * 31(k), (l)), which the lines' footnotes do not cite; and the Section 201 safeguards (solar cells
 * and modules, note 18, to 2026-02-06; quartz surface products, note 41, from 2026-08-15), whose
 * quotas and exempt countries are not modelled. No amount is guessed: a line of a possibly affected
 * origin or code gets a note naming the headings to check.
 */
import { finding, inWindow, NO_LISTINGS, NOTHING, type Finding, type Measure, type MeasureQuery, type RateTable, type Table } from './measure.js';

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

/** Section 301 headings on China whose goods are narrower than the codes their rows name (program_rates.csv), and those goods. */
const BY_DESCRIPTION: Readonly<Record<string, string>> = {
  '9903.91.12': 'intermodal chassis, their subassemblies and parts',
  '9903.91.14': 'ship-to-shore gantry cranes',
};
/** A code as a rate row's scope writes it: 8716.39.0090, 8716.90.30, 8426.19.00. */
const CODE = /\b\d{4}\.\d{2}(?:\.\d{2,4})?\b/g;
const codesOf = (scope: string): string[] => (scope.match(CODE) ?? []).map((c) => c.replace(/\./g, ''));
/** Whether a line is under one of the codes, or a broader line holding one. */
const touches = (digits: string, codes: readonly string[]): boolean => codes.some((c) => digits.startsWith(c) || c.startsWith(digits));

/** The Section 201 safeguards of program_rates.csv, each row's scope naming its codes. */
const SAFEGUARDS = ['s201_solar', 's201_quartz'];

/**
 * `headingRows`: ch99_headings_post_rev10.csv: the duty headings (rate_kind add/total) of each program and their dates;
 * `rates`: program_rates.csv, whose China Section 301 rows give the described headings' codes, rate and dates.
 */
export function unlisted(headingRows: Table, rates: RateTable): Measure {
  const programs = UNLISTED.map((u) => {
    const rows = headingRows.filter((r) => r.program === u.program && (r.rate_kind === 'add' || r.rate_kind === 'total'));
    return { ...u, rows, headings: rows.map((r) => `${r.heading} (${r.rate_kind === 'add' ? '+' : ''}${r.rate_pct}%${r.rate_kind === 'total' ? ' total' : ''})`).join(', ') };
  });

  const described = rates
    .rows('s301_china')
    .filter((r) => BY_DESCRIPTION[r.heading] && r.kind === 'add')
    .map((row) => ({ row, written: (row.scope.match(CODE) ?? []).join(', '), codes: codesOf(row.scope) }));
  const safeguards = SAFEGUARDS.flatMap((p) => rates.rows(p)).map((row) => ({ row, codes: codesOf(row.scope) }));

  function assess(q: MeasureQuery): Finding {
    const notes: string[] = [];
    for (const p of programs)
      if (p.applies(q) && p.rows.some((r) => inWindow(q.date, r.valid_from, r.valid_to)))
        notes.push(`${p.what}: the product lists are not available here, so no amount is included; check ${q.line.hts} against ${p.headings}.`);
    const digits = q.line.digits;
    for (const { row, written, codes } of described) {
      if (q.country === null || !row.origins?.has(q.country) || !inWindow(q.date, row.from, row.to)) continue;
      if (!touches(digits, codes)) continue;
      const goods = BY_DESCRIPTION[row.heading];
      notes.push(
        `Section 301 (China) ${row.heading}, +${row.rate.percent}% from ${row.from} (when the one-year suspension of the ships action ended, unless USTR extended it), covers ${goods} under ${written}: not included, since ${q.line.hts} holds other goods too and attested goods are exempt; add it if the goods are ${goods}.`,
      );
    }
    for (const { row, codes } of safeguards) {
      if (!inWindow(q.date, row.from, row.to) || !touches(digits, codes)) continue;
      const period = row.to ? `from ${row.from} to ${row.to}` : `from ${row.from}`;
      notes.push(`Section 201 safeguard ${row.heading}, +${row.rate.percent}% ${period} (${row.scope}${row.conditions ? `; ${row.conditions}` : ''}): not included, since the safeguard's quotas and exempt countries are not modelled here.`);
    }
    return notes.length ? finding([], notes) : NOTHING;
  }

  return { authority: 'various', assess, listings: NO_LISTINGS };
}
