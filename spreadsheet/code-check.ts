/**
 * What both add-ins say of an order line's code beside its description (a Description column):
 * a line with a description but no code gets the codes a search of its description suggests, in
 * its notes, and stays an uncosted line (never costed on a guess); a line whose code's heading is
 * not among the headings of the first CHECKED answers for its own description gets a gentle "check
 * the code" with the schedule's description of the code (off with the order option checkCodes:
 * false). The searches go to POST /api/v1/hts/batch: each distinct description once, and each
 * distinct code checked once (its answer is the schedule's text down to the code), in requests of
 * MAX_SEARCHES queries. Pure functions; the hosts only send the requests.
 */
import { MAX_SEARCH_TEXT, MAX_SEARCHES } from '../shared/search/limits.js';
import type { SearchAnswer, SearchHit } from '../shared/search/search.js';
import type { ErrorBody } from '../shared/errors.js';
import type { OrderOptions, SheetLine } from './order-sheet.js';

/** Codes suggested for a line without one. */
export const SUGGESTED = 3;
/** A code is questioned when its heading is not among the headings of this many answers for the line's description. */
export const CHECKED = 20;

/** A query as GET /hts?q= takes it: 2 to 200 characters. */
const MAX_QUERY = 200;

/** The body of one POST /hts/batch. */
export interface SearchBatch {
  queries: string[];
  limit: number;
}

export type BatchAnswer = SearchAnswer | { error: ErrorBody };

/** A description as searched (white space tidied, at most MAX_QUERY characters); null when it is no words to search. */
function searchedText(description: string | undefined): string | null {
  const q = (description ?? '').replace(/\s+/g, ' ').trim().slice(0, MAX_QUERY).trim();
  return q.length >= 2 && !/^[\d.\s]+$/.test(q) ? q : null;
}

/** A code as a listing query: its digits when it is a code of 4, 6, 8 or 10 digits, else null (the costing says what is wrong with it). */
function listedCode(hts: unknown): string | null {
  if (typeof hts !== 'string' || !/^[\d.\s]+$/.test(hts)) return null;
  const digits = hts.replace(/\D/g, '');
  return [4, 6, 8, 10].includes(digits.length) ? digits : null;
}

const hasCode = (line: SheetLine): boolean => typeof line.item?.hts === 'string' && line.item.hts.trim() !== '';

/** Whether an order's codes are checked against their descriptions: unless the option says no. */
export const checksCodes = (options: Pick<OrderOptions, 'checkCodes'>): boolean => options.checkCodes !== false;

/** The distinct queries the lines need: the description of a line without a code; with checks, also the description and the code of a line with both. */
export function codeQueries(lines: readonly SheetLine[], options: Pick<OrderOptions, 'checkCodes'>): string[] {
  const queries = new Set<string>();
  for (const line of lines) {
    const q = searchedText(line.description);
    if (q === null) continue;
    if (!hasCode(line)) queries.add(q);
    else if (checksCodes(options)) {
      const code = listedCode(line.item!.hts);
      if (code !== null) queries.add(q).add(code);
    }
  }
  return [...queries];
}

/** The requests the queries take: MAX_SEARCHES at a time, and at most MAX_SEARCH_TEXT characters of them. */
export function searchBatches(queries: readonly string[]): SearchBatch[] {
  const batches: SearchBatch[] = [];
  let batch: string[] = [];
  let text = 0;
  for (const q of queries) {
    if (batch.length === MAX_SEARCHES || text + q.length > MAX_SEARCH_TEXT) {
      batches.push({ queries: batch, limit: CHECKED });
      [batch, text] = [[], 0];
    }
    batch.push(q);
    text += q.length;
  }
  if (batch.length) batches.push({ queries: batch, limit: CHECKED });
  return batches;
}

/** The answers of the batches (in order) by query; a query the API refused has none. */
export function answersByQuery(queries: readonly string[], answers: readonly BatchAnswer[]): Map<string, SearchAnswer> {
  if (answers.length !== queries.length) throw new Error(`The landed API answered ${answers.length} searches for ${queries.length}`);
  const found = new Map<string, SearchAnswer>();
  queries.forEach((q, i) => {
    const a = answers[i];
    if (!('error' in a)) found.set(q, a);
  });
  return found;
}

const digitsOf = (hit: SearchHit): string => hit.hts.replace(/\D/g, '');

/** A suggested line as the note names it: its code, its heading's text and its own. */
const suggestion = (hit: SearchHit): string => `${hit.hts} (${hit.path.length > 1 ? `${hit.path[0]} › ${hit.description}` : hit.description})`;

/** The schedule's text down to a code: the path its lines share (a line's own path when it is one line). */
function textOfCode(listing: SearchAnswer): string {
  const paths = listing.results.map((h) => h.path);
  let depth = paths[0]?.length ?? 0;
  for (const p of paths) while (depth > 0 && p.slice(0, depth).join('\u0000') !== paths[0].slice(0, depth).join('\u0000')) depth--;
  return paths[0]?.slice(0, depth).join(' › ') ?? '';
}

/** The line's notes from the searches (none when its description was not searched or found nothing). */
export function codeNotes(line: SheetLine, found: ReadonlyMap<string, SearchAnswer>, options: Pick<OrderOptions, 'checkCodes'>): string[] {
  const q = searchedText(line.description);
  const answer = q === null ? undefined : found.get(q);
  if (!answer || answer.kind !== 'words' || answer.results.length === 0) return [];
  if (!hasCode(line))
    return [`Suggested codes: ${answer.results.slice(0, SUGGESTED).map(suggestion).join('; ')}. From a search of the description; the line is not costed until a code is chosen.`];
  const code = checksCodes(options) ? listedCode(line.item!.hts) : null;
  const listing = code === null ? undefined : found.get(code);
  if (!listing || listing.results.length === 0) return [];
  const heading = code!.slice(0, 4);
  if (answer.results.some((h) => digitsOf(h).startsWith(heading))) return [];
  return [`Check the code: its description reads "${textOfCode(listing)}", and heading ${heading} is not among the first ${CHECKED} answers for "${q}".`];
}

/** Adds each line's notes from the searches to it (kept apart from what the add-in did to the line). */
export function addCodeNotes(lines: readonly SheetLine[], found: ReadonlyMap<string, SearchAnswer>, options: Pick<OrderOptions, 'checkCodes'>): void {
  for (const line of lines) {
    const notes = codeNotes(line, found, options);
    if (notes.length) line.codeNotes = notes;
  }
}
