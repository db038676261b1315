/** GET /duty, POST /duty/batch and POST /duty/bulk: the engine's estimates. */
import { checkFields, DUTY_QUERY_PARAMS, errorBodyOf, InputError, type Tariff } from '../../shared/index.js';
import { batchJson, dutyJson, orderJson } from '../serialize.js';
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
    { path: '/api/v1/duty/batch', methods: POST, gate: 'key', params: [], body: ONE_REQUEST, run: (res) => batchJson(batch(res.body)) },
    {
      path: '/api/v1/duty/bulk',
      methods: POST,
      gate: 'key',
      params: [],
      body: ONE_REQUEST,
      run: (res) => {
        const body = jsonObject(res.body);
        lineArray(body.items, 'items');
        return orderJson(tariff.order(body as never));
      },
    },
  ];
}
