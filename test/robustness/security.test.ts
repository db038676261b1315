/**
 * Security properties: keys never reach a log line on any path (success, client errors, 401, 429,
 * 503, unknown endpoints, requests Node refuses); no X-Powered-By; CORS answers only configured
 * origins; the store keeps only HMAC-SHA-256(pepper, key) and compares in constant time.
 */
import { createHmac } from 'node:crypto';
import * as crypto from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startService, type Service } from '../../bench/lib/processes.js';
import { SqliteKeyStore } from '../../server/auth/key-store.js';
import { startServer, type RunningServer } from '../helpers/server.js';

// The real timingSafeEqual, observed: the store must compare hashes with it.
vi.mock('node:crypto', async (importOriginal) => {
  const real = await importOriginal<typeof import('node:crypto')>();
  return { ...real, timingSafeEqual: vi.fn(real.timingSafeEqual) };
});

describe('keys never appear in the logs (the built service, info level)', () => {
  let svc: Service;
  beforeAll(async () => {
    svc = await startService({ RATE_LIMIT: '3' }, 3);
  });
  afterAll(() => svc.stop());

  it('on every path a key can take', async () => {
    const [good, limited, broken] = svc.keys;
    const wrong = `${good.slice(0, -4)}AAAA`;
    const get = (path: string, key?: string, header = true) =>
      fetch(`${svc.url}${path}${header || !key ? '' : `${path.includes('?') ? '&' : '?'}key=${encodeURIComponent(key)}`}`, { headers: header && key ? { authorization: `Bearer ${key}` } : {} });
    const statuses: number[] = [];
    for (const key of [good, wrong])
      for (const header of [true, false])
        for (const path of ['/api/v1/duty?hts=6109.10.00&value=5', '/api/v1/duty?hts=bogus', '/api/v1/no-such-endpoint', '/api/v1/hts/0000', '/api/v1/openapi.json'])
          statuses.push((await get(path, key, header)).status);
    for (let i = 0; i < 5; i++) statuses.push((await get('/api/v1/duty?hts=6109.10.00', limited, i % 2 === 0)).status);
    statuses.push((await fetch(`${svc.url}/api/v1/duty/bulk?key=${good}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"items":[{"hts":"x"}]}' })).status);
    // The store unreadable for a moment: a 503 and an error line in the log.
    const operator = new DatabaseSync(svc.keysDb, { timeout: 5000 });
    operator.exec('ALTER TABLE api_keys RENAME TO moved');
    statuses.push((await get('/api/v1/duty?hts=6109.10.00', broken, false)).status);
    operator.exec('ALTER TABLE moved RENAME TO api_keys');
    operator.close();
    // A request line Node refuses, with the key in it.
    await new Promise<void>((resolve) => {
      const s = connect(Number(new URL(svc.url).port), '127.0.0.1', () => s.end(`GET /api/v1/duty?key=${good}&hts=\x01 HTTP/1.1\r\nHost: x\r\n\r\n`));
      s.on('data', () => {});
      s.on('close', () => resolve());
    });
    // Every kind of answer happened, so every log path was taken.
    expect(new Set(statuses)).toEqual(new Set([200, 400, 401, 404, 429, 503]));

    const log = await svc.settledLog();
    expect(log.split('\n').length).toBeGreaterThan(statuses.length); // a line per request, at least
    for (const k of [good, limited, broken, wrong]) {
      expect(log).not.toContain(k);
      expect(log).not.toContain(k.slice(3)); // the secret part, without the lk_ prefix
    }
    expect(log).not.toMatch(/key=(?!\[redacted\])/i);
    expect(log).not.toMatch(/bearer/i);
    expect(log).toMatch(/key=\[redacted\]/);
  });
});

describe('headers', () => {
  let srv: RunningServer;
  beforeAll(async () => {
    srv = await startServer();
  });
  afterAll(() => srv.close());

  it('no X-Powered-By (nor Server) on any answer', async () => {
    for (const [path, key] of [['/healthz', null], ['/api/v1/duty?hts=6109.10.00', srv.key], ['/api/v1/duty?hts=x', srv.key], ['/api/v1/duty', null], ['/nowhere', null], ['/api/v1/openapi.json', null]] as const) {
      const r = await fetch(srv.url + path, { headers: key ? { authorization: `Bearer ${key}` } : {} });
      expect(r.headers.get('x-powered-by')).toBeNull();
      expect(r.headers.get('server')).toBeNull();
    }
  });
});

describe('CORS: only the configured origins', () => {
  const allowed = 'https://sheets.example';
  const other = 'https://evil.example';
  let withCors: RunningServer;
  let without: RunningServer;
  beforeAll(async () => {
    withCors = await startServer({ corsOrigins: [allowed] });
    without = await startServer();
  });
  afterAll(async () => {
    await withCors.close();
    await without.close();
  });

  const preflight = (srv: RunningServer, origin: string) =>
    fetch(`${srv.url}/api/v1/duty?hts=6109.10.00`, { method: 'OPTIONS', headers: { origin, 'access-control-request-method': 'GET', 'access-control-request-headers': 'authorization' } });
  const get = (srv: RunningServer, origin: string) => fetch(`${srv.url}/api/v1/duty?hts=6109.10.00&value=1`, { headers: { origin, authorization: `Bearer ${srv.key}` } });

  it('a configured origin: the preflight allows GET with Authorization, the answer exposes the rate-limit headers', async () => {
    const p = await preflight(withCors, allowed);
    expect(p.status).toBeLessThan(300);
    expect(p.headers.get('access-control-allow-origin')).toBe(allowed);
    expect(p.headers.get('access-control-allow-headers')?.toLowerCase()).toContain('authorization');
    const r = await get(withCors, allowed);
    expect(r.status).toBe(200);
    expect(r.headers.get('access-control-allow-origin')).toBe(allowed);
    expect(r.headers.get('access-control-expose-headers')).toMatch(/X-RateLimit-Remaining/);
  });

  it('any other origin, or no origin configured: no Access-Control-Allow-Origin at all', async () => {
    for (const [srv, origin] of [[withCors, other], [withCors, 'null'], [withCors, `${allowed}.evil.example`], [without, allowed], [without, other]] as const) {
      for (const r of [await preflight(srv, origin), await get(srv, origin)]) {
        expect(r.headers.get('access-control-allow-origin')).toBeNull();
        expect(r.headers.get('access-control-allow-credentials')).toBeNull();
      }
    }
  });
});

describe('the key store keeps only a keyed hash and compares in constant time', () => {
  const dir = mkdtempSync(join(tmpdir(), 'landed-sec-'));

  it('the stored hash is HMAC-SHA-256(pepper, key); neither the key nor its secret part is in the file', () => {
    const db = join(dir, 'hmac.sqlite');
    const store = new SqliteKeyStore(db, 'the-pepper');
    const keys = Array.from({ length: 20 }, (_, i) => store.create(`k${i}`).key);
    store.close();
    const raw = new DatabaseSync(db, { readOnly: true });
    const hashes = (raw.prepare('SELECT hash FROM api_keys ORDER BY id').all() as { hash: Uint8Array }[]).map((r) => Buffer.from(r.hash));
    raw.close();
    expect(hashes).toEqual(keys.map((k) => createHmac('sha256', 'the-pepper').update(k, 'utf8').digest()));
    const bytes = [db, `${db}-wal`].filter(existsSync).map((f) => readFileSync(f).toString('latin1')).join('');
    for (const k of keys) expect(bytes).not.toContain(k.slice(3));
  });

  it('a generated pepper lives in the store, is 32 random bytes, and differs between stores', () => {
    const peppers = ['a', 'b'].map((n) => {
      const db = join(dir, `pepper-${n}.sqlite`);
      new SqliteKeyStore(db).close();
      const raw = new DatabaseSync(db, { readOnly: true });
      const v = Buffer.from((raw.prepare("SELECT value FROM meta WHERE name = 'pepper'").get() as { value: Uint8Array }).value);
      raw.close();
      return v;
    });
    expect(peppers[0]).toHaveLength(32);
    expect(peppers[0].equals(peppers[1])).toBe(false);
  });

  it('verification compares the full stored and presented hashes with crypto.timingSafeEqual; near misses never verify', () => {
    const spy = vi.mocked(crypto.timingSafeEqual);
    const store = new SqliteKeyStore(join(dir, 'ct.sqlite'), 'p');
    const { key } = store.create('ct');
    spy.mockClear();
    expect(store.verify(key)).toBe(1);
    expect(spy).toHaveBeenCalledTimes(1);
    const [a, b] = spy.mock.calls[0] as [Buffer, Buffer];
    expect(a).toHaveLength(32);
    expect(b.equals(createHmac('sha256', 'p').update(key).digest())).toBe(true);
    // Every one-character change of the key, and keys cut short or extended: none verifies.
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    for (let i = 3; i < key.length; i++) {
      const c = alphabet[(alphabet.indexOf(key[i]) + 1) % alphabet.length];
      expect(store.verify(key.slice(0, i) + c + key.slice(i + 1))).toBeNull();
    }
    for (const k of [key.slice(0, -1), `${key}A`, key.toUpperCase(), key.slice(3), ` ${key}`, `${key}\u0000`, 'lk_'.padEnd(200, 'A')]) expect(store.verify(k)).toBeNull();
    store.revoke(store.find({ label: 'ct' }).map((k) => k.id));
    expect(store.verify(key)).toBeNull();
    store.close();
  });
});
