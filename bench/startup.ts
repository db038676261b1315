/**
 * Start-up: from spawning `node dist/server/main.js` to the first successful GET /api/v1/duty with
 * the full schedule loaded, and the resident memory and CPU time at that moment; the reference is
 * the bare node:http server's spawn to first answer. The CPU time is the steadier figure on a
 * shared machine: the wall time waits for whatever else runs.
 */
import { cpuMs, rssBytes, startBare, startService, statusOf, type Child } from './lib/processes.js';
import { median } from './lib/stats.js';

export interface StartupFigures {
  runs: number;
  /** Medians, ms. */
  firstAnswerMs: number;
  maxFirstAnswerMs: number;
  listeningMs: number;
  rssAfterStart: number;
  /** CPU time (user + system, all threads) of the process up to its first answer, ms. */
  firstAnswerCpuMs: number;
  bareFirstAnswerMs: number;
  bareRss: number;
  bareFirstAnswerCpuMs: number;
}


interface Starts {
  first: number[];
  listening: number[];
  rss: number[];
  cpu: number[];
}

/** One start to its first answer to `path`, added to `into`. */
async function firstAnswer(start: () => Promise<Child & { keys?: string[] }>, path: string, into: Starts): Promise<void> {
  const c = await start();
  try {
    const status = await statusOf(c.url + path, c.keys ? { authorization: `Bearer ${c.keys[0]}` } : {});
    if (status !== 200) throw new Error(`first answer to ${path} was ${status}`);
    into.first.push(performance.now() - c.spawnedAt);
    into.listening.push(c.listeningMs);
    into.rss.push(rssBytes(c.pid));
    into.cpu.push(cpuMs(c.pid));
  } finally {
    await c.stop();
  }
}

/**
 * Both servers started with this process's environment and `env` over it (undefined: left out),
 * alternately, so that a slow spell of the machine falls on both.
 */
export async function startupBench(runs = 5, env: NodeJS.ProcessEnv = {}, query = 'hts=6109.10.00&value=1000&origin=china'): Promise<StartupFigures> {
  const svc: Starts = { first: [], listening: [], rss: [], cpu: [] };
  const bare: Starts = { first: [], listening: [], rss: [], cpu: [] };
  for (let i = 0; i < runs; i++) {
    await firstAnswer(() => startService(env), `/api/v1/duty?${query}`, svc);
    await firstAnswer(() => startBare(1000, env), '/', bare);
  }
  return {
    runs,
    firstAnswerMs: median(svc.first),
    maxFirstAnswerMs: Math.max(...svc.first),
    listeningMs: median(svc.listening),
    rssAfterStart: median(svc.rss),
    firstAnswerCpuMs: median(svc.cpu),
    bareFirstAnswerMs: median(bare.first),
    bareRss: median(bare.rss),
    bareFirstAnswerCpuMs: median(bare.cpu),
  };
}
