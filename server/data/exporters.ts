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
type Ranking = Map<string, { year: number; exporters: Exporter[] }>;

export class ExportersTable {
  private rows: (() => readonly Record<string, string>[]) | null;
  private ranking: Ranking | null = null;

  /** `rows`: the records, or how to read them when first asked (ranked then, once). */
  constructor(rows: readonly Record<string, string>[] | (() => readonly Record<string, string>[])) {
    this.rows = typeof rows === 'function' ? rows : () => rows;
  }

  /**
   * The table of a trade file, read and checked now (columns, every row whole: a bad file stops the
   * start) and parsed and ranked from that text on the first query: most starts never rank 13,000
   * rows, and a file removed or changed after the start changes nothing.
   */
  static load(path = tradePath()): ExportersTable {
    const text = readText(path);
    checkColumns(csvColumns(text, path), path);
    return new ExportersTable(() => parseCsv(text, path));
  }

  private byChapter(): Ranking {
    if (!this.ranking) {
      this.ranking = rank(this.rows!());
      this.rows = null;
    }
    return this.ranking;
  }

  /** `hts`: any code of 2 to 10 digits (dots and spaces allowed); its chapter is ranked. */
  top(hts: unknown, limit: unknown): ExportersResult {
    if (typeof hts !== 'string' || !/^\d{2}[\d.\s]*$/.test(hts.trim()) || hts.replace(/[\s.]/g, '').length > 10)
      throw invalid('hts', `hts must be a tariff code or chapter of 2 to 10 digits such as 8471 or 84; got ${JSON.stringify(String(hts).slice(0, 30))}`);
    const n = parseLimit(limit);
    const chapter = hts.trim().slice(0, 2);
    const data = this.byChapter().get(chapter);
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
