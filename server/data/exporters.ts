/**
 * The world's leading exporters of an HS chapter, from exports_by_chapter.csv (OEC / CEPII BACI,
 * 2024). Ranked once, on the first query; a query is a map lookup and a slice.
 */
import { invalid, InputError } from '../../shared/errors.js';
import { CHAPTER_TITLES } from './chapters.js';
import { csvColumns, parseCsv, readText, tradePath } from './countries.js';

export interface Exporter {
  rank: number;
  iso3: string;
  country: string;
  value_usd: number;
  share: number;
}

export interface ExportersResult {
  chapter: string;
  chapter_description: string;
  year: number;
  source: string;
  exporters: Exporter[];
}

export const MAX_EXPORTERS = 50;
const SOURCE = 'OEC / CEPII BACI (HS 1992), world exports by exporter and HS chapter';

const COLUMNS = ['chapter', 'year', 'exporter_iso3', 'exporter_name', 'value_usd'];
/** One chapter's exporters, ranked. */
export interface ChapterRanking {
  year: number;
  exporters: Exporter[];
}
export type Ranking = Map<string, ChapterRanking>;

export class ExportersTable {
  /** `chapter`: a chapter's ranking, its first MAX_EXPORTERS exporters at least; undefined for a chapter the data does not have. */
  constructor(private readonly chapter: (chapter: string) => ChapterRanking | undefined) {}

  /** The table of these records, ranked on the first query. */
  static of(rows: readonly Record<string, string>[]): ExportersTable {
    return ExportersTable.rankedOnFirstQuery(() => rank(rows));
  }

  /**
   * The table of a trade file, read and checked now (columns, every row whole: a bad file stops the
   * start) and parsed and ranked from that text on the first query: most starts never rank 13,000
   * rows, and a file removed or changed after the start changes nothing. (A start whose file the
   * prebuilt index was built from reads the index's ranking instead: server/data/tariff-index.ts.)
   */
  static load(path = tradePath()): ExportersTable {
    const text = checked(readText(path), path);
    return ExportersTable.rankedOnFirstQuery(() => rank(parseCsv(text, path)));
  }

  private static rankedOnFirstQuery(make: () => Ranking): ExportersTable {
    let ranking: Ranking | undefined;
    return new ExportersTable((chapter) => (ranking ??= make()).get(chapter));
  }

  /** `hts`: any code of 2 to 10 digits (dots and spaces allowed); its chapter is ranked. */
  top(hts: unknown, limit: unknown): ExportersResult {
    if (typeof hts !== 'string' || !/^\d{2}[\d.\s]*$/.test(hts.trim()) || hts.replace(/[\s.]/g, '').length > 10)
      throw invalid('hts', `hts must be a tariff code or chapter of 2 to 10 digits such as 8471 or 84; got ${JSON.stringify(String(hts).slice(0, 30))}`);
    const n = parseLimit(limit);
    const chapter = hts.trim().slice(0, 2);
    const data = this.chapter(chapter);
    if (!data)
      throw new InputError('not_found', 'hts', `No export data for chapter ${chapter}: ${chapter === '98' || chapter === '99' ? 'chapters 98 and 99 are U.S. national provisions, not traded goods in world statistics' : 'the chapter is not in the trade data'}`);
    return { chapter, chapter_description: CHAPTER_TITLES[chapter] ?? '', year: data.year, source: SOURCE, exporters: data.exporters.slice(0, n) };
  }
}

function parseLimit(limit: unknown): number {
  if (limit === undefined || limit === '') return 10;
  const n = typeof limit === 'string' && /^\d+$/.test(limit.trim()) ? Number(limit) : typeof limit === 'number' ? limit : NaN;
  if (!Number.isInteger(n) || n < 1 || n > MAX_EXPORTERS) throw invalid('limit', `limit must be a whole number from 1 to ${MAX_EXPORTERS}; got ${JSON.stringify(limit)}`);
  return n;
}

function checkColumns(columns: readonly string[], path: string): void {
  if (!COLUMNS.every((c) => columns.includes(c))) throw new Error(`${path}: expected columns ${COLUMNS.join(', ')}`);
}

/** The ranking of a trade file's text (the prebuilt index's), or an error naming the file. */
export function rankingOf(text: string, path: string): Ranking {
  return rank(parseCsv(checked(text, path), path));
}

/** A trade file's text, once its columns and every row are checked. */
function checked(text: string, path: string): string {
  checkColumns(csvColumns(text, path), path);
  return text;
}

/** Each chapter's exporters, by value (then ISO code), with their shares of the chapter's total. */
function rank(rows: readonly Record<string, string>[]): Ranking {
  const byChapter: Ranking = new Map();
  const grouped = new Map<string, { year: number; list: { iso3: string; country: string; value: number }[] }>();
  for (const r of rows) {
    const value = Number(r.value_usd);
    if (!/^\d{2}$/.test(r.chapter) || !Number.isFinite(value) || value <= 0) continue;
    let g = grouped.get(r.chapter);
    if (!g) grouped.set(r.chapter, (g = { year: Number(r.year), list: [] }));
    g.list.push({ iso3: r.exporter_iso3, country: r.exporter_name, value });
  }
  for (const [chapter, g] of grouped) {
    const total = g.list.reduce((s, e) => s + e.value, 0);
    g.list.sort((a, b) => b.value - a.value || a.iso3.localeCompare(b.iso3));
    byChapter.set(chapter, {
      year: g.year,
      exporters: g.list.map((e, i) => ({ rank: i + 1, iso3: e.iso3, country: e.country, value_usd: e.value, share: Math.round((e.value / total) * 1e6) / 1e6 })),
    });
  }
  return byChapter;
}
