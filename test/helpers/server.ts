/**
 * The real service for tests: the real schedule, trade data and a temporary SQLite key store,
 * on a free loopback port. `startServer` runs it in this process; `startServerProcess` runs the
 * built server (dist/server/main.js) as a child, for tests that block this process (synchronous
 * fetches in the Apps Script stand-in).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { buildApp, type AppDeps } from '../../server/app.js';
import { SqliteKeyStore } from '../../server/auth/key-store.js';
import { MemoryRateLimiter } from '../../server/auth/rate-limit.js';
import { loadDeps, loadTariff } from '../../server/config.js';
import { projectRoot } from '../../server/data/paths.js';
import type { Tariff } from '../../shared/index.js';

export interface RunningServer {
  url: string;
  /** A valid key created for this server. */
  key: string;
  keys: SqliteKeyStore;
  /** Every log line the server wrote (JSON). */
  logs: string[];
  close(): Promise<void>;
}

let tariff: Tariff | undefined;
/** The schedule is loaded once per test file and shared by its servers. */
export function sharedTariff(): Tariff {
  return (tariff ??= loadTariff());
}

export async function startServer(overrides: Partial<AppDeps> & { env?: NodeJS.ProcessEnv } = {}): Promise<RunningServer> {
  const dir = mkdtempSync(join(tmpdir(), 'landed-test-'));
  // The embedded stores, whatever the shell running the tests has set.
  const env = { ...process.env, KEYS_DB: join(dir, 'keys.sqlite'), DATABASE_URL: '', REDIS_URL: '', ...overrides.env };
  const deps = await loadDeps(env, sharedTariff());
  // Without DATABASE_URL the store is the SQLite file, answering synchronously.
  const keys = deps.keys as SqliteKeyStore;
  const logs: string[] = [];
  const stream = new Writable({
    write(chunk, _enc, cb) {
      logs.push(...String(chunk).split('\n').filter(Boolean));
      cb();
    },
  });
  const app = buildApp({
    ...deps,
    keyLimiter: new MemoryRateLimiter(120),
    ...overrides,
    logger: overrides.logger ?? { level: 'info', stream },
  });
  const address = await app.listen({ port: 0, host: '127.0.0.1' });
  const { key } = keys.create('test');
  return {
    url: address,
    key,
    keys,
    logs,
    async close() {
      await app.close();
      await deps.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** `nodeArgs` go before the script (`--expose-gc`, `--import ...`); `script` is the built service unless another is named. */
export async function startServerProcess(env: NodeJS.ProcessEnv = {}, nodeArgs: string[] = [], script = join(projectRoot, 'dist/server/main.js')): Promise<RunningServer & { pid: number; keysDb: string; exited: Promise<number | null>; alive(): boolean }> {
  const dir = mkdtempSync(join(tmpdir(), 'landed-test-'));
  const keysDb = join(dir, 'keys.sqlite');
  const keys = new SqliteKeyStore(keysDb);
  const { key } = keys.create('test');
  const child = spawn(process.execPath, [...nodeArgs, script], {
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', KEYS_DB: keysDb, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const logs: string[] = [];
  const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      // Not left running when the test gives up on it.
      child.kill('SIGKILL');
      reject(new Error(`server did not start: ${logs.join('\n')}`));
    }, 20_000);
    const onLine = (line: string) => {
      logs.push(line);
      const m = /Server listening at (https?:\/\/127\.0\.0\.1:\d+)/.exec(line);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    };
    let buf = '';
    const feed = (chunk: Buffer) => {
      buf += chunk.toString();
      const parts = buf.split('\n');
      buf = parts.pop()!;
      parts.filter(Boolean).forEach(onLine);
    };
    child.stdout.on('data', feed);
    child.stderr.on('data', feed);
    child.on('exit', (code) => reject(new Error(`server exited with ${code}: ${logs.join('\n')}`)));
  });
  return {
    url,
    key,
    keys,
    logs,
    pid: child.pid!,
    keysDb,
    exited,
    alive: () => child.exitCode === null && child.signalCode === null,
    async close() {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
      keys.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
