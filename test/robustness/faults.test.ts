/**
 * Parts failing under the real service (the built dist/server/main.js in a child process, real
 * SQLite, real schedule): the key store locked or unreadable while serving, a process killed while
 * it creates keys, bad data files at start, corrupt schedule downloads.
 */
import { execFile, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { DatabaseSync } from 'node:sqlite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, startService, type Service } from '../../bench/lib/processes.js';
import { SqliteKeyStore } from '../../server/auth/key-store.js';
import { countriesPath } from '../../server/data/countries.js';
import { htsPath } from '../../server/data/hts-file.js';
import { projectRoot } from '../../server/data/paths.js';
import { updateSchedule } from '../../server/data/update.js';
import { htsRows } from '../helpers/tariff.js';

const main = join(projectRoot, 'dist/server/main.js');
beforeAll(() => {
  if (!existsSync(main)) throw new Error('dist/server/main.js is missing: npm run build first (npm test does)');
});

const dir = mkdtempSync(join(tmpdir(), 'landed-faults-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const duty = (svc: Service, key: string) => fetch(`${svc.url}/api/v1/duty?hts=6109.10.00&value=100`, { headers: { authorization: `Bearer ${key}` } });

describe('the key store fails while the service runs', () => {
  let svc: Service;
  beforeAll(async () => {
    svc = await startService({}, 6);
  });
  afterAll(() => svc.stop());

  it('another process holds the write lock: keys still verify and requests are served (WAL readers do not wait)', async () => {
    const locker = new DatabaseSync(svc.keysDb, { timeout: 5000 });
    locker.exec('BEGIN EXCLUSIVE');
    locker.prepare("UPDATE api_keys SET label = 'locked' WHERE id = 1").run();
    try {
      // Keys never used before: each is looked up in the store and its last use cannot be written.
      const answers = await Promise.all(svc.keys.slice(0, 3).map((k) => duty(svc, k)));
      expect(answers.map((r) => r.status)).toEqual([200, 200, 200]);
    } finally {
      locker.exec('ROLLBACK');
      locker.close();
    }
  });

  it('the store becomes unreadable: 503 service_unavailable JSON with Retry-After, the process stays up, and recovers', async () => {
    const operator = new DatabaseSync(svc.keysDb, { timeout: 5000 });
    operator.exec('ALTER TABLE api_keys RENAME TO api_keys_moved');
    try {
      const r = await duty(svc, svc.keys[4]);
      expect(r.status).toBe(503);
      expect(r.headers.get('retry-after')).toBe('5');
      expect(r.headers.get('content-type')).toMatch(/^application\/json/);
      expect(await r.json()).toEqual({ error: { code: 'service_unavailable', message: 'The key store is unavailable; retry shortly' } });
      // The process stays up and says what is wrong.
      const health = await fetch(`${svc.url}/healthz`);
      expect([health.status, (await health.json()).key_store]).toEqual([503, 'unavailable']);
    } finally {
      operator.exec('ALTER TABLE api_keys_moved RENAME TO api_keys');
      operator.close();
    }
    expect((await duty(svc, svc.keys[4])).status).toBe(200);
    expect((await fetch(`${svc.url}/healthz`)).status).toBe(200);
    const log = await svc.settledLog();
    expect(log).toMatch(/key store unavailable/);
    expect(log).not.toContain(svc.keys[4]);
  });
});

describe('a process killed while it creates keys', () => {
  it('leaves the store intact: every key it reported works, including through a restarted service', async () => {
    const db = join(dir, 'churn', 'keys.sqlite');
    const reported: string[] = [];
    for (let round = 0; round < 3; round++) {
      const child = spawn(process.execPath, ['--import', 'tsx', join(projectRoot, 'test/robustness/fixtures/create-keys.ts'), db], { stdio: ['ignore', 'pipe', 'inherit'] });
      let buf = '';
      const before = reported.length;
      await new Promise<void>((resolve) => {
        child.stdout.on('data', (chunk: Buffer) => {
          buf += chunk;
          const lines = buf.split('\n');
          buf = lines.pop()!;
          reported.push(...lines);
          // Kill at a different point each round, mid-stream.
          if (reported.length - before >= 50 + round * 37 && child.exitCode === null) child.kill('SIGKILL');
        });
        child.on('exit', () => resolve());
      });
      expect(child.signalCode).toBe('SIGKILL');
    }
    const store = new SqliteKeyStore(db);
    const raw = new DatabaseSync(db, { readOnly: true });
    expect(raw.prepare('PRAGMA integrity_check').get()).toEqual({ integrity_check: 'ok' });
    const rows = (raw.prepare('SELECT count(*) AS n FROM api_keys').get() as { n: number }).n;
    raw.close();
    expect(rows).toBeGreaterThanOrEqual(reported.length);
    expect(reported.every((k) => store.verify(k) !== null)).toBe(true);
    store.close();

    // The service started on that store accepts the last key reported before the last kill.
    const svc = await startService({ KEYS_DB: db });
    try {
      expect((await duty(svc, reported.at(-1)!)).status).toBe(200);
    } finally {
      await svc.stop();
    }
  });
});

/** Runs the built server with `env` and returns how it ended: it must not start. */
function failedStart(env: NodeJS.ProcessEnv): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [main], { env: { ...process.env, PORT: '0', HOST: '127.0.0.1', KEYS_DB: join(dir, 'start-keys.sqlite'), ...env }, timeout: 30_000 }, (err, stdout, stderr) =>
      resolve({ code: err ? ((err as { code?: number }).code ?? null) : 0, stdout, stderr }),
    );
  });
}

describe('a bad data file at start: one line naming the file, exit 1', () => {
  const real = readFileSync(htsPath({}));
  const badSchedules: [string, (path: string) => void][] = [
    ['missing', () => {}],
    ['a directory', (p) => mkdirSync(p)],
    ['empty', (p) => writeFileSync(p, '')],
    ['random bytes', (p) => writeFileSync(p, Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 7919) % 256)))],
    ['gzip header, then garbage', (p) => writeFileSync(p, Buffer.concat([Buffer.from([0x1f, 0x8b, 0x08, 0x00]), Buffer.alloc(1000, 0x55)]))],
    ['the real file cut in half', (p) => writeFileSync(p, real.subarray(0, real.length / 2))],
    ['gzip of text that is not JSON', (p) => writeFileSync(p, gzipSync('<html>Service Unavailable</html>'))],
    ['a JSON object', (p) => writeFileSync(p, gzipSync('{"rows":[]}'))],
    ['ten rows', (p) => writeFileSync(p, gzipSync(JSON.stringify(htsRows().slice(0, 10))))],
    ['rows without the USITC fields', (p) => writeFileSync(p, JSON.stringify(Array.from({ length: 2000 }, (_, i) => ({ code: i }))))],
  ];
  it.each(badSchedules)('schedule: %s', async (name, make) => {
    const path = join(dir, `hts-${name.replace(/\W+/g, '-')}.json.gz`);
    make(path);
    const r = await failedStart({ HTS_DATA: path });
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    const lines = r.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^landed: cannot start: /);
    expect(lines[0]).toContain(path);
  });

  const badFiles: [string, string, string][] = [
    ['the country list', 'COUNTRIES_DATA', 'iso3;name\nCHN;China\n'],
    ['the trade data', 'TRADE_DATA', 'not,the,columns\n1,2,3\n'],
    ['the trade data, a ragged row', 'TRADE_DATA', 'chapter,year,exporter_iso3,exporter_name,value_usd\n01,2024,CAN,Canada,2487369015\n01,2024,FRA\n'],
    ['the trade data, quoted and ragged', 'TRADE_DATA', 'chapter,year,exporter_iso3,exporter_name,value_usd\n01,2024,KOR,"Korea, Republic of",5\n01,"2024\n'],
    ['the key store', 'KEYS_DB', 'this is not a SQLite database'.repeat(200)],
  ];
  it.each(badFiles)('%s', async (_name, variable, content) => {
    const path = join(dir, `bad-${variable}`);
    writeFileSync(path, content);
    // The country list is found beside the trade data unless named: keep the real one.
    const r = await failedStart({ COUNTRIES_DATA: countriesPath({}), [variable]: path });
    expect(r.code).toBe(1);
    const lines = r.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(path);
  });
});

describe('data:update: a corrupt download keeps the previous schedule, and the service still starts on it', () => {
  const subset = JSON.stringify(htsRows().slice(0, 3000));
  /** How revision 11 is served; null while it is not published. */
  let revision11: ((res: ServerResponse) => void) | null = null;
  let server: Server;
  let base: string;
  beforeAll(async () => {
    server = createServer((req, res) => {
      if (req.url === '/hts_2026_revision_10_json.json') return res.end(req.method === 'HEAD' ? undefined : subset);
      if (req.url === '/hts_2026_revision_11_json.json' && revision11) return req.method === 'HEAD' ? res.end() : revision11(res);
      res.writeHead(404).end();
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  });
  afterAll(() => new Promise((r) => server.close(r)));

  const corrupt: [string, (res: ServerResponse) => void, RegExp][] = [
    ['an HTML error page answered 200', (res) => res.end('<!DOCTYPE html><html><body>Maintenance</body></html>'), /not valid JSON/],
    ['truncated JSON', (res) => res.end(subset.slice(0, subset.length / 3)), /not valid JSON/],
    ['truncated gzip', (res) => res.end(gzipSync(subset).subarray(0, 20_000)), /gzip/],
    ['rows without a single rate', (res) => res.end(JSON.stringify(htsRows().slice(0, 3000).map((r) => ({ ...r, general: '', special: '', other: '' })))), /no tariff line with a rate/],
    ['an empty body', (res) => res.end(), /not valid JSON|expected an array/],
    ['the connection cut mid-download', (res) => {
      res.writeHead(200, { 'content-length': String(subset.length) });
      res.write(subset.slice(0, 100_000));
      setTimeout(() => res.destroy(), 20);
    }, /./],
  ];

  it.each(corrupt)('%s', async (name, serve, reason) => {
    const out = join(dir, `update-${name.replace(/\W+/g, '-')}`, 'hts.json.gz');
    revision11 = null;
    expect((await updateSchedule({ base, out, year: 2026 })).revision).toBe('2026 Revision 10');
    const meta = out.replace(/\.json\.gz$/, '.meta.json');
    const before = { file: readFileSync(out), meta: readFileSync(meta, 'utf8') };
    revision11 = serve;
    await expect(updateSchedule({ base, out, year: 2026 })).rejects.toThrow(reason);
    expect(readFileSync(out).equals(before.file)).toBe(true);
    expect(readFileSync(meta, 'utf8')).toBe(before.meta);
    expect(existsSync(`${out}.download`)).toBe(false);
  });

  it('the service started after a failed update answers from the previous revision', async () => {
    const out = join(dir, 'update-restart', 'hts.json.gz');
    revision11 = null;
    await updateSchedule({ base, out, year: 2026 });
    revision11 = (res) => res.end(subset.slice(0, 5000));
    await expect(updateSchedule({ base, out, year: 2026 })).rejects.toThrow();
    const svc = await startService({ HTS_DATA: out });
    try {
      const r = await fetch(`${svc.url}/api/v1/duty?hts=0101.21.00&value=100`, { headers: { authorization: `Bearer ${svc.keys[0]}` } });
      expect(r.status).toBe(200);
      expect((await r.json()).hts_revision).toBe('2026 Revision 10');
    } finally {
      await svc.stop();
    }
  });
});

describe('a configuration mistake: one line naming the setting, exit 1, no stack trace', () => {
  const mistakes: [string, NodeJS.ProcessEnv, RegExp][] = [
    ['PORT=abc', { PORT: 'abc' }, /^landed: cannot start: PORT must be a whole number from 0 to 65535; got "abc"$/],
    ['PORT=-1', { PORT: '-1' }, /^landed: cannot start: PORT must be a whole number/],
    ['PORT=70000', { PORT: '70000' }, /^landed: cannot start: PORT must be a whole number/],
    ['LOG_LEVEL=bogus', { LOG_LEVEL: 'bogus' }, /^landed: cannot start: LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent; got "bogus"$/],
    ['RATE_LIMIT=abc', { RATE_LIMIT: 'abc' }, /^landed: cannot start: RATE_LIMIT must be a whole number from 1 to/],
    ['RATE_LIMIT=-5', { RATE_LIMIT: '-5' }, /^landed: cannot start: RATE_LIMIT must be a whole number from 1 to/],
    ['RATE_LIMIT=0', { RATE_LIMIT: '0' }, /^landed: cannot start: RATE_LIMIT must be a whole number from 1 to/],
    ['UNAUTH_RATE_LIMIT=1.5', { UNAUTH_RATE_LIMIT: '1.5' }, /^landed: cannot start: UNAUTH_RATE_LIMIT must be a whole number from 1 to/],
    ['HOST not of this machine', { HOST: '203.0.113.7' }, /^landed: cannot start: HOST "203\.0\.113\.7" is not an address of this machine$/],
    ['DATABASE_URL not a URL', { DATABASE_URL: 'secret-password@db' }, /^landed: cannot start: DATABASE_URL must be a URL of the form postgres:\/\/user:password@host:5432\/database; got something that is not a URL$/],
    ['DATABASE_URL of another scheme', { DATABASE_URL: 'mysql://u:secret-password@db/x' }, /^landed: cannot start: DATABASE_URL must be a URL of the form .*; got one with scheme "mysql:"$/],
    ['DATABASE_URL without a host', { DATABASE_URL: 'postgres:///x' }, /^landed: cannot start: DATABASE_URL must be a URL of the form .*; got one with scheme "postgres:" and no host$/],
    ['REDIS_URL of another scheme', { REDIS_URL: 'http://:secret-password@cache:6379' }, /^landed: cannot start: REDIS_URL must be a URL of the form redis:\/\/\[:password@\]host:6379\[\/db\]; got one with scheme "http:"$/],
    ['STORE_TIMEOUT_MS=0', { STORE_TIMEOUT_MS: '0' }, /^landed: cannot start: STORE_TIMEOUT_MS must be a whole number from 10 to 60000; got "0"$/],
  ];
  it.each(mistakes)('%s', async (_name, env, message) => {
    const r = await failedStart(env);
    expect(r.code).toBe(1);
    expect(r.stderr.trim().split('\n')).toEqual([expect.stringMatching(message)]);
    expect(r.stderr).not.toContain('secret-password');
  });

  it('PostgreSQL or Redis not reachable at start: one line naming the setting, without the password', async () => {
    const port = await freePort();
    const pg = await failedStart({ DATABASE_URL: `postgres://landed:secret-password@127.0.0.1:${port}/landed` });
    expect([pg.code, pg.stderr]).toEqual([1, `landed: cannot start: DATABASE_URL: cannot open the key store (connect ECONNREFUSED 127.0.0.1:${port})\n`]);
    const redis = await failedStart({ REDIS_URL: `redis://:secret-password@127.0.0.1:${port}` });
    expect([redis.code, redis.stderr]).toEqual([1, `landed: cannot start: REDIS_URL: cannot connect to Redis (connect ECONNREFUSED 127.0.0.1:${port})\n`]);
  });

  it('the port already in use', async () => {
    const busy = createServer();
    await new Promise<void>((r) => busy.listen(0, '127.0.0.1', r));
    const port = (busy.address() as AddressInfo).port;
    try {
      const r = await failedStart({ PORT: String(port) });
      expect(r.code).toBe(1);
      expect(r.stderr.trim().split('\n')).toEqual([`landed: cannot start: port ${port} on 127.0.0.1 is already in use (set PORT to another port)`]);
    } finally {
      busy.close();
    }
  });
});

