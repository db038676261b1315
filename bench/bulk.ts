/**
 * POST /api/v1/duty/bulk with a 1,000-line mixed order, one order at a time over a kept-alive
 * connection: the server's own time per order (the responseTime of its request line: arrival to the answer handed to the kernel; read from the service's
 * request log), the service's CPU time per order, and the client's round trip, which adds sending
 * and reading the JSON (0.8 MB). Beside it, the floor: a bare node:http server that reads and
 * parses the same order and answers as many bytes, prepared once; and for comparison the same
 * server answering the service's own answer (parsed once at its start) written anew by one
 * JSON.stringify each time, the plainest way to answer in JSON.
 */
import type { OrderItem } from '../shared/index.js';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cpuMs, startBare, type Service } from './lib/processes.js';
import { median, quantile } from './lib/stats.js';

export interface BulkFigures {
  lines: number;
  orders: number;
  /** Median server time per order, ms. */
  serverMs: number;
  serverP90Ms: number;
  /** The service process's CPU time per order (all its threads), ms: unlike serverMs, not stretched by other processes. */
  serverCpuMs: number;
  /** The same of the bare node:http server reading and parsing the order and answering as many bytes, ms. */
  bareCpuMs: number;
  /** The same bare server answering the service's answer written anew by one JSON.stringify, ms. */
  bareStringifyCpuMs: number;
  /** Median client round trip per order, ms. */
  roundTripMs: number;
  linesPerSec: number;
  requestBytes: number;
  responseBytes: number;
}

/** The server's own time (`responseTime`, ms) of each completed request to `url`, from its JSON request log. */
export function responseTimes(log: string, url: string): number[] {
  const times: number[] = [];
  for (const line of log.split('\n')) {
    if (!line.startsWith('{')) continue;
    const e = JSON.parse(line) as { url?: string; responseTime?: number; msg?: string };
    if (e.msg === 'request completed' && e.url?.startsWith(url)) times.push(e.responseTime!);
  }
  return times;
}

export async function bulkBench(svc: Service, items: OrderItem[], orders = 40): Promise<BulkFigures> {
  const body = JSON.stringify({ items, ocean: true });
  const post = async () => {
    const text = await postText(`${svc.url}/api/v1/duty/bulk`, body, { authorization: `Bearer ${svc.keys[0]}` });
    const totals = (JSON.parse(text) as { totals: { errors: number } }).totals;
    if (totals.errors) throw new Error(`the benchmark order has ${totals.errors} bad lines`);
    return text;
  };
  // The service's log lines reach its file up to 50 ms after the answers (server/log.ts): counted once it has settled.
  let skip = 0;
  const { cpuMs: serverCpuMs, trips, last } = await cpuPerOrder(svc.pid, post, orders, async () => {
    skip = responseTimes(await svc.settledLog(), '/api/v1/duty/bulk').length;
  });
  const server = responseTimes(await svc.settledLog(), '/api/v1/duty/bulk').slice(skip);
  if (server.length !== orders) throw new Error(`expected ${orders} bulk log lines, found ${server.length}: is LOG_LEVEL info?`);
  const serverMs = median(server);
  const responseBytes = Buffer.byteLength(last);
  return {
    bareCpuMs: await bareFloor(body, orders, responseBytes),
    bareStringifyCpuMs: await withFile(last, (file) => bareFloor(body, orders, responseBytes, { ANSWER_FILE: file })),
    lines: items.length,
    orders,
    serverMs,
    serverP90Ms: quantile(server, 0.9),
    serverCpuMs,
    roundTripMs: median(trips),
    linesPerSec: (items.length * 1000) / serverMs,
    requestBytes: body.length,
    responseBytes,
  };
}

/**
 * POSTs a JSON body and reads the answer as text; anything but 200 is an error. Uncompressed
 * (`Accept-Encoding: identity`), as the references answer: fetch asks for gzip by default, and the
 * service's gzip of the answer (about 9 ms of CPU, reported apart) then counted against its figure
 * alone, as until the twenty-first session.
 */
async function postText(url: string, body: string, headers: Record<string, string> = {}): Promise<string> {
  const r = await fetch(url, { method: 'POST', headers: { ...headers, 'content-type': 'application/json', 'accept-encoding': 'identity' }, body });
  const text = await r.text();
  if (r.status !== 200) throw new Error(`${url} answered ${r.status}: ${text.slice(0, 300)}`);
  return text;
}

/**
 * Ten posts to warm up, then `orders` posts one at a time: the CPU per post of process `pid`, ms,
 * each round trip, and the last answer. `afterWarmUp` runs between the two.
 */
async function cpuPerOrder(pid: number, post: () => Promise<string>, orders: number, afterWarmUp = async () => {}) {
  for (let i = 0; i < 10; i++) await post();
  await afterWarmUp();
  const trips: number[] = [];
  let last = '';
  const cpu0 = cpuMs(pid);
  for (let i = 0; i < orders; i++) {
    const t0 = performance.now();
    last = await post();
    trips.push(performance.now() - t0);
  }
  return { cpuMs: (cpuMs(pid) - cpu0) / orders, trips, last };
}

/** CPU per order of a bare node:http server that reads and parses `body` and answers `bytes` bytes, or as `env` says (bench/bare-server.mjs), ms. */
async function bareFloor(body: string, orders: number, bytes: number, env: Record<string, string> = {}): Promise<number> {
  const bare = await startBare(bytes, { READ_JSON: '1', ...env });
  try {
    return (await cpuPerOrder(bare.pid, () => postText(bare.url, body), orders)).cpuMs;
  } finally {
    await bare.stop();
  }
}

/** Runs `f` with `text` in a temporary file, removed afterwards. */
async function withFile<T>(text: string, f: (file: string) => Promise<T>): Promise<T> {
  const dir = mkdtempSync(join(tmpdir(), 'landed-answer-'));
  const file = join(dir, 'answer.json');
  writeFileSync(file, text);
  try {
    return await f(file);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
