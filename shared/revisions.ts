/**
 * The dated schedule: every HTS revision since 2025 as one list of row versions, each with the
 * revisions it held in (data/hts/dated-schedule.json.gz; docs/data.md). Which revision governs an
 * entry date, and one revision's rows as USITC published them. Pure: the caller reads the file.
 */
import type { HtsRow } from './schedule.js';

/** One revision of the schedule and the date from which it governs entries. */
export interface RevisionInfo {
  /** As USITC names the export: `2025_rev_18`, `2026_basic`. */
  id: string;
  /** As answers name it (`hts_revision`): `2025 Revision 18`. */
  name: string;
  /** The date USITC published it. */
  published: string;
  /** The date its changes took effect, where that is not the publication date (revision_dates.csv); else null. */
  policy: string | null;
  /** The first entry date it governs: `policy` when given, else `published` (docs/data.md). */
  from: string;
}

/** The fields of a row version after its interval, in this order. */
export const DATED_FIELDS = ['htsno', 'indent', 'description', 'units', 'general', 'special', 'other', 'footnotes'] as const;

/**
 * A row as it stood in revisions [from, to) (indices into `revisions`; to null: still in the newest),
 * then DATED_FIELDS. Rows are in an order that each revision's own rows keep.
 */
export type DatedRow = [from: number, to: number | null, htsno: string, indent: string, description: string, units: string[], general: string, special: string, other: string, footnotes: HtsRow['footnotes']];

export interface DatedScheduleData {
  format: 1;
  revisions: RevisionInfo[];
  fields: typeof DATED_FIELDS;
  rows: DatedRow[];
}

/**
 * The revision governing entries on `date`: the last whose `from` is on or before it (revisions are
 * in order of `from`); before the first, the first (costing older entries on 2025's basic edition is
 * said in the answer's notes by the caller).
 */
export function governingRevision(revisions: readonly RevisionInfo[], date: string): number {
  let k = 0;
  while (k + 1 < revisions.length && revisions[k + 1].from <= date) k++;
  return k;
}

/** The rows of revision `k`, in its order, as USITC's export gives them (the fields the engine reads). */
export function rowsOf(data: DatedScheduleData, k: number): HtsRow[] {
  const rows: HtsRow[] = [];
  for (const r of data.rows)
    if (r[0] <= k && (r[1] === null || k < r[1])) rows.push({ htsno: r[2], indent: r[3], description: r[4], units: r[5], general: r[6], special: r[7], other: r[8], footnotes: r[9] });
  return rows;
}

/** A published row as a row version's fields (what is compared between revisions). */
export function rowFields(row: HtsRow): DatedRow extends [number, number | null, ...infer F] ? F : never {
  return [row.htsno ?? '', String(row.indent ?? ''), row.description ?? '', row.units ?? [], row.general ?? '', row.special ?? '', row.other ?? '', row.footnotes ?? []];
}
