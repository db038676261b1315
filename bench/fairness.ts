/**
 * Fair use (issue 40): one key sends the costliest searches the service takes, POST /hts/batch of
 * fifty queries of the schedule's most frequent words, as fast as its limit lets it (four at a
 * time, waiting out Retry-After when refused, whether a batch counts as one request or as its
 * queries), while other keys ask GET /duty, each within its own limit. The figure is those other
 * keys' latency; the reference is the same traffic on the bare node:http server.
 */
import { cpuMs, startBare, startService, type Child } from './lib/processes.js';
import { median, quantile } from './lib/stats.js';

/** The schedule's most frequent words (each in over 1,000 of its texts), each query another order: 50 × 38 characters, under the batch's 2,000. */
const WORDS = ['contain', 'parts', 'more', 'percent', 'weight', 'note'];
const BATCH = JSON.stringify({ queries: Array.from({ length: 50 }, (_, i) => [...WORDS.slice(i % 6), ...WORDS.slice(0, i % 6)].join(' ')), limit: 10 });
const DUTY = '/api/v1/duty?hts=6109.10.00&value=1000&origin=china';
/** Keys asking GET /duty, each every 600 ms: 100 a minute, under the limit of 120. */
const OTHER_KEYS = 20;
const EVERY_MS = 600;
const ATTACKERS = 4;

export interface Latency {
  requests: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  /** Answers other than 200. */
  failed: number;
}

export interface FairnessFigures {
  seconds: number;
  service: Latency;
  bare: Latency;
  /** The key sending batches: answered, refused (429), and the service's CPU over the run, ms per second. */
  batches: { answered: number; refused: number };
  serviceCpuMsPerSecond: number;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** `batches`: how many the key sending them may send at most (the bare server refuses none: it gets as many as the service answered). */
async function round(server: Child, keys: string[], seconds: number, batches = Infinity): Promise<{ latency: Latency; answered: number; refused: number }> {
  const end = performance.now() + seconds * 1000;
  const [attacker, ...others] = keys.length > 1 ? keys : [keys[0], ...Array<string>(OTHER_KEYS).fill(keys[0])];
  let answered = 0;
  let refused = 0;
  const attack = async () => {
    while (performance.now() < end && answered + refused < batches) {
      const res = await fetch(`${server.url}/api/v1/hts/batch`, { method: 'POST', headers: { authorization: `Bearer ${attacker}`, 'content-type': 'application/json' }, body: BATCH });
      await res.arrayBuffer();
      if (res.status === 200) answered++;
      else if (res.status === 429) {
        refused++;
        await sleep(Math.max(0, Math.min(end - performance.now(), Number(res.headers.get('retry-after') ?? 1) * 1000)));
      } else throw new Error(`POST /hts/batch answered ${res.status}`);
    }
  };
  const times: number[] = [];
  let failed = 0;
  const ask = async (key: string, offset: number) => {
    await sleep(offset);
    while (performance.now() < end) {
      const t0 = performance.now();
      const res = await fetch(server.url + DUTY, { headers: { authorization: `Bearer ${key}` } });
      await res.arrayBuffer();
      times.push(performance.now() - t0);
      if (res.status !== 200) failed++;
      await sleep(Math.max(0, EVERY_MS - (performance.now() - t0)));
    }
  };
  await Promise.all([...Array.from({ length: ATTACKERS }, attack), ...others.map((k, i) => ask(k, (i * EVERY_MS) / others.length))]);
  return { latency: { requests: times.length, p50Ms: median(times), p99Ms: quantile(times, 0.99), maxMs: Math.max(...times), failed }, answered, refused };
}

export async function fairnessBench(seconds = 20): Promise<FairnessFigures> {
  const svc = await startService({ LOG_LEVEL: 'warn' }, 1 + OTHER_KEYS);
  let service;
  let cpu;
  let bytes;
  try {
    // The run measures a service past its start (module loading, the index read just after it, the first
    // compilations: 100-160 ms blocks within its first 600 ms), as the first-search figure does at 2 s;
    // then searched once, so that the run measures searches, not the load.
    await sleep(2000);
    await (await fetch(`${svc.url}/api/v1/hts?q=warm`, { headers: { authorization: `Bearer ${svc.keys[0]}` } })).arrayBuffer();
    bytes = (await (await fetch(svc.url + DUTY, { headers: { authorization: `Bearer ${svc.keys[1]}` } })).arrayBuffer()).byteLength;
    const before = cpuMs(svc.pid);
    service = await round(svc, svc.keys, seconds);
    cpu = (cpuMs(svc.pid) - before) / seconds;
  } finally {
    await svc.stop();
  }
  const bare = await startBare(bytes, { READ_JSON: '1' });
  try {
    const reference = await round(bare, ['bare'], seconds, service.answered);
    return { seconds, service: service.latency, bare: reference.latency, batches: { answered: service.answered, refused: service.refused }, serviceCpuMsPerSecond: cpu };
  } finally {
    await bare.stop();
  }
}
