/**
 * Real Redis and PostgreSQL for tests: Debian's redis-server and postgres (installed by
 * scripts/ensure-services.sh), each on a free loopback port with its data in a temporary folder,
 * stopped after. `crash` kills every process of the server at once (SIGKILL), as a crash or an
 * OOM kill would; `start` brings it back on the same port and data; `pause` and `resume`
 * (SIGSTOP, SIGCONT of all its processes) make it a server that accepts connections and never answers.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { chownSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { freePort } from '../../bench/lib/processes.js';

export interface ServerProcess {
  url: string;
  crash(): Promise<void>;
  start(): Promise<void>;
  pause(): void;
  resume(): void;
  stop(): Promise<void>;
}

/** Children still running, ended if the test process exits without stopping them. */
const running = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of running) signalGroup(child, 'SIGKILL');
});

/**
 * A child and every process it forked (postgres forks one per connection, and each makes itself a
 * process group of its own, so the child's group is not enough).
 */
function signalGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  for (const pid of [child.pid!, ...childrenOf(child.pid!)]) {
    try {
      process.kill(pid, signal);
    } catch {
      // Already gone.
    }
  }
}

/** The processes whose parent is `pid` (Linux /proc). */
function childrenOf(pid: number): number[] {
  const out: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      // After the command name: state, then the parent's pid.
      if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === pid) out.push(Number(entry));
    } catch {
      // Ended meanwhile.
    }
  }
  return out;
}

/** A server process we can crash, restart, pause and stop; `ready` says when it answers. */
function managed(url: string, launch: () => ChildProcess, ready: () => Promise<boolean>, dir: string): ServerProcess {
  let child: ChildProcess | null = null;
  let output = '';
  const exited = (c: ChildProcess) => (c.exitCode !== null || c.signalCode !== null ? Promise.resolve() : new Promise<void>((r) => c.once('exit', () => r())));
  const end = async (signal: NodeJS.Signals) => {
    if (!child) return;
    const c = child;
    child = null;
    signalGroup(c, signal);
    await exited(c);
    running.delete(c);
  };
  return {
    url,
    async start() {
      const c = launch();
      child = c;
      running.add(c);
      c.stdout?.on('data', (d) => (output += d));
      c.stderr?.on('data', (d) => (output += d));
      const t0 = Date.now();
      while (!(await ready())) {
        if (c.exitCode !== null) throw new Error(`${url} exited with ${c.exitCode}: ${output}`);
        if (Date.now() - t0 > 30_000) throw new Error(`${url} did not start: ${output}`);
        await new Promise((r) => setTimeout(r, 50));
      }
    },
    crash: () => end('SIGKILL'),
    pause: () => child && signalGroup(child, 'SIGSTOP'),
    resume: () => child && signalGroup(child, 'SIGCONT'),
    // Throwaway data: nothing to shut down cleanly, and a clean PostgreSQL shutdown would wait for
    // every client to leave.
    async stop() {
      await end('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** One PING over a fresh connection: whether Redis answers PONG within a second. */
function redisAnswers(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(1000, () => done(false));
    socket.on('error', () => done(false));
    socket.on('connect', () => socket.write('PING\r\n'));
    socket.on('data', (d) => done(d.toString().startsWith('+PONG')));
  });
}

/**
 * redis-server with an append-only file synced at every write: a crashed Redis comes back with
 * every request it counted, so a restart does not hand a key a fresh minute (README, Several
 * instances).
 */
export async function startRedis(): Promise<ServerProcess> {
  const dir = mkdtempSync(join(tmpdir(), 'landed-redis-'));
  const port = await freePort();
  const args = ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--save', '', '--appendonly', 'yes', '--appendfsync', 'always'];
  const server = managed(`redis://127.0.0.1:${port}`, () => spawn('redis-server', args, { detached: true, stdio: ['ignore', 'pipe', 'pipe'] }), () => redisAnswers(port), dir);
  await server.start();
  return server;
}

/** The newest PostgreSQL server binaries Debian installed. */
function postgresBin(): string {
  const versions = readdirSync('/usr/lib/postgresql').sort((a, b) => Number(b) - Number(a));
  if (!versions.length) throw new Error('PostgreSQL is not installed: bash scripts/ensure-services.sh');
  return join('/usr/lib/postgresql', versions[0], 'bin');
}

/** PostgreSQL refuses to run as root: as root, run it as the postgres user Debian's package made. */
function postgresUser(): { uid?: number; gid?: number } {
  if (process.getuid?.() !== 0) return {};
  return { uid: Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' })), gid: Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' })) };
}

export interface Postgres extends ServerProcess {
  /** The URL of a new, empty database on this server. */
  freshDatabase(): Promise<string>;
}

/** A throwaway cluster: trust authentication on the loopback, no fsync (a crash of the process, not of the machine, loses nothing). */
export async function startPostgres(): Promise<Postgres> {
  const dir = mkdtempSync(join(tmpdir(), 'landed-pg-'));
  const user = postgresUser();
  if (user.uid !== undefined) chownSync(dir, user.uid, user.gid!);
  const data = join(dir, 'data');
  const bin = postgresBin();
  // Run in its own folder: the postgres user may not be allowed into the test's working directory.
  execFileSync(join(bin, 'initdb'), ['-D', data, '-U', 'landed', '--auth=trust', '-E', 'UTF8', '--no-sync'], { ...user, cwd: dir, stdio: 'pipe' });
  const port = await freePort();
  const url = `postgres://landed@127.0.0.1:${port}/postgres`;
  const args = ['-D', data, '-p', String(port), '-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories=', '-c', 'fsync=off', '-c', 'full_page_writes=off'];
  const ready = async () => {
    const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 1000 });
    client.on('error', () => {});
    try {
      await client.connect();
      await client.query('SELECT 1');
      return true;
    } catch {
      return false;
    } finally {
      await client.end().catch(() => {});
    }
  };
  const server = managed(url, () => spawn(join(bin, 'postgres'), args, { ...user, cwd: dir, detached: true, stdio: ['ignore', 'pipe', 'pipe'] }), ready, dir);
  await server.start();
  let databases = 0;
  return {
    ...server,
    async freshDatabase() {
      const name = `landed_${++databases}`;
      const client = new pg.Client(url);
      await client.connect();
      await client.query(`CREATE DATABASE ${name}`);
      await client.end();
      return url.replace(/\/postgres$/, `/${name}`);
    },
  };
}
