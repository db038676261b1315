/** GET /hts?q= and POST /hts/batch: the schedule searched by words. */
import { setImmediate as nextTurn } from 'node:timers/promises';
import { checkFields, errorBodyOf, InputError, MAX_SEARCH_TEXT, MAX_SEARCHES, resultLimit, type Tariff } from '../../shared/index.js';
import { ApiError } from '../errors.js';
import { searchBatchJson, searchJson } from '../serialize.js';
import { entries, GET, jsonObject, lineArray, POST, type Route } from './route.js';

export function searchRoutes(tariff: Tariff): Route[] {
  /**
   * Several searches in one request (an order's descriptions): each answered as GET /hts?q= would, its errors
   * included, each in a turn of the event loop of its own, so that other keys' requests are answered in between:
   * a batch holds them up by one search at most (issue 40, fair use), not by its fifty.
   */
  const batch = async (raw: unknown) => {
    const body = jsonObject(raw);
    checkFields(body, ['queries', 'limit']);
    const queries = lineArray(body.queries, 'queries', MAX_SEARCHES);
    const text = queries.reduce((n: number, q) => n + (typeof q === 'string' ? q.length : 0), 0);
    if (text > MAX_SEARCH_TEXT)
      throw new ApiError('too_many_lines', `queries hold ${text} characters in all; at most ${MAX_SEARCH_TEXT} per request`, { parameter: 'queries', max_characters: MAX_SEARCH_TEXT, given_characters: text });
    // One limit for the whole batch: a bad one is the request's error, not each query's.
    const limit = resultLimit(body.limit);
    const answers = [];
    for (let i = 0; i < queries.length; i++) {
      if (i > 0) await nextTurn();
      try {
        answers.push(tariff.search({ q: queries[i], limit }, `queries[${i}]`));
      } catch (e) {
        if (!(e instanceof InputError)) throw e;
        answers.push({ error: errorBodyOf(e) });
      }
    }
    return answers;
  };
  return [
    { path: '/api/v1/hts', methods: GET, gate: 'key', params: ['q', 'limit', 'chapters98_99'], run: (res) => searchJson(tariff.search(res.query as Record<string, string>)) },
    // Each query of a batch is a search as GET /hts is, and counts as one request against the key's limit.
    { path: '/api/v1/hts/batch', methods: POST, gate: 'key', params: [], body: { cost: (body) => Math.max(1, Math.min(entries(body, 'queries'), MAX_SEARCHES)) }, run: async (res) => searchBatchJson(await batch(res.body)) },
  ];
}
