/**
 * One gate for every /api/v1 request, tried as an attacker would against the real server: every
 * spelling of every route either reaches the key, limit and parameter checks or is refused; keys
 * never reach a log line whatever their parameter is called; work per request is bounded; every
 * refusal is the API's JSON error shape.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemoryRateLimiter } from '../../server/auth/rate-limit.js';
import { redactKey } from '../../server/app.js';
import { client } from '../helpers/contract.js';
import { rawExchange, rawRequest, type RawResponse } from '../helpers/raw-http.js';
import { startServer, type RunningServer } from '../helpers/server.js';

let srv: RunningServer;
let api: ReturnType<typeof client>;
beforeAll(async () => {
  // A generous per-address limit: hundreds of keyless probes must all reach the gate, not a 429.
  srv = await startServer({ addressLimiter: new MemoryRateLimiter(100_000), keyLimiter: new MemoryRateLimiter(100_000) });
  api = client(srv.url, srv.key);
});
afterAll(() => srv.close());

const ROUTES: { method: string; path: string; query: string; body?: string }[] = [
  { method: 'GET', path: '/api/v1/duty', query: '?hts=6109.10.00&value=100' },
  { method: 'GET', path: '/api/v1/hts/6109', query: '' },
  { method: 'GET', path: '/api/v1/exporters', query: '?hts=8471' },
  { method: 'POST', path: '/api/v1/duty/bulk', query: '', body: '{"items":[{"hts":"6109.10.00","value":100}]}' },
  { method: 'POST', path: '/api/v1/duty/batch', query: '', body: '{"queries":[{"hts":"6109.10.00","value":100}]}' },
];

const pct = (c: string, upper = true) => `%${c.charCodeAt(0).toString(16)[upper ? 'toUpperCase' : 'toLowerCase']()}`;

/** Spellings of `path` a router or proxy might take for it. */
function spellings(path: string): string[] {
  const out = new Set<string>();
  // Each character of the path, percent-encoded alone (letters, digits, dots), in both hex cases.
  for (let i = 1; i < path.length; i++) {
    if (path[i] === '/') continue;
    out.add(path.slice(0, i) + pct(path[i]) + path.slice(i + 1));
    out.add(path.slice(0, i) + pct(path[i], false) + path.slice(i + 1));
    // Double encoding: %25 is the percent sign itself.
    out.add(`${path.slice(0, i)}%25${path.charCodeAt(i).toString(16)}${path.slice(i + 1)}`);
  }
  out.add(path.replace(/[a-z]/g, (c) => pct(c)));
  out.add(`${path}/`);
  out.add(`${path}%2f`);
  out.add(path.toUpperCase());
  out.add(path.replace('/api/v1', '/API/V1'));
  out.add(path.replace('/api/', '/Api/'));
  out.add(`/${path}`);
  out.add(path.replace('/v1/', '/v1//'));
  out.add(path.replace('/v1/', '/v1/./'));
  out.add(path.replace('/v1/', '/v1/x/../'));
  out.add(path.replace('/v1/', '/v1/x/..%2f'));
  out.add(path.replace('/v1/', '/v1/x/%2e%2e/'));
  out.add(path.replace('/v1/', '/v1/x/%2E%2E%2F'));
  out.add(path.replace('/v1/', '/v1%2f'));
  out.add(path.replace('/api/', '/api;x/'));
  out.add(`${path};x`);
  out.add(`http://127.0.0.1${path}`);
  out.add(`http://evil.example${path}`);
  out.add(`HTTP://localhost:1${path}`);
  out.add(`http://127.0.0.1/%61pi${path.slice(4)}`);
  return [...out];
}

const isJsonError = (r: RawResponse) => {
  const body = JSON.parse(r.body);
  return typeof body.error?.code === 'string' && typeof body.error?.message === 'string' && Object.keys(body).length === 1;
};

describe('every spelling of every route reaches the gate or is refused', () => {
  it.each(ROUTES)('$method $path', async (route) => {
    const outcomes = new Map<number, number>();
    for (const target of spellings(route.path)) {
      const r = await rawRequest(srv.url, route.method, target + route.query, {}, route.body);
      outcomes.set(r.status, (outcomes.get(r.status) ?? 0) + 1);
      // Never served without a key: either the gate answered (401 with its headers) or the path was refused.
      expect([401, 404, 400, 405], `${route.method} ${target} → ${r.status}`).toContain(r.status);
      expect(isJsonError(r), `${target}: ${r.body}`).toBe(true);
      if (r.status === 401) {
        expect(r.headers['www-authenticate']).toMatch(/^Bearer/);
        expect(r.headers['x-ratelimit-limit']).toBe('100000');
      }
      expect(r.headers['x-content-type-options']).toBe('nosniff');
      expect(r.headers['cache-control']).toBe('no-store');
    }
    // Both kinds happened: the router does accept some other spellings, and those met the gate.
    expect(outcomes.get(401)).toBeGreaterThan(5);
    expect(outcomes.get(404)).toBeGreaterThan(5);
  });

  it('HEAD of every GET route, in any spelling the router accepts, meets the gate too', async () => {
    for (const route of ROUTES.filter((r) => r.method === 'GET'))
      for (const target of [route.path, route.path.replace('/api/', '/%61pi/'), `http://127.0.0.1${route.path}`]) {
        const r = await rawRequest(srv.url, 'HEAD', target + route.query);
        expect([r.status, r.headers['www-authenticate']], `HEAD ${target}`).toEqual([401, 'Bearer realm="landed"']);
      }
  });

  it('with a valid key, a spelling the router accepts is counted and validated like the plain path', async () => {
    const { key } = srv.keys.create('spellings');
    const auth = { authorization: `Bearer ${key}` };
    const plain = await rawRequest(srv.url, 'GET', '/api/v1/duty?hts=6109.10.00&value=100', auth);
    const encoded = await rawRequest(srv.url, 'GET', '/%61pi/v%31/duty?hts=6109.10.00&value=100', auth);
    const absolute = await rawRequest(srv.url, 'GET', 'http://127.0.0.1/api/v1/duty?hts=6109.10.00&value=100', auth);
    expect([plain.status, encoded.status, absolute.status]).toEqual([200, 200, 200]);
    expect([plain, encoded, absolute].map((r) => Number(r.headers['x-ratelimit-remaining']))).toEqual([99_999, 99_998, 99_997]);
    expect(JSON.parse(encoded.body).duty).toBe(16.5); // 16.5% of $100
    for (const target of ['/%61pi/v1/duty?hts=6109.10.00&orgin=china', 'http://127.0.0.1/api/v1/duty?hts=6109.10.00&orgin=china']) {
      const r = await rawRequest(srv.url, 'GET', target, auth);
      expect(r.status).toBe(400);
      expect(JSON.parse(r.body).error).toMatchObject({ code: 'invalid_parameter', details: { parameter: 'orgin' } });
    }
    const bulk = await rawRequest(srv.url, 'POST', '/%61pi/v1/duty/bulk', auth, '{"items":[{"hts":"6109.10.00","value":100,"orgin":"china"}]}');
    expect(bulk.status).toBe(400);
    expect(JSON.parse(bulk.body).error.details.parameter).toBe('items[0].orgin');
  });
});

describe('the API error shape everywhere', () => {
  it('bad percent-encoding in the path: 400 JSON, not Fastify\'s body', async () => {
    for (const target of ['/api/v1/duty%', '/api/v1/hts/%zz', '/api/v1/hts/%E0%A4%A']) {
      const r = await rawRequest(srv.url, 'GET', target, { authorization: `Bearer ${srv.key}` });
      expect(r.status).toBe(400);
      expect(JSON.parse(r.body)).toEqual({ error: { code: 'invalid_parameter', message: expect.stringMatching(/percent-encoding/), details: { parameter: 'path' } } });
      expect(r.body).not.toMatch(/statusCode|FST_/);
    }
  });

  it('a path segment over 100 characters: 414 uri_too_long, the segment not echoed', async () => {
    const r = await api('GET', `/api/v1/hts/${srv.key}${'1'.repeat(100)}`);
    expect(r.status).toBe(414);
    expect(r.body.error.code).toBe('uri_too_long');
    expect(JSON.stringify(r.body)).not.toContain(srv.key.slice(3));
  });

  it('no Host, or two Host headers: 400 naming Host', async () => {
    const none = await rawRequest(srv.url, 'GET', '/api/v1/duty?hts=6109.10.00', { host: '', authorization: `Bearer ${srv.key}` });
    expect(none.status).toBe(400);
    expect(JSON.parse(none.body).error).toMatchObject({ code: 'invalid_parameter', message: expect.stringMatching(/no Host header/), details: { parameter: 'Host' } });
    const text = await rawExchange(srv.url, `GET /api/v1/duty?hts=6109.10.00 HTTP/1.1\r\nHost: a.example\r\nHost: b.example\r\nAuthorization: Bearer ${srv.key}\r\nConnection: close\r\n\r\n`);
    expect(text).toMatch(/^HTTP\/1\.1 400 /);
    expect(text).toMatch(/more than one Host header/);
  });

  it('a wrong method on a known path: 405 with Allow; on an unknown path: 404', async () => {
    for (const [method, path, allow] of [
      ['DELETE', '/api/v1/duty', 'GET, HEAD, OPTIONS'],
      ['POST', '/api/v1/duty', 'GET, HEAD, OPTIONS'],
      ['GET', '/api/v1/duty/bulk', 'POST, OPTIONS'],
      ['PUT', '/api/v1/duty/batch', 'POST, OPTIONS'],
      ['PATCH', '/api/v1/hts/6109', 'GET, HEAD, OPTIONS'],
    ]) {
      const r = await api(method, path);
      expect(r.status, `${method} ${path}`).toBe(405);
      expect(r.headers.get('allow')).toBe(allow);
      expect(r.body.error.code).toBe('method_not_allowed');
    }
    expect((await rawRequest(srv.url, 'DELETE', '/api/v1/nothing')).status).toBe(404);
  });

  it('OPTIONS without CORS configured: 204 listing the methods, no CORS header', async () => {
    const r = await rawRequest(srv.url, 'OPTIONS', '/api/v1/duty/bulk', { origin: 'https://evil.example', 'access-control-request-method': 'POST' });
    expect(r.status).toBe(204);
    expect(r.headers.allow).toBe('POST, OPTIONS');
    expect(r.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('nosniff and no-store on API answers of every kind', async () => {
    for (const [path, key] of [['/api/v1/duty?hts=6109.10.00', srv.key], ['/api/v1/duty?hts=x', srv.key], ['/api/v1/duty', null], ['/api/v1/nowhere', null], ['/api/v1/openapi.json', null], ['/healthz', null]] as const) {
      const r = await fetch(srv.url + path, { headers: key ? { authorization: `Bearer ${key}` } : {} });
      expect(r.headers.get('x-content-type-options'), path).toBe('nosniff');
      expect(r.headers.get('cache-control'), path).toBe('no-store');
    }
  });
});

describe('strict bodies', () => {
  it('bulk: an unknown field in an item or in the options is a 400 naming it, nothing costed', async () => {
    const item = await api('POST', '/api/v1/duty/bulk', { body: { items: [{ hts: '6109.10.00', value: 100 }, { hts: '6109.10.00', value: 100, orgin: 'china' }] } });
    expect(item.status).toBe(400);
    expect(item.body.error).toMatchObject({ code: 'invalid_parameter', details: { parameter: 'items[1].orgin' } });
    expect(item.body.error.message).toMatch(/^Unknown parameter "orgin" in items\[1\]; an item takes hts, value, origin/);
    const option = await api('POST', '/api/v1/duty/bulk', { body: { items: [], oceans: 1 } });
    expect([option.status, option.body.error.details.parameter]).toEqual([400, 'oceans']);
    const batchOption = await api('POST', '/api/v1/duty/batch', { body: { queries: [], date: '2026-01-01' } });
    expect([batchOption.status, batchOption.body.error.details.parameter]).toEqual([400, 'date']);
  });

  it('batch: an unknown field answers exactly as GET would', async () => {
    const get = await api('GET', '/api/v1/duty?hts=6109.10.00&value=100&orgin=china');
    const batch = await api('POST', '/api/v1/duty/batch', { body: { queries: [{ hts: '6109.10.00', value: 100, orgin: 'china' }, { hts: '6109.10.00', value: 100 }] } });
    expect(get.status).toBe(400);
    expect(batch.status).toBe(200);
    expect(batch.body.results[0]).toEqual({ error: get.body.error });
    expect(batch.body.results[1].duty).toBe(16.5);
  });
});

describe('bounded work per request', () => {
  it('a 1.9-million-digit qty in an order line is refused by its length, the other line costed', async () => {
    const huge = '9'.repeat(1_900_000);
    const r = await api('POST', '/api/v1/duty/bulk', { body: { items: [{ hts: '2009.11.00', value: 5000, qty: huge, unit: 'gal' }, { hts: '6109.10.00', value: 100 }] } });
    expect(r.status).toBe(200);
    expect(r.body.lines[0].error).toMatchObject({ code: 'invalid_parameter', message: 'items[0].qty must be a number of at most 40 characters; got 1900000', details: { parameter: 'items[0].qty' } });
    expect(r.body.lines[1].duty).toBe(16.5);
  });

  it('a batch value of 1.9 million digits: that query refused, not computed', async () => {
    const r = await api('POST', '/api/v1/duty/batch', { body: { queries: [{ hts: '6109.10.00', value: '1'.repeat(1_900_000) }] } });
    expect(r.body.results[0].error.message).toBe('value must be a number of at most 40 characters; got 1900000');
  });

  it('values that are not strings are never echoed in full: a list or object is named, a long string cut', async () => {
    const r = await api('POST', '/api/v1/duty/bulk', {
      body: { items: [{ hts: '6109.10.00', value: Array.from({ length: 10_000 }, (_, i) => i) }, { hts: '6109.10.00', value: { a: 'x'.repeat(10_000) } }, { hts: '6109.10.00', value: 1, origin: 'y'.repeat(10_000) }] },
    });
    const messages = r.body.lines.map((l: { error: { message: string } }) => l.error.message);
    expect(messages[0]).toBe('items[0].value must be a number of U.S. dollars, 0 or more; got a list');
    expect(messages[1]).toBe('items[1].value must be a number of U.S. dollars, 0 or more; got an object');
    expect(messages[2]).toMatch(/^items\[2\]\.origin "y{40}" is not a known origin/);
    for (const m of messages) expect(m.length).toBeLessThan(300);
  });

  it('a field nested 200,000 levels deep: the body is refused by its shape, a 400 naming the bound, nothing costed', async () => {
    const depth = 200_000;
    const raw = `{"items":[{"hts":"6109.10.00","value":100},{"hts":${'['.repeat(depth)}1${']'.repeat(depth)},"value":1}]}`;
    const r = await api('POST', '/api/v1/duty/bulk', { raw, headers: { 'content-type': 'application/json' } });
    expect(r.status).toBe(400);
    expect(r.body.error).toMatchObject({ code: 'body_too_complex', message: 'The body is too complex to read: it is nested more than 16 levels deep', details: { parameter: 'body', max_depth: 16 } });
  });
  it('wide bodies are refused by their shape: an object of 101 members, a list of 20,001 entries, 100,001 values', async () => {
    const member = (i: number) => `"f${i}":1`;
    const cases: [string, Record<string, unknown>][] = [
      [`{"items":[{${Array.from({ length: 101 }, (_, i) => member(i)).join(',')}}]}`, { max_members: 100 }],
      // 20,000 is the most entries a CAPE declaration request may list (routes/refunds.ts).
      [`{"items":[${Array(20_001).fill('1').join(',')}]}`, { max_entries: 20_000 }],
      // 10,001 lines of 10 numbers: 10,001 lists and 100,010 values.
      [`{"items":[${Array(10_001).fill(`[${Array(10).fill('1').join(',')}]`).join(',')}]}`, { max_values: 100_000 }],
    ];
    for (const [raw, details] of cases) {
      const r = await api('POST', '/api/v1/duty/bulk', { raw, headers: { 'content-type': 'application/json' } });
      expect([r.status, r.body.error.code]).toEqual([400, 'body_too_complex']);
      expect(r.body.error.details).toMatchObject(details);
    }
  });
  it('a member name given twice in one object is a 400 duplicate_field naming it, in every body', async () => {
    const cases: [string, string, string][] = [
      ['/api/v1/duty/bulk', '{"items":[{"hts":"6109.10.00","value":100}],"origin":"CN","origin":"MX"}', 'origin'],
      ['/api/v1/duty/bulk', '{"items":[{"hts":"6109.10.00","value":100},{"hts":"6109.10.00","value":1,"value":2}]}', 'items[1].value'],
      // The same name escaped: \u0071 is q.
      ['/api/v1/duty/batch', '{"queries":[{"hts":"6109.10.00","value":1}],"queries":[]}', 'queries'],
      ['/api/v1/hts/batch', '{"queries":["wool"],"limit":3,"lim\\u0069t":4}', 'limit'],
    ];
    for (const [path, raw, field] of cases) {
      const r = await api('POST', path, { raw, headers: { 'content-type': 'application/json' } });
      expect([path, r.status, r.body.error.code, r.body.error.details]).toEqual([path, 400, 'duplicate_field', { parameter: field }]);
      expect(r.body.error.message).toBe(`The body gives "${field}" more than once; give each field once`);
    }
    // The same name in two objects is not a duplicate.
    const ok = await api('POST', '/api/v1/duty/bulk', { raw: '{"items":[{"hts":"6109.10.00","value":1},{"hts":"6109.10.00","value":2}]}', headers: { 'content-type': 'application/json' } });
    expect(ok.status).toBe(200);
  });
});

describe('keys never logged, whatever the parameter is called', () => {
  it('redactKey decodes parameter names and catches anything shaped like a key', () => {
    const key = `lk_${'A'.repeat(43)}`;
    for (const url of [`/api/v1/duty?key=${key}`, `/api/v1/duty?%6Bey=${key}`, `/api/v1/duty?k%65y=${key}&hts=1`, `/api/v1/duty?KEY=${key}`, `/api/v1/duty?hts=1&Key=abc`, `/api/v1/hts/${key}`, `/api/v1/duty?token=${key}`, `http://h/api/v1/duty?%4b%45%59=${key}`]) {
      const out = redactKey(url);
      expect(out, url).not.toContain('AAAAAAAA');
      expect(out, url).not.toMatch(/=abc/);
    }
    expect(redactKey('/api/v1/duty?hts=6109.10.00&value=1')).toBe('/api/v1/duty?hts=6109.10.00&value=1');
  });

  it('no key in any log line of requests that carry it under other names or in the path', async () => {
    const { key } = srv.keys.create('hidden');
    const targets = [
      `/api/v1/duty?%6Bey=${key}&hts=6109.10.00`,
      `/api/v1/duty?k%65y=${key}&hts=6109.10.00`,
      `/api/v1/duty?KEY=${key}&hts=6109.10.00`,
      `/api/v1/hts/${key}`,
      `/api/v1/duty%?key=${key}`,
      `/api/v1/hts/${key}${'9'.repeat(100)}?key=${key}`,
      `http://127.0.0.1/api/v1/duty?key=${key}`,
      `/api/v1/nowhere?key=${key}`,
    ];
    const statuses = [];
    for (const t of targets) statuses.push((await rawRequest(srv.url, 'GET', t)).status);
    // Read as the key: ?%6Bey= and ?k%65y= (decoded names); not KEY= (an unknown parameter), nor a path.
    expect(statuses).toEqual([200, 200, 401, 401, 400, 414, 400, 404]);
    await new Promise((r) => setTimeout(r, 50));
    const log = srv.logs.join('\n');
    expect(log).toContain('[redacted]');
    expect(log).not.toContain(key.slice(3));
  });
});
