/**
 * Servers under measurement, each in its own child process so the load generator never shares
 * their event loop: the built service (dist/server/main.js) with its log written to a file, as an
 * operator would run it, and a bare node:http server as the reference. Also what the kernel says
 * about a child: resident memory and CPU time.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { createServer, get } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openKeyStore } from '../../server/config.js';
import { projectRoot } from '../../server/data/paths.js';

export interface Child {
  url: string;
  pid: number;
  /** performance.now() when the process was spawned. */
  spawnedAt: number;
  /** Milliseconds from spawn to the first answer on the port. */
  listeningMs: number;
  /** Everything the process wrote to stdout and stderr so far. */
  log(): string;
  /**
   * The log once it has stopped growing for 150 ms: the service writes its lines in batches at
   * most 50 ms apart (server/log.ts), so a line of a request just answered may not be there yet.
   */
  settledLog(): Promise<string>;
  stop(): Promise<void>;
}

export interface Service extends Child {
  /** Valid keys, created before the start. */
  keys: string[];
  keysDb: string;
}

/** A port free at this moment on the loopback. */
export async function freePort(): Promise<number> {
  const srv = createServer();
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  const port = (srv.address() as AddressInfo).port;
  await new Promise((r) => srv.close(r));
  return port;
}

/**
 * The status of GET url, its body read; rejects when nothing answers. With node:http and no agent:
 * fetch loads its client on first use (about 30 ms here), which would count against a start measured.
 */
export function statusOf(url: string, headers: Record<string, string> = {}): Promise<number> {
  return new Promise((resolve, reject) => {
    get(url, { headers, agent: false }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode!));
    }).on('error', reject);
  });
}

/** Whether GET url answers at all (any status). */
const answers = (url: string): Promise<boolean> =>
  statusOf(url).then(
    () => true,
    () => false,
  );

/** Spawns `args` on a free port with output to a file and waits until GET /healthz answers. */
export async function spawnListening(args: string[], env: NodeJS.ProcessEnv, dir: string, timeoutMs = 20_000): Promise<Child> {
  const logFile = join(dir, 'out.log');
  const fd = openSync(logFile, 'w');
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const t0 = performance.now();
  const child = spawn(process.execPath, args, { env: { ...process.env, HOST: '127.0.0.1', ...env, PORT: String(port) }, stdio: ['ignore', fd, fd] });
  closeSync(fd);
  const log = () => readFileSync(logFile, 'utf8');
  while (!(await answers(`${url}/healthz`))) {
    if (child.exitCode !== null) throw new Error(`${args.join(' ')} exited with ${child.exitCode}: ${log()}`);
    if (performance.now() - t0 > timeoutMs) {
      child.kill();
      throw new Error(`${args.join(' ')} did not answer on ${url}: ${log()}`);
    }
    await new Promise((r) => setTimeout(r, 2));
  }
  const settledLog = async () => {
    for (let last = -1, text = log(); ; last = text.length, text = log()) {
      if (text.length === last) return text;
      await new Promise((r) => setTimeout(r, 150));
    }
  };
  return { url, pid: child.pid!, spawnedAt: t0, listeningMs: performance.now() - t0, log, settledLog, stop: () => stop(child) };
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await exited;
}

/**
 * The built service with `keyCount` new keys in its store (a fresh SQLite file, or the PostgreSQL
 * database when env has DATABASE_URL); env adds operator settings (RATE_LIMIT, LOG_LEVEL), and a
 * variable set to undefined is left out of the child's environment.
 */
export async function startService(env: NodeJS.ProcessEnv = {}, keyCount = 1): Promise<Service> {
  const dir = mkdtempSync(join(tmpdir(), 'landed-bench-'));
  const keysDb = join(dir, 'keys.sqlite');
  const store = await openKeyStore({ ...process.env, KEYS_DB: keysDb, ...env });
  const keys: string[] = [];
  for (let i = 0; i < keyCount; i++) keys.push((await store.create(`bench-${i}`)).key);
  await store.close();
  const child = await spawnListening([join(projectRoot, 'dist/server/main.js')], { KEYS_DB: keysDb, ...env }, dir);
  return {
    ...child,
    keys,
    keysDb,
    async stop() {
      await child.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The reference: node:http answering every request with the same JSON body of `bytes` bytes; env as startService's. */
export async function startBare(bytes: number, env: NodeJS.ProcessEnv = {}): Promise<Child> {
  const dir = mkdtempSync(join(tmpdir(), 'landed-bare-'));
  const child = await spawnListening([join(projectRoot, 'bench/bare-server.mjs')], { ...env, BODY_BYTES: String(bytes) }, dir);
  return {
    ...child,
    async stop() {
      await child.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Resident set size of a process, in bytes (Linux /proc). */
export function rssBytes(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  if (!m) throw new Error(`no VmRSS for ${pid}`);
  return Number(m[1]) * 1024;
}

/** User + system CPU time of a process, in milliseconds (Linux /proc, clock ticks of 10 ms). */
export function cpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // After the command name: state is field 3; utime and stime are fields 14 and 15.
  return (Number(fields[11]) + Number(fields[12])) * 10;
}
