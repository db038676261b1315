/**
 * Trade vocabulary: the names importers use for goods the schedule calls otherwise (laptop for
 * "automatic data processing machines", LED for "light-emitting diode"). Kept as data
 * (data/search/synonyms.csv, each row with its source); a line whose description contains a
 * row's schedule wording is found by the row's terms too, within the codes the row names, if any
 * (e-bike for "electric motor for propulsion" under 8711, not for the electric cars of 8703.80).
 */
import { containsRun, searchWords } from './words.js';

/** One row of the table: the words people use, the schedule's wording they mean, where that is said. */
export interface TradeTerm {
  terms: string;
  schedule: string;
  source: string;
  /** The codes' digits (headings or subheadings) the row holds under; empty: wherever the wording stands. */
  within: string[];
}

/** The columns every row fills (`within` may be empty). */
export const REQUIRED_COLUMNS = ['terms', 'schedule', 'source'] as const;

/** The rows, checked: each names terms, a wording of the schedule and a source, and maybe codes (`8711`, `9401.61 9401.71`). */
export function tradeTerms(rows: readonly Record<string, string>[]): TradeTerm[] {
  return rows.map((r, i) => {
    for (const c of REQUIRED_COLUMNS) if (!r[c]?.trim()) throw new Error(`trade terms row ${i + 2}: ${c} is empty`);
    if (searchWords(r.schedule).length === 0) throw new Error(`trade terms row ${i + 2}: "${r.schedule}" has no words to look for`);
    const within = (r.within ?? '').split(/\s+/).filter(Boolean);
    for (const code of within) if (!/^\d{4}(\.\d{2}){0,3}$/.test(code)) throw new Error(`trade terms row ${i + 2}: within "${code}" is not a code such as 8711 or 9401.61`);
    return { terms: r.terms.trim(), schedule: r.schedule.trim(), source: r.source.trim(), within: within.map((c) => c.replace(/\./g, '')) };
  });
}

/** A row as the index reads it: its wording as words, its terms, the digits of its codes. */
export interface PreparedTerm {
  words: string[];
  terms: string;
  within: string[];
}

/** A text of the schedule's tree, as a row is matched on it. */
export interface TermPlace {
  /** The words of the text. */
  words: readonly string[];
  /** The words of every text above it on its path. */
  above: readonly (readonly string[])[];
  /** Whether the codes hold every line under the text. */
  inside(codes: readonly string[]): boolean;
  /** Whether the codes hold every line under the text just above it. */
  parentInside(codes: readonly string[]): boolean;
}

/**
 * The terms of every row that holds on the text, joined by spaces: its wording stands in the text,
 * and its codes, if it names any, hold every line under the text; or, of a row that names codes,
 * its wording stands above the text and the text is the first on its path that its codes hold (the
 * "Other" line a ruling named, below a wording its siblings share: an electric kettle is
 * 8516.79.00.00 "Other" under "other electrothermic appliances", not 8516.71 coffee makers).
 */
export function tradeTermsOf(place: TermPlace, terms: readonly PreparedTerm[]): string {
  return terms
    .filter((t) =>
      t.within.length === 0
        ? containsRun(place.words, t.words)
        : place.inside(t.within) && (containsRun(place.words, t.words) || (!place.parentInside(t.within) && place.above.some((words) => containsRun(words, t.words)))),
    )
    .map((t) => t.terms)
    .join(' ');
}

/** Each row's schedule wording as words, once. */
export const prepared = (terms: readonly TradeTerm[]): PreparedTerm[] => terms.map((t) => ({ words: searchWords(t.schedule), terms: t.terms, within: t.within }));
