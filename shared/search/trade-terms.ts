/**
 * Trade vocabulary: the names importers use for goods the schedule calls otherwise (laptop for
 * "automatic data processing machines", LED for "light-emitting diode"). Kept as data
 * (data/search/synonyms.csv, each row with its source); a line whose description contains a
 * row's schedule wording is found by the row's terms too.
 */
import { containsRun, searchWords } from './words.js';

/** One row of the table: the words people use, the schedule's wording they mean, where that is said. */
export interface TradeTerm {
  terms: string;
  schedule: string;
  source: string;
}

export const TRADE_TERM_COLUMNS = ['terms', 'schedule', 'source'] as const;

/** The rows, checked: each names terms, a wording of the schedule and a source. */
export function tradeTerms(rows: readonly Record<string, string>[]): TradeTerm[] {
  return rows.map((r, i) => {
    for (const c of TRADE_TERM_COLUMNS) if (!r[c]?.trim()) throw new Error(`trade terms row ${i + 2}: ${c} is empty`);
    if (searchWords(r.schedule).length === 0) throw new Error(`trade terms row ${i + 2}: "${r.schedule}" has no words to look for`);
    return { terms: r.terms.trim(), schedule: r.schedule.trim(), source: r.source.trim() };
  });
}

/** The terms of every row whose schedule wording the description's words contain, joined by spaces. */
export function tradeTermsOf(descriptionWords: readonly string[], terms: readonly { words: string[]; terms: string }[]): string {
  return terms
    .filter((t) => containsRun(descriptionWords, t.words))
    .map((t) => t.terms)
    .join(' ');
}

/** Each row's schedule wording as words, once. */
export const prepared = (terms: readonly TradeTerm[]) => terms.map((t) => ({ words: searchWords(t.schedule), terms: t.terms }));
