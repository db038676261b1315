/**
 * `npm run bench:search` (and a section of `npm run bench`): how well GET /hts?q= finds the code of
 * a product described in words, on product descriptions with the codes CBP gave them in New York
 * rulings issued before 2023 (bench/search/rulings.csv, each row citing its ruling and where it
 * was read), beside a plain word-matching baseline; and what a search costs.
 *
 * A row counts only if its 6-digit subheading still exists in the schedule in use (codes of old
 * rulings move); the rows dropped are counted. Rows marked `dev` were looked at, failures and all,
 * while the ranking's weights were set by hand; rows marked `test` were collected afterwards and
 * held out: only their totals were ever read. Both are reported.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { loadTariff } from '../server/config.js';
import { parseCsv } from '../server/data/countries.js';
import { projectRoot } from '../server/data/paths.js';
import type { Tariff, TariffLine } from '../shared/index.js';
import { linesUnder } from '../shared/schedule.js';
import { cpuMs, startService } from './lib/processes.js';
import { median, quantile } from './lib/stats.js';

export interface Ruling {
  ruling: string;
  description: string;
  /** Digits of the code CBP gave. */
  digits: string;
  source: string;
  set: 'dev' | 'test';
}

/** Shares of the rows, 0 to 1. */
export interface Quality {
  rows: number;
  headingTop5: number;
  subheadingTop5: number;
  subheadingTop1: number;
}

export interface SearchFigures {
  rows: number;
  dropped: { ruling: string; hts: string }[];
  rulings: number;
  sources: string[];
  landed: Quality;
  baseline: Quality;
  /** The held-out rows (never looked at while the weights were set). */
  landedTest: Quality;
  baselineTest: Quality;
  /** Engine CPU time per search, ms, median and 90th percentile (in this process, three rounds over the rows, after a first search). */
  medianMs: number;
  p90Ms: number;
  /** The built service: its CPU time per GET /hts?q= over every row (ms), and the wall time of its first search, 2 s after its start (the index is read just after the start). */
  serverCpuMs: number;
  firstSearchMs: number;
}

export const rulingsPath = join(projectRoot, 'bench', 'search', 'rulings.csv');

export function readRulings(path = rulingsPath): Ruling[] {
  return parseCsv(readFileSync(path, 'utf8'), path).map((r) => ({ ruling: r.ruling, description: r.description, digits: r.hts.replace(/\D/g, ''), source: r.source, set: r.set as Ruling['set'] }));
}

type Ranker = (description: string) => string[];

function quality(rows: readonly Ruling[], rank: Ranker): Quality {
  let heading = 0;
  let sub5 = 0;
  let sub1 = 0;
  for (const r of rows) {
    const codes = rank(r.description).slice(0, 5);
    if (codes.some((c) => c.startsWith(r.digits.slice(0, 4)))) heading++;
    if (codes.some((c) => c.startsWith(r.digits.slice(0, 6)))) sub5++;
    if (codes[0]?.startsWith(r.digits.slice(0, 6))) sub1++;
  }
  const n = rows.length || 1;
  return { rows: rows.length, headingTop5: heading / n, subheadingTop5: sub5 / n, subheadingTop1: sub1 / n };
}

/** The plain reference: each declared line with the text of every level above it; a line scores the query words it contains, plural endings folded; ties in schedule order. */
export function plainWordMatch(lines: Iterable<TariffLine>): Ranker {
  const plural = (w: string) => (w.length > 4 && w.endsWith('ies') ? `${w.slice(0, -3)}y` : /(ss|sh|ch|x|z)es$/.test(w) ? w.slice(0, -2) : w.length > 3 && /[^su]s$/.test(w) ? w.slice(0, -1) : w);
  const words = (text: string) => new Set(text.toLowerCase().split(/[^a-z0-9]+/).filter((w) => w.length > 1 && !['of', 'and', 'or', 'the', 'for', 'with', 'in', 'to', 'an', 'other'].includes(w)).map(plural));
  const docs = [...lines].filter((l) => (l.digits.length === 10 || (l.digits.length === 8 && l.children.length === 0)) && !/^9[89]/.test(l.digits)).map((l) => ({ digits: l.digits, words: words(l.fullDescription) }));
  return (description) => {
    const query = [...words(description)];
    const scored = docs.map((d, i) => ({ d, i, s: query.filter((w) => d.words.has(w)).length })).filter((x) => x.s > 0);
    scored.sort((a, b) => b.s - a.s || a.i - b.i);
    return scored.slice(0, 5).map((x) => x.d.digits);
  };
}


export async function searchBench(tariff: Tariff = loadTariff()): Promise<SearchFigures> {
  const all = readRulings();
  const schedule = tariff.schedule;
  const kept = all.filter((r) => linesUnder(schedule, r.digits.slice(0, 6)).length > 0);
  const dropped = all.filter((r) => !kept.includes(r)).map((r) => ({ ruling: r.ruling, hts: r.digits }));
  const landed: Ranker = (d) => tariff.search({ q: d, limit: 5 }).results.map((h) => h.hts.replace(/\./g, ''));
  const baseline = plainWordMatch(schedule.lines());
  landed('warm up');
  // CPU time of this process per search (user + system): waiting for a core on a busy machine is not counted.
  const times: number[] = [];
  for (let round = 0; round < 3; round++)
    for (const r of kept) {
      const before = process.cpuUsage();
      landed(r.description);
      const used = process.cpuUsage(before);
      times.push((used.user + used.system) / 1000);
    }
  const test = kept.filter((r) => r.set === 'test');
  const http = await serverSearch(kept.map((r) => r.description));
  return {
    rows: kept.length,
    dropped,
    rulings: new Set(kept.map((r) => r.ruling)).size,
    sources: [...new Set(kept.map((r) => r.source.split(' ')[0]))].sort(),
    landed: quality(kept, landed),
    baseline: quality(kept, baseline),
    landedTest: quality(test, landed),
    baselineTest: quality(test, baseline),
    medianMs: median(times),
    p90Ms: quantile(times, 0.9),
    ...http,
  };
}

/** Every description through the built service, one request at a time: its CPU time per request, and the wall time of the first request, 2 s after the start. */
async function serverSearch(descriptions: string[]): Promise<{ serverCpuMs: number; firstSearchMs: number }> {
  const svc = await startService({ RATE_LIMIT: '1000000000', LOG_LEVEL: 'warn' });
  try {
    const get = async (q: string) => {
      const r = await fetch(`${svc.url}/api/v1/hts?q=${encodeURIComponent(q)}&limit=5`, { headers: { authorization: `Bearer ${svc.keys[0]}` } });
      if (r.status !== 200) throw new Error(`GET /hts?q=${q}: ${r.status} ${await r.text()}`);
      await r.arrayBuffer();
    };
    await new Promise((r) => setTimeout(r, Math.max(0, 2000 - (performance.now() - svc.spawnedAt))));
    const t0 = performance.now();
    await get('first search');
    const firstSearchMs = performance.now() - t0;
    const before = cpuMs(svc.pid);
    for (let round = 0; round < 3; round++) for (const d of descriptions) await get(d);
    return { serverCpuMs: (cpuMs(svc.pid) - before) / (3 * descriptions.length), firstSearchMs };
  } finally {
    await svc.stop();
  }
}

const pct = (x: number) => `${(x * 100).toFixed(1)}%`;

/** The figures as lines of text. */
export function searchReport(f: SearchFigures): string[] {
  const row = (what: string, l: number, b: number, target: string) => `${what.padEnd(26)} ${pct(l).padStart(6)}   baseline ${pct(b).padStart(6)}   ${target}`;
  return [
    `search quality: ${f.rows} product descriptions from ${f.rulings} CBP New York rulings issued before 2023 (bench/search/rulings.csv; ${f.dropped.length} rows dropped: their subheading is not in this schedule); read on ${f.sources.join(', ')}`,
    row('heading in top 5', f.landed.headingTop5, f.baseline.headingTop5, 'target >= 60%'),
    row('6-digit in top 5', f.landed.subheadingTop5, f.baseline.subheadingTop5, 'target >= 40%'),
    row('6-digit top 1', f.landed.subheadingTop1, f.baseline.subheadingTop1, ''),
    `  held-out rows (${f.landedTest.rows}, never looked at while the weights were set): heading top 5 ${pct(f.landedTest.headingTop5)} (baseline ${pct(f.baselineTest.headingTop5)}), 6-digit top 5 ${pct(f.landedTest.subheadingTop5)} (baseline ${pct(f.baselineTest.subheadingTop5)}), 6-digit top 1 ${pct(f.landedTest.subheadingTop1)} (baseline ${pct(f.baselineTest.subheadingTop1)})`,
    `search speed: engine ${f.medianMs.toFixed(2)} ms CPU median, ${f.p90Ms.toFixed(2)} ms p90 per search (target < 5 ms); built service ${f.serverCpuMs.toFixed(2)} ms CPU per GET /hts?q= (mean); first search 2 s after the start ${f.firstSearchMs.toFixed(0)} ms (target < 50 ms)`,
  ];
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const f = await searchBench();
  for (const line of searchReport(f)) console.log(line);
}
