/**
 * The search index of the schedule (shared/search), prebuilt by `npm run build` into
 * dist/data/search-index.json beside the tariff index, and read when the first search asks for it:
 * a start never waits for it. Its first line names the format and the sha256 of the schedule file
 * and the trade terms it was built from; an index of other files or another format, or, run from
 * source, older than the search code, is not used: the index is built from the schedule instead
 * (about a second, on that first search), never an answer from stale words.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Schedule } from '../../shared/index.js';
import { ScheduleIndex } from '../../shared/search/schedule-index.js';
import { tradeTerms, type TradeTerm } from '../../shared/search/trade-terms.js';
import { readCsv } from './countries.js';
import { htsPath } from './hts-file.js';
import { dataDir, projectRoot } from './paths.js';
import { loadTariffData } from './tariff-index.js';

/** Bump when what the index holds or how a line is indexed changes. */
export const SEARCH_FORMAT = 4;

export const searchIndexPath = join(projectRoot, 'dist', 'data', 'search-index.json');
export const tradeTermsPath = join(dataDir, 'search', 'synonyms.csv');

interface Header {
  format: number;
  hts: string;
  terms: string;
}

const sha256 = (path: string): string => createHash('sha256').update(readFileSync(path)).digest('hex');

export const readTradeTerms = (path = tradeTermsPath): TradeTerm[] => tradeTerms(readCsv(path));

/** What an index of `env`'s files must say of itself. */
const headerOf = (env: NodeJS.ProcessEnv): Header => ({ format: SEARCH_FORMAT, hts: sha256(htsPath(env)), terms: sha256(tradeTermsPath) });

/** Writes the search index of `env`'s schedule (atomically). */
export function writeSearchIndex(env: NodeJS.ProcessEnv = process.env, path = searchIndexPath): void {
  const { schedule } = loadTariffData(env);
  const index = ScheduleIndex.build(schedule.lines(), readTradeTerms());
  mkdirSync(dirname(path), { recursive: true });
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, `${JSON.stringify(headerOf(env))}\n${JSON.stringify(index)}`);
  renameSync(tmp, path);
}

/** How the engine gets the index of `schedule`, when first asked: the prebuilt one if it was built from these files, else built now. */
export function scheduleIndexOf(schedule: Schedule, env: NodeJS.ProcessEnv = process.env, path = searchIndexPath): () => ScheduleIndex {
  return () => readSearchIndex(env, path) ?? ScheduleIndex.build(schedule.lines(), readTradeTerms());
}

/** The index at `path` if it was built from `env`'s schedule and the trade terms as they are now, by this code; else null. */
export function readSearchIndex(env: NodeJS.ProcessEnv = process.env, path = searchIndexPath): ScheduleIndex | null {
  let text: string;
  try {
    text = readFileSync(path, 'latin1');
  } catch {
    return null;
  }
  const eol = text.indexOf('\n');
  if (eol < 0 || searchChanged(statSync(path).mtimeMs)) return null;
  try {
    const header = JSON.parse(text.slice(0, eol)) as Header;
    const now = headerOf(env);
    if (header.format !== now.format || header.hts !== now.hts || header.terms !== now.terms) return null;
    return ScheduleIndex.fromJSON(text.slice(eol + 1));
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
