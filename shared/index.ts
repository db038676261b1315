/**
 * landed's duty engine: pure functions over the Harmonized Tariff Schedule. Build a Tariff once
 * from USITC's rows and the country list; then cost queries, orders and look up records.
 */
import { FoundLines } from './line.js';
import { Origins, type Country } from './origins.js';
import { costOrder, costQuery, type DutyQuery, type DutyResult, type Order, type OrderResult } from './order.js';
import { parseDate } from './params.js';
import { htsRecord, type HtsRecord } from './record.js';
import { governingRevision, type CodeHistory, type RevisionInfo } from './revisions.js';
import type { Schedule } from './schedule.js';
import { ScheduleIndex } from './search/schedule-index.js';
import { searchSchedule, type SearchAnswer, type SearchQuery } from './search/search.js';
import { Chapter99, type Chapter99Tables } from './stacking.js';
import { finish, joined, type Run } from './steps.js';

/**
 * The revisions of the dated schedule (shared/revisions.ts) and how to build one of them (the caller
 * reads the file when first asked). The Tariff's own schedule is the revision of that name.
 */
export interface DatedSchedules {
  revisions: readonly RevisionInfo[];
  /** Revision k's schedule, read a step at a time (shared/schedule.ts: its chapters built when first asked for, chapteredScheduleSteps). */
  scheduleSteps(k: number): Generator<void, Schedule>;
  /** Where codes absent from revision k stood in the others (read when first asked). */
  history(k: number): CodeHistory;
}

/** Older revisions a caller built for one request (prepare), by their index among the dated revisions. */
export type Built = ReadonlyMap<number, FoundLines>;

/** Older revisions kept at once (their chapters built as asked for; beside the 30 MB of the dated rows): a day's entries fall on a few. */
const REVISIONS_KEPT = 4;

export class Tariff {
  /** The newest schedule: today's, and the one searched. */
  readonly schedule: Schedule;
  readonly origins: Origins;
  readonly chapter99: Chapter99;
  /** The lines queries found, with what costing them remembers. */
  readonly lines: FoundLines;
  private readonly today: () => string;
  private readonly searchIndex: () => ScheduleIndex;
  private index: ScheduleIndex | null = null;
  private readonly dated: DatedSchedules | null;
  /** The Tariff's own schedule's index in dated.revisions (-1: not among them). */
  private readonly own: number;
  /** Older revisions' lines by index, least recently used first. */
  private readonly older = new Map<number, FoundLines>();
  /** Older revisions being built: requests that need one at once each advance its one build a step. */
  private readonly building = new Map<number, Run<FoundLines>>();

  /**
   * `chapter99`: the tables of data/ch99, turned into per-code lookups once, here. `searchIndex`:
   * how to get the search index when first searched (by default built from the schedule, without
   * trade terms).
   */
  constructor(schedule: Schedule, countries: readonly Country[], chapter99: Chapter99Tables, today: () => string = utcToday, searchIndex = () => ScheduleIndex.build(schedule.lines(), []), dated: DatedSchedules | null = null) {
    this.schedule = schedule;
    this.dated = dated;
    this.own = dated ? dated.revisions.findIndex((r) => r.name === schedule.revision) : -1;
    this.origins = new Origins(countries);
    this.chapter99 = new Chapter99(chapter99);
    this.lines = new FoundLines(schedule, dated && this.own >= 0 ? dated.history(this.own) : undefined);
    this.today = today;
    this.searchIndex = searchIndex;
  }

  get revision(): string {
    return this.schedule.revision;
  }

  /** One query (GET /duty). Throws InputError naming the bad parameter. `built`: revisions the caller built for it (prepare). */
  duty(query: DutyQuery, built?: Built): DutyResult {
    return costQuery(this.entry(built), query);
  }

  /** A whole entry (POST /duty/bulk): bad lines become per-line errors. */
  order(order: Order, built?: Built): OrderResult {
    return costOrder(this.entry(built), order);
  }

  private entry(built?: Built) {
    const linesOn = built?.size ? (date: string) => built.get(this.governing(date)) ?? this.linesOn(date) : (date: string) => this.linesOn(date);
    return { linesOn, chapter99: this.chapter99, origins: this.origins, today: this.today() };
  }

  /** The older revision governing `date`, or -1 when `date` is costed on the Tariff's own schedule. */
  private governing(date: string): number {
    const dated = this.dated;
    if (!dated || this.own < 0) return -1;
    const k = governingRevision(dated.revisions, date);
    return k === this.own ? -1 : k;
  }

  /**
   * The lines of the schedule in force on `date` (docs/data.md: the revision governing it). Without a
   * dated schedule, or when it does not hold this Tariff's own revision, every date is costed on that.
   */
  linesOn(date: string): FoundLines {
    const k = this.governing(date);
    if (k < 0) return this.lines;
    const lines = this.older.get(k);
    // A build under way for another request is finished here rather than done twice.
    if (!lines) return finish(joined(this.building, k, () => this.builtKept(k)));
    this.older.delete(k);
    this.older.set(k, lines);
    return lines;
  }

  /**
   * The older revision governing `date` built a step at a time, with the chapters of `codes`, for a
   * caller that lets other work run between steps (server/routes/revisions.ts), then kept as linesOn
   * keeps it; null when there is nothing to build. Its value goes to duty() or order() in `built`,
   * which a later build cannot evict. A chapter not built ahead is built when a code of it is costed.
   */
  prepare(date: string, codes: readonly unknown[] = []): Generator<void, [number, FoundLines]> | null {
    const k = this.governing(date);
    if (k < 0) return null;
    const kept = this.older.get(k);
    const chapters = [...new Set(codes.flatMap(chapterOf))];
    if (kept && chapters.every((c) => kept.schedule.chapterSteps?.(c) == null)) return null;
    return this.prepared(k, chapters);
  }

  private *prepared(k: number, chapters: readonly string[]): Generator<void, [number, FoundLines]> {
    const lines = this.older.get(k) ?? (yield* joined(this.building, k, () => this.builtKept(k)));
    for (const c of chapters) {
      const steps = lines.schedule.chapterSteps?.(c);
      if (steps) yield* steps;
    }
    return [k, lines];
  }

  private *builtKept(k: number): Generator<void, FoundLines> {
    return this.keep(k, yield* this.build(k));
  }

  private *build(k: number): Generator<void, FoundLines> {
    const dated = this.dated!;
    return new FoundLines(yield* dated.scheduleSteps(k), dated.history(k));
  }

  /** Keeps revision k's lines, the least recently used of REVISIONS_KEPT making room. */
  private keep(k: number, lines: FoundLines): FoundLines {
    this.older.delete(k);
    if (this.older.size >= REVISIONS_KEPT) this.older.delete(this.older.keys().next().value!);
    this.older.set(k, lines);
    return lines;
  }

  /** The revisions of the dated schedule (empty without one). */
  get revisions(): readonly RevisionInfo[] {
    return this.dated?.revisions ?? [];
  }

  /** Lines by words, or the lines under a code (GET /hts?q=). Throws InputError naming the bad parameter. */
  search(query: SearchQuery, qParameter?: string): SearchAnswer {
    return searchSchedule(this.schedule, () => this.searchIndexLoaded(), query, qParameter);
  }

  /** The search index, got now if no search has asked for it yet (the server asks just after its start). */
  searchIndexLoaded(): ScheduleIndex {
    return (this.index ??= this.searchIndex());
  }

  /** Whether the search index is here already: a search got it, or it was adopted. */
  get searchIndexReady(): boolean {
    return this.index !== null;
  }

  /** Takes an index read elsewhere (the server reads the prebuilt one off its main thread after the start), unless a search got one first. */
  adoptSearchIndex(index: ScheduleIndex): void {
    this.index ??= index;
  }

  /** The record of a 4-, 6-, 8- or 10-digit code (GET /hts/{code}), as of `date` (default today). Throws InputError naming the bad parameter. */
  record(code: unknown, date?: unknown, built?: Built): HtsRecord {
    const on = parseDate(date, this.today());
    return htsRecord(this.entry(built).linesOn(on).schedule, this.chapter99, code);
  }
}

/** The chapter of a code as a caller wrote it (`6109.10.00`, `61091000`), when it reads as one; a bad code is the costing's error to give. */
function chapterOf(code: unknown): string[] {
  const m = typeof code === 'string' || typeof code === 'number' ? /^\s*(\d\d)/.exec(String(code)) : null;
  return m ? [m[1]] : [];
}

const DAY_MS = 86_400_000;
let today = '';
let tomorrowAt = 0;
/** Today's UTC date, YYYY-MM-DD: formatted once a day, not once per query. */
function utcToday(): string {
  const now = Date.now();
  if (now >= tomorrowAt || now < tomorrowAt - DAY_MS) {
    today = new Date(now).toISOString().slice(0, 10);
    tomorrowAt = (Math.floor(now / DAY_MS) + 1) * DAY_MS;
  }
  return today;
}

export { errorBodyOf, InputError, type ErrorBody } from './errors.js';
export { ORIGINS, type Origin, type Country } from './origins.js';
export { CAVEATS } from './policy.js';
export { parseRate, type DutyRate, type GeneralRate, type Column2Rate, type RateComponent } from './rates.js';
export { parseSpecialColumn, type SpecialProgram } from './special-programs.js';
export { buildSchedule, chapteredScheduleSteps, scheduleSteps, type HtsRow, type Schedule, type TariffLine } from './schedule.js';
export { DUTY_QUERY_PARAMS, ORDER_FIELDS, ORDER_ITEM_FIELDS, type AdditionalDuty, type DutyQuery, type DutyResult, type Order, type OrderItem, type OrderLine, type OrderResult, type OrderTotals } from './order.js';
export { checkFields } from './params.js';
export { CLAIMS, FACT_PARAMS } from './claims.js';
export type { Chapter99Tables, TableName } from './stacking.js';
export { BASES } from './measures/measure.js';
export type { HtsRecord } from './record.js';
export { MAX_RESULTS, MAX_SEARCH_TEXT, MAX_SEARCHES, resultLimit, type SearchAnswer, type SearchHit, type SearchQuery } from './search/search.js';
export type { Chapter99Heading } from './chapter99.js';
export { codeHistory, governingRevision, rowsOf, type CodeHistory, type DatedScheduleData, type RevisionInfo } from './revisions.js';
