/**
 * Start-up: from spawning `node dist/server/main.js` to the first successful GET /api/v1/duty with
 * the full schedule loaded, and the resident memory and CPU time at that moment; the reference is
 * the bare node:http server's spawn to first answer. The CPU time is the steadier figure on a
 * shared machine: the wall time waits for whatever else runs.
 */
import { get } from 'node:http';
import { cpuMs, rssBytes, startBare, startService, type Child } from './lib/processes.js';

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

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/**
 * The status of GET url, its body read. With node:http, as the wait for the port: fetch loads its
 * client (undici) on first use, about 30 ms here, which would count against the first start measured.
 */
function answer(url: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    get(url, { headers, agent: false }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode!));
    }).on('error', reject);
  });
}

async function firstAnswer(start: () => Promise<Child & { keys?: string[] }>, path: string, runs: number) {
  const first: number[] = [];
  const listening: number[] = [];
  const rss: number[] = [];
  const cpu: number[] = [];
  for (let i = 0; i < runs; i++) {
    const c = await start();
    try {
      const status = await answer(c.url + path, c.keys ? { authorization: `Bearer ${c.keys[0]}` } : {});
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
