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


async function firstAnswer(start: () => Promise<Child & { keys?: string[] }>, path: string, runs: number) {
  const first: number[] = [];
  const listening: number[] = [];
  const rss: number[] = [];
  const cpu: number[] = [];
  for (let i = 0; i < runs; i++) {
    const c = await start();
    try {
      const status = await statusOf(c.url + path, c.keys ? { authorization: `Bearer ${c.keys[0]}` } : {});
      if (status !== 200) throw new Error(`first answer to ${path} was ${status}`);
      first.push(performance.now() - c.spawnedAt);
      listening.push(c.listeningMs);
      rss.push(rssBytes(c.pid));
      cpu.push(cpuMs(c.pid));
    } finally {
      await c.stop();
    }
  }
  return { first, listening, rss, cpu };
}

/** Both servers started with this process's environment and `env` over it (undefined: left out). */
export async function startupBench(runs = 5, env: NodeJS.ProcessEnv = {}, query = 'hts=6109.10.00&value=1000&origin=china'): Promise<StartupFigures> {
  const svc = await firstAnswer(() => startService(env), `/api/v1/duty?${query}`, runs);
  const bare = await firstAnswer(() => startBare(1000, env), '/', runs);
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
