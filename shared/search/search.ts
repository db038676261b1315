/**
 * Finding the code (GET /hts?q=): by words, the schedule's lines ranked by the full-text index;
 * by a code of 4, 6, 8 or 10 digits, the lines under it in schedule order, with their rates. A
 * supplier's foreign 8- or 10-digit code that is no U.S. line is answered with the U.S. lines of
 * its 6-digit HS subheading, and says so.
 */
import { dotted } from '../codes.js';
import { invalid, InputError } from '../errors.js';
import { parseFlag } from '../params.js';
import { linesUnder, type Schedule, type TariffLine } from '../schedule.js';
import { sameRates } from '../supplier-codes.js';
import type { ScheduleIndex } from './schedule-index.js';
import { MAX_RESULTS } from './limits.js';

export { MAX_RESULTS, MAX_SEARCH_TEXT, MAX_SEARCHES } from './limits.js';

const DEFAULT_RESULTS = 10;
const MIN_QUERY = 2;
const MAX_QUERY = 200;

export interface SearchQuery {
  q?: unknown;
  limit?: unknown;
  /** Also search chapters 98 and 99 by words: 1/true. */
  chapters98_99?: unknown;
}

export interface SearchHit {
  hts: string;
  /** The line's own text. */
  description: string;
  /** The descriptions from the heading down to the line. */
  path: string[];
  /** The general rate as printed (a 10-digit line's is its 8-digit line's); null when the line has none. */
  general: string | null;
  units: string[];
  /** Relevance (BM25) of a search by words; null in a listing by code. */
  score: number | null;
}

export interface SearchAnswer {
  q: string;
  /** `words`: ranked by relevance; `code`: the lines under a code, in schedule order. */
  kind: 'words' | 'code';
  results: SearchHit[];
  /** How many lines matched: by words, of the MAX_RESULTS best at most; by code, every line under it. */
  total: number;
  /** In a listing by code: whether every line under it carries the same general, special and column 2 rates and chapter 99 citations. */
  same_rates: boolean | null;
  notes: string[];
  hts_revision: string;
}

/** `qParameter` names the query in errors: `q`, or `queries[3]` in a batch. */
export function searchSchedule(schedule: Schedule, index: () => ScheduleIndex, query: SearchQuery, qParameter = 'q'): SearchAnswer {
  const q = queryText(query.q, qParameter);
  const limit = resultLimit(query.limit);
  const special = query.chapters98_99 === undefined || query.chapters98_99 === '' ? false : parseFlag(query.chapters98_99, 'chapters98_99');
  if (/^[\d.\s]+$/.test(q)) return listing(schedule, q, limit, qParameter);
  const found = index().find(q, Math.max(limit, MAX_RESULTS), special);
  const results = found.slice(0, limit).map((f) => hit(schedule.find(f.digits)!, Math.round(f.score * 1000) / 1000));
  const notes = found.length ? [] : [`No line of the schedule matches "${q}"${special ? '' : ' outside chapters 98 and 99'}; try other words or fewer of them`];
  return { q, kind: 'words', results, total: found.length, same_rates: null, notes, hts_revision: schedule.revision };
}

/** The lines under a code, or under the 6-digit subheading of a foreign code. */
function listing(schedule: Schedule, q: string, limit: number, parameter: string): SearchAnswer {
  const digits = q.replace(/[.\s]/g, '');
  if (![4, 6, 8, 10].includes(digits.length)) throw invalid(parameter, `${parameter} as a code must have 4, 6, 8 or 10 digits; ${JSON.stringify(q)} has ${digits.length}`);
  const notes: string[] = [];
  let lines = linesUnder(schedule, digits);
  if (lines.length === 0 && digits.length > 6) {
    lines = linesUnder(schedule, digits.slice(0, 6));
    if (lines.length) notes.push(`${dotted(digits)} is not a line of the U.S. schedule: these are the U.S. lines of its HS subheading ${dotted(digits.slice(0, 6))} (a supplier's code agrees with the U.S. schedule on its first six digits only)`);
  }
  if (lines.length === 0) throw new InputError('not_found', parameter, `No line of the schedule (${schedule.revision}) lies under ${dotted(digits)}`);
  const same = sameRates(lines);
  if (same && lines.length > 1) notes.push(`Every line under ${dotted(digits)} carries the same rates: the duty is the same whichever is declared`);
  return { q, kind: 'code', results: lines.slice(0, limit).map((l) => hit(l, null)), total: lines.length, same_rates: same, notes, hts_revision: schedule.revision };
}

function hit(line: TariffLine, score: number | null): SearchHit {
  return {
    hts: line.hts,
    description: line.description.replace(/:$/, ''),
    path: line.fullDescription.split(' > '),
    general: line.rates?.generalText ?? null,
    units: line.units,
    score,
  };
}

function queryText(q: unknown, parameter: string): string {
  if (typeof q !== 'string' || q.trim().length < MIN_QUERY || q.trim().length > MAX_QUERY) {
    const got = q === undefined ? 'none' : typeof q === 'string' ? JSON.stringify(q.slice(0, 30)) : q === null ? 'null' : `a ${typeof q}`;
    throw invalid(parameter, `${parameter} must be words or a code of ${MIN_QUERY} to ${MAX_QUERY} characters, such as "cotton t-shirts" or 6109; got ${got}`);
  }
  return q.trim().replace(/\s+/g, ' ');
}

/** A search's `limit`: read once for a whole batch. */
export function resultLimit(limit: unknown): number {
  if (limit === undefined || limit === '') return DEFAULT_RESULTS;
  const n = typeof limit === 'number' ? limit : typeof limit === 'string' && /^\s*\d+\s*$/.test(limit) ? Number(limit) : NaN;
  if (!Number.isInteger(n) || n < 1 || n > MAX_RESULTS) throw invalid('limit', `limit must be a whole number from 1 to ${MAX_RESULTS}; got ${JSON.stringify(limit)}`);
  return n;
}

