/**
 * Trade data (the committed snapshot under data/trade): countries.csv (ISO codes and names, for origins) and
 * exports_by_chapter.csv (the exporters ranking). Paths: env COUNTRIES_DATA and TRADE_DATA.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import type { Country } from '../../shared/index.js';
import { dataDir } from './paths.js';

export function tradePath(env: NodeJS.ProcessEnv = process.env): string {
  return resolve(env.TRADE_DATA ?? join(dataDir, 'trade', 'exports_by_chapter.csv'));
}

export function countriesPath(env: NodeJS.ProcessEnv = process.env): string {
  return resolve(env.COUNTRIES_DATA ?? join(dirname(tradePath(env)), 'countries.csv'));
}

/** A file's text, or an error naming it. */
export const readText = (path: string): string => readBytes(path).toString('utf8');

/** A file's bytes, or an error naming it. */
export function readBytes(path: string): Buffer {
  try {
    return readFileSync(path);
  } catch (e) {
    throw new Error(`${path}: cannot read (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
  }
}

export function readCsv(path: string): Record<string, string>[] {
  return parseCsv(readText(path), path);
}

// csv-parse is loaded only for a file with quotes: a start from the prebuilt index reads none.
const require = createRequire(import.meta.url);

/** The records of CSV text (header as keys, cells trimmed, empty lines skipped); errors name `path`. */
export function parseCsv(text: string, path: string): Record<string, string>[] {
  return readable(path, () => {
    if (text.includes('"')) {
      const { parse } = require('csv-parse/sync') as typeof import('csv-parse/sync');
      return parse(text, { columns: true, skip_empty_lines: true, trim: true }) as Record<string, string>[];
    }
    const { columns, lines } = unquotedCsv(text);
    return lines.map((line) => csvRecord(columns, line.split(',').map((c) => c.trim())));
  });
}

/**
 * The columns of CSV text with at least one record (none otherwise), every record checked as
 * parseCsv checks it, without making the records unless the file is quoted.
 */
export function csvColumns(text: string, path: string): string[] {
  if (text.includes('"')) return Object.keys(parseCsv(text, path)[0] ?? {});
  return readable(path, () => unquotedColumns(text));
}

/**
 * The columns of CSV text without quoting, every other line that is not blank checked to have as
 * many fields, as unquotedCsv does, by one regular expression over the text: no line is split off
 * (the trade file is checked at every start; splitting its 13,000 lines took 15 ms of it).
 * None when no record follows the header.
 */
function unquotedColumns(text: string): string[] {
  const header = /^[^\n]*\S[^\n]*$/m.exec(text);
  if (!header) return [];
  const columns = header[0].split(',').map((c) => c.trim());
  const rest = text.slice(header.index + header[0].length);
  if (!/\S/.test(rest)) return [];
  // A line with something on it, not of exactly columns.length fields.
  const bad = new RegExp(`^(?=[^\\n]*\\S)(?![^,\\n]*(?:,[^,\\n]*){${columns.length - 1}}$)`, 'm').exec(rest);
  if (bad) {
    const record = rest.slice(0, bad.index).split('\n').filter((l) => l.trim() !== '').length + 1;
    const fields = rest.slice(bad.index).split('\n', 1)[0].split(',').length;
    throw new Error(`record ${record} has ${fields} fields, the header ${columns.length}`);
  }
  return columns;
}

function readable<T>(path: string, read: () => T): T {
  try {
    return read();
  } catch (e) {
    throw new Error(`${path}: not a readable CSV file (${(e as Error).message})`);
  }
}

/**
 * A CSV without quoting, read by splitting: the same records csv-parse gives, in a tenth of the
 * time. The header's columns and the other non-empty lines, each checked to have as many fields.
 */
export function unquotedCsv(text: string): { columns: string[]; lines: string[] } {
  const lines = text.split(/\r?\n/).filter((l) => l.trim() !== '');
  if (!lines.length) return { columns: [], lines: [] };
  const columns = lines[0].split(',').map((c) => c.trim());
  for (let i = 1; i < lines.length; i++) {
    let fields = 1;
    for (let k = lines[i].indexOf(','); k >= 0; k = lines[i].indexOf(',', k + 1)) fields++;
    if (fields !== columns.length) throw new Error(`record ${i} has ${fields} fields, the header ${columns.length}`);
  }
  return { columns, lines: lines.slice(1) };
}

/** One record: each column's cell. */
function csvRecord(columns: readonly string[], cells: readonly string[]): Record<string, string> {
  const record: Record<string, string> = {};
  for (let k = 0; k < columns.length; k++) record[columns[k]] = cells[k];
  return record;
}

export function readCountries(path = countriesPath()): Country[] {
  const rows = readCsv(path);
  if (!rows.length || !('iso2' in rows[0]) || !('iso3' in rows[0]) || !('name' in rows[0]))
    throw new Error(`${path}: expected columns iso3, iso2, name`);
  return rows.map((r) => ({ iso2: r.iso2, iso3: r.iso3, name: r.name }));
}
