/** GET /duty, POST /duty/batch and POST /duty/bulk: the engine's estimates. */
import { checkFields, DUTY_QUERY_PARAMS, errorBodyOf, InputError, type Tariff } from '../../shared/index.js';
import { batchJson, dutyJson, orderJson } from '../serialize.js';
import { entries, GET, jsonObject, lineArray, MAX_LINES, POST, type Route } from './route.js';

/**
 * Lines of a batch or an order that count as one request against the key's limit. A line is a
 * lookup and some arithmetic (a 1,000-line order is about 28 ms of CPU with its answer, npm run
 * bench), so a hundred of them cost about what one search of a batch may (2 ms, bounded by the
 * search): one key's limit buys the same order of CPU whichever endpoint it calls (docs/api.md).
 */
export const LINES_PER_REQUEST = 100;
const linesCost = (field: string) => ({ cost: (body: unknown) => Math.max(1, Math.ceil(Math.min(entries(body, field), MAX_LINES) / LINES_PER_REQUEST)) });

export function dutyRoutes(tariff: Tariff): Route[] {
  /** Several GET /duty queries in one request: each answered exactly as GET /duty would, its errors included. */
  const batch = (raw: unknown) => {
    const body = jsonObject(raw);
    checkFields(body, ['queries']);
    return lineArray(body.queries, 'queries').map((q, i) => {
      try {
        if (q === null || typeof q !== 'object' || Array.isArray(q)) throw new InputError('invalid_parameter', `queries[${i}]`, `queries[${i}] must be an object with hts and value`);
        checkFields(q, DUTY_QUERY_PARAMS);
        return tariff.duty(q as Record<string, unknown>);
      } catch (e) {
        if (e instanceof InputError) return { error: errorBodyOf(e) };
        throw e;
      }
    });
  };
  return [
    // Synchronous, and serialized by the schema the OpenAPI document publishes.
    { path: '/api/v1/duty', methods: GET, gate: 'key', params: DUTY_QUERY_PARAMS, run: (res) => dutyJson(tariff.duty(res.query as Record<string, string>)) },
    { path: '/api/v1/duty/batch', methods: POST, gate: 'key', params: [], body: linesCost('queries'), run: (res) => batchJson(batch(res.body)) },
    {
      path: '/api/v1/duty/bulk',
      methods: POST,
      gate: 'key',
      params: [],
      body: linesCost('items'),
      run: (res) => {
        const body = jsonObject(res.body);
        lineArray(body.items, 'items');
        return orderJson(tariff.order(body as never));
      },
    },
  ];
}
