/**
 * The search index of the schedule (shared/search), prebuilt by `npm run build` into
 * dist/data/search-index.json beside the tariff index, and read just after the start (prepareSearch)
 * or when the first search asks for it: a start never waits for it. Its numbers are typed arrays,
 * written as their bytes after two lines of JSON (in this machine's byte order: the build writes the
 * index where it runs), so that reading it is a copy, not a parse of a million numbers. Its first line names the format and the sha256 of the schedule file
 * and the trade terms it was built from; an index of other files or another format, or, run from
 * source, older than the search code, is not used: the index is built from the schedule instead
 * (about a second, on that first search), never an answer from stale words.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Schedule, Tariff } from '../../shared/index.js';
import { ScheduleIndex, type IndexParts } from '../../shared/search/schedule-index.js';
import { tradeTerms, type TradeTerm } from '../../shared/search/trade-terms.js';
import { readFileAsync, statAsync } from '../files.js';
import { readCsv } from './countries.js';
import { htsPath } from './hts-file.js';
import { dataDir, projectRoot } from './paths.js';
import { loadTariffData } from './tariff-index.js';

/** Bump when what the index holds or how a line is indexed changes. */
export const SEARCH_FORMAT = 5;

export const searchIndexPath = join(projectRoot, 'dist', 'data', 'search-index.json');
export const tradeTermsPath = join(dataDir, 'search', 'synonyms.csv');

interface Header {
  format: number;
  hts: string;
  terms: string;
}

const sha256 = (bytes: Buffer): string => createHash('sha256').update(bytes).digest('hex');

export const readTradeTerms = (path = tradeTermsPath): TradeTerm[] => tradeTerms(readCsv(path));

/** What an index of the schedule and trade terms files (their bytes) must say of itself. */
const headerOf = (hts: Buffer, terms: Buffer): Header => ({ format: SEARCH_FORMAT, hts: sha256(hts), terms: sha256(terms) });

/** The typed arrays of an index file, by the name a typed array's constructor has. */
const TYPED = { Uint8Array, Int32Array, Float64Array } as const;
type Typed = InstanceType<(typeof TYPED)[keyof typeof TYPED]>;

/** Writes the search index of `env`'s schedule (atomically): its header, its parts as JSON with each typed array's place among the bytes that follow, the bytes. */
export function writeSearchIndex(env: NodeJS.ProcessEnv = process.env, path = searchIndexPath): void {
  const { schedule } = loadTariffData(env);
  const index = ScheduleIndex.build(schedule.lines(), readTradeTerms());
  const arrays: Buffer[] = [];
  let offset = 0;
  // Each array at a multiple of 8 bytes, and the bytes after the JSON too: read back as views of the file, not copies.
  const aligned = (bytes: Buffer) => Buffer.concat([bytes, Buffer.alloc(-bytes.length & 7)]);
  const parts = JSON.stringify(index.toParts(), (_key, value: unknown) => {
    if (!ArrayBuffer.isView(value)) return value;
    const bytes = aligned(Buffer.from(value.buffer, value.byteOffset, value.byteLength));
    arrays.push(bytes);
    offset += bytes.length;
    return { bytes: [value.constructor.name, offset - bytes.length, value.byteLength] };
  });
  const json = `${JSON.stringify(headerOf(readFileSync(htsPath(env)), readFileSync(tradeTermsPath)))}\n${parts}`;
  mkdirSync(dirname(path), { recursive: true });
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, Buffer.concat([Buffer.from(`${json}${' '.repeat(-(Buffer.byteLength(json) + 1) & 7)}\n`), ...arrays]));
  renameSync(tmp, path);
}

/** How the engine gets the index of `schedule`, when first asked: the prebuilt one if it was built from these files, else built now. */
export function scheduleIndexOf(schedule: Schedule, env: NodeJS.ProcessEnv = process.env, path = searchIndexPath): () => ScheduleIndex {
  return () => readSearchIndex(env, path) ?? ScheduleIndex.build(schedule.lines(), readTradeTerms());
}

/** The index at `path` if it was built from `env`'s schedule and the trade terms as they are now, by this code; else null. */
export function readSearchIndex(env: NodeJS.ProcessEnv = process.env, path = searchIndexPath): ScheduleIndex | null {
  try {
    return searchIndexOf(readFileSync(path), statSync(path).mtimeMs, readFileSync(htsPath(env)), readFileSync(tradeTermsPath));
  } catch {
    return null;
  }
}

/**
 * The same, its files read off the main thread (the server's read just after `ready`): only the index's
 * making, about 30 ms, holds the requests that arrive meanwhile.
 */
async function readSearchIndexAsync(env: NodeJS.ProcessEnv = process.env, path = searchIndexPath): Promise<ScheduleIndex | null> {
  try {
    const [file, st, hts, terms] = await Promise.all([readFileAsync(path), statAsync(path), readFileAsync(htsPath(env)), readFileAsync(tradeTermsPath)]);
    return searchIndexOf(file, st.mtimeMs, hts, terms);
  } catch {
    return null;
  }
}

/** One query of each kind (words, a long description, a code): a search's first runs compile its code, a 50-80 ms hold each. */
const WARM_UP_QUERIES = ['cotton shirts for men', 'parts of machines containing more than 50 percent by weight of steel', '8471'];

/**
 * The search made ready after the start: the index read off the main thread and adopted (`loaded` is
 * called then), then the search's code compiled by WARM_UP_QUERIES, one a turn of the event loop, so
 * that no user's request pays for either.
 */
export async function prepareSearch(tariff: Tariff, loaded: () => void): Promise<void> {
  // A search before it (it reads the index itself) has done all of it.
  if (tariff.searchIndexReady) return;
  const index = await readSearchIndexAsync();
  if (index) tariff.adoptSearchIndex(index);
  else tariff.searchIndexLoaded();
  loaded();
  for (const q of WARM_UP_QUERIES) {
    await nextTurn();
    tariff.search({ q, limit: 10 });
  }
}

/** The index in an index file's bytes, if its header names these schedule and trade terms files (their bytes) and this code; else null. */
function searchIndexOf(file: Buffer, indexTime: number, hts: Buffer, terms: Buffer): ScheduleIndex | null {
  const eol = file.indexOf(10);
  const end = file.indexOf(10, eol + 1);
  if (eol < 0 || end < 0 || searchChanged(indexTime)) return null;
  try {
    const header = JSON.parse(file.toString('latin1', 0, eol)) as Header;
    const now = headerOf(hts, terms);
    if (header.format !== now.format || header.hts !== now.hts || header.terms !== now.terms) return null;
    // Each typed array a view of the file's bytes where they are aligned for it (a file this size has a buffer of its own), else a copy.
    const bytes = file.subarray(end + 1);
    const typed = (value: unknown): unknown => {
      if (Array.isArray(value)) return typeof value[0] === 'string' ? value : value.map(typed);
      if (value === null || typeof value !== 'object') return value;
      const place = (value as { bytes?: [keyof typeof TYPED, number, number] }).bytes;
      if (place) {
        const [type, at, length] = place;
        const Type = TYPED[type];
        const start = bytes.byteOffset + at;
        return (start % Type.BYTES_PER_ELEMENT === 0 ? new Type(bytes.buffer as ArrayBuffer, start, length / Type.BYTES_PER_ELEMENT) : new Type(Uint8Array.prototype.slice.call(bytes, at, at + length).buffer)) as Typed;
      }
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, typed(v)]));
    };
    return ScheduleIndex.fromParts(typed(JSON.parse(file.toString('utf8', eol + 1, end))) as IndexParts);
  } catch {
    return null;
  }
}

/** Run from source (tsx, vitest), the search code may have changed since the build wrote the index. */
function searchChanged(indexTime: number): boolean {
  if (!import.meta.url.endsWith('.ts')) return false;
  const dir = join(projectRoot, 'shared', 'search');
  return readdirSync(dir).some((f) => statSync(join(dir, f)).mtimeMs > indexTime);
}
