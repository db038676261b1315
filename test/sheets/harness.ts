/**
 * A test's add-on: the real API server in a child process (startServerProcess: the add-on's
 * synchronous fetches block this process), Code.js built for that server's origin into a temporary
 * folder, loaded into the Apps Script stand-ins, with the server's key saved as the sidebar saves it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import build from '../../sheets-addon/build.mjs';
import { startServerProcess } from '../helpers/server.js';
import { AddonWorld } from './gas.js';

export const root = fileURLToPath(new URL('../..', import.meta.url));

/** Builds dist/sheets into a fresh temporary folder. */
export async function buildInto(apiOrigin: string): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'landed-sheets-'));
  await build(root, { outDir: dir, apiOrigin });
  return dir;
}

export type Server = Awaited<ReturnType<typeof startServerProcess>>;

export interface Addon {
  server: Server;
  world: AddonWorld;
  /** A fresh stand-in world (empty caches, properties and sheets) over the same build and server, key saved. */
  fresh(): AddonWorld;
  close(): Promise<void>;
}

/** `start` runs the server (startServerProcess with `env` unless another is given: a small rate limit). */
export async function startAddon(env: NodeJS.ProcessEnv = {}, start: () => Promise<Server> = () => startServerProcess(env)): Promise<Addon> {
  const server = await start();
  const dir = await buildInto(server.url);
  const fresh = () => {
    const world = new AddonWorld(dir);
    world.call('saveSettings', { apiUrl: server.url, apiKey: server.key });
    return world;
  };
  return {
    server,
    world: fresh(),
    fresh,
    async close() {
      await server.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * The requests the server itself logged for a path (one line as each completes), their statuses in
 * order. A barrier request completes after every request before it, so once its line is in, the
 * list is complete.
 */
export async function serverStatuses(server: Server, path: string): Promise<number[]> {
  const barrier = `/healthz?barrier=${Math.random().toString(36).slice(2)}`;
  await fetch(`${server.url}${barrier}`);
  const done = () =>
    server.logs.flatMap((line) => {
      try {
        const entry = JSON.parse(line) as { msg?: string; url?: string; statusCode?: number };
        return entry.msg === 'request completed' && entry.url ? [{ url: entry.url, status: entry.statusCode! }] : [];
      } catch {
        return [];
      }
    });
  const arrived = () => done().some((r) => r.url === barrier);
  for (let i = 0; i < 200 && !arrived(); i++) await new Promise((r) => setTimeout(r, 25));
  if (!arrived()) throw new Error('the server never logged the barrier request');
  return done().flatMap((r) => (r.url.split('?')[0] === path ? [r.status] : []));
}

/** How many requests the server itself logged for a path (serverStatuses). */
export async function serverRequests(server: Server, path: string): Promise<number> {
  return (await serverStatuses(server, path)).length;
}
