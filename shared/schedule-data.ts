/**
 * A built schedule as plain JSON data, and back: what the build step writes so that a start
 * neither parses 35,000 rows, their rates and footnotes nor indexes them again. The data is cut in
 * parts: a chapter's lines are made when a code of it is first asked for (most starts answer from a
 * few chapters), the chapter 99 headings when one is first looked up (3,000, mostly 9902's long
 * descriptions), what every chapter shares (rates, the Section 301 headings lines cite) when the
 * schedule is read. Whatever the built schedule shares (rates, footnotes, citation lists, headings)
 * is written once and shared again when read.
 */
import type { Chapter99Heading } from './chapter99.js';
import { parseRate, type DutyRate } from './rates.js';
import { indexed, lookups, NONE, type LineRates, type Lookups, type Schedule, type TariffLine } from './schedule.js';
import type { SpecialProgram } from './special-programs.js';

/** What every chapter refers to. */
export interface SharedData {
  /** Number of lines. */
  size: number;
  /** Schedule order: runs of [chapter, number of its lines, in its own order]. */
  order: [string, number][];
  /** Short texts lines share: units, footnotes, rate texts. */
  texts: string[];
  /** Lists of texts (a line's units, its footnotes), each distinct list once. */
  lists: number[][];
  /**
   * Each distinct rate as its text (texts): the rate grammar reads it again when a line first points
   * to it, the same rate (scheduleData checks that), without making 6,000 objects at every start.
   */
  rates: number[];
  /** Special-column programs, four numbers each: program, rateText (texts), rate (rates), reference (texts); -1: none. */
  programs: number[];
  /** Lists of programs (a special column), each distinct list once. */
  specials: number[][];
  /** The chapter 99 headings lines' footnotes make their Section 301 headings. */
  section301: Chapter99Heading[];
  /** Provisions cited, the Section 301 headings among them (indices into section301). */
  citations: [string[], number[]][];
}

/**
 * One chapter's lines, in columns of numbers mostly (JSON.parse reads a packed array of numbers far
 * faster than as many small objects); a line is its number within the chapter.
 */
export interface ChapterData {
  /** Digits of every line, joined by commas; the same of the dotted codes. */
  digits: string;
  hts: string;
  indent: number[];
  description: string[];
  /** Descriptions from the top of the chapter down, two entries a node: the node above (-1: none), its text. */
  paths: (number | string)[];
  /** A paths node (the full description is its text, ' > ', the line's own) or -1 (the line's own alone). */
  full: number[];
  /** Full descriptions of no such form, by line. */
  fullText: Record<number, string>;
  /** lists entries. */
  units: number[];
  footnotes: number[];
  /** Seven numbers a line's rates: the line they are printed on, generalText, general, specialText, special, column2Text, column2 (-1: null). */
  lineRates: number[];
  /** A lineRates entry (index of its first number / 7), or -1. */
  rates: number[];
  /** specialText and column2Text (texts) of the lines that have otherColumns, by line. */
  otherColumns: Record<number, [number, number]>;
  /** A citations entry, or -1 for a line without footnotes. */
  citations: number[];
  /** The line whose children it is among, or -1. */
  parent: number[];
}

export interface ScheduleData {
  shared: SharedData;
  /** Every chapter 99 heading in the order the schedule names them. */
  headings: Chapter99Heading[];
  chapters: Record<string, ChapterData>;
}

/** How a line reads its own part of a full description (a trailing colon dropped), as buildSchedule does. */
const own = (description: string): string => (description.endsWith(':') ? description.slice(0, -1) : description);

const chapterOf = (line: TariffLine): string => line.digits.slice(0, 2);

/** A table of distinct values, each written once: `key` says which are the same (identity by default). */
function table<K, V>(encode: (k: K) => V, key: (k: K) => unknown = (k) => k): { index(k: K): number; values: V[] } {
  const seen = new Map<unknown, number>();
  const values: V[] = [];
  return {
    index(k) {
      let i = seen.get(key(k));
      if (i === undefined) {
        // Encoded before it is numbered: a value's parts (a path's head) come first.
        const v = encode(k);
        seen.set(key(k), (i = values.length));
        values.push(v);
      }
      return i;
    },
    values,
  };
}

export function scheduleData(schedule: Schedule): ScheduleData {
  const texts = table((s: string) => s);
  const text = (s: string) => texts.index(s);
  const lists = table((l: readonly string[]) => l.map(text), (l) => JSON.stringify(l));
  // One per distinct rate (the special column's too), written as its text.
  const rates = table(
    (r: DutyRate) => {
      if (JSON.stringify(parseRate(r.text)) !== JSON.stringify(r)) throw new Error(`the rate ${JSON.stringify(r.text)} does not read back from its text`);
      return text(r.text);
    },
    (r) => JSON.stringify(r),
  );
  const programs: number[] = [];
  const programOf = table((p: SpecialProgram) => void programs.push(text(p.program), text(p.rateText), p.rate ? rates.index(p.rate) : -1, p.reference === null ? -1 : text(p.reference)));
  const specials = table((l: SpecialProgram[]) => l.map((p) => programOf.index(p)));
  const headings = new Set<Chapter99Heading>();
  for (const line of schedule.lines()) if (line.hts.startsWith('99')) headings.add(schedule.chapter99(line.hts)!);
  const section301 = table((h: Chapter99Heading) => h);
  // Lines citing the same footnotes share one citation list and its Section 301 list (buildSchedule's memo); a ten-digit
  // line's Section 301 list may be narrower than its 8-digit line's with the same citations (measures/section301-china.ts, tenDigitSection301).
  const citations = table((line: TariffLine): [string[], number[]] => [line.chapter99, line.section301.map((h) => section301.index(h))], (line) => `${line.chapter99.join(' ')}|${line.section301.map((h) => h.heading).join(' ')}`);

  const order: [string, number][] = [];
  const byChapter = new Map<string, TariffLine[]>();
  for (const line of schedule.lines()) {
    const chapter = chapterOf(line);
    const run = order[order.length - 1];
    if (run?.[0] === chapter) run[1]++;
    else order.push([chapter, 1]);
    const list = byChapter.get(chapter);
    if (list) list.push(line);
    else byChapter.set(chapter, [line]);
  }
  const chapters: Record<string, ChapterData> = {};
  for (const [chapter, lines] of byChapter) {
    const byHts = new Map(lines.map((l, n) => [l.hts, n]));
    const paths: (number | string)[] = [];
    const pathNodes = table((s: string) => {
      const k = s.lastIndexOf(' > ');
      const above = k < 0 ? -1 : pathNodes.index(s.slice(0, k));
      paths.push(above, k < 0 ? s : s.slice(k + 3));
    });
    const lineRates: number[] = [];
    const lineRatesOf = table((r: LineRates) => {
      lineRates.push(byHts.get(r.from)!, text(r.generalText), r.general ? rates.index(r.general) : -1, text(r.specialText), specials.index(r.special), text(r.column2Text), r.column2 ? rates.index(r.column2) : -1);
    });
    const c: ChapterData = { digits: lines.map((l) => l.digits).join(','), hts: lines.map((l) => l.hts).join(','), indent: [], description: [], paths, full: [], fullText: {}, units: [], footnotes: [], lineRates, rates: [], otherColumns: {}, citations: [], parent: [] };
    const parents = new Map<TariffLine, number>();
    lines.forEach((line, n) => {
      c.indent.push(line.indent);
      c.description.push(line.description);
      const mine = own(line.description);
      const full = line.fullDescription;
      if (full !== mine && full.endsWith(` > ${mine}`)) c.full.push(pathNodes.index(full.slice(0, -mine.length - 3)));
      else {
        c.full.push(-1);
        if (full !== mine) c.fullText[n] = full;
      }
      c.units.push(lists.index(line.units));
      c.footnotes.push(lists.index(line.footnotes));
      c.rates.push(line.rates ? lineRatesOf.index(line.rates) : -1);
      if (line.otherColumns) c.otherColumns[n] = [text(line.otherColumns.special), text(line.otherColumns.column2)];
      c.citations.push(line.chapter99 === NONE ? -1 : citations.index(line));
      c.parent.push(parents.get(line) ?? -1);
      for (const child of line.children) parents.set(child, n);
    });
    chapters[chapter] = c;
  }
  const shared: SharedData = { size: schedule.size, order, texts: texts.values, lists: lists.values, rates: rates.values, programs, specials: specials.values, section301: section301.values, citations: citations.values };
  return { shared, headings: [...headings], chapters };
}

/** The shared objects, made once: what a chapter's lines point to (a rate and a special column when first pointed to). */
interface Shared {
  texts: string[];
  lists: string[][];
  special(i: number): SpecialProgram[];
  rate(i: number): DutyRate;
  citations: { cited: string[]; section301: Chapter99Heading[] }[];
}

/** Entry `i`, made by `make` when first asked for and kept. */
function onDemand<T>(count: number, make: (i: number) => T): (i: number) => T {
  const made: (T | undefined)[] = new Array(count);
  return (i) => made[i] ?? (made[i] = make(i));
}

/**
 * The schedule of `shared`, whose chapter data `chapter` reads (once, when a code of the chapter
 * is first asked for, or every chapter when all lines are) and its chapter 99 headings `headings`
 * (once, at the first lookup).
 */
export function scheduleFromData(shared: SharedData, chapter: (chapter: string) => ChapterData, headings: () => Chapter99Heading[], revision: string): Schedule {
  const texts = shared.texts;
  // Made as the chapters read point to them: a start reads a few chapters, which use a fraction of the
  // 1,500 rates and 7,900 special programs (making them all took about 5 ms of every start).
  const rate = onDemand(shared.rates.length, (i) => parseRate(texts[shared.rates[i]])!);
  const p = shared.programs;
  const program = onDemand(p.length / 4, (i): SpecialProgram => {
    const k = 4 * i;
    return { program: texts[p[k]], rateText: texts[p[k + 1]], rate: p[k + 2] < 0 ? null : rate(p[k + 2]), reference: p[k + 3] < 0 ? null : texts[p[k + 3]] };
  });
  let byHeading: Map<string, Chapter99Heading> | undefined;
  // The Section 301 headings already made are the same objects in the lookup.
  const chapter99 = (heading: string) => {
    if (!byHeading) {
      const made = new Map(shared.section301.map((h) => [h.heading, h]));
      byHeading = new Map(headings().map((h) => [h.heading, made.get(h.heading) ?? h]));
    }
    return byHeading.get(heading);
  };
  const common: Shared = {
    texts,
    lists: shared.lists.map((l) => l.map((i) => texts[i])),
    special: onDemand(shared.specials.length, (i) => shared.specials[i].map(program)),
    rate,
    citations: shared.citations.map((c) => ({ cited: c[0], section301: c[1].map((i) => shared.section301[i]) })),
  };
  const made = new Map<string, { lines: TariffLine[]; lookups: Lookups }>();
  const inSchedule = new Set(shared.order.map(([c]) => c));
  const linesOf = (c: string) => {
    let m = made.get(c);
    if (!m && inSchedule.has(c)) {
      const byDigits = new Map<string, TariffLine>();
      const lines = chapterLines(chapter(c), common, byDigits);
      made.set(c, (m = { lines, lookups: lookups(lines, byDigits) }));
    }
    return m;
  };
  let all: TariffLine[] | undefined;
  const lines = () => {
    if (!all) {
      all = [];
      const next = new Map<string, number>();
      for (const [c, count] of shared.order) {
        const from = next.get(c) ?? 0;
        all.push(...linesOf(c)!.lines.slice(from, from + count));
        next.set(c, from + count);
      }
    }
    return all;
  };
  return indexed(revision, shared.size, (c) => linesOf(c)?.lookups, lines, chapter99);
}

function chapterLines(c: ChapterData, common: Shared, byDigits: Map<string, TariffLine>): TariffLine[] {
  const { texts, lists, special, rate, citations } = common;
  const digits = c.digits.split(',');
  const hts = c.hts.split(',');
  const paths: string[] = [];
  for (let i = 0; i < c.paths.length; i += 2) {
    const above = c.paths[i] as number;
    paths.push(above < 0 ? (c.paths[i + 1] as string) : `${paths[above]} > ${c.paths[i + 1] as string}`);
  }
  const lineRates: LineRates[] = [];
  const r = c.lineRates;
  for (let i = 0; i < r.length; i += 7)
    lineRates.push({
      from: hts[r[i]],
      generalText: texts[r[i + 1]],
      general: r[i + 2] < 0 ? null : rate(r[i + 2]),
      specialText: texts[r[i + 3]],
      special: special(r[i + 4]),
      column2Text: texts[r[i + 5]],
      column2: r[i + 6] < 0 ? null : rate(r[i + 6]),
    });
  const lines: TariffLine[] = [];
  for (let n = 0; n < digits.length; n++) {
    const description = c.description[n];
    const full = c.full[n];
    const other = c.otherColumns[n];
    const cited = c.citations[n];
    const line: TariffLine = {
      digits: digits[n],
      hts: hts[n],
      indent: c.indent[n],
      description,
      fullDescription: c.fullText[n] ?? (full < 0 ? own(description) : `${paths[full]} > ${own(description)}`),
      units: lists[c.units[n]],
      footnotes: lists[c.footnotes[n]],
      rates: c.rates[n] < 0 ? null : lineRates[c.rates[n]],
      otherColumns: other ? { special: texts[other[0]], column2: texts[other[1]] } : null,
      chapter99: cited < 0 ? NONE : citations[cited].cited,
      section301: cited < 0 ? NONE : citations[cited].section301,
      children: [],
    };
    if (c.parent[n] >= 0) lines[c.parent[n]].children.push(line);
    byDigits.set(line.digits, line);
    lines.push(line);
  }
  return lines;
}
