/**
 * The record of a code as the API's GET /hts/{code} shows it: the row, its parents, rates,
 * special programs, footnotes, the chapter 99 provisions it cites, and its children.
 */
import { codeDigits, dotted } from './codes.js';
import { InputError } from './errors.js';
import type { Schedule } from './schedule.js';
import type { Chapter99, Listing } from './stacking.js';

export interface HtsRecord {
  hts: string;
  description: string;
  full_description: string;
  indent: number;
  units: string[];
  general: string | null;
  special: string | null;
  column2: string | null;
  /** The dotted line the rates are printed on, when the code inherits them (10-digit lines). */
  rates_from: string | null;
  special_programs: { program: string; rate: string }[];
  footnotes: string[];
  chapter99: { heading: string; rate: string | null; description: string | null }[];
  /** The chapter 99 programs whose product lists name the code (annex tier or list, heading, dates). */
  chapter99_programs: Listing[];
  children: { hts: string; description: string }[];
  hts_revision: string;
}

export function htsRecord(schedule: Schedule, chapter99: Chapter99, input: unknown, parameter = 'code'): HtsRecord {
  const digits = codeDigits(input, parameter);
  const line = schedule.find(digits);
  if (!line) throw new InputError('not_found', parameter, `${dotted(digits)} is not in the schedule (${schedule.revision})`);
  const r = line.rates;
  return {
    hts: line.hts,
    description: line.description,
    full_description: line.fullDescription,
    indent: line.indent,
    units: line.units,
    general: r?.generalText ?? null,
    special: (r ? r.specialText : line.otherColumns?.special) || null,
    column2: (r ? r.column2Text : line.otherColumns?.column2) || null,
    rates_from: r && r.from !== line.hts ? r.from : null,
    special_programs: (r?.special ?? []).map((p) => ({ program: p.program, rate: p.rateText })),
    footnotes: line.footnotes,
    chapter99: line.chapter99.map((h) => {
      const row = schedule.chapter99(h);
      return { heading: h, rate: row ? row.rateText || null : null, description: row?.description ?? null };
    }),
    chapter99_programs: chapter99.listings(line),
    children: line.children.map((c) => ({ hts: c.hts, description: c.description })),
    hts_revision: schedule.revision,
  };
}
