/** GET /duty, POST /duty/batch and POST /duty/bulk: the engine's estimates. */
import { checkFields, DUTY_QUERY_PARAMS, errorBodyOf, InputError, type Built, type Tariff } from '../../shared/index.js';
import { batchJson, dutyJson, orderJson } from '../serialize.js';
import { onRevisions, type Need } from './revisions.js';
import { GET, jsonObject, lineArray, POST, type Route } from './route.js';

/**
 * A duty batch or an order counts as one request against the key's limit, whatever its lines
 * (docs/api.md, Limits): a line is a lookup and some arithmetic, so 1,000 of them cost about 28 ms
 * of CPU with the answer (npm run bench), and a key at its limit of 120 orders a minute asks for
 * about 3.4 s of CPU in a minute, which starves no one; counted by the line, the add-ins' orders of
 * a few thousand lines would wait minutes for the limit. A search batch, whose queries can each
 * cost up to 10 ms, counts as its queries (routes/search.ts).
 */
const ONE_REQUEST = { cost: () => 1 };

/** A query's or an order line's date (`otherwise` when it gives none) and code, as sent. */
function need(o: unknown, otherwise: unknown): Need {
  const { date, hts } = o !== null && typeof o === 'object' ? (o as { date?: unknown; hts?: unknown }) : {};
  return [date ?? otherwise, hts];
}

export function dutyRoutes(tariff: Tariff): Route[] {
  /** Several GET /duty queries in one request: each answered exactly as GET /duty would, its errors included. */
  const batch = (queries: readonly unknown[], built?: Built) =>
    queries.map((q, i) => {
      try {
        if (q === null || typeof q !== 'object' || Array.isArray(q)) throw new InputError('invalid_parameter', `queries[${i}]`, `queries[${i}] must be an object with hts and value`);
        checkFields(q, DUTY_QUERY_PARAMS);
        return tariff.duty(q as Record<string, unknown>, built);
      } catch (e) {
        if (e instanceof InputError) return { error: errorBodyOf(e) };
        throw e;
      }
    });
  // Each costed on the revisions its dates need, with the chapters of its codes, built first when they are not yet (routes/revisions.ts).
  const one = (query: Record<string, string>) => onRevisions(tariff, [[query.date, query.hts]], (built) => dutyJson(tariff.duty(query, built)));
  const several = (raw: unknown) => {
    const body = jsonObject(raw);
    checkFields(body, ['queries']);
    const queries = lineArray(body.queries, 'queries');
    return onRevisions(tariff, queries.map((q) => need(q, undefined)), (built) => batchJson(batch(queries, built)));
  };
  const order = (raw: unknown) => {
    const body = jsonObject(raw);
    const items = lineArray(body.items, 'items');
    return onRevisions(tariff, [[body.date, undefined], ...items.map((item) => need(item, body.date))], (built) => orderJson(tariff.order(body as never, built)));
  };
  return [
    // Synchronous but for a date whose revision is not built yet, and serialized by the schema the OpenAPI document publishes.
    { path: '/api/v1/duty', methods: GET, gate: 'key', params: DUTY_QUERY_PARAMS, run: (res) => one(res.query as Record<string, string>) },
    { path: '/api/v1/duty/batch', methods: POST, gate: 'key', params: [], body: ONE_REQUEST, run: (res) => several(res.body) },
    { path: '/api/v1/duty/bulk', methods: POST, gate: 'key', params: [], body: ONE_REQUEST, run: (res) => order(res.body) },
  ];
}
