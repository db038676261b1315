/**
 * POST /api/v1/duty/bulk with a 1,000-line mixed order, one order at a time over a kept-alive
 * connection: the server's own time per order (the responseTime of its request line: arrival to the answer handed to the kernel; read from the service's
 * request log), the service's CPU time per order, and the client's round trip, which adds sending
 * and reading the JSON (0.8 MB). Beside it, the floor: a bare node:http server that reads and
 * parses the same order and answers as many bytes, prepared once.
 */
import type { OrderItem } from '../shared/index.js';
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
  const headers = { authorization: `Bearer ${svc.keys[0]}`, 'content-type': 'application/json' };
  const post = async () => {
    const r = await fetch(`${svc.url}/api/v1/duty/bulk`, { method: 'POST', headers, body });
    const text = await r.text();
    if (r.status !== 200) throw new Error(`bulk answered ${r.status}: ${text.slice(0, 300)}`);
    const totals = (JSON.parse(text) as { totals: { errors: number } }).totals;
    if (totals.errors) throw new Error(`the benchmark order has ${totals.errors} bad lines`);
    return Buffer.byteLength(text);
  };
  // The service's log lines reach its file shortly after the answers (pino writes them asynchronously): wait for them before counting.
  const settled = () => new Promise((r) => setTimeout(r, 150));
  for (let i = 0; i < 10; i++) await post();
  await settled();
  const skip = responseTimes(svc.log(), '/api/v1/duty/bulk').length;
  const trips: number[] = [];
  let responseBytes = 0;
  const cpu0 = cpuMs(svc.pid);
  for (let i = 0; i < orders; i++) {
    const t0 = performance.now();
    responseBytes = await post();
    trips.push(performance.now() - t0);
  }
  const serverCpuMs = (cpuMs(svc.pid) - cpu0) / orders;
  await settled();
  const server = responseTimes(svc.log(), '/api/v1/duty/bulk').slice(skip);
  if (server.length !== orders) throw new Error(`expected ${orders} bulk log lines, found ${server.length}: is LOG_LEVEL info?`);
  const serverMs = median(server);
  return {
    bareCpuMs: await bareFloor(body, responseBytes, orders),
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

/** CPU per order of a bare node:http server that reads and parses `body` and answers `bytes` bytes, ms. */
async function bareFloor(body: string, bytes: number, orders: number): Promise<number> {
  const bare = await startBare(bytes, { READ_JSON: '1' });
  try {
    const post = async () => {
      const r = await fetch(bare.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
      await r.arrayBuffer();
    };
    for (let i = 0; i < 10; i++) await post();
    const cpu0 = cpuMs(bare.pid);
    for (let i = 0; i < orders; i++) await post();
    return (cpuMs(bare.pid) - cpu0) / orders;
  } finally {
    await bare.stop();
  }
}
