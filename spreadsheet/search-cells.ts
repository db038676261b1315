/**
 * What the spreadsheets' search functions (TARIFF.SEARCH in Excel, HTS_SEARCH in Sheets) spill:
 * a header row, then each line's code, description from the heading down, and general rate.
 */
import type { SearchAnswer } from '../shared/search/search.js';

export const SEARCH_COLUMNS = ['Code', 'Description', 'General rate'] as const;

/** Lines a search function spills when not told how many: a few rows under the cell, not a page. */
export const SPILLED_LINES = 5;

export function searchCells(answer: Pick<SearchAnswer, 'results'>): string[][] {
  return [[...SEARCH_COLUMNS], ...answer.results.map((h) => [h.hts, h.path.join(' > '), h.general ?? ''])];
}

/** Why a search found nothing, as the cell says it. */
export const nothingFound = (answer: Pick<SearchAnswer, 'q' | 'notes'>): string => answer.notes[0] ?? `No line of the schedule matches "${answer.q}"`;
