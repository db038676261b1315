/**
 * Chapter 99 headings that impose additional duties (subchapter III): their rate text
 * (`The duty provided in the applicable subheading + 25%`) and the effective dates written into
 * their descriptions (`Effective with respect to entries on or after September 27, 2024 ...
 * through November 9, 2026`).
 */
import { percentShare, type Share } from './money.js';

export interface Chapter99Heading {
  /** Dotted, as printed: `9903.88.15`. */
  heading: string;
  description: string;
  /** The general-column text, as printed. */
  rateText: string;
  /** The additional duty as a share of the value (`+ 7.5%` → 75/1000); null when the text is not of that form. */
  additional: Share | null;
  /** First day of entries covered (inclusive), ISO date; null when the row names none. */
  effectiveFrom: string | null;
  /** First day no longer covered (exclusive), ISO date; null when open-ended. */
  effectiveUntil: string | null;
  /** `[Compiler's note: provision suspended.]` */
  suspended: boolean;
  /** A heading for products covered by an exclusion granted by USTR (adds no duty). */
  exclusion: boolean;
}

const MONTHS = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];
const DATE = '(January|February|March|April|May|June|July|August|September|October|November|December) (\\d{1,2}), (\\d{4})';
const FROM = new RegExp(`on or after ${DATE}`, 'i');
const UNTIL = new RegExp(`(through|before) ${DATE}`, 'i');
const ADDITIONAL = /^The duty provided in the applicable subheading(?: (?:\+|plus) (\d+(?:\.\d+)?)%)?\.?$/;

export function parseChapter99Heading(heading: string, description: string, general: string): Chapter99Heading {
  const rateText = general.replace(/\s+/g, ' ').trim();
  const add = ADDITIONAL.exec(rateText);
  let additional: Chapter99Heading['additional'] = null;
  if (add) additional = percentShare(add[1] ?? '0');
  let effectiveFrom: string | null = null;
  let effectiveUntil: string | null = null;
  const from = FROM.exec(description);
  const untilSearch = from ? description.slice((from.index ?? 0) + from[0].length) : description;
  if (from) effectiveFrom = isoDate(from[1], from[2], from[3]);
  const until = /^Effective/i.test(description) || from ? UNTIL.exec(untilSearch) : null;
  if (until) {
    const d = isoDate(until[2], until[3], until[4]);
    effectiveUntil = until[1].toLowerCase() === 'through' ? nextDay(d) : d;
  }
  return {
    heading,
    description,
    rateText,
    additional,
    effectiveFrom,
    effectiveUntil,
    suspended: /provision suspended/i.test(description),
    exclusion: additional?.num === 0 && /exclusion/i.test(description),
  };
}

/** Whether the heading covers entries on `date` (ISO). */
export function inEffect(h: Chapter99Heading, date: string): boolean {
  if (h.suspended) return false;
  if (h.effectiveFrom && date < h.effectiveFrom) return false;
  if (h.effectiveUntil && date >= h.effectiveUntil) return false;
  return true;
}

/** Chapter 98/99 provisions a footnote cites: `See 9903.88.15 and 9903.91.06.` → both. */
export function citedProvisions(footnote: string): string[] {
  return footnote.match(/\b99\d\d\.\d\d(?:\.\d\d)?\b/g) ?? [];
}

function isoDate(month: string, day: string, year: string): string {
  const m = MONTHS.indexOf(month.toLowerCase()) + 1;
  return `${year}-${String(m).padStart(2, '0')}-${day.padStart(2, '0')}`;
}

const nextDay = (iso: string): string => shifted(iso, 1);

/** The last day a heading covers: the day before its (exclusive) `effectiveUntil`, as the heading text says it ("through November 9, 2026"). */
export const lastDayOf = (h: Chapter99Heading): string | null => (h.effectiveUntil === null ? null : shifted(h.effectiveUntil, -1));

function shifted(iso: string, days: number): string {
  const d = new Date(`${iso}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}
