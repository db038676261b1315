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

/**
 * Each row version as a row, made once: the revisions holding a version share its object (and what
 * is parsed from it, shared/schedule.ts). By the version itself, not its place: adding a revision
 * (appendRevision) inserts rows and ends others, but never changes a version's fields.
 */
const rowObjects = new WeakMap<DatedRow, HtsRow>();

/** The rows of revision `k`, in its order, as USITC's export gives them (the fields the engine reads). */
export function rowsOf(data: DatedScheduleData, k: number): HtsRow[] {
  const rows: HtsRow[] = [];
  for (const r of data.rows) {
    if (r[0] > k || (r[1] !== null && k >= r[1])) continue;
    let row = rowObjects.get(r);
    if (row === undefined) rowObjects.set(r, (row = { htsno: r[2], indent: r[3], description: r[4], units: r[5], general: r[6], special: r[7], other: r[8], footnotes: r[9] }));
    rows.push(row);
  }
  return rows;
}

/** A published row as a row version's fields (what is compared between revisions). */
export function rowFields(row: HtsRow): DatedRow extends [number, number | null, ...infer F] ? F : never {
  return [row.htsno ?? '', String(row.indent ?? ''), row.description ?? '', row.units ?? [], row.general ?? '', row.special ?? '', row.other ?? '', row.footnotes ?? []];
}

/** A code as it stood in the nearest revision that held it, when the revision in force does not. */
export interface CodeElsewhere {
  /** The revision's name (`2025 Revision 18`). */
  revision: string;
  /** Its rate texts then: its own, or (a 10-digit line) its 8-digit line's. */
  general: string;
  special: string;
  column2: string;
}

/** Of a code's digits, where it stood nearest to a given revision (null: in no revision). */
export type CodeHistory = (digits: string) => CodeElsewhere | null;

const byCode = new WeakMap<DatedScheduleData, Map<string, DatedRow[]>>();

/** The code history seen from revision `k` of `data`: a code's nearest revision (before or after k) and its rates there. */
export function codeHistory(data: DatedScheduleData, k: number): CodeHistory {
  return (digits) => {
    let index = byCode.get(data);
    if (!index) {
      index = new Map();
      for (const r of data.rows) {
        if (!r[2]) continue;
        const d = r[2].replace(/\./g, '');
        const list = index.get(d);
        if (list) list.push(r);
        else index.set(d, [r]);
      }
      byCode.set(data, index);
    }
    const last = data.revisions.length - 1;
    // The revision of each version nearest to k, and the version nearest of all.
    const at = (r: DatedRow) => (r[0] > k ? r[0] : Math.min(k, (r[1] ?? last + 1) - 1));
    let best: DatedRow | undefined;
    for (const r of index.get(digits) ?? []) if (!best || Math.abs(at(r) - k) < Math.abs(at(best) - k)) best = r;
    if (!best) return null;
    const j = at(best);
    const inJ = (r: DatedRow) => r[0] <= j && (r[1] === null || j < r[1]);
    const rated = best[6].trim() !== '' ? best : digits.length === 10 ? (index.get(digits.slice(0, 8)) ?? []).find(inJ) : undefined;
    return { revision: data.revisions[j].name, general: rated?.[6] ?? '', special: rated?.[7] ?? '', column2: rated?.[8] ?? '' };
  };
}
