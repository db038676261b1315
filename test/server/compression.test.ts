/**
 * Compressed answers: 1 KB or more compressed with the coding the client accepts (zstd where this
 * Node has it, br, gzip), identical once decompressed; smaller answers and clients that accept
 * nothing get the plain text. Raw node:http requests, so the bytes on the wire are what is measured.
 */
import { request } from 'node:http';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { benchOrder, linePools } from '../../bench/lib/lines.js';
import { MemoryRateLimiter } from '../../server/auth/rate-limit.js';
import { sharedTariff, startServer, type RunningServer } from '../helpers/server.js';

let srv: RunningServer;
beforeAll(async () => {
  srv = await startServer({ keyLimiter: new MemoryRateLimiter(100_000) });
});
afterAll(() => srv.close());

interface Raw {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

function send(method: string, path: string, acceptEncoding: string | null, body?: string): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { authorization: `Bearer ${srv.key}` };
    if (acceptEncoding !== null) headers['accept-encoding'] = acceptEncoding;
    if (body !== undefined) headers['content-type'] = 'application/json';
    const req = request(`${srv.url}${path}`, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

const zstdDecompress = (zlib as { zstdDecompressSync?: (b: Buffer) => Buffer }).zstdDecompressSync;
const decoders: Record<string, (b: Buffer) => Buffer> = { gzip: zlib.gunzipSync, br: zlib.brotliDecompressSync, ...(zstdDecompress ? { zstd: zstdDecompress } : {}) };

describe('a 1,000-line order', () => {
  const order = () => JSON.stringify({ items: benchOrder(linePools(sharedTariff())), date: '2026-11-21' });

  it('each coding: Content-Encoding and Vary said, the length is the bytes sent, the text the plain answer, under 100 KB on the wire', async () => {
    const body = order();
    const plain = await send('POST', '/api/v1/duty/bulk', null, body);
    expect(plain.status).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    // The plain answer is about 0.85 MB (docs/performance.md): compression is what brings it under 100 KB.
    expect(plain.body.length).toBeGreaterThan(500_000);
    for (const [coding, decode] of Object.entries(decoders)) {
      const r = await send('POST', '/api/v1/duty/bulk', coding, body);
      expect([coding, r.status, r.headers['content-encoding'], r.headers.vary]).toEqual([coding, 200, coding, 'Accept-Encoding']);
      expect(Number(r.headers['content-length'])).toBe(r.body.length);
      expect(r.body.length, coding).toBeLessThan(100 * 1024);
      expect(decode(r.body).equals(plain.body), coding).toBe(true);
    }
  });

  it('the coding the client rates highest; the server prefers zstd, then br, then gzip among equals; q=0 refuses one', async () => {
    const body = order();
    const best = zstdDecompress ? 'zstd' : 'br';
    const cases: [string, string | undefined][] = [
      ['gzip, deflate, br, zstd', best],
      ['gzip;q=1, br;q=0.5', 'gzip'],
      ['br;q=0, gzip', 'gzip'],
      ['*', best],
      ['*;q=0, identity', undefined],
      ['identity', undefined],
      ['deflate', undefined],
    ];
    for (const [accept, coding] of cases) expect([accept, (await send('POST', '/api/v1/duty/bulk', accept, body)).headers['content-encoding']]).toEqual([accept, coding]);
  });
});

describe('other answers', () => {
  it('under 1 KB: never compressed (an error, a health check)', async () => {
    const r = await send('GET', '/api/v1/duty?hts=bad&value=1', 'gzip, br, zstd');
    expect(r.status).toBe(400);
    expect(r.body.length).toBeLessThan(1024);
    expect(r.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(r.body.toString()).error.code).toBe('invalid_parameter');
  });

  it('a search of 1 KB or more and the OpenAPI document are compressed; HEAD says the length a GET would send', async () => {
    const search = await send('GET', '/api/v1/hts?q=cotton%20shirts&limit=20', 'gzip');
    expect(search.headers['content-encoding']).toBe('gzip');
    const plain = await send('GET', '/api/v1/hts?q=cotton%20shirts&limit=20', null);
    expect(plain.body.length).toBeGreaterThanOrEqual(1024);
    expect(zlib.gunzipSync(search.body).equals(plain.body)).toBe(true);
    const doc = await send('GET', '/api/v1/openapi.json', 'br');
    expect(doc.headers['content-encoding']).toBe('br');
    expect(JSON.parse(zlib.brotliDecompressSync(doc.body).toString()).openapi).toMatch(/^3\./);
    const head = await send('HEAD', '/api/v1/openapi.json', 'br');
    expect([head.headers['content-encoding'], head.headers['content-length'], head.body.length]).toEqual(['br', String(doc.body.length), 0]);
  });
});
