/**
 * Load with many keys: `connections` kept-alive connections for a fixed time, each request with the
 * next key in turn, every answer recorded with the key it used. The report says what a client
 * would see go wrong: 5xx, connection errors (resets), and any window of any key in which the
 * limiter let more requests through than its limit, answered 429 before the limit was reached,
 * or gave an X-RateLimit-Remaining other than the exact count left.
 *
 *   tsx bench/load.ts [--connections 200] [--duration 30] [--keys 100] [--limit 120]
 *
 * runs against a fresh built service (npm run build first) and exits 1 on any violation. The
 * robustness suite runs the same function with a few seconds' duration.
 */
import { Agent, request } from 'node:http';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { cpuMs, rssBytes, startService } from './lib/processes.js';

export interface LoadOptions {
  url: string;
  keys: readonly string[];
  connections: number;
  durationMs: number;
  /** The per-key limit the service was started with (requests per minute). */
  limit: number;
  paths?: readonly string[];
}

export interface LoadReport {
  requests: number;
  status: Record<string, number>;
  /** Connection errors (resets, refused, timeouts): each a failed request. */
  errors: Record<string, number>;
  /** Per key and limit window: the 200s and the 429s. */
  windows: number;
  /** Descriptions of every way the limiter broke its contract; empty when none did. */
  violations: string[];
  reqPerSec: number;
}

export interface Answer {
  key: number;
  status: number;
  limit: number;
  remaining: number;
  /** The end of the answer's limit window as the client estimates it (its arrival + X-RateLimit-Reset), ms since the epoch. */
  window: number;
}

/**
 * How far apart two estimates of one window's end may be: Reset is rounded up to whole seconds and
 * the answer's arrival lags the server's decision under load. A key's next window ends at least a
 * minute later, so estimates this close are the same window (rounding them to minutes instead would
 * split a window whose end falls near a minute's turn).
 */
const WINDOW_SLACK_MS = 5_000;

const DEFAULT_PATHS = ['/api/v1/duty?hts=6109.10.00&value=1000&origin=china', '/api/v1/duty?hts=8471.30.01&value=250.5&origin=KR', '/api/v1/hts/6109.10.00', '/api/v1/exporters?hts=84&limit=5'];

export async function runLoad(o: LoadOptions): Promise<LoadReport> {
  const agent = new Agent({ keepAlive: true, maxSockets: o.connections });
  const target = new URL(o.url);
  const paths = o.paths ?? DEFAULT_PATHS;
  const answers: Answer[] = [];
  const status: Record<string, number> = {};
  const errors: Record<string, number> = {};
  let next = 0;
  const deadline = Date.now() + o.durationMs;

  const once = (key: number, path: string) =>
    new Promise<void>((resolve) => {
      const req = request({ agent, host: target.hostname, port: target.port, path, headers: { authorization: `Bearer ${o.keys[key]}` } }, (res) => {
        res.resume();
        res.on('end', () => {
          const t = Date.now();
          status[res.statusCode!] = (status[res.statusCode!] ?? 0) + 1;
          const reset = Number(res.headers['x-ratelimit-reset']);
          answers.push({
            key,
            status: res.statusCode!,
            limit: Number(res.headers['x-ratelimit-limit']),
            remaining: Number(res.headers['x-ratelimit-remaining']),
            window: t + reset * 1000,
          });
          resolve();
        });
        res.on('error', (e: NodeJS.ErrnoException) => {
          errors[e.code ?? e.message] = (errors[e.code ?? e.message] ?? 0) + 1;
          resolve();
        });
      });
      req.on('error', (e: NodeJS.ErrnoException) => {
        errors[e.code ?? e.message] = (errors[e.code ?? e.message] ?? 0) + 1;
        resolve();
      });
      req.end();
    });

  const t0 = Date.now();
  await Promise.all(
    Array.from({ length: o.connections }, async () => {
      while (Date.now() < deadline) {
        const n = next++;
        await once(n % o.keys.length, paths[n % paths.length]);
      }
    }),
  );
  const elapsed = Date.now() - t0;
  agent.destroy();
  const violations = checkLimits(answers, o.limit);
  const windows = limitWindows(answers).size;
  return { requests: answers.length, status, errors, windows, violations, reqPerSec: (answers.length * 1000) / elapsed };
}

/** Every (key, window): the 200s carry remaining limit-1 … limit-n once each, n ≤ limit; 429 only once n = limit. */
export function checkLimits(answers: readonly Answer[], limit: number): string[] {
  const violations: string[] = [];
  for (const a of answers) {
    if (a.status >= 500) violations.push(`key ${a.key}: status ${a.status}`);
    if (a.status === 200 || a.status === 429) if (a.limit !== limit) violations.push(`key ${a.key}: X-RateLimit-Limit ${a.limit}, expected ${limit}`);
  }
  for (const [id, list] of limitWindows(answers)) {
    const ok = list.filter((a) => a.status === 200);
    const seen = ok.map((a) => a.remaining).sort((x, y) => y - x);
    const expected = ok.map((_, i) => limit - 1 - i);
    if (ok.length > limit) violations.push(`${id}: ${ok.length} requests allowed, limit ${limit}`);
    if (seen.join() !== expected.join()) violations.push(`${id}: remaining ${seen.slice(0, 10).join(',')}… is not ${limit - 1} down to ${limit - ok.length}, once each`);
    const refused = list.filter((a) => a.status === 429);
    if (refused.length && ok.length !== limit) violations.push(`${id}: ${refused.length} × 429 after only ${ok.length} of ${limit} requests`);
    if (refused.some((a) => a.remaining !== 0)) violations.push(`${id}: a 429 with X-RateLimit-Remaining ≠ 0`);
  }
  return violations;
}

/** The 200s and 429s grouped by key and limit window ("key/first estimate of the window's end"). */
export function limitWindows(answers: readonly Answer[]): Map<string, Answer[]> {
  const limited = answers.filter((a) => a.status === 200 || a.status === 429).sort((x, y) => x.key - y.key || x.window - y.window);
  const groups = new Map<string, Answer[]>();
  let current: Answer[] = [];
  for (const a of limited) {
    const first = current[0];
    if (!first || first.key !== a.key || a.window - first.window > WINDOW_SLACK_MS) groups.set(`${a.key}/${a.window}`, (current = []));
    current.push(a);
  }
  return groups;
}

async function main() {
  const { values } = parseArgs({
    options: {
      connections: { type: 'string', default: '200' },
      duration: { type: 'string', default: '30' },
      keys: { type: 'string', default: '100' },
      limit: { type: 'string', default: '120' },
    },
  });
  const limit = Number(values.limit);
  const svc = await startService({ RATE_LIMIT: String(limit), LOG_LEVEL: 'warn' }, Number(values.keys));
  try {
    const rss0 = rssBytes(svc.pid);
    const cpu0 = cpuMs(svc.pid);
    const report = await runLoad({ url: svc.url, keys: svc.keys, connections: Number(values.connections), durationMs: Number(values.duration) * 1000, limit });
    const rss1 = rssBytes(svc.pid);
    const serverCpu = (cpuMs(svc.pid) - cpu0) / (Number(values.duration) * 1000);
    console.log(JSON.stringify({ ...report, violations: report.violations.slice(0, 20), serverCpu, clientCpu: process.cpuUsage().user / 1e6, rssMBBefore: Math.round(rss0 / 2 ** 20), rssMBAfter: Math.round(rss1 / 2 ** 20) }, null, 2));
    const bad = report.violations.length + Object.values(report.errors).reduce((s, n) => s + n, 0);
    if (bad) process.exitCode = 1;
  } finally {
    await svc.stop();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) await main();
