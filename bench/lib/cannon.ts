/**
 * One autocannon run against a server child, summarised, with the child's CPU use over the run
 * (a server below ~90 % of a core was not the bottleneck: the load generator was).
 */
import autocannon, { type Options } from 'autocannon';
import { cpuMs } from './processes.js';

export interface LoadFigures {
  reqPerSec: number;
  p50Ms: number;
  p99Ms: number;
  requests: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  status: Record<string, number>;
  /** Share of one core the server used during the run. */
  serverCpu: number;
}

export async function load(pid: number, opts: Options): Promise<LoadFigures> {
  const cpu0 = cpuMs(pid);
  const t0 = performance.now();
  const r = await autocannon(opts);
  const cpu = (cpuMs(pid) - cpu0) / (performance.now() - t0);
  return {
    reqPerSec: r.requests.average,
    p50Ms: r.latency.p50,
    p99Ms: r.latency.p99,
    requests: r.requests.total,
    non2xx: r.non2xx,
    errors: r.errors,
    timeouts: r.timeouts,
    status: Object.fromEntries(Object.entries(r.statusCodeStats).map(([k, v]) => [k, Number(v.count)])),
    serverCpu: cpu,
  };
}
