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

export const TRADE_TERM_COLUMNS = ['terms', 'schedule', 'source'] as const;

/** The rows, checked: each names terms, a wording of the schedule and a source, and maybe codes (`8711`, `9401.61 9401.71`). */
export function tradeTerms(rows: readonly Record<string, string>[]): TradeTerm[] {
  return rows.map((r, i) => {
    for (const c of TRADE_TERM_COLUMNS) if (!r[c]?.trim()) throw new Error(`trade terms row ${i + 2}: ${c} is empty`);
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

/**
 * The terms of every row whose schedule wording the description's words contain and, for a row that
 * names codes, whose codes hold every line under the description (`inside`), joined by spaces.
 */
export function tradeTermsOf(descriptionWords: readonly string[], terms: readonly PreparedTerm[], inside: (within: readonly string[]) => boolean): string {
  return terms
    .filter((t) => containsRun(descriptionWords, t.words) && (t.within.length === 0 || inside(t.within)))
    .map((t) => t.terms)
    .join(' ');
}

/** Each row's schedule wording as words, once. */
export const prepared = (terms: readonly TradeTerm[]): PreparedTerm[] => terms.map((t) => ({ words: searchWords(t.schedule), terms: t.terms, within: t.within }));
