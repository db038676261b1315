/**
 * `npm run data:update`: finds the newest HTS release USITC publishes
 * (`hts_<year>_revision_<n>_json.json`, else `hts_<year>_basic_edition_json.json`), downloads it,
 * checks that it parses and indexes as a schedule, and only then replaces data/hts.json.gz
 * (atomically, with a .meta.json naming the revision) and adds it to the dated schedule as the
 * revision governing from the day of the download (docs/data.md). Any failure keeps the previous files.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { buildSchedule, type HtsRow } from '../../shared/index.js';
import { appendRevision, datedSchedulePath, readDatedSchedule, writeDatedSchedule } from './dated-schedule.js';
import { parseHtsBytes } from './hts-file.js';
import { dataDir } from './paths.js';

/** USITC has published up to about 30 revisions a year; probe well past that. */
const MAX_REVISION = 60;

export const USITC_BASE = 'https://www.usitc.gov/sites/default/files/tata/hts/';

export interface UpdateOptions {
  base?: string;
  out?: string;
  /** The dated schedule to add the revision to; by default data/hts/dated-schedule.json.gz, unless `out` is given (then none unless named). */
  dated?: string | null;
  year?: number;
  log?: (line: string) => void;
}

export interface UpdateResult {
  revision: string;
  url: string;
  rows: number;
  path: string;
  /** The dated schedule the revision was added to, or null (none named, or it holds the revision already). */
  dated: string | null;
}

interface Candidate {
  revision: string;
  url: string;
}

async function exists(url: string): Promise<boolean> {
  try {
    const r = await fetch(url, { method: 'HEAD', signal: AbortSignal.timeout(15_000) });
    return r.ok;
  } catch {
    return false;
  }
}

/** The newest release of `year`: the highest revision published (older ones may be gone), else the basic edition. */
async function newest(base: string, year: number): Promise<Candidate | null> {
  const revisions = Array.from({ length: MAX_REVISION }, (_, i) => i + 1);
  const published = await Promise.all(revisions.map((n) => exists(`${base}hts_${year}_revision_${n}_json.json`)));
  const n = published.lastIndexOf(true) + 1;
  if (n > 0) return { revision: `${year} Revision ${n}`, url: `${base}hts_${year}_revision_${n}_json.json` };
  const basic = `${base}hts_${year}_basic_edition_json.json`;
  return (await exists(basic)) ? { revision: `${year} Basic Edition`, url: basic } : null;
}

export async function updateSchedule(opts: UpdateOptions = {}): Promise<UpdateResult> {
  const base = opts.base ?? process.env.HTS_UPDATE_BASE ?? USITC_BASE;
  const out = opts.out ?? process.env.HTS_UPDATE_OUT ?? join(dataDir, 'hts.json.gz');
  const datedPath = opts.dated !== undefined ? opts.dated : (process.env.HTS_UPDATE_DATED ?? (opts.out ?? process.env.HTS_UPDATE_OUT ? null : datedSchedulePath()));
  const year = opts.year ?? new Date().getUTCFullYear();
  const log = opts.log ?? (() => {});
  const release = (await newest(base, year)) ?? (await newest(base, year - 1));
  if (!release) throw new Error(`no HTS release found at ${base} for ${year} or ${year - 1}`);
  log(`newest release: ${release.revision} (${release.url})`);

  const res = await fetch(release.url, { signal: AbortSignal.timeout(120_000) });
  if (!res.ok) throw new Error(`download failed: ${release.url} answered ${res.status}`);
  const bytes = Buffer.from(await res.arrayBuffer());
  const rows = parseHtsBytes(bytes, release.url);
  const schedule = buildSchedule(rows, release.revision);
  if (![...schedule.lines()].some((l) => l.rates)) throw new Error(`${release.url}: no tariff line with a rate of duty`);

  mkdirSync(dirname(out), { recursive: true });
  const gz = bytes[0] === 0x1f && bytes[1] === 0x8b ? bytes : gzipSync(bytes);
  const tmp = `${out}.download`;
  writeFileSync(tmp, gz);
  renameSync(tmp, out);
  const meta = out.replace(/\.json(\.gz)?$/, '') + '.meta.json';
  const previous = existsSync(meta) ? (JSON.parse(readFileSync(meta, 'utf8')) as { revision?: string }).revision : undefined;
  writeFileSync(meta, JSON.stringify({ revision: release.revision, source: release.url, downloaded_at: new Date().toISOString(), sha256: createHash('sha256').update(gz).digest('hex'), rows: rows.length }, null, 2));
  log(`wrote ${out}: ${rows.length} rows${previous ? ` (was ${previous})` : ''}`);
  const added = datedPath ? addToDated(datedPath, rows, release.revision, log) : false;
  return { revision: release.revision, url: release.url, rows: rows.length, path: out, dated: added ? datedPath : null };
}

/**
 * Adds the release to the dated schedule at `path` unless it holds it already: published and governing from today
 * (USITC's exports carry no date; a revision is in force once published, docs/data.md).
 */
function addToDated(path: string, rows: readonly HtsRow[], revision: string, log: (line: string) => void): boolean {
  const data = readDatedSchedule(path);
  if (data.revisions.some((r) => r.name === revision)) {
    log(`${path} holds ${revision} already`);
    return false;
  }
  const [year, kind, n] = revision.split(' ');
  const today = new Date().toISOString().slice(0, 10);
  appendRevision(data, rows, { id: kind === 'Revision' ? `${year}_rev_${n}` : `${year}_basic`, name: revision, published: today, policy: null, from: today });
  const size = writeDatedSchedule(path, data);
  log(`added ${revision} to ${path}: governs from ${today}; ${data.rows.length} row versions, ${size} bytes`);
  return true;
}
