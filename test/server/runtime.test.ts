/**
 * The built service on the Node running the suite (CI runs it on Node 24 and on Node 22), with
 * garbage collections forced every few milliseconds: the sequence that aborted Node 24 with the
 * old SQLite binding (a throw-away prepared statement finalized by V8 at a bad moment) must leave
 * the process alive and answering.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../../server/data/paths.js';
import { keysCommand } from '../helpers/keys-command.js';
import { startServerProcess } from '../helpers/server.js';

/** Collects garbage every 5 ms inside the service (gc() exists with --expose-gc). */
const FORCED_GC = ['--expose-gc', '--import', 'data:text/javascript,setInterval(globalThis.gc, 5).unref()'];

let srv: Awaited<ReturnType<typeof startServerProcess>>;
beforeAll(async () => {
  srv = await startServerProcess({}, FORCED_GC);
});
afterAll(() => srv.close());

describe(`the service on Node ${process.versions.node}, collections forced`, () => {
  it('answers /duty, /exporters, bulk, a new key and its use, again and again, and stays alive', async () => {
    const ask = (key: string, path: string, body?: unknown) =>
      fetch(`${srv.url}/api/v1${path}`, {
        method: body ? 'POST' : 'GET',
        headers: { authorization: `Bearer ${key}`, ...(body ? { 'content-type': 'application/json' } : {}) },
        body: body ? JSON.stringify(body) : undefined,
      });
    for (let round = 0; round < 3; round++) {
      // 6109.10.00 from China, 1,000: 16.5% = 165.00.
      const duty = await ask(srv.key, '/duty?hts=6109.10.00&value=1000&origin=china');
      expect(duty.status).toBe(200);
      expect((await duty.json()).duty).toBe(165);
      const exporters = await ask(srv.key, '/exporters?hts=8471&limit=3');
      expect(exporters.status).toBe(200);
      expect((await exporters.json()).exporters).toHaveLength(3);
      const bulk = await ask(srv.key, '/duty/bulk', { items: [{ hts: '6109.10.00', value: 1000, origin: 'china' }, { hts: 'nonsense', value: 1 }] });
      expect(bulk.status).toBe(200);
      const order = await bulk.json();
      expect(order.lines[0].duty).toBe(165);
      expect(order.lines[1].error.details.parameter).toBe('items[1].hts');
      // A key made by the keys command while the service runs, on the same store, and used at once.
      const made = await keysCommand({ KEYS_DB: srv.keysDb }, ['create', '--label', `round-${round}`]);
      expect(made.code).toBe(0);
      const key = made.stdout.trim();
      expect((await ask(key, '/hts/6109.10.00')).status).toBe(200);
      expect((await ask(`${key.slice(0, -1)}x`, '/hts/6109.10.00')).status).toBe(401);
      expect(srv.alive()).toBe(true);
    }
    expect((await fetch(`${srv.url}/healthz`)).status).toBe(200);
    expect(srv.alive()).toBe(true);
  });
});

describe('an older Node', () => {
  /** The system's Node (Debian's, 20.x on this machine), if there is one older than the service needs. */
  const systemNode = ['/usr/bin/node', '/bin/node'].find((path) => {
    try {
      const [major, minor] = execFileSync(path, ['-p', 'process.versions.node'], { encoding: 'utf8' }).trim().split('.').map(Number);
      return major < 22 || (major === 22 && minor < 13);
    } catch {
      return false;
    }
  });

  it.skipIf(systemNode === undefined)('the built entry says in one line which Node it needs, and exits 1, before node:sqlite is imported', () => {
    const run = spawnSync(systemNode!, [join(projectRoot, 'dist/server/main.js')], { encoding: 'utf8', env: { ...process.env, PORT: '0' } });
    const version = execFileSync(systemNode!, ['-p', 'process.versions.node'], { encoding: 'utf8' }).trim();
    expect(run.status).toBe(1);
    expect(run.stderr).toBe(`landed needs Node 22.13 or newer; this is ${version}\n`);
    expect(run.stdout).toBe('');
  });
});
