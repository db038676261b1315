/**
 * The prebuilt index (dist/data/tariff-index.json, written by `npm run build`): the schedule as
 * built (shared/schedule-data.ts) and the chapter 99 tables as records, so that a start neither
 * parses nor indexes them again. Its first line names the format, the files it was built from
 * (paths, sizes, sha256 of the very bytes parsed, and each file's identity: device, inode, size,
 * modification and change times) and where each part lies after that line: the shared part is
 * read at start, a chapter of the schedule, its chapter 99 headings or a chapter 99 table when
 * first asked for, through the file opened at start (so a rebuild meanwhile changes nothing). A start
 * whose files still have that identity uses the index; otherwise (a copy, a checkout) it hashes
 * them, and uses the index only if they hold the same bytes. A change of a file's bytes changes its
 * change time, which no program can put back (a modification time can be): a start on files that
 * are not those bytes, or whose code reads another format, builds from the files instead and says
 * why: never an answer from stale data.
 */
import { createHash } from 'node:crypto';
import { closeSync, fstatSync, type BigIntStats, mkdirSync, openSync, readdirSync, readSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { buildSchedule, type Chapter99Heading, type Chapter99Tables, type Schedule, type TableName } from '../../shared/index.js';
import { LIST_CODE_COLUMNS, listCode, type Table } from '../../shared/measures/measure.js';
import { scheduleData, scheduleFromData, type ChapterData, type SharedData } from '../../shared/schedule-data.js';
import { ch99Files, ch99Path } from './ch99.js';
import { parseCsv, readBytes, tradePath } from './countries.js';
import { ExportersTable, MAX_EXPORTERS, rankingOf, type ChapterRanking, type Ranking } from './exporters.js';
import { htsPath, parseHtsBytes, readHtsBytes, readRevision } from './hts-file.js';
import { projectRoot } from './paths.js';

/** Bump when what the index holds changes, or how the engine builds what it holds (the schedule's lines, rates, tables). */
export const INDEX_FORMAT = 12;

export const indexPath = join(projectRoot, 'dist', 'data', 'tariff-index.json');

/** [start, end) of a part, in bytes after the header line. */
type Range = [number, number];

interface Header {
  format: number;
  /** The schedule, then the chapter 99 tables; paths relative to the project. */
  sources: Source[];
  /** Bytes after the header line: a file cut short is not read. */
  length: number;
  shared: Range;
  headings: Range;
  chapter99: Record<string, Range>;
  /** Per table, the codes of each of its LIST_CODE_COLUMNS: a part of its own, read when a product list first asks. */
  codes: Record<string, Range>;
  chapters: Record<string, Range>;
  /**
   * The trade file's ranking of exporters, each chapter's first MAX_EXPORTERS a part read when first
   * asked for; used while the trade file is the one it was built from, whatever the other files. Null
   * when the build could not read the file (the start then reads it, and says what is wrong).
   */
  trade: { source: Source; chapters: Record<string, Range> } | null;
}

interface Source {
  path: string;
  size: number;
  sha256: string;
  /** identityOf the file, or null if it changed while the build read it. */
  identity: string | null;
}

/**
 * A table's distinct cells once, and its rows as positions in that list: the tables repeat most
 * cells (dates, programs, headings), and parsing 0.7 MB of numbers is about half the work of
 * parsing 1.7 MB of strings. Each table is a part of its own, read when first used.
 */
interface CodedTable {
  columns: string[];
  cells: string[];
  rows: number[][];
}

/** The data files of `env`: the schedule and each chapter 99 table (the index's sources), and the trade data. */
interface DataPaths {
  hts: string;
  ch99: [TableName, string][];
  trade: string;
}

export interface TariffData {
  schedule: Schedule;
  chapter99: Chapter99Tables;
  /** Why the data was built from the files, not read from the index; null when it was read from the index. */
  rebuilt: string | null;
}

function dataPaths(env: NodeJS.ProcessEnv): DataPaths {
  return { hts: htsPath(env), ch99: ch99Files(ch99Path(env)), trade: tradePath(env) };
}

/** The files in the order the index lists them. */
const filesOf = (paths: DataPaths): string[] => [paths.hts, ...paths.ch99.map(([, path]) => path)];

/** A data file's bytes, read once (what is parsed is what is hashed), and its identity while read. */
interface DataFile {
  path: string;
  bytes: Buffer;
  identity: string | null;
}

interface DataBytes {
  hts: DataFile;
  ch99: [TableName, DataFile][];
}

const identityOf = (s: BigIntStats): string => `${s.dev}:${s.ino}:${s.size}:${s.mtimeNs}:${s.ctimeNs}`;

function identity(path: string): string | null {
  try {
    return identityOf(statSync(path, { bigint: true }));
  } catch {
    return null;
  }
}

function readDataFile(path: string, read: (path: string) => Buffer): DataFile {
  const before = identity(path);
  const bytes = read(path);
  return { path, bytes, identity: before !== null && before === identity(path) ? before : null };
}

const readData = (paths: DataPaths): DataBytes => ({ hts: readDataFile(paths.hts, readHtsBytes), ch99: paths.ch99.map(([table, path]) => [table, readDataFile(path, readBytes)]) });

const sourceOf = (f: DataFile): Source => ({ path: relative(projectRoot, f.path), size: f.bytes.length, sha256: createHash('sha256').update(f.bytes).digest('hex'), identity: f.identity });

/** Read in chunks into one buffer: reading a whole file anew costs more than hashing it. */
const chunk = Buffer.allocUnsafe(1 << 18);

function fileSha256(path: string): string {
  const hash = createHash('sha256');
  const fd = openSync(path, 'r');
  try {
    for (let n; (n = readSync(fd, chunk, 0, chunk.length, null)) > 0; ) hash.update(chunk.subarray(0, n));
  } finally {
    closeSync(fd);
  }
  return hash.digest('hex');
}

/** Whether the file at `path` holds the bytes `built` was made from: the same file unchanged since, or the same bytes. */
function unchanged(built: Source | undefined, path: string): boolean {
  if (!built || built.path !== relative(projectRoot, path)) return false;
  try {
    const stats = statSync(path, { bigint: true });
    if (built.identity !== null && identityOf(stats) === built.identity) return true;
    return Number(stats.size) === built.size && fileSha256(path) === built.sha256;
  } catch {
    // Unreadable: building from the files names it.
    return false;
  }
}

/** The schedule and tables from the data files: parsed and indexed (what the index spares a start). */
function buildFrom(paths: DataPaths, data: DataBytes, revision: string): Omit<TariffData, 'rebuilt'> {
  return {
    schedule: buildSchedule(parseHtsBytes(data.hts.bytes, paths.hts), revision),
    chapter99: Object.fromEntries(data.ch99.map(([table, f]) => [table, parseCsv(f.bytes.toString('utf8'), f.path)])) as unknown as Chapter99Tables,
  };
}

/** The schedule and chapter 99 tables of `env`'s data files: from the index at `index` when it was built from them. */
export function loadTariffData(env: NodeJS.ProcessEnv = process.env, index = indexPath): TariffData {
  const paths = dataPaths(env);
  const revision = readRevision(paths.hts, () => readHtsBytes(paths.hts));
  const opened = openIndex(index, (header) => sourcesDiffer(header.sources, filesOf(paths)));
  if (typeof opened === 'string') return { ...buildFrom(paths, readData(paths), revision), rebuilt: opened };
  const { header, read } = opened;
  const chapter99 = onFirstUse(header.chapter99, (range) => {
    const t = read<CodedTable>(range);
    return t.rows.map((row) => tableRecord(t.columns, t.cells, row));
  }) as unknown as Chapter99Tables;
  const codes = new Map<string, Map<string, ReadonlySet<string>>>();
  const codesOfTable = (table: string) => {
    let byColumn = codes.get(table);
    if (!byColumn) {
      const part = header.codes[table] ? read<Record<string, string>>(header.codes[table]) : {};
      byColumn = new Map(Object.entries(part).map(([column, listed]) => [column, new Set(listed.split(','))]));
      codes.set(table, byColumn);
    }
    return byColumn;
  };
  // Not enumerable: the tables are what an enumeration of them finds.
  Object.defineProperty(chapter99, 'codes', { value: (table: string, column: string) => codesOfTable(table).get(column) });
  const schedule = scheduleFromData(read<SharedData>(header.shared), (c) => read<ChapterData>(header.chapters[c]), () => read<Chapter99Heading[]>(header.headings), revision);
  return { schedule, chapter99, rebuilt: null };
}

/**
 * The tables as properties made when first read: half the rows (Brazil's annex, the deal lists)
 * serve only the goods of a few countries, and a start makes none of them (docs/performance-history.md).
 */
function onFirstUse<T>(parts: Record<string, Range>, make: (range: Range) => T): Record<string, T> {
  const tables: Record<string, T> = {};
  for (const [name, range] of Object.entries(parts))
    Object.defineProperty(tables, name, {
      enumerable: true,
      configurable: true,
      get() {
        const value = make(range);
        Object.defineProperty(tables, name, { value, enumerable: true });
        return value;
      },
    });
  return tables;
}

/** A table's row as the CSV reader gives it: each column's cell. */
function tableRecord(columns: readonly string[], cells: readonly string[], row: readonly number[]): Record<string, string> {
  const record: Record<string, string> = {};
  for (let k = 0; k < columns.length; k++) record[columns[k]] = cells[row[k]];
  return record;
}

/**
 * The exporters of `env`'s trade file: the index's ranking when it was built from that file (each
 * chapter read when first asked for), else the file read and checked now (ExportersTable.load).
 */
export function loadExporters(env: NodeJS.ProcessEnv = process.env, index = indexPath): ExportersTable {
  const path = tradePath(env);
  const opened = openIndex(index, (header) => (header.trade && unchanged(header.trade.source, path) ? null : `not built from ${path}`));
  if (typeof opened === 'string') return ExportersTable.load(path);
  const { header, read } = opened;
  const chapters = header.trade!.chapters;
  const made = new Map<string, ChapterRanking>();
  return new ExportersTable((chapter) => {
    if (!Object.hasOwn(chapters, chapter)) return undefined;
    let ranking = made.get(chapter);
    if (!ranking) made.set(chapter, (ranking = read<ChapterRanking>(chapters[chapter])));
    return ranking;
  });
}

/** The index's header and a reader of its parts when it is whole, of this format, and `differs` finds nothing, else why not. */
function openIndex(index: string, differs: (header: Header) => string | null): { header: Header; read<T>(range: Range): T } | string {
  let fd: number;
  try {
    fd = openSync(index, 'r');
  } catch (e) {
    return `no prebuilt index at ${index} (${(e as NodeJS.ErrnoException).code ?? (e as Error).message}; \`npm run build\` writes it)`;
  }
  const bytes = (position: number, length: number) => {
    const buf = Buffer.alloc(length);
    return buf.subarray(0, readSync(fd, buf, 0, length, position));
  };
  let header: Header;
  let body: number;
  try {
    // The header is a few kB: sources and where each part lies.
    const head = bytes(0, 1 << 16);
    body = head.indexOf(0x0a) + 1;
    if (body === 0) throw new Error('no header line');
    // Written in ASCII (see writeIndex): read as Latin-1, a plain copy into one-byte strings.
    header = JSON.parse(head.toString('latin1', 0, body - 1)) as Header;
  } catch (e) {
    closeSync(fd);
    return `the prebuilt index ${index} is unreadable (${(e as Error).message})`;
  }
  const why =
    header.format !== INDEX_FORMAT
      ? `the prebuilt index ${index} is of format ${header.format}, this code reads ${INDEX_FORMAT}`
      : fstatSync(fd).size !== body + header.length
        ? `the prebuilt index ${index} is not whole (${fstatSync(fd).size} bytes, its header says ${body + header.length})`
        : (engineChanged(fstatSync(fd).mtimeMs) ?? differs(header));
  if (why) {
    closeSync(fd);
    return why;
  }
  // Open for the chapters not yet read: the process keeps the file it checked, whatever replaces it.
  // A part read after the start (a chapter, the headings, a table) that does not parse fails the
  // request that needed it (a 500): the error says which file is damaged and what rewrites it.
  const read = <T>([start, end]: Range): T => {
    const text = bytes(body + start, end - start).toString('latin1');
    try {
      return JSON.parse(text) as T;
    } catch (e) {
      throw new Error(`the prebuilt index ${index} is damaged at bytes ${body + start}-${body + end} (${(e as Error).message}); \`npm run build\` writes it again`);
    }
  };
  return { header, read };
}

/**
 * Run from source (tsx, vitest), the engine may have been edited since the build wrote the index:
 * a source of the engine or of this loading newer than the index makes it stale. (The bundle and
 * the index come from one build.)
 */
function engineChanged(indexTime: number): string | null {
  if (!import.meta.url.endsWith('.ts')) return null;
  for (const dir of ['shared', join('server', 'data')]) {
    const newer = (readdirSync(join(projectRoot, dir), { recursive: true }) as string[]).find((f) => f.endsWith('.ts') && statSync(join(projectRoot, dir, f)).mtimeMs > indexTime);
    if (newer) return `${join(projectRoot, dir, newer)} changed after the prebuilt index was built (\`npm run build\` writes it again)`;
  }
  return null;
}

function sourcesDiffer(built: Source[], paths: string[]): string | null {
  const i = paths.findIndex((path, k) => !unchanged(built[k], path));
  if (i >= 0)
    return built[i] && built[i].path !== relative(projectRoot, paths[i])
      ? `the prebuilt index was built from ${join(projectRoot, built[i].path)}, not ${paths[i]}`
      : `the prebuilt index was not built from ${paths[i]} as it is now`;
  return built.length === paths.length ? null : 'the prebuilt index was built from other data files';
}

/** The codes each of a table's LIST_CODE_COLUMNS names, as product lists key them, distinct, joined by commas. */
function codesOf(rows: Table): Record<string, string> {
  const columns = LIST_CODE_COLUMNS.filter((c) => rows.length && c in rows[0]);
  return Object.fromEntries(columns.map((c) => [c, [...new Set(rows.map((r) => listCode(r[c])))].join(',')]));
}

/** The trade file's ranking as parts, or null when the file cannot be read or checked (a start reports why). */
function tradePart(path: string, part: (value: unknown) => Range): Header['trade'] {
  let file: DataFile;
  let ranking: Ranking;
  try {
    file = readDataFile(path, readBytes);
    ranking = rankingOf(file.bytes.toString('utf8'), path);
  } catch {
    return null;
  }
  const chapters: Record<string, Range> = {};
  for (const [chapter, { year, exporters }] of ranking) chapters[chapter] = part({ year, exporters: exporters.slice(0, MAX_EXPORTERS) });
  return { source: sourceOf(file), chapters };
}

/** Writes the index of `env`'s data files (atomically: a start never reads half a file). */
export function writeIndex(env: NodeJS.ProcessEnv = process.env, index = indexPath): void {
  const paths = dataPaths(env);
  const bytes = readData(paths);
  // The revision is read at each start (HTS_REVISION, the .meta.json beside the file): not stored.
  const { schedule, chapter99 } = buildFrom(paths, bytes, '');
  const built = Object.entries(chapter99) as [TableName, Table][];
  const tables: Record<string, CodedTable> = Object.fromEntries(
    built.map(([table, rows]) => {
      const columns = Object.keys(rows[0] ?? {});
      const cells: string[] = [];
      const at = new Map<string, number>();
      const position = (cell: string) => at.get(cell) ?? (at.set(cell, cells.length), cells.push(cell) - 1);
      return [table, { columns, cells, rows: rows.map((r) => columns.map((c) => position(r[c]))) }];
    }),
  );
  const data = scheduleData(schedule);
  // Other characters escaped: an ASCII file decodes without UTF-8 work into one-byte strings (half the memory of two-byte ones).
  const ascii = (value: unknown) => JSON.stringify(value).replace(/[^\x00-\x7f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  const parts: string[] = [];
  let length = 0;
  const part = (value: unknown): Range => {
    const text = ascii(value);
    parts.push(text);
    return [length, (length += text.length)];
  };
  const header: Header = { format: INDEX_FORMAT, sources: [sourceOf(bytes.hts), ...bytes.ch99.map(([, f]) => sourceOf(f))], length: 0, shared: part(data.shared), headings: part(data.headings), chapter99: {}, codes: {}, chapters: {}, trade: null };
  for (const [name, table] of Object.entries(tables)) header.chapter99[name] = part(table);
  for (const [name, rows] of built) {
    const codes = codesOf(rows);
    if (Object.keys(codes).length) header.codes[name] = part(codes);
  }
  for (const [c, chapter] of Object.entries(data.chapters)) header.chapters[c] = part(chapter);
  header.trade = tradePart(paths.trade, part);
  header.length = length;
  mkdirSync(dirname(index), { recursive: true });
  const tmp = `${index}.${process.pid}.tmp`;
  writeFileSync(tmp, `${ascii(header)}\n${parts.join('')}`);
  renameSync(tmp, index);
}
