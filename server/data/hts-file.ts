/**
 * Finding and reading the schedule file: env HTS_DATA, else data/hts.json.gz in the project (what
 * `npm run data:update` writes), else the snapshot committed with the project (USITC's 2026 Revision 10). Gzipped or
 * plain JSON. The revision comes from a `.meta.json` written beside the file, else its name.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, join, resolve } from 'node:path';
import type { HtsRow } from '../../shared/index.js';
import { dataDir } from './paths.js';

export function htsPath(env: NodeJS.ProcessEnv = process.env): string {
  if (env.HTS_DATA) return resolve(env.HTS_DATA);
  const local = join(dataDir, 'hts.json.gz');
  if (existsSync(local)) return local;
  return join(dataDir, 'hts', 'hts_2026_rev_10.json.gz');
}

/** `hts_2026_rev_10.json.gz` → `2026 Revision 10`; `hts_2026_basic_edition_json.json` → `2026 Basic Edition`. */
export function revisionFromName(file: string): string | null {
  const name = basename(file);
  const rev = /(\d{4})_rev(?:ision)?_(\d+)/i.exec(name);
  if (rev) return `${rev[1]} Revision ${Number(rev[2])}`;
  const basic = /(\d{4})_basic/i.exec(name);
  return basic ? `${basic[1]} Basic Edition` : null;
}

export interface HtsFile {
  path: string;
  revision: string;
  rows: HtsRow[];
}

// zlib is loaded only to parse the file: a start from the prebuilt index never does.
const require = createRequire(import.meta.url);

/** Parses schedule bytes (gzip or plain JSON) and checks they look like USITC's export. */
export function parseHtsBytes(bytes: Buffer, label: string): HtsRow[] {
  let text: string;
  try {
    text = (bytes[0] === 0x1f && bytes[1] === 0x8b ? (require('node:zlib') as typeof import('node:zlib')).gunzipSync(bytes) : bytes).toString('utf8');
  } catch (e) {
    throw new Error(`${label}: not a readable gzip file (${(e as Error).message})`);
  }
  let rows: unknown;
  try {
    rows = JSON.parse(text);
  } catch (e) {
    throw new Error(`${label}: not valid JSON (${(e as Error).message})`);
  }
  if (!Array.isArray(rows) || rows.length < 1000) throw new Error(`${label}: not a USITC HTS export (expected an array of thousands of rows)`);
  const sample = rows.slice(0, 50) as Record<string, unknown>[];
  if (!sample.every((r) => r && typeof r === 'object' && 'htsno' in r && 'general' in r && 'description' in r))
    throw new Error(`${label}: rows lack the USITC fields htsno, description, general`);
  return rows as HtsRow[];
}

export function readHtsFile(path = htsPath()): HtsFile {
  const bytes = readHtsBytes(path);
  return { path, revision: readRevision(path, () => bytes), rows: parseHtsBytes(bytes, path) };
}

export function readHtsBytes(path: string): Buffer {
  try {
    return readFileSync(path);
  } catch (e) {
    throw new Error(`${path}: cannot read the schedule file (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
  }
}

/** The revision named by the meta file, if it describes these very bytes (its sha256), else by the file name. */
export function readRevision(path: string, bytes: () => Buffer): string {
  const meta = path.replace(/\.json(\.gz)?$/, '') + '.meta.json';
  if (existsSync(meta)) {
    try {
      const m = JSON.parse(readFileSync(meta, 'utf8')) as { revision?: string; sha256?: string };
      if (m.revision && (!m.sha256 || m.sha256 === createHash('sha256').update(bytes()).digest('hex'))) return m.revision;
    } catch {
      // A broken meta file falls back to the file name.
    }
  }
  return process.env.HTS_REVISION ?? revisionFromName(path) ?? 'unknown revision';
}
