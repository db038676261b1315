/**
 * The dated schedule file (data/hts/dated-schedule.json.gz, docs/data.md): reading it, and adding a
 * revision to it (the build from the archived revisions, `npm run data:update`). A revision is added
 * as a difference from the newest: the rows it keeps unchanged stay one row version whose interval
 * runs on; a row it drops or changes ends its version there; a new or changed row starts one.
 */
import { closeSync, existsSync, openSync, readFileSync, readSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { constants, gunzipSync, gzipSync } from 'node:zlib';
import { codeHistory, DATED_FIELDS, rowFields, rowsOf, type DatedRow, type DatedScheduleData, type RevisionInfo } from '../../shared/revisions.js';
import { chapteredScheduleSteps, type DatedSchedules, type HtsRow } from '../../shared/index.js';
import { finish, joined, type Run } from '../../shared/steps.js';
import { stringEnd } from '../json-text.js';
import { dataDir } from './paths.js';

export const datedSchedulePath = (env: NodeJS.ProcessEnv = process.env): string => env.HTS_DATED ?? join(dataDir, 'hts', 'dated-schedule.json.gz');

export function readDatedSchedule(path: string): DatedScheduleData {
  return finish(datedScheduleSteps(path));
}

/** Rows parsed in one step: 10-30 ms here. */
const ROWS_A_STEP = 5000;

/**
 * The file read a step at a time: inflated in one step (about 70 ms here), decoded in another (about
 * 70 ms), then its rows parsed 5,000 a step (10-30 ms), each slice of the text between two rows by
 * JSON.parse. A service reading it for a query of 2025 (server/routes/revisions.ts) then holds the
 * other requests for a step, not for the whole read (gunzip and one JSON.parse of 11 MB: 300-400 ms).
 */
export function* datedScheduleSteps(path: string): Generator<void, DatedScheduleData> {
  const unreadable = (why: string) => new Error(`${path}: cannot read the dated schedule (${why})`);
  let inflated: Buffer;
  try {
    inflated = gunzipSync(readFileSync(path));
  } catch (e) {
    throw unreadable((e as NodeJS.ErrnoException).code ?? (e as Error).message);
  }
  yield;
  const text = inflated.toString('utf8');
  yield;
  // The file is written with its rows last (writeDatedSchedule); a quote inside a string is escaped, so this text is the member's.
  const rowsAt = /,[ \t\n\r]*"rows"[ \t\n\r]*:[ \t\n\r]*\[/.exec(text);
  const parse = <T>(json: string): T => {
    try {
      return JSON.parse(json) as T;
    } catch (e) {
      throw unreadable((e as Error).message);
    }
  };
  const data = parse<DatedScheduleData>(rowsAt === null ? text : `${text.slice(0, rowsAt.index)},"rows":[]}`);
  if (data.format !== 1 || !Array.isArray(data.revisions) || rowsAt === null) throw new Error(`${path}: not a dated schedule of format 1`);
  const start = rowsAt.index + rowsAt[0].length;
  /**
   * The rows of the text from `from` to `to`, added. After a step the text goes on with the comma
   * between two rows: a 0 before it makes the slice a JSON list again, so JSON.parse still refuses
   * a missing comma, a stray one or anything else between rows.
   */
  const addRows = (from: number, to: number) => {
    const more = from !== start;
    const list = parse<unknown[]>(`[${more ? '0' : ''}${text.slice(from, to)}]`);
    for (let j = more ? 1 : 0; j < list.length; j++) data.rows.push(list[j] as DatedRow);
  };
  // Row boundaries: where the depth inside the list of rows comes back to 0, strings skipped.
  let from = start;
  let depth = 0;
  let rows = 0;
  for (let i = from; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 34 /* " */) {
      i = stringEnd(text, i);
      if (i < 0) break;
    } else if (c === 91 /* [ */ || c === 123 /* { */) depth++;
    else if (c === 93 /* ] */ || c === 125 /* } */) {
      if (depth === 0) {
        addRows(from, i);
        if (!/^\][ \t\n\r]*\}[ \t\n\r]*$/.test(text.slice(i))) throw unreadable('text after the rows');
        return data;
      }
      if (--depth === 0 && ++rows % ROWS_A_STEP === 0) {
        addRows(from, i + 1);
        from = i + 1;
        yield;
      }
    }
  }
  throw unreadable('it ends inside its rows');
}

/**
 * Only the revisions of the file, which it writes first: the head of the file inflated, not its
 * 11 MB of rows. What a start needs. The list is the first 5 kB of text: 2 kB of the file hold it,
 * and only its bytes are decoded (16 kB inflated 270 kB, and decoding them all took 5 ms of a start).
 */
export function readRevisions(path: string): RevisionInfo[] {
  const fd = openSync(path, 'r');
  try {
    for (let size = 1 << 11; ; size *= 4) {
      const head = Buffer.alloc(size);
      const n = readSync(fd, head, 0, size, 0);
      const text = gunzipSync(head.subarray(0, n), { finishFlush: constants.Z_SYNC_FLUSH });
      const start = text.indexOf('"revisions":');
      const end = text.indexOf(',"fields":', start);
      if (start >= 0 && end > start) return JSON.parse(text.toString('utf8', start + 12, end)) as RevisionInfo[];
      if (n < size) throw new Error('no list of revisions');
    }
  } catch (e) {
    throw new Error(`${path}: cannot read the dated schedule's revisions (${(e as Error).message})`);
  } finally {
    closeSync(fd);
  }
}

/**
 * The dated schedule at `path` for the engine (null when there is none): its revisions read now, its
 * rows when an older revision is first asked for (then kept: each revision is built from them).
 */
export function datedSchedules(path: string): DatedSchedules | null {
  if (!existsSync(path)) return null;
  const revisions = readRevisions(path);
  let data: DatedScheduleData | undefined;
  /** The file's read under way: requests building two revisions at once each advance it a step. */
  const reading = new Map<string, Run<DatedScheduleData>>();
  function* read(): Generator<void, DatedScheduleData> {
    return (data ??= yield* joined(reading, path, () => datedScheduleSteps(path)));
  }
  const rows = () => data ?? finish(read());
  return {
    revisions,
    *scheduleSteps(k) {
      return yield* chapteredScheduleSteps(rowsOf(yield* read(), k), revisions[k].name);
    },
    history(k) {
      let history: ReturnType<typeof codeHistory> | undefined;
      return (digits) => (history ??= codeHistory(rows(), k))(digits);
    },
  };
}

export function writeDatedSchedule(path: string, data: DatedScheduleData): number {
  const bytes = gzipSync(JSON.stringify(data), { level: 9 });
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, bytes);
  renameSync(tmp, path);
  return bytes.length;
}

export const emptyDatedSchedule = (): DatedScheduleData => ({ format: 1, revisions: [], fields: DATED_FIELDS, rows: [] });

/**
 * Adds `rows`, revision `info`, as the newest revision of `data` (in place). Its `from` must not be
 * before the newest's: revisions govern in order (docs/data.md).
 */
export function appendRevision(data: DatedScheduleData, rows: readonly HtsRow[], info: RevisionInfo): void {
  const last = data.revisions[data.revisions.length - 1];
  if (last && info.from < last.from) throw new Error(`revision ${info.name} governs from ${info.from}, before ${last.name} (${last.from}): revisions must be added in order`);
  if (data.revisions.some((r) => r.id === info.id)) throw new Error(`revision ${info.name} is already in the dated schedule`);
  const k = data.revisions.length;
  data.revisions.push(info);
  const live: number[] = [];
  data.rows.forEach((r, i) => r[1] === null && live.push(i));
  const fields = rows.map(rowFields);
  const key = (f: unknown[]) => JSON.stringify(f);
  const match = diff(
    live.map((i) => key(data.rows[i].slice(2))),
    fields.map(key),
  );
  // match[j]: the live row (index into `live`) new row j is, or -1. Unmatched new rows go after the live row the nearest matched row before them is.
  const kept = new Set<number>();
  const after = new Map<number, DatedRow[]>();
  let previous = -1;
  fields.forEach((f, j) => {
    if (match[j] >= 0) {
      kept.add(match[j]);
      previous = match[j];
      return;
    }
    const list = after.get(previous) ?? [];
    list.push([k, null, ...f]);
    after.set(previous, list);
  });
  live.forEach((i, n) => {
    if (!kept.has(n)) data.rows[i][1] = k;
  });
  const out: DatedRow[] = [...(after.get(-1) ?? [])];
  const position = new Map(live.map((i, n) => [i, n]));
  data.rows.forEach((r, i) => {
    out.push(r);
    const n = position.get(i);
    if (n !== undefined && kept.has(n)) out.push(...(after.get(n) ?? []));
  });
  data.rows = out;
}

/**
 * Which element of `a` each element of `b` is (-1: none), keeping order: a patience diff (elements
 * unique to both sides anchor it, in their longest common order), then the common head and tail of
 * each stretch between anchors, recursively. The schedule's rows are mostly unique, so few are left.
 */
export function diff(a: readonly string[], b: readonly string[]): number[] {
  const match = new Array<number>(b.length).fill(-1);
  const region = (a0: number, a1: number, b0: number, b1: number, depth: number): void => {
    while (a0 < a1 && b0 < b1 && a[a0] === b[b0]) match[b0++] = a0++;
    while (a0 < a1 && b0 < b1 && a[a1 - 1] === b[b1 - 1]) match[--b1] = --a1;
    if (a0 === a1 || b0 === b1 || depth > 30) return;
    const count = new Map<string, [number, number, number]>();
    for (let i = a0; i < a1; i++) {
      const c = count.get(a[i]) ?? [0, 0, i];
      c[0]++;
      c[2] = i;
      count.set(a[i], c);
    }
    const pairs: [number, number][] = [];
    const inB = new Map<string, number>();
    for (let j = b0; j < b1; j++) inB.set(b[j], (inB.get(b[j]) ?? 0) + 1);
    for (let j = b0; j < b1; j++) {
      const c = count.get(b[j]);
      if (c && c[0] === 1 && inB.get(b[j]) === 1) pairs.push([c[2], j]);
    }
    const anchors = longestIncreasing(pairs);
    if (!anchors.length) return;
    let [pa, pb] = [a0, b0];
    for (const [i, j] of anchors) {
      region(pa, i, pb, j, depth + 1);
      match[j] = i;
      [pa, pb] = [i + 1, j + 1];
    }
    region(pa, a1, pb, b1, depth + 1);
  };
  region(0, a.length, 0, b.length, 0);
  return match;
}

/** The longest run of pairs (in order of their second element) whose first elements increase. */
function longestIncreasing(pairs: readonly [number, number][]): [number, number][] {
  const tails: number[] = [];
  const back = new Array<number>(pairs.length);
  pairs.forEach(([i], p) => {
    let lo = 0;
    let hi = tails.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (pairs[tails[mid]][0] < i) lo = mid + 1;
      else hi = mid;
    }
    back[p] = lo > 0 ? tails[lo - 1] : -1;
    tails[lo] = p;
  });
  const out: [number, number][] = [];
  for (let p = tails.length ? tails[tails.length - 1] : -1; p >= 0; p = back[p]) out.push(pairs[p]);
  return out.reverse();
}
