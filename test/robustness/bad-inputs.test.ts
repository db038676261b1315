/**
 * A catalog of hostile and malformed input against the real service: each is answered with its
 * documented 4xx status (checked against the OpenAPI document by the contract client), the error
 * code, and a message that names the problem. Then the same at the HTTP level, where Node refuses
 * the request before any route sees it, and slow senders.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client } from '../helpers/contract.js';
import { rawExchange as rawExchangeWith } from '../helpers/raw-http.js';
import { startServer, type RunningServer } from '../helpers/server.js';

let srv: RunningServer;
let api: ReturnType<typeof client>;
beforeAll(async () => {
  srv = await startServer({ requestTimeoutSeconds: 1 });
  api = client(srv.url, srv.key);
});
afterAll(() => srv.close());

interface Case {
  /** Query string of GET /api/v1/duty. */
  query: string;
  status: number;
  code: string;
  parameter?: string;
  message: RegExp;
}

const HTS = 'hts=6109.10.00';
const long = 'x'.repeat(10_000);
const valueError = /^value must be a number of U\.S\. dollars, 0 or more; got /;

const queries: Case[] = [
  { query: `${HTS}&value=-5`, status: 400, code: 'invalid_parameter', parameter: 'value', message: /got "-5"$/ },
  { query: `${HTS}&value=NaN`, status: 400, code: 'invalid_parameter', parameter: 'value', message: /got "NaN"$/ },
  { query: `${HTS}&value=Infinity`, status: 400, code: 'invalid_parameter', parameter: 'value', message: /got "Infinity"$/ },
  { query: `${HTS}&value=-Infinity`, status: 400, code: 'invalid_parameter', parameter: 'value', message: valueError },
  { query: `${HTS}&value=1e309`, status: 400, code: 'invalid_parameter', parameter: 'value', message: /got "1e309"$/ },
  { query: `${HTS}&value=`, status: 400, code: 'invalid_parameter', parameter: 'value', message: /got ""$/ },
  { query: `${HTS}&value=abc`, status: 400, code: 'invalid_parameter', parameter: 'value', message: valueError },
  { query: `${HTS}&value=0x10`, status: 400, code: 'invalid_parameter', parameter: 'value', message: valueError },
  { query: `${HTS}&value=1_000`, status: 400, code: 'invalid_parameter', parameter: 'value', message: valueError },
  { query: `${HTS}&value=12,50`, status: 400, code: 'invalid_parameter', parameter: 'value', message: valueError },
  { query: `${HTS}&value=10000000000000`, status: 400, code: 'invalid_parameter', parameter: 'value', message: /^value must not exceed/ },
  { query: `${HTS}&value=${'9'.repeat(400)}`, status: 400, code: 'invalid_parameter', parameter: 'value', message: /^value must be a number of at most 40 characters; got 400$/ },
  { query: `${HTS}&value=1&qty=-1`, status: 400, code: 'invalid_parameter', parameter: 'qty', message: /^qty must be a quantity greater than 0/ },
  { query: `${HTS}&value=1&qty=0`, status: 400, code: 'invalid_parameter', parameter: 'qty', message: /^qty must be a quantity greater than 0/ },
  { query: `${HTS}&value=1&qty=NaN`, status: 400, code: 'invalid_parameter', parameter: 'qty', message: /^qty must be a quantity greater than 0/ },
  { query: `${HTS}&value=1&unit=kg`, status: 400, code: 'invalid_parameter', parameter: 'qty', message: /^qty is required when unit is given/ },
  { query: 'hts=61O9.10.00&value=1', status: 400, code: 'invalid_parameter', parameter: 'hts', message: /^hts may contain only digits, dots and spaces: "61O9\.10\.00"/ },
  { query: 'hts=ABCD&value=1', status: 400, code: 'invalid_parameter', parameter: 'hts', message: /^hts may contain only digits/ },
  { query: 'hts=61091000001234&value=1', status: 400, code: 'invalid_parameter', parameter: 'hts', message: /^hts must have 4, 6, 8 or 10 digits; "61091000001234" has 14/ },
  { query: 'hts=610910001&value=1', status: 400, code: 'invalid_parameter', parameter: 'hts', message: /has 9$/ },
  { query: `hts=${'9'.repeat(10_000)}`, status: 400, code: 'invalid_parameter', parameter: 'hts', message: /^hts is too long to be a tariff code \(10000 characters\)/ },
  { query: `${HTS}&origin=${long}`, status: 400, code: 'invalid_parameter', parameter: 'origin', message: /^origin "x{40}" is not a known origin/ },
  { query: `${HTS}&unit=${long}&qty=1`, status: 400, code: 'invalid_parameter', parameter: 'unit', message: /^unit must be a unit of quantity such as kg.*; got "x{30}"$/ },
  { query: `${HTS}&date=${long}`, status: 400, code: 'invalid_parameter', parameter: 'date', message: /^date must be a calendar date/ },
  { query: 'hts=6109%0010.00', status: 400, code: 'invalid_parameter', parameter: 'hts', message: /^hts may contain only digits, dots and spaces: "6109\\u000010\.00"/ },
  { query: 'hts=6109%1B%5B2J', status: 400, code: 'invalid_parameter', parameter: 'hts', message: /^hts may contain only digits/ },
  { query: 'hts=%FF%FE', status: 400, code: 'invalid_parameter', parameter: 'hts', message: /^hts may contain only digits/ },
  { query: `${HTS}&origin=%C0%AF`, status: 400, code: 'invalid_parameter', parameter: 'origin', message: /is not a known origin/ },
  { query: 'hts=%E2%80%AE6109', status: 400, code: 'invalid_parameter', parameter: 'hts', message: /^hts may contain only digits/ },
  { query: 'hts=', status: 400, code: 'invalid_parameter', parameter: 'hts', message: /^hts is required/ },
  { query: 'value=1', status: 400, code: 'invalid_parameter', parameter: 'hts', message: /^hts must be a tariff code/ },
  { query: `${HTS}&${HTS}`, status: 400, code: 'invalid_parameter', parameter: 'hts', message: /^hts is given more than once$/ },
  { query: `${HTS}&value=1&value=2`, status: 400, code: 'invalid_parameter', parameter: 'value', message: /^value is given more than once$/ },
  { query: `${HTS}&hts[]=1`, status: 400, code: 'invalid_parameter', parameter: 'hts[]', message: /^Unknown parameter "hts\[\]"/ },
  { query: `__proto__=1&${HTS}`, status: 400, code: 'invalid_parameter', parameter: '__proto__', message: /^Unknown parameter "__proto__"/ },
  { query: `${HTS}&ocean=maybe`, status: 400, code: 'invalid_parameter', parameter: 'ocean', message: /^ocean must be 0 or 1/ },
  { query: `${HTS}&s301=33`, status: 400, code: 'invalid_parameter', parameter: 's301', message: /^s301 must be 25, 7\.5, none or auto; got "33"/ },
  { query: `${HTS}&date=2026-02-30`, status: 400, code: 'invalid_parameter', parameter: 'date', message: /got "2026-02-30"/ },
  { query: 'hts=6109&value=1', status: 400, code: 'invalid_parameter', parameter: 'hts', message: /is a heading; duty needs an 8- or 10-digit tariff line/ },
  { query: 'hts=0000.00.00&value=1', status: 404, code: 'not_found', parameter: 'hts', message: /^hts 0000\.00\.00 is not in the schedule/ },
];

describe('GET /api/v1/duty: bad query values', () => {
  const named = queries.map((c) => [c.query.length > 60 ? `${c.query.slice(0, 57)}…` : c.query, c] as const);
  it.each(named)('%s', async (_name, c) => {
    const r = await api('GET', `/api/v1/duty?${c.query}`);
    expect(r.status).toBe(c.status);
    expect(r.body.error.code).toBe(c.code);
    expect(r.body.error.message).toMatch(c.message);
    // Echoed input is cut: a 10,000-character value never comes back whole.
    expect(r.body.error.message.length).toBeLessThan(400);
    if (c.parameter) expect(r.body.error.details.parameter).toBe(c.parameter);
  });
});

interface BodyCase {
  name: string;
  path?: string;
  body: string | Buffer;
  contentType?: string;
  status: number;
  code: string;
  message: RegExp;
  parameter?: string;
}

const nested = (depth: number, leaf: string) => `${'['.repeat(depth)}${leaf}${']'.repeat(depth)}`;
const item = { hts: '6109.10.00', value: '1' };

const bodies: BodyCase[] = [
  ...['[]', '"items"', '1', 'null', 'true', '[{"items":[]}]'].map((body) => ({ name: `JSON that is not an object: ${body}`, body, status: 400, code: 'invalid_parameter', parameter: 'body', message: /^The body must be a JSON object$/ })),
  ...['{"items":"x"}', '{"items":{}}', '{"items":null}', '{"items":1}', '{}'].map((body) => ({ name: `items not an array: ${body}`, body, status: 400, code: 'invalid_parameter', parameter: 'items', message: /^items must be an array$/ })),
  { name: '1,001 items', body: JSON.stringify({ items: Array(1001).fill(item) }), status: 400, code: 'too_many_lines', parameter: 'items', message: /^items has 1001 entries; at most 1000 per request$/ },
  { name: 'a 3 MB body', body: JSON.stringify({ items: [{ hts: 'x'.repeat(3 * 1024 * 1024) }] }), status: 413, code: 'payload_too_large', message: /exceeds 2097152 bytes/ },
  { name: 'text/plain', body: JSON.stringify({ items: [item] }), contentType: 'text/plain', status: 415, code: 'unsupported_media_type', message: /must be application\/json/ },
  { name: 'a form', body: 'items=1', contentType: 'application/x-www-form-urlencoded', status: 415, code: 'unsupported_media_type', message: /must be application\/json/ },
  { name: 'multipart', body: '--x\r\n\r\n--x--', contentType: 'multipart/form-data; boundary=x', status: 415, code: 'unsupported_media_type', message: /must be application\/json/ },
  { name: 'truncated JSON', body: '{"items":[{"hts":', status: 400, code: 'invalid_json', message: /^The body is not valid JSON/ },
  { name: 'an empty JSON body', body: '', status: 400, code: 'invalid_json', message: /^The body is not valid JSON/ },
  { name: 'NaN in JSON', body: '{"items":[{"hts":"6109.10.00","value":NaN}]}', status: 400, code: 'invalid_json', message: /^The body is not valid JSON/ },
  { name: 'a __proto__ key', body: '{"__proto__":{"admin":true},"items":[]}', status: 400, code: 'invalid_json', message: /^The body is not valid JSON/ },
  { name: 'batch: queries not an array', path: '/api/v1/duty/batch', body: '{"queries":"6109.10.00"}', status: 400, code: 'invalid_parameter', parameter: 'queries', message: /^queries must be an array$/ },
  { name: 'batch: 1,001 queries', path: '/api/v1/duty/batch', body: JSON.stringify({ queries: Array(1001).fill(item) }), status: 400, code: 'too_many_lines', parameter: 'queries', message: /^queries has 1001 entries/ },
];

describe('POST bodies: shape, size, type', () => {
  it.each(bodies)('$name → $status $code', async (c) => {
    const r = await api('POST', c.path ?? '/api/v1/duty/bulk', { raw: c.body as string, headers: { 'content-type': c.contentType ?? 'application/json' } });
    expect(r.status).toBe(c.status);
    expect(r.body.error.code).toBe(c.code);
    expect(r.body.error.message).toMatch(c.message);
    if (c.parameter) expect(r.body.error.details.parameter).toBe(c.parameter);
  });
});

describe('bad lines inside a valid order: each line says what is wrong, the rest is costed', () => {
  const lineCases: [string, unknown, RegExp][] = [
    ['a number', 1, /^items\[0\] must be an object with hts and value$/],
    ['a string', 'a', /^items\[0\] must be an object/],
    ['null', null, /^items\[0\] must be an object/],
    ['an array', [], /^items\[0\] must be an object/],
    // Within the body's bound on nesting (16 levels; deeper: test/robustness/gate.test.ts).
    ['12 levels of nested arrays', JSON.parse(nested(12, '1')), /^items\[0\] must be an object/],
    ['hts an object', { hts: { a: 1 }, value: '1' }, /^items\[0\]\.hts must be a tariff code/],
    ['hts nested 12 objects deep', { hts: JSON.parse(`${'{"a":'.repeat(12)}1${'}'.repeat(12)}`), value: '1' }, /^items\[0\]\.hts must be a tariff code/],
    ['a negative value', { hts: '6109.10.00', value: -1 }, /^items\[0\]\.value must be a number of U\.S\. dollars, 0 or more; got -1$/],
    ['value 1e309 (Infinity in JSON)', { hts: '6109.10.00', value: Infinity }, /got Infinity$/],
    ['value an array', { hts: '6109.10.00', value: [1] }, /^items\[0\]\.value must be a number/],
    ['origin an object', { hts: '6109.10.00', value: '1', origin: { iso2: 'CN' } }, /^items\[0\]\.origin must be a string/],
    ['a 10,000-character origin', { hts: '6109.10.00', value: '1', origin: long }, /^items\[0\]\.origin "x{40}" is not a known origin/],
  ];
  it.each(lineCases)('%s', async (_name, bad, message) => {
    // Infinity cannot be written by JSON.stringify: 1e309 is what a client sends.
    const raw = JSON.stringify({ items: [bad, item] }).replace('"value":null', '"value":1e309');
    const r = await api('POST', '/api/v1/duty/bulk', { raw, headers: { 'content-type': 'application/json' } });
    expect(r.status).toBe(200);
    expect(r.body.lines[0].error.code).toBe('invalid_parameter');
    expect(r.body.lines[0].error.message).toMatch(message);
    expect(r.body.lines[0].error.message.length).toBeLessThan(400);
    expect(r.body.lines[1]).toMatchObject({ line: 2, hts: '6109.10.00', customs_value: 1 });
    expect(r.body.totals).toMatchObject({ lines: 2, errors: 1, customs_value: 1 });
  });

  it('invalid UTF-8 inside a JSON string is read as replacement characters and refused by name', async () => {
    const body = Buffer.concat([Buffer.from('{"items":[{"hts":"'), Buffer.from([0xff, 0xfe, 0xc0, 0xaf]), Buffer.from('","value":"1"}]}')]);
    const r = await fetch(`${srv.url}/api/v1/duty/bulk`, { method: 'POST', headers: { authorization: `Bearer ${srv.key}`, 'content-type': 'application/json' }, body });
    const json = await r.json();
    expect(r.status).toBe(200);
    expect(json.lines[0].error.message).toMatch(/^items\[0\]\.hts may contain only digits, dots and spaces: "\uFFFD/);
  });
});

const rawExchange = (bytes: Buffer | string, drip?: string) => rawExchangeWith(srv.url, bytes, drip);

const errorOf = (response: string) => JSON.parse(response.slice(response.indexOf('\r\n\r\n') + 4)).error;

describe('requests Node refuses before routing: the same error shape', () => {
  const get = (target: Buffer) => Buffer.concat([Buffer.from('GET '), target, Buffer.from(` HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${srv.key}\r\n\r\n`)]);

  it('raw invalid UTF-8 and control characters in the URL: 400 naming the fix', async () => {
    for (const target of [Buffer.from([...Buffer.from('/api/v1/duty?hts='), 0xff, 0xfe, 0x36]), Buffer.from('/api/v1/duty?hts=61\x0109')]) {
      const response = await rawExchange(get(target));
      expect(response).toMatch(/^HTTP\/1\.1 400 /);
      expect(errorOf(response)).toMatchObject({ code: 'invalid_parameter', message: expect.stringMatching(/not valid HTTP.*must be percent-encoded/) });
    }
  });

  it('a request line over 16 KB: 431 headers_too_large', async () => {
    const response = await rawExchange(get(Buffer.from(`/api/v1/duty?hts=${'1'.repeat(20_000)}`)));
    expect(response).toMatch(/^HTTP\/1\.1 431 /);
    expect(errorOf(response)).toMatchObject({ code: 'headers_too_large', message: expect.stringMatching(/16 KB/) });
  });
});

describe('slow clients cannot hold a connection (requestTimeoutSeconds = 1)', () => {
  it('headers dripped a byte at a time: 408, then the server closes the connection', async () => {
    const response = await rawExchange('GET /healthz HTTP/1.1\r\nHost: x\r\nX-Slow: ', 'a');
    expect(response).toMatch(/^HTTP\/1\.1 408 /);
    expect(errorOf(response)).toMatchObject({ code: 'request_timeout', message: expect.stringMatching(/within 1 s/) });
  });

  it('a body dripped a byte at a time: 408, then closed', async () => {
    const head = `POST /api/v1/duty/bulk HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${srv.key}\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{"items":[`;
    const response = await rawExchange(head, ' ');
    expect(response).toMatch(/^HTTP\/1\.1 408 /);
    expect(errorOf(response).code).toBe('request_timeout');
  });

  it('a connection that never sends anything is closed, and the server answers others meanwhile', async () => {
    const idle = rawExchange('', '');
    const r = await api('GET', `/api/v1/duty?${HTS}&value=10`);
    expect(r.status).toBe(200);
    // Closed by the request time-out, with the 408 an idle client may read before the close.
    expect(await idle).toMatch(/^HTTP\/1\.1 408 Request Timeout\r\n[\s\S]*"request_timeout"/);
  });
});
