/**
 * GET /api/v1/duty through the real service against a bare node:http server returning a JSON body
 * of the same size: same connections, duration and pipelining, alternating rounds, each server in
 * its own process. The per-key limit is raised with the operator setting RATE_LIMIT, so every
 * request goes through key verification and the limiter without being refused. The service's
 * resident memory is read after each round: it must not grow from round to round.
 */
import { load, type LoadFigures } from './lib/cannon.js';
import { rssBytes, startBare, startService, type Service } from './lib/processes.js';
import { median } from './lib/stats.js';

export interface HttpOptions {
  connections: number;
  /** Seconds per measured round. */
  duration: number;
  rounds: number;
  pipelining: number;
  /** Query string of the measured request. */
  query: string;
  /** Extra environment of the service (LOG_LEVEL, ...). */
  env?: NodeJS.ProcessEnv;
  /** Short pairs of rounds measuring the CPU per request (none: cpuPerRequest is null). */
  cpuPairs?: number;
}

export interface HttpFigures {
  query: string;
  bodyBytes: number;
  connections: number;
  duration: number;
  pipelining: number;
  service: LoadFigures;
  bare: LoadFigures;
  ratio: number;
  /** Medians over the CPU pairs of the server's CPU per request, µs: the service's, the bare server's, and of their ratio (service ÷ bare) pair by pair. */
  cpuPerRequest: { service: number; bare: number; ratio: number; ratios: number[] } | null;
  /** Service RSS after start and after each round, bytes. */
  rss: number[];
}

/** Figures of several rounds merged: request-weighted rate, worst percentiles, summed counts. */
function merge(runs: LoadFigures[]): LoadFigures {
  const sum = (f: (r: LoadFigures) => number) => runs.reduce((s, r) => s + f(r), 0);
  const status: Record<string, number> = {};
  for (const r of runs) for (const [k, v] of Object.entries(r.status)) status[k] = (status[k] ?? 0) + v;
  return {
    reqPerSec: sum((r) => r.reqPerSec) / runs.length,
    p50Ms: Math.max(...runs.map((r) => r.p50Ms)),
    p99Ms: Math.max(...runs.map((r) => r.p99Ms)),
    requests: sum((r) => r.requests),
    non2xx: sum((r) => r.non2xx),
    errors: sum((r) => r.errors),
    timeouts: sum((r) => r.timeouts),
    status,
    serverCpu: sum((r) => r.serverCpu) / runs.length,
  };
}

/** A server's CPU per request over a round, µs. */
const cpuPerRequest = (f: LoadFigures): number => (f.serverCpu * 1e6) / f.reqPerSec;

export async function httpBench(o: HttpOptions, service?: Service): Promise<HttpFigures> {
  const svc = service ?? (await startService({ RATE_LIMIT: '1000000000', ...o.env }));
  const path = `/api/v1/duty?${o.query}`;
  const probe = await fetch(svc.url + path, { headers: { authorization: `Bearer ${svc.keys[0]}` } });
  const body = await probe.arrayBuffer();
  if (probe.status !== 200) throw new Error(`GET ${path} answered ${probe.status}: ${Buffer.from(body).toString()}`);
  const bare = await startBare(body.byteLength);
  const rss = [rssBytes(svc.pid)];
  try {
    const common = { connections: o.connections, pipelining: o.pipelining, duration: o.duration };
    const svcOpts = { ...common, url: svc.url + path, headers: { authorization: `Bearer ${svc.keys[0]}` } };
    const bareOpts = { ...common, url: bare.url + path };
    // Warm-up: JIT and connection pools of both, not measured.
    await load(svc.pid, { ...svcOpts, duration: 3 });
    await load(bare.pid, { ...bareOpts, duration: 3 });
    const s: LoadFigures[] = [];
    const b: LoadFigures[] = [];
    for (let i = 0; i < o.rounds; i++) {
      s.push(await load(svc.pid, svcOpts));
      // Read after a quiet moment, as an operator's monitor would, not mid-collection.
      await new Promise((r) => setTimeout(r, 1500));
      rss.push(rssBytes(svc.pid));
      b.push(await load(bare.pid, bareOpts));
    }
    const sm = merge(s);
    const bm = merge(b);
    const ps: number[] = [];
    const pb: number[] = [];
    for (let i = 0; i < (o.cpuPairs ?? 0); i++) {
      ps.push(cpuPerRequest(await load(svc.pid, { ...svcOpts, duration: 2 })));
      pb.push(cpuPerRequest(await load(bare.pid, { ...bareOpts, duration: 2 })));
    }
    const ratios = ps.map((x, i) => x / pb[i]);
    const cpu = ps.length ? { service: median(ps), bare: median(pb), ratio: median(ratios), ratios } : null;
    return { query: o.query, bodyBytes: body.byteLength, connections: o.connections, duration: o.duration, pipelining: o.pipelining, service: sm, bare: bm, ratio: sm.reqPerSec / bm.reqPerSec, cpuPerRequest: cpu, rss };
  } finally {
    await bare.stop();
    if (!service) await svc.stop();
  }
}
