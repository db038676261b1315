/**
 * The findings of an outside audit of the service (issue 27), each against the real server: the
 * client address behind proxies, the address limit before any key lookup, one answer per request,
 * lookup tables keyed by user input, the document and the server agreeing, keys in logs, and
 * HTTP edge cases.
 */
import { Ajv } from 'ajv';
import formats from 'ajv-formats';
import { connect } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { KeyStore } from '../../server/auth/key-store.js';
import { MemoryRateLimiter } from '../../server/auth/rate-limit.js';
import { readSettings } from '../../server/config.js';
import { openapi } from '../../server/openapi.js';
import { rawExchange, rawRequest } from '../helpers/raw-http.js';
import { startServer, type RunningServer } from '../helpers/server.js';

let servers: RunningServer[] = [];
afterEach(async () => {
  await Promise.all(servers.map((s) => s.close()));
  servers = [];
});
async function server(overrides: Parameters<typeof startServer>[0] = {}): Promise<RunningServer> {
  const s = await startServer(overrides);
  servers.push(s);
  return s;
}

const WRONG = `lk_${'W'.repeat(43)}`;
const logged = async (s: RunningServer) => {
  await new Promise((r) => setTimeout(r, 50));
  return s.logs.map((l) => JSON.parse(l) as Record<string, unknown>).filter((l) => l.url !== undefined);
};

describe('the client address behind proxies (TRUST_PROXY = how many)', () => {
  it('behind one proxy, the entry it appended counts: a forged first entry neither escapes the limit nor reaches the log', async () => {
    const s = await server({ trustedProxies: 1, addressLimiter: new MemoryRateLimiter(5) });
    const statuses: number[] = [];
    for (let i = 0; i < 8; i++) {
      // What nginx's proxy_add_x_forwarded_for sends: the client's own header, then the address nginx saw.
      const r = await rawRequest(s.url, 'GET', '/api/v1/hts/6109', { authorization: `Bearer ${WRONG}`, 'x-forwarded-for': `10.9.${i}.1, 203.0.113.7` });
      statuses.push(r.status);
    }
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429, 429, 429]);
    const ips = new Set((await logged(s)).map((l) => l.ip));
    expect([...ips]).toEqual(['203.0.113.7']);
  });

  it('behind two proxies, the second entry from the end; with none trusted, the peer', async () => {
    const two = await server({ trustedProxies: 2 });
    await rawRequest(two.url, 'GET', '/healthz', { 'x-forwarded-for': '1.1.1.1, 198.51.100.4, 10.0.0.2' });
    const none = await server({});
    await rawRequest(none.url, 'GET', '/healthz', { 'x-forwarded-for': '1.1.1.1' });
    expect((await logged(two)).map((l) => l.ip)).toEqual(['198.51.100.4']);
    expect((await logged(none)).map((l) => l.ip)).toEqual(['127.0.0.1']);
  });

  it('TRUST_PROXY is a number of proxies, checked at start', () => {
    expect(readSettings({ TRUST_PROXY: '1' }).trustedProxies).toBe(1);
    expect(readSettings({}).trustedProxies).toBe(0);
    expect(() => readSettings({ TRUST_PROXY: 'yes' })).toThrow('TRUST_PROXY must be a whole number from 0 to 10; got "yes"');
  });
});

describe('an address past its limit: wrong keys are refused before any lookup', () => {
  it('a wrong key gets 429 and the key store is not asked for it; a valid key is answered (the register of active keys, issue 40)', async () => {
    let lookups = 0;
    const probe = await server({});
    const store = probe.keys;
    // The same store, counting what reaches it.
    const counted: KeyStore = Object.assign(Object.create(store), { verify: (k: string) => (lookups++, store.verify(k)) });
    const s = await server({ keys: counted, addressLimiter: new MemoryRateLimiter(3) });
    const good = store.create('good').key;
    const ask = (key: string) => rawRequest(s.url, 'GET', '/api/v1/hts/6109', { authorization: `Bearer ${key}` }).then((r) => r.status);
    expect([await ask(WRONG), await ask(WRONG), await ask(WRONG)]).toEqual([401, 401, 401]);
    const before = lookups;
    expect([await ask(WRONG), await ask(good), await ask(WRONG), await ask(good)]).toEqual([429, 200, 429, 200]);
    // Only the valid key reached the store, once a request (the store then answers it from its one-second trust).
    expect(lookups - before).toBe(2);
  });
});

describe('one answer per request', () => {
  /** How many answers (status lines) a connection carried. */
  const answers = (text: string) => text.split('HTTP/1.1 ').length - 1;

  it('after an early 401, a malformed chunked body adds no second answer', async () => {
    const s = await server({});
    const text = await new Promise<string>((resolve) => {
      const socket = connect(Number(new URL(s.url).port), '127.0.0.1');
      let received = '';
      socket.on('data', (d) => {
        received += d;
        // The 401 is in: now the rest of the body, malformed.
        if (received.includes('\r\n\r\n{')) socket.write('zz\r\n');
      });
      socket.on('close', () => resolve(received));
      socket.setTimeout(1500, () => socket.destroy());
      socket.write('POST /api/v1/duty/bulk HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n5\r\n{"ite\r\n');
    });
    expect(text).toMatch(/^HTTP\/1\.1 401 /);
    expect(answers(text)).toBe(1);
  });

  it('after an early 413, a body that never ends adds no 408', async () => {
    const s = await server({ requestTimeoutSeconds: 1 });
    const text = await rawExchange(s.url, `POST /api/v1/duty/bulk HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${s.key}\r\nContent-Type: application/json\r\nContent-Length: 3000000\r\n\r\n{"items":[`, ' ');
    expect(text).toMatch(/^HTTP\/1\.1 413 /);
    expect(answers(text)).toBe(1);
  });

  it('a malformed request on a fresh connection still gets its 400', async () => {
    const s = await server({});
    const text = await rawExchange(s.url, 'GET /api/v1/duty?hts=\x01 HTTP/1.1\r\nHost: x\r\n\r\n');
    expect(text).toMatch(/^HTTP\/1\.1 400 /);
    expect(answers(text)).toBe(1);
  });
});

describe('lookup tables keyed by user input find nothing for prototype names', () => {
  it.each(['constructor', '__proto__', ' Constructor ', 'toString', 'hasOwnProperty'])('unit=%j is a 400 naming unit on GET, batch and bulk', async (unit) => {
    const s = await server({});
    const get = await fetch(`${s.url}/api/v1/duty?hts=0401.40.25&value=100&qty=10&unit=${encodeURIComponent(unit)}`, { headers: { authorization: `Bearer ${s.key}` } });
    expect(get.status).toBe(400);
    expect((await get.json()).error.details.parameter).toBe('unit');
    const post = (path: string, body: unknown) => fetch(`${s.url}/api/v1${path}`, { method: 'POST', headers: { authorization: `Bearer ${s.key}`, 'content-type': 'application/json' }, body: JSON.stringify(body) }).then((r) => r.json());
    const batch = await post('/duty/batch', { queries: [{ hts: '0401.40.25', value: 100, qty: 10, unit }] });
    expect(batch.results[0].error.details.parameter).toBe('unit');
    const bulk = await post('/duty/bulk', { items: [{ hts: '0401.40.25', value: 100, qty: 10, unit }] });
    expect(bulk.lines[0].error.details.parameter).toBe('items[0].unit');
  });

  it.each(['constructor', '__proto__', 'toString'])('%j as origin is a 400 naming it, and as claim a 400 or a program the line does not have', async (name) => {
    const s = await server({});
    for (const parameter of ['origin', 'claim']) {
      const r = await fetch(`${s.url}/api/v1/duty?hts=6109.10.00&value=100&${parameter}=${name}`, { headers: { authorization: `Bearer ${s.key}` } });
      const body = await r.json();
      // A claim shaped like a program symbol is read as one the line does not have: the general rate, said in a note.
      if (r.status === 200) expect(body.rate_basis).toBe('general');
      else expect([r.status, body.error.details.parameter]).toEqual([400, parameter]);
    }
  });
});

describe('the schedule record gives a date or null, never an empty string', () => {
  it('0201.10.05, on the proposed Section 301 Brazil exemption annex (no date yet): from is null', async () => {
    const s = await server({});
    const r = await (await fetch(`${s.url}/api/v1/hts/0201.10.05`, { headers: { authorization: `Bearer ${s.key}` } })).json();
    const proposed = r.chapter99_programs.filter((p: { list: string }) => p.list.startsWith('exempt (proposed annex'));
    expect(proposed.length).toBeGreaterThan(0);
    for (const p of proposed) expect(p.from).toBeNull();
    for (const p of r.chapter99_programs) expect(p.from === null || /^\d{4}-\d{2}-\d{2}$/.test(p.from)).toBe(true);
  });
});

describe('keys never reach the log, however they are spelt', () => {
  it('percent-encoded in another parameter or in the path, upper-cased, or encoded twice', async () => {
    const s = await server({});
    const { key } = s.keys.create('hidden');
    const secret = key.slice(3);
    const encoded = [...key].map((c) => `%${c.charCodeAt(0).toString(16).padStart(2, '0')}`).join('');
    const targets = [
      `/api/v1/duty?hts=6109.10.00&note=${encoded}`,
      `/api/v1/hts/${encoded}`,
      `/api/v1/duty?hts=LK_${secret}`,
      `/api/v1/duty?hts=${encodeURIComponent(encodeURIComponent(key))}`,
      `/api/v1/duty?hts=lk%5F${secret}`,
    ];
    for (const t of targets) await rawRequest(s.url, 'GET', t);
    const log = s.logs.join('\n');
    expect((await logged(s)).length).toBe(targets.length);
    expect(log.toLowerCase()).not.toContain(secret.toLowerCase().slice(0, 20));
    expect(log).not.toContain(encoded.slice(9, 60));
  });
});

describe('the OpenAPI document says what the server enforces', () => {
  const ajv = new Ajv({ strict: false, allErrors: true });
  (formats as unknown as { default: (a: Ajv) => void }).default(ajv);
  // OpenAPI 3.0's exclusiveMinimum is a flag beside minimum; JSON Schema's is the bound itself.
  const doc = JSON.parse(JSON.stringify(openapi), (_k, v) => (v && typeof v === 'object' && v.exclusiveMinimum === true ? { ...v, exclusiveMinimum: v.minimum, minimum: undefined } : v));
  ajv.addSchema(doc, 'doc');
  const schema = (name: string) => ajv.getSchema(`doc#/components/schemas/${name}`)!;
  const param = (name: string) => ajv.compile(doc.paths['/duty'].get.parameters.find((p: { name?: string }) => p.name === name).schema);


  it.each([
    ['value over 10^12', 'value', '1000000000001'],
    ['a date before 1989', 'date', '1988-12-31'],
    ['a date after 2099', 'date', '2100-01-01'],
    ['a value with an exponent', 'value', '1e5'],
    ['qty with two points', 'qty', '1.2.3'],
  ])('GET /duty: %s is refused by the document and by the server', async (_what, name, bad) => {
    expect(param(name)(bad)).toBe(false);
    const s = await server({});
    const r = await fetch(`${s.url}/api/v1/duty?hts=6109.10.00&qty=1&${name}=${bad}`, { headers: { authorization: `Bearer ${s.key}` } });
    expect(r.status).toBe(400);
    expect((await r.json()).error.details.parameter).toBe(name);
  });

  it.each([
    ['an unknown field of an item', { items: [{ hts: '6109.10.00', value: 1, price: 3 }] }],
    ['an unknown field of the order', { items: [{ hts: '6109.10.00', value: 1 }], currency: 'USD' }],
    ['a value over 10^12', { items: [{ hts: '6109.10.00', value: 2e12 }] }],
    ['a date before 1989', { items: [{ hts: '6109.10.00', value: 1 }], date: '1970-01-01' }],
  ])('POST /duty/bulk: %s is refused by the document and by the server', async (_what, body) => {
    expect(schema('BulkRequest')(body)).toBe(false);
    const s = await server({});
    const r = await fetch(`${s.url}/api/v1/duty/bulk`, { method: 'POST', headers: { authorization: `Bearer ${s.key}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const answer = await r.json();
    // A bad line is that line's error; a bad order is a 400.
    if (r.status === 200) expect(answer.lines[0].error.code).toBe('invalid_parameter');
    else expect(r.status).toBe(400);
  });

  it('what no schema can say is in the descriptions: unit only with qty, contents within the value', () => {
    const props = doc.components.schemas.BulkItem.properties;
    expect(props.unit.description).toContain('only with qty');
    expect(props.steel_content.description).toContain('at most the customs value');
    expect(doc.paths['/duty'].get.parameters.find((p: { name?: string }) => p.name === 'date').description).toContain('1989-01-01 to 2099-12-31');
  });
});

describe('HTTP edge cases', () => {
  it('a second Host header past 2,000 other header lines is still refused', async () => {
    const s = await server({});
    const filler = 'a:1\r\n'.repeat(2100);
    const r = await rawRequest(s.url, 'GET', '/healthz', { 'x-fill': `1\r\n${filler}Host: evil.example` });
    expect(r.status).toBe(400);
    expect(JSON.parse(r.body).error.message).toBe('The request has more than one Host header');
  });

  it('a 204 (OPTIONS) has no Content-Length', async () => {
    const s = await server({});
    const r = await rawRequest(s.url, 'OPTIONS', '/api/v1/duty');
    expect(r.status).toBe(204);
    expect(r.headers).not.toHaveProperty('content-length');
    expect(r.headers.allow).toBe('GET, HEAD, OPTIONS');
  });

  it('a compressed body is a 415, and so is plain JSON labelled gzip', async () => {
    const s = await server({});
    for (const body of ['\x1f\x8b\x08\x00garbage', '{"items":[]}']) {
      const r = await rawRequest(s.url, 'POST', '/api/v1/duty/bulk', { authorization: `Bearer ${s.key}`, 'content-type': 'application/json', 'content-encoding': 'gzip' }, body);
      expect(r.status).toBe(415);
      expect(JSON.parse(r.body).error.code).toBe('unsupported_media_type');
    }
  });

  it('a value of 1e21 or more is "must not exceed", not "must be a number"', async () => {
    const s = await server({});
    const r = await fetch(`${s.url}/api/v1/duty/bulk`, { method: 'POST', headers: { authorization: `Bearer ${s.key}`, 'content-type': 'application/json' }, body: '{"items":[{"hts":"6109.10.00","value":1e21},{"hts":"6109.10.00","value":1e300}]}' });
    const order = await r.json();
    expect(order.lines[0].error.message).toBe('items[0].value must not exceed 1000000000000 dollars; got 1e+21');
    expect(order.lines[1].error.message).toBe('items[1].value must not exceed 1000000000000 dollars; got 1e+300');
  });
});
