/**
 * The Harmonized Tariff Schedule as an index, built once from USITC's JSON rows: every coded row
 * by its digits, with its parents (so "Other" reads well), its children, its rates (10-digit
 * statistical lines inherit the rates of their 8-digit line unless they carry their own), the
 * chapter 99 provisions its footnotes cite, and the Section 301 headings among them.
 * Pure: the caller reads the file and passes the rows.
 */
import { codeDigits, dotted } from './codes.js';
import { citedProvisions, parseChapter99Heading, type Chapter99Heading } from './chapter99.js';
import { InputError, invalid } from './errors.js';
import { tenDigitSection301 } from './measures/section301-china.js';
import { SECTION_301_HEADINGS } from './policy.js';
import { parseRate, type Column2Rate, type DutyRate, type GeneralRate } from './rates.js';
import { parseSpecialColumn, type SpecialProgram } from './special-programs.js';
import { finish, joined, type Run } from './steps.js';

/** One row of USITC's JSON export, as published. */
export interface HtsRow {
  htsno: string;
  indent: string | number;
  description: string;
  superior?: string | null;
  units?: string[] | null;
  general?: string | null;
  special?: string | null;
  other?: string | null;
  footnotes?: { columns?: string[]; value: string; type?: string }[] | null;
}

/** The three rate columns of a tariff line, as printed and parsed. */
export interface LineRates {
  /** The dotted code of the line the rates are printed on (the line itself or its 8-digit line). */
  from: string;
  generalText: string;
  general: GeneralRate | null;
  specialText: string;
  special: SpecialProgram[];
  column2Text: string;
  column2: Column2Rate | null;
}

export interface TariffLine {
  digits: string;
  /** Dotted, as printed: `6109.10.00.12`. */
  hts: string;
  indent: number;
  description: string;
  /** Descriptions of the ancestors and the line, joined: `Men's or boys' > Of cotton > Other`. */
  fullDescription: string;
  units: string[];
  /** Footnote texts of the line (and, for a 10-digit line, of its 8-digit line). */
  footnotes: string[];
  /** Rates that apply to the line; null for headings, subheadings and lines without rates. */
  rates: LineRates | null;
  /** The special and column 2 texts of a row whose general column is empty (chapter 98/99 provisions such as 9903.90.08); null otherwise. */
  otherColumns: { special: string; column2: string } | null;
  /** Chapter 98/99 provisions cited by the footnotes, dotted. */
  chapter99: string[];
  /** The Section 301 headings among them, parsed, in citation order. */
  section301: Chapter99Heading[];
  /** Coded rows directly below this one. */
  children: TariffLine[];
}

export interface Schedule {
  revision: string;
  /** Number of coded rows. */
  size: number;
  /** The row with exactly these digits (an 8-digit code also finds its merged 10-digit line). */
  find(digits: string): TariffLine | undefined;
  /** The chapter 99 heading with this dotted number. */
  chapter99(heading: string): Chapter99Heading | undefined;
  /** How many 8-digit tariff lines lie under a 4- or 6-digit code. */
  tariffLinesUnder(digits: string): number;
  /** Every coded row in schedule order. */
  lines(): Iterable<TariffLine>;
  /**
   * A schedule whose chapters are built when first asked for (chapteredScheduleSteps): the steps
   * that build `chapter` (two digits) ahead of its use, or null when it is built or not in the schedule.
   */
  chapterSteps?(chapter: string): Generator<void, void> | null;
}

/** White space runs as one space, trimmed; the common case (nothing to tidy) allocates nothing. */
const blank = (s: string | null | undefined): string => {
  if (!s) return '';
  return /[^\S ]| {2}/.test(s) ? s.replace(/\s+/g, ' ').trim() : s.trim();
};

/** A line without footnotes cites nothing: one shared empty list. */
export const NONE = Object.freeze([]) as never[];

/** One value per distinct key, computed once: the schedule repeats most rate cells and footnotes. */
function memo<T>(f: (key: string) => T): (key: string) => T {
  const cache = new Map<string, T>();
  return (key) => {
    let v = cache.get(key);
    if (v === undefined && !cache.has(key)) cache.set(key, (v = f(key)));
    return v as T;
  };
}

/** Rows a step of a schedule's build reads before it yields (about 5-10 ms of work). */
const ROWS_A_STEP = 1000;

export function buildSchedule(rows: readonly HtsRow[], revision: string): Schedule {
  return finish(scheduleSteps(rows, revision));
}

/**
 * The schedule of `rows`, built a step at a time: it yields after every ROWS_A_STEP rows, so that a
 * server can build an older revision between other requests (server/routes/revisions.ts) rather than
 * hold them for the whole build (200-600 ms).
 */
export function* scheduleSteps(rows: readonly HtsRow[], revision: string): Generator<void, Schedule> {
  if (!Array.isArray(rows) || rows.length === 0) throw new Error('the schedule has no rows');
  const chapter99 = new Map<string, Chapter99Heading>();
  const { ordered, byDigits } = yield* linesSteps(rows, chapter99, memos());
  const all = lookups(ordered, byDigits);
  return indexed(revision, ordered.length, () => all, () => ordered, (heading) => chapter99.get(heading));
}

/**
 * The schedule of `rows` with each chapter built when first asked for, or ahead by its steps
 * (`chapterSteps`): an older revision's query needs the chapter of its code and the chapter 99
 * headings, not 35,000 rows (a whole revision is 200-600 ms of CPU and about 25 MB of heap). Read
 * now, a step at a time: the rows cut by chapter (a row without a code goes with the next coded
 * row, whose ancestor it may be), the rows of earlier chapters a chapter's first row sits under,
 * and the chapter 99 headings, which every chapter's citations name. Its lines are those of
 * scheduleSteps (test/engine/chaptered-schedule.test.ts); a schedule with a chapter whose rows
 * are not all together (no revision has one) is built whole.
 */
export function* chapteredScheduleSteps(rows: readonly HtsRow[], revision: string): Generator<void, Schedule> {
  if (!Array.isArray(rows) || rows.length === 0) throw new Error('the schedule has no rows');
  const byChapter = new Map<string, HtsRow[]>();
  /** The rows of earlier chapters a chapter's first row sits under in the whole build: its full descriptions start with theirs. */
  const above = new Map<string, HtsRow[]>();
  const chapter99 = new Map<string, Chapter99Heading>();
  // The whole build's ancestors, as it would hold them at each row.
  const stack: { indent: number; digits: string; row: HtsRow }[] = [];
  let size = 0;
  let uncoded: HtsRow[] = [];
  let groupAbove: HtsRow[] = [];
  let current = '';
  let read = 0;
  for (const row of rows) {
    if (++read % ROWS_A_STEP === 0) yield;
    const digits = codeOf(row);
    const indent = Number(row.indent) || 0;
    dropNonAncestors(stack, digits, indent);
    // Only where a chapter may begin: a row of text (its chapter is the next coded row's) or a coded row of a new chapter.
    if (uncoded.length === 0 && (digits === '' || digits.slice(0, 2) !== current)) groupAbove = stack.map((e) => e.row);
    stack.push({ indent, digits, row });
    if (digits === '') {
      uncoded.push(row);
      continue;
    }
    size++;
    const chapter = digits.slice(0, 2);
    if (chapter !== current) {
      // A chapter whose rows are not all together (no revision has one): built whole, as before.
      if (byChapter.has(chapter)) return yield* scheduleSteps(rows, revision);
      byChapter.set(chapter, []);
      above.set(chapter, groupAbove);
      current = chapter;
    }
    const own = byChapter.get(chapter)!;
    for (const r of uncoded) own.push(r);
    uncoded = [];
    own.push(row);
    if (chapter === '99') chapter99.set(dotted(digits), heading99(row, digits));
  }
  const shared = memos();
  const built = new Map<string, { lines: TariffLine[]; lookups: Lookups }>();
  /** Chapters being built: requests that need one at once each advance its one build a step. */
  const building = new Map<string, Run<void>>();
  function* build(chapter: string): Generator<void, void> {
    const { ordered, byDigits } = yield* linesSteps(byChapter.get(chapter)!, chapter99, shared, false, above.get(chapter));
    built.set(chapter, { lines: ordered, lookups: lookups(ordered, byDigits) });
  }
  const join = (chapter: string) => joined(building, chapter, () => build(chapter));
  const lookupsOf = (chapter: string) => {
    if (!built.has(chapter) && byChapter.has(chapter)) finish(join(chapter));
    return built.get(chapter)?.lookups;
  };
  let all: TariffLine[] | undefined;
  const lines = () => (all ??= [...byChapter.keys()].flatMap((chapter) => (lookupsOf(chapter), built.get(chapter)!.lines)));
  return {
    ...indexed(revision, size, lookupsOf, lines, (heading) => chapter99.get(heading)),
    chapterSteps: (chapter) => (built.has(chapter) || !byChapter.has(chapter) ? null : join(chapter)),
  };
}

/** A row's code without its dots ('' for a row of text only). */
const codeOf = (row: HtsRow): string => (row.htsno ?? '').replace(/\./g, '').trim();

/** Headings parsed by row: the revisions of the dated schedule share the rows they did not change (shared/revisions.ts, rowsOf), and so their headings. */
const headings = new WeakMap<HtsRow, Chapter99Heading>();

function heading99(row: HtsRow, digits: string): Chapter99Heading {
  let heading = headings.get(row);
  if (heading === undefined) headings.set(row, (heading = parseChapter99Heading(dotted(digits), blank(row.description), row.general ?? '')));
  return heading;
}

/** What a build parses once per distinct cell: the schedule repeats most rate cells and footnotes. */
function memos() {
  return { rate: memo(parseRate), special: memo((text) => parseSpecialColumn(text).programs), text: memo((t) => t) };
}

/**
 * Pops the rows a row of `digits` at `indent` is not under: a coded row is under the row above it
 * when its code extends that row's, else when it is indented further.
 */
function dropNonAncestors(stack: { indent: number; digits: string }[], digits: string, indent: number): void {
  while (stack.length) {
    const top = stack[stack.length - 1];
    const isPrefix = digits !== '' && top.digits !== '' && top.digits.length < digits.length && digits.startsWith(top.digits);
    if (top.indent >= indent && !isPrefix) stack.pop();
    else break;
  }
}

/**
 * The lines of `rows` in order, with what their footnotes cite resolved against `chapter99` (filled
 * here from the rows of chapter 99 when `readHeadings`, before the citations are resolved). `above`:
 * rows the first of `rows` sits under, read for the full descriptions only.
 */
function* linesSteps(rows: readonly HtsRow[], chapter99: Map<string, Chapter99Heading>, { rate, special, text }: ReturnType<typeof memos>, readHeadings = true, above: readonly HtsRow[] = []): Generator<void, { ordered: TariffLine[]; byDigits: Map<string, TariffLine> }> {
  const byDigits = new Map<string, TariffLine>();
  const ordered: TariffLine[] = [];
  // Ancestors of the current row: text rows (no code) matter for full descriptions. `path` is the
  // full description down to the entry.
  const stack: { indent: number; digits: string; path: string; line: TariffLine | null }[] = [];

  const all = above.length ? [...above, ...rows] : rows;
  for (let n = 0; n < all.length; n++) {
    const row = all[n];
    if ((n + 1) % ROWS_A_STEP === 0) yield;
    const digits = codeOf(row);
    const indent = Number(row.indent) || 0;
    const description = blank(row.description);
    dropNonAncestors(stack, digits, indent);
    const own = description.endsWith(':') ? description.slice(0, -1) : description;
    const path = stack.length ? `${stack[stack.length - 1].path} > ${own}` : own;
    let line: TariffLine | null = null;
    if (digits && n >= above.length) {
      const hts = dotted(digits);
      if (readHeadings && hts.startsWith('99')) chapter99.set(hts, heading99(row, digits));
      let parentLine: TariffLine | null = null;
      for (let i = stack.length - 1; i >= 0 && !parentLine; i--) if (stack[i].line && digits.startsWith(stack[i].digits)) parentLine = stack[i].line;
      const rates = ownRates(row, hts, rate, special);
      const eight = digits.length === 10 ? byDigits.get(digits.slice(0, 8)) : undefined;
      const footnotes = row.footnotes?.length ? row.footnotes.map((f: { value: string }) => text(blank(f.value))).filter(Boolean) : [];
      line = {
        digits,
        hts,
        indent,
        description,
        fullDescription: path,
        units: row.units?.length ? row.units.map((u: string) => text(u.trim())).filter(Boolean) : [],
        footnotes: eight?.footnotes.length ? [...eight.footnotes, ...footnotes.filter((f: string) => !eight.footnotes.includes(f))] : footnotes,
        rates: rates ?? (eight?.rates ?? null),
        otherColumns: rates ? null : otherColumns(row),
        chapter99: [],
        section301: [],
        children: [],
      };
      if (parentLine) parentLine.children.push(line);
      byDigits.set(digits, line);
      ordered.push(line);
    }
    stack.push({ indent, digits, path, line });
  }

  // Citations resolve once every chapter 99 row has been read; lines citing the same footnotes
  // share their (read-only) lists.
  const citations = memo((joined) => {
    const cited = [...new Set(joined.split('\n').flatMap(citedProvisions))];
    const section301 = cited
      .filter((h) => SECTION_301_HEADINGS.test(`${h}.`))
      .flatMap((h) => (chapter99.has(h) ? [chapter99.get(h)!] : subheadingsOf(h, chapter99)));
    return { cited, section301 };
  });
  yield;
  for (const line of ordered) {
    if (line.footnotes.length) {
      const c = citations(line.footnotes.join('\n'));
      line.chapter99 = c.cited;
      line.section301 = c.section301;
    } else {
      line.chapter99 = NONE;
      line.section301 = NONE;
    }
  }
  yield;
  for (const line of ordered) if (line.digits.length === 10) line.section301 = tenDigitSection301(line, byDigits.get(line.digits.slice(0, 8)));
  yield;
  return { ordered, byDigits };
}

/** What find and tariffLinesUnder read: of every line, or of one chapter's (a code's lines are all in its chapter). */
export interface Lookups {
  byDigits: ReadonlyMap<string, TariffLine>;
  /** 8-digit codes printed only as their 10-digit line. */
  merged: ReadonlyMap<string, TariffLine>;
  /** Number of 8-digit lines under a 4- or 6-digit code. */
  under: ReadonlyMap<string, number>;
}

/** The lookups over finished lines in schedule order (byDigits: the last line of each code). */
export function lookups(ordered: readonly TariffLine[], byDigits: ReadonlyMap<string, TariffLine>): Lookups {
  const under = new Map<string, number>();
  const merged = new Map<string, TariffLine>();
  // Each distinct 8-digit code counts once under its heading and subheading: its own line or its merged 10-digit line.
  const count = (eight: string) => {
    for (const p of [eight.slice(0, 4), eight.slice(0, 6)]) under.set(p, (under.get(p) ?? 0) + 1);
  };
  for (const line of ordered) {
    if (line.digits.length === 8 && byDigits.get(line.digits) === line) count(line.digits);
    if (line.digits.length !== 10) continue;
    const eight = line.digits.slice(0, 8);
    if (byDigits.has(eight)) continue;
    if (!merged.has(eight)) count(eight);
    merged.set(eight, line);
  }
  return { byDigits, merged, under };
}

/** A schedule of `size` lines over the lookups of a code's chapter (`lookupsOf` of its first two digits; undefined: no such chapter). */
export function indexed(revision: string, size: number, lookupsOf: (chapter: string) => Lookups | undefined, lines: () => readonly TariffLine[], chapter99: (heading: string) => Chapter99Heading | undefined): Schedule {
  return {
    revision,
    size,
    find(digits) {
      const l = lookupsOf(digits.slice(0, 2));
      return l && (l.byDigits.get(digits) ?? (digits.length === 8 ? l.merged.get(digits) : undefined));
    },
    chapter99,
    tariffLinesUnder: (digits) => lookupsOf(digits.slice(0, 2))?.under.get(digits) ?? 0,
    lines,
  };
}

/** The rates printed on the row itself, or null when its general column is empty. */
function ownRates(row: HtsRow, hts: string, rate: (t: string) => DutyRate | null, special: (t: string) => SpecialProgram[]): LineRates | null {
  const generalText = blank(row.general);
  if (generalText === '') return null;
  const specialText = blank(row.special);
  const column2Text = blank(row.other);
  return {
    from: hts,
    generalText,
    general: rate(generalText),
    specialText,
    special: special(specialText),
    column2Text,
    column2: rate(column2Text),
  };
}

/** The special and column 2 cells of a row without a general rate, when either is printed. */
function otherColumns(row: HtsRow): TariffLine['otherColumns'] {
  const special = blank(row.special);
  const column2 = blank(row.other);
  return special || column2 ? { special, column2 } : null;
}

/** `9903.92` cited as a whole: its 8-digit headings. */
function subheadingsOf(prefix: string, chapter99: Map<string, Chapter99Heading>): Chapter99Heading[] {
  return [...chapter99.values()].filter((h) => h.heading.startsWith(`${prefix}.`));
}

/**
 * The line a duty is computed on: an 8- or 10-digit code that exists and carries rates.
 * Headings and subheadings are lookups, not duty lines: the error says how many lines lie under.
 */
export function dutyLine(schedule: Schedule, input: unknown, parameter = 'hts'): TariffLine {
  return dutyLineOf(schedule, input, parameter).line;
}

/** The most candidate lines a 400 lists for a heading or subheading. */
const CANDIDATES = 20;

/** The 8- and 10-digit lines whose code begins with `digits`, in schedule order. */
export function linesUnder(schedule: Schedule, digits: string): TariffLine[] {
  // The nearest coded row at or above the code: 6109.10 is printed only as its one 8-digit line, and
  // a heading without subheadings only as its 6 or 8 digits (6912.00, 9503.00.00).
  const [four, six] = [digits.slice(0, 4), digits.slice(0, 6)];
  const top = [digits, six, four, `${four}00`, six.padEnd(8, '0'), `${four}0000`].map((d) => schedule.find(d)).find((l) => l !== undefined);
  const out: TariffLine[] = [];
  const walk = (line: TariffLine) => {
    if (line.digits.length >= 8 && line.digits.startsWith(digits)) out.push(line);
    for (const child of line.children) walk(child);
  };
  if (top) walk(top);
  return out;
}

/**
 * The line that costs a code, and the assumption made when it is not the code typed: a heading or
 * subheading with exactly one 8-digit line is costed on it; a ten-digit code whose statistical suffix the
 * schedule does not have, on its 8-digit line (rates are set at eight digits). A heading or subheading
 * with several 8-digit lines is a 400 listing them (`details.candidates`, at most 20, with general rates).
 * An assumption is the code's, not the parameter's: the engine keeps it with the line for every caller.
 */
export function dutyLineOf(schedule: Schedule, input: unknown, parameter = 'hts'): { line: TariffLine; assumption: string | null } {
  const digits = codeDigits(input, parameter);
  if (digits.length < 8) {
    const level = digits.length === 4 ? 'heading' : digits.length === 6 ? 'subheading' : 'chapter';
    // The distinct 8-digit codes under it, each as find gives it (its own line, or its only 10-digit line).
    const eights = digits.length >= 4 ? [...new Set(linesUnder(schedule, digits).map((l) => l.digits.slice(0, 8)))] : [];
    const under = eights.flatMap((e) => {
      const line = schedule.find(e);
      return line?.rates ? [{ code: dotted(e), line }] : [];
    });
    if (under.length === 1) return { line: under[0].line, assumption: `Code ${dotted(digits)} is a ${level} with one 8-digit line, ${under[0].code}: costed on it.` };
    const n = schedule.tariffLinesUnder(digits);
    const candidates = under.slice(0, CANDIDATES).map(({ code, line }) => ({ hts: code, description: line.description, general: line.rates!.generalText }));
    const listed = candidates.map((c) => `${c.hts} (${c.general || 'no general rate'})`).join(', ');
    throw invalid(
      parameter,
      `${parameter} ${dotted(digits)} is a ${level}; duty needs an 8- or 10-digit tariff line. ${n} 8-digit line${n === 1 ? ' lies' : 's lie'} under it${candidates.length ? `: ${listed}${n > candidates.length ? `, and ${n - candidates.length} more` : ''}` : ''}.`,
      { level: digits.length, tariff_lines: n, ...(candidates.length ? { candidates } : {}) },
    );
  }
  const line = schedule.find(digits);
  if (line) return { line, assumption: null };
  const eight = digits.length === 10 ? schedule.find(digits.slice(0, 8)) : undefined;
  if (eight?.rates) {
    const tens = eight.children.filter((c) => c.digits.length === 10).map((c) => c.hts.slice(-2));
    return {
      line: eight,
      assumption: `Code ${dotted(digits)}: the statistical suffix ${digits.slice(8)} is not in the schedule (${schedule.revision}); costed at its 8-digit line ${eight.hts}, where duty rates are set${tens.length ? ` (its ten-digit lines: ${tens.map((s) => `.${s}`).join(', ')})` : ''}.`,
    };
  }
  throw new InputError('not_found', parameter, `${parameter} ${dotted(digits)} is not in the schedule (${schedule.revision})`);
}
