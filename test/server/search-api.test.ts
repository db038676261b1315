/** GET /api/v1/hts?q= on the real service: keyed, limited, contract-checked like every route. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client } from '../helpers/contract.js';
import { startServer, type RunningServer } from '../helpers/server.js';

let srv: RunningServer;
let api: ReturnType<typeof client>;
beforeAll(async () => {
  srv = await startServer();
  api = client(srv.url, srv.key);
});
afterAll(() => srv.close());

describe('GET /api/v1/hts?q=', () => {
  it('by words: ranked lines with code, path, general rate, units and score, under the key\'s limit', async () => {
    const r = await api('GET', '/api/v1/hts?q=laptop%20computer&limit=3');
    expect(r.status).toBe(200);
    expect(r.headers.get('x-ratelimit-limit')).toBe('120');
    expect(r.body).toMatchObject({ q: 'laptop computer', kind: 'words', hts_revision: '2026 Revision 10' });
    expect(r.body.results).toHaveLength(3);
    expect(r.body.results[0]).toMatchObject({ general: 'Free', units: ['No.'] });
    expect(r.body.results[0].hts).toMatch(/^8471\./);
    expect(r.body.results[0].path[0]).toMatch(/^Automatic data processing machines/);
  });
  it('limit defaults to 10', async () => {
    expect((await api('GET', '/api/v1/hts?q=frozen%20shrimp')).body.results).toHaveLength(10);
  });
  it('by code, dotted or not: the lines under it with their rates', async () => {
    const r = await api('GET', '/api/v1/hts?q=6109.10&limit=50');
    expect(r.body).toMatchObject({ kind: 'code', same_rates: true });
    expect(r.body.results.map((h: { hts: string }) => h.hts)).toEqual(expect.arrayContaining(['6109.10.00', '6109.10.00.12']));
    expect(r.body.results.every((h: { general: string | null; score: null }) => h.score === null && (h.general === '16.5%' || h.general === null))).toBe(true);
    expect((await api('GET', '/api/v1/hts?q=610910')).body.results[0].hts).toBe('6109.10.00');
  });
  it('chapters 98 and 99 only when asked', async () => {
    const q = 'products%20of%20China%20subject%20to%20additional%20duties&limit=50';
    expect((await api('GET', `/api/v1/hts?q=${q}`)).body.results.some((h: { hts: string }) => /^9[89]/.test(h.hts))).toBe(false);
    expect((await api('GET', `/api/v1/hts?q=${q}&chapters98_99=1`)).body.results.some((h: { hts: string }) => /^99/.test(h.hts))).toBe(true);
  });
  it('400s name the parameter: q missing, too short or too long, a bad limit, an unknown or repeated parameter', async () => {
    for (const [query, parameter] of [
      ['', 'q'],
      ['q=a', 'q'],
      [`q=${'x'.repeat(201)}`, 'q'],
      ['q=61091', 'q'],
      ['q=shirts&limit=0', 'limit'],
      ['q=shirts&limit=51', 'limit'],
      ['q=shirts&limit=ten', 'limit'],
      ['q=shirts&chapters98_99=maybe', 'chapters98_99'],
      ['q=shirts&query=shirts', 'query'],
      ['q=shirts&q=shoes', 'q'],
    ]) {
      const r = await api('GET', `/api/v1/hts?${query}`);
      expect(r.status, query).toBe(400);
      expect(r.body.error, query).toMatchObject({ code: 'invalid_parameter', details: { parameter } });
    }
  });
  it('a code with no line under it is a 404; no key is a 401', async () => {
    expect((await api('GET', '/api/v1/hts?q=0000')).body.error).toMatchObject({ code: 'not_found', details: { parameter: 'q' } });
    expect((await api('GET', '/api/v1/hts?q=laptop', { key: null })).status).toBe(401);
  });
});
