/**
 * Trade data beside the checkout: countries.csv (ISO codes and names, for origins) and
 * exports_by_chapter.csv (the exporters ranking). Paths: env COUNTRIES_DATA and TRADE_DATA.
 */
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { parse } from 'csv-parse/sync';
import type { Country } from '../../shared/index.js';
import { projectRoot } from './paths.js';

export function tradePath(env: NodeJS.ProcessEnv = process.env): string {
  return resolve(env.TRADE_DATA ?? join(projectRoot, '..', 'shared', 'data', 'trade', 'exports_by_chapter.csv'));
}

export function countriesPath(env: NodeJS.ProcessEnv = process.env): string {
  return resolve(env.COUNTRIES_DATA ?? join(dirname(tradePath(env)), 'countries.csv'));
}

export function readCsv(path: string): Record<string, string>[] {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    throw new Error(`${path}: cannot read (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
  }
  return parse(text, { columns: true, skip_empty_lines: true, trim: true }) as Record<string, string>[];
}

export function readCountries(path = countriesPath()): Country[] {
  const rows = readCsv(path);
  if (!rows.length || !('iso2' in rows[0]) || !('iso3' in rows[0]) || !('name' in rows[0]))
    throw new Error(`${path}: expected columns iso3, iso2, name`);
  return rows.map((r) => ({ iso2: r.iso2, iso3: r.iso3, name: r.name }));
}
