/**
 * The prebuilt index (dist/data/tariff-index.json, written by `npm run build`): the schedule as
 * built (shared/schedule-data.ts) and the chapter 99 tables as records, so that a start neither
 * parses nor indexes them again. Its first line names the format, the files it was built from
 * (paths and sha256) and where each part lies after that line: the shared part and the tables are
 * read at start, a chapter of the schedule when it is first asked for (through the file opened at
 * start, so a rebuild meanwhile changes nothing). A start whose files are not those very bytes at
 * those paths, or whose code reads another format, builds from the files instead and says why:
 * never an answer from stale data.
 */
import { createHash } from 'node:crypto';
import { closeSync, mkdirSync, openSync, readSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { buildSchedule, type Chapter99Tables, type Schedule } from '../../shared/index.js';
import { scheduleData, scheduleFromData, type ChapterData, type SharedData } from '../../shared/schedule-data.js';
import { ch99Files, ch99Path } from './ch99.js';
import { csvRecord, parseCsv, readText } from './countries.js';
import { htsPath, parseHtsBytes, readHtsBytes, readRevision } from './hts-file.js';
import { projectRoot } from './paths.js';

/** Bump when what the index holds changes, or how the engine builds what it holds (the schedule's lines, rates, tables). */
export const INDEX_FORMAT = 2;

export const indexPath = join(projectRoot, 'dist', 'data', 'tariff-index.json');

/** [start, end) of a part, in bytes after the header line. */
type Range = [number, number];

interface Header {
  format: number;
  /** Paths relative to the project, in reading order. */
  sources: { path: string; sha256: string }[];
  shared: Range;
  chapter99: Range;
  chapters: Record<string, Range>;
}

type Tables = Record<string, { columns: string[]; rows: string[][] }>;

/** The data files a start reads: the schedule's bytes and each chapter 99 table's text. */
interface DataFiles {
  hts: { path: string; bytes: Buffer };
  ch99: { table: keyof Chapter99Tables; path: string; text: string }[];
}

export interface TariffData {
  schedule: Schedule;
  chapter99: Chapter99Tables;
  /** Why the data was built from the files, not read from the index; null when it was read from the index. */
  rebuilt: string | null;
}

function readDataFiles(env: NodeJS.ProcessEnv): DataFiles {
  const path = htsPath(env);
  return { hts: { path, bytes: readHtsBytes(path) }, ch99: ch99Files(ch99Path(env)).map(([table, p]) => ({ table, path: p, text: readText(p) })) };
}

function sourcesOf(files: DataFiles): Header['sources'] {
  const source = (path: string, data: Buffer | string) => ({ path: relative(projectRoot, path), sha256: createHash('sha256').update(data).digest('hex') });
  return [source(files.hts.path, files.hts.bytes), ...files.ch99.map((f) => source(f.path, f.text))];
}

/** The schedule and tables from the data files: parsed and indexed (what the index spares a start). */
function buildFrom(files: DataFiles, revision: string): Omit<TariffData, 'rebuilt'> {
  return {
    schedule: buildSchedule(parseHtsBytes(files.hts.bytes, files.hts.path), revision),
    chapter99: Object.fromEntries(files.ch99.map((f) => [f.table, parseCsv(f.text, f.path)])) as unknown as Chapter99Tables,
  };
}

/** The schedule and chapter 99 tables of `env`'s data files: from the index at `index` when it was built from them. */
export function loadTariffData(env: NodeJS.ProcessEnv = process.env, index = indexPath): TariffData {
  const files = readDataFiles(env);
  const revision = readRevision(files.hts.path, files.hts.bytes);
  const opened = openIndex(index, sourcesOf(files));
  if (typeof opened === 'string') return { ...buildFrom(files, revision), rebuilt: opened };
  const { header, read } = opened;
  const tables = read<Tables>(header.chapter99);
  const chapter99 = Object.fromEntries(Object.entries(tables).map(([table, t]) => [table, t.rows.map((cells) => csvRecord(t.columns, cells))]));
  return { schedule: scheduleFromData(read<SharedData>(header.shared), (c) => read<ChapterData>(header.chapters[c]), revision), chapter99: chapter99 as unknown as Chapter99Tables, rebuilt: null };
}

/** The index's header and a reader of its parts when it was built from `sources` in this format, else why not. */
function openIndex(index: string, sources: Header['sources']): { header: Header; read<T>(range: Range): T } | string {
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
    let head = bytes(0, 1 << 16);
    for (let size = 1 << 17; head.indexOf(0x0a) < 0 && head.length === size / 2; size *= 2) head = bytes(0, size);
    body = head.indexOf(0x0a) + 1;
    // Written in ASCII (see writeIndex): read as Latin-1, a plain copy into one-byte strings.
    header = JSON.parse(head.toString('latin1', 0, body - 1)) as Header;
  } catch (e) {
    closeSync(fd);
    return `the prebuilt index ${index} is unreadable (${(e as Error).message})`;
  }
  const why =
    header.format !== INDEX_FORMAT
      ? `the prebuilt index ${index} is of format ${header.format}, this code reads ${INDEX_FORMAT}`
      : sourcesDiffer(header.sources, sources);
  if (why) {
    closeSync(fd);
    return why;
  }
  // Open for the chapters not yet read: the process keeps the file it checked, whatever replaces it.
  return { header, read: <T>([start, end]: Range) => JSON.parse(bytes(body + start, end - start).toString('latin1')) as T };
}

function sourcesDiffer(built: Header['sources'], now: Header['sources']): string | null {
  const changed = now.find((s, i) => s.path !== built[i]?.path || s.sha256 !== built[i].sha256);
  if (changed) return `the prebuilt index was not built from ${join(projectRoot, changed.path)} as it is now`;
  return built.length === now.length ? null : 'the prebuilt index was built from other data files';
}

/** Writes the index of `env`'s data files (atomically: a start never reads half a file). */
export function writeIndex(env: NodeJS.ProcessEnv = process.env, index = indexPath): void {
  const files = readDataFiles(env);
  // The revision is read at each start (HTS_REVISION, the .meta.json beside the file): not stored.
  const { schedule, chapter99 } = buildFrom(files, '');
  const tables: Tables = Object.fromEntries(
    Object.entries(chapter99).map(([table, rows]: [string, Chapter99Tables[keyof Chapter99Tables]]) => {
      const columns = Object.keys(rows[0] ?? {});
      return [table, { columns, rows: rows.map((r) => columns.map((c) => r[c])) }];
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
  const header: Header = { format: INDEX_FORMAT, sources: sourcesOf(files), shared: part(data.shared), chapter99: part(tables), chapters: {} };
  for (const [c, chapter] of Object.entries(data.chapters)) header.chapters[c] = part(chapter);
  mkdirSync(dirname(index), { recursive: true });
  const tmp = `${index}.${process.pid}.tmp`;
  writeFileSync(tmp, `${ascii(header)}\n${parts.join('')}`);
  renameSync(tmp, index);
}
