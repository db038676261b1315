/**
 * Section 301 duties on products of China, derived from the schedule itself: a line's footnotes
 * cite chapter 99 headings (`See 9903.88.15.`), and those headings state the additional duty and
 * the entries they cover. Where several headings cover an entry, the highest rate applies (they
 * are alternatives, not cumulative). The caller may instead set the rate explicitly.
 */
import { citedProvisions, inEffect, lastDayOf, type Chapter99Heading } from '../chapter99.js';
import { SECTION_301_NOTE_31_LINES, SECTION_301_SETTINGS, SECTION_301_TEN_DIGIT_LISTS, type Note31Lines } from '../policy.js';
import type { Charge } from './measure.js';

export interface Section301 {
  /** Share of the value: num/den. */
  num: number;
  den: number;
  /** The rate in percent, for display (25, 7.5, 100). */
  percent: number;
  /** The heading applied; null when none applies or the caller set the rate. */
  heading: string | null;
  notes: string[];
}

const NONE: Section301 = { num: 0, den: 1, percent: 0, heading: null, notes: [] };

/** The caller's explicit setting (`25`, `7.5`, `none`). */
export function explicitSection301(setting: string): Section301 {
  const s = SECTION_301_SETTINGS[setting];
  return {
    num: s.num,
    den: s.den,
    percent: (100 * s.num) / s.den,
    heading: null,
    notes: [`Section 301 rate set by the caller: ${setting === 'none' ? 'none' : `${setting}%`}.`],
  };
}

/** What the ten-digit rule reads of a schedule line. */
interface FootnotedLine {
  footnotes: readonly string[];
  section301: Chapter99Heading[];
  children: readonly FootnotedLine[];
}

/**
 * Which lines a list of note 31 covers, in two rules: this one, read from the schedule's footnotes
 * when the schedule is built, and section301Headings below, from the policy table when a line is
 * costed. A ten-digit line's Section 301 headings: those of lists naming ten-digit lines
 * (SECTION_301_TEN_DIGIT_LISTS) that its 8-digit line cites hold for it only if its own footnotes
 * cite one too, when some ten-digit line of the 8-digit line does (the list names those, not the others).
 */
export function tenDigitSection301(line: FootnotedLine, eight: FootnotedLine | undefined): Chapter99Heading[] {
  const listed = (h: Chapter99Heading) => SECTION_301_TEN_DIGIT_LISTS.test(h.heading);
  if (!eight || !eight.section301.some(listed)) return line.section301;
  const own = (l: FootnotedLine) => l.footnotes.filter((f) => !eight.footnotes.includes(f)).some((f) => citedProvisions(f).some((h) => SECTION_301_TEN_DIGIT_LISTS.test(`${h}.`)));
  if (own(line) || !eight.children.some(own)) return line.section301;
  return line.section301.filter((h) => !listed(h));
}

/**
 * The Section 301 headings of a line (`digits`) entered on `date`: those its footnotes cite (after
 * tenDigitSection301), as note 31's lists of particular lines correct them (SECTION_301_NOTE_31_LINES): a listed heading covers the lines
 * it names, cited or not, and no other line of the same 8-digit line. An 8-digit line whose ten-digit
 * lines the list tells apart keeps what it cites: its answer says the suffix matters.
 */
export function section301Headings(cited: readonly Chapter99Heading[], digits: string, date: string, heading: (h: string) => Chapter99Heading | undefined): readonly Chapter99Heading[] {
  const rows = SECTION_301_NOTE_31_LINES.filter((r) => digits.startsWith(r.of) && digits.length >= r.lines[0].length);
  if (rows.length === 0) return cited;
  const names = (r: Note31Lines) => r.lines.some((l) => digits.startsWith(l)) && date >= r.from && (r.until === null || date <= r.until);
  const out = cited.filter((h) => !rows.some((r) => r.heading === h.heading && !names(r)));
  for (const r of rows) {
    const h = names(r) && !out.some((c) => c.heading === r.heading) ? heading(r.heading) : undefined;
    if (h) out.push(h);
  }
  return out;
}

/** The Section 301 duty the schedule imposes on entries on `date` of a line citing `headings`. */
export function derivedSection301(headings: readonly Chapter99Heading[], date: string): Section301 {
  if (headings.length === 0) return NONE;
  let best: Chapter99Heading | null = null;
  const applicable: Chapter99Heading[] = [];
  const notes: string[] = [];
  for (const h of headings) {
    if (!inEffect(h, date)) continue;
    if (h.exclusion) {
      notes.push(`Products covered by a USTR exclusion under ${h.heading}${h.effectiveUntil ? ` (in effect through ${lastDayOf(h)})` : ''} take no Section 301 duty; check the product against that heading.`);
      continue;
    }
    if (!h.additional) {
      notes.push(`Section 301 heading ${h.heading} is cited but its rate ("${h.rateText}") cannot be applied automatically.`);
      continue;
    }
    applicable.push(h);
    if (!best || h.additional.num * best.additional!.den > best.additional!.num * h.additional.den) best = h;
  }
  if (!best) {
    const cited = headings.filter((h) => !h.exclusion).map((h) => h.heading);
    if (cited.length) notes.push(`Section 301 heading(s) ${cited.join(', ')} cited by this line do not cover entries on ${date}.`);
    return { ...NONE, notes };
  }
  if (applicable.length > 1) {
    const list = applicable.map((h) => `${h.heading} (+${h.additional!.percent}%)`).join(', ');
    notes.push(`Section 301: ${best.heading} applied, the highest of ${list}; the rates are not added.`);
  }
  const a = best.additional!;
  return { num: a.num, den: a.den, percent: a.percent, heading: best.heading, notes };
}

/** The China Section 301 amount as one chapter 99 layer (always additive: never displaced, SPEC §3). */
export function section301Charge(s: Section301, valueCents: number): Charge | null {
  if (s.num === 0) return null;
  return {
    program: 's301_china',
    authority: 'Section 301',
    heading: s.heading,
    kind: 'add',
    rate: s, // its num, den and percent
    basis: 'full_value',
    basisCents: valueCents,
    refundable: false,
  };
}
