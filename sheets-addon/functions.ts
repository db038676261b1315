/**
 * The custom functions. Each takes single cells or whole ranges for its first arguments and
 * answers a 2-D array of the same shape: a whole column is one POST /api/v1/duty/batch request per
 * 1,000 cells (sent together with UrlFetchApp.fetchAll), answers are cached, and a row the API
 * could not cost shows its own error text while the rest of the column is answered. A single cell
 * throws its error instead (an error value), and asks for its neighbours' answers along with its own.
 *
 * Every exported function here becomes a top-level function of Code.js with this JSDoc (see
 * build.mjs), which is what Sheets reads for autocomplete.
 */
import { ApiError, errorText, send, sendAll, type Call, type LineError } from './api.js';
import { cachedLookup, chunks, type Fetched } from './cache.js';
import { param, reshape, single, zipCells, type Arg, type Cell, type Out, type Shape } from './grid.js';
import { DUTY_ARGS, neighbourCalls } from './neighbours.js';
import type { DutyResult, Outcome } from './results.js';
import { missingDutyText, RESULT_COLUMNS, resultCells } from '../spreadsheet/order-output.js';
import { BLANK_VALUE, dateArgument, isBlank, readCode } from '../spreadsheet/order-sheet.js';
import { sentQuantity, unknownUnitText, type SentQuantity } from '../spreadsheet/invoice-units.js';
import { nothingFound, searchCells, SPILLED_LINES } from '../spreadsheet/search-cells.js';
import type { SearchAnswer } from '../shared/search/search.js';

const BATCH_LINES = 1000;
/** The most queries a cell's read of its neighbours adds: 10 batch requests, sent together. */
const MAX_PREFETCH = 10_000;

interface DutyQuery {
  hts?: string;
  value?: string | number | boolean;
  origin?: string | number | boolean;
  s301?: string | number | boolean;
  ocean?: string | number | boolean;
  qty?: string | number | boolean;
  unit?: string | number | boolean;
  date?: string;
  claim?: string | number | boolean;
}

/** A cell's query from its named arguments; null when the code is blank. */
function queryOf(args: Record<string, Cell>): DutyQuery | null {
  if (isBlank(args.hts)) return null;
  const { qty, unit } = sentQuantity(param(args.qty), param(args.unit));
  return { hts: readCode(args.hts), value: param(args.value), origin: param(args.origin), s301: param(args.s301), ocean: param(args.ocean), qty: qty as DutyQuery['qty'], unit,
    date: dateArgument(args.date), claim: param(args.claim) };
}

/**
 * One cached answer per distinct query: the misses go to /duty/batch, 1,000 per request, all sent
 * together. A single cell that misses also asks for the calls around it (see neighbours.ts), so a
 * column filled down costs a handful of requests instead of one per row.
 */
function dutyOutcomes(queries: readonly (DutyQuery | null)[], withNeighbours: boolean): (Outcome | null)[] {
  const keys = queries.map((q) => (q ? JSON.stringify(q) : null));
  const byKey = new Map<string, DutyQuery>();
  queries.forEach((q, i) => q && byKey.set(keys[i]!, q));
  const answers = cachedLookup<Outcome>('duty', [...byKey.keys()], (missing, cached) => {
    let wanted = missing;
    if (withNeighbours) {
      const around = new Map<string, DutyQuery>();
      for (const call of neighbourCalls()) {
        const q = queryOf(call);
        if (q) around.set(JSON.stringify(q), q);
      }
      const known = cached([...around.keys()]);
      const extra = [...around.keys()].filter((k) => !known.has(k) && !byKey.has(k)).slice(0, MAX_PREFETCH);
      extra.forEach((k) => byKey.set(k, around.get(k)!));
      wanted = [...missing, ...extra];
    }
    const calls: Call[] = chunks(wanted, BATCH_LINES).map((group) => ({ path: 'api/v1/duty/batch', body: { queries: group.map((k) => byKey.get(k)) } }));
    const results = sendAll<{ results: Outcome[] }>(calls).flatMap((r) => r.data.results);
    if (results.length !== wanted.length) throw new Error(`The landed API answered ${results.length} results for ${wanted.length} queries`);
    const fetched = new Map<string, Fetched<Outcome>>();
    wanted.forEach((k, i) => {
      const r = results[i];
      fetched.set(k, { value: r, cacheable: true, revision: 'error' in r ? undefined : r.hts_revision });
    });
    return fetched;
  });
  return keys.map((k) => (k === null ? null : answers.get(k)!));
}

/** A cell the API could not answer: its text, e.g. `#N/A hts 9999.99.99 is not in the schedule`. */
class CellError {
  constructor(readonly text: string) {}
}

/**
 * The answers in their shape. A single cell's error is thrown, so the cell shows an error value
 * (which SUM() does not skip). A range cannot hold error values in Apps Script: its bad cells show
 * their error as text, and the rest of the range is answered.
 */
function answer(shape: Shape, outs: readonly (Out | CellError)[]): Out[][] {
  if (shape.rows * shape.cols === 1 && outs[0] instanceof CellError) throw new Error(outs[0].text);
  return reshape(shape, outs.map((o) => (o instanceof CellError ? o.text : o)));
}

/** The queries of the cells (null where the code is blank), position by position. */
function dutyCells(args: readonly [string, Arg][]) {
  const { shape, cells } = zipCells(args);
  const named = cells.map((cell) => Object.fromEntries(args.map(([name], i) => [name, cell[i]])));
  const queries = named.map(queryOf);
  // The quantity each cell sent: a unit the invoice-unit table does not know (not sent) is its error if the rate
  // needs a quantity, and a unit sent under another name (CTN as each) is named as the cell wrote it.
  const sent = named.map((a) => sentQuantity(param(a.qty), param(a.unit)));
  // A blank value is the cell's error, not a duty on 0 (RATE and DESC take no value).
  const blankValue = named.map((a, i) => queries[i] !== null && 'value' in a && isBlank(a.value));
  const outcomes = dutyOutcomes(queries.map((q, i) => (blankValue[i] ? null : q)), shape.rows * shape.cols === 1).map((o, i): Outcome | null =>
    blankValue[i] ? { error: { code: 'invalid_parameter', message: BLANK_VALUE, details: { parameter: 'value' } } } : o,
  );
  return { shape, queries, sent, outcomes };
}

function dutyArgs(hts: Arg, value: Arg, origin?: Arg, s301?: Arg, ocean?: Arg, qty?: Arg, unit?: Arg, date?: Arg, claim?: Arg): [string, Arg][] {
  const given = [hts, value, origin, s301, ocean, qty, unit, date, claim];
  return DUTY_ARGS.map((name, i) => [name, given[i]]);
}

/** Each cell's answer: blank for a blank code, the error of a line the API refused, else pick(result). */
function dutyFunction(args: readonly [string, Arg][], pick: (r: DutyResult, sent: SentQuantity) => Out | CellError): Out[][] {
  const { shape, outcomes, sent } = dutyCells(args);
  return answer(shape, outcomes.map((o, i) => (o === null ? '' : 'error' in o ? new CellError(errorText(o.error)) : pick(o, sent[i]))));
}

/** A cell whose duty the API could not compute (a specific rate without qty, a text rate). */
function missingDuty(r: DutyResult, sent: SentQuantity): CellError {
  if (sent.unknownUnit && r.specific_rate) return new CellError(`#VALUE! ${r.hts}: ${unknownUnitText(sent.unknownUnit, r.duty_rate)}`);
  return new CellError(`#N/A ${missingDutyText(r, 'DUTY', sent)}`);
}

/** A figure that includes the duty is missing, with the reason, when the duty is. */
function withDuty(figure: (r: DutyResult) => number): (r: DutyResult, sent: SentQuantity) => Out | CellError {
  return (r, sent) => (r.duty === null ? missingDuty(r, sent) : figure(r));
}

/**
 * U.S. import duty (dollars) on goods of a tariff line, a customs value and an origin: the rate the
 * origin takes (general, a free trade agreement's, or column 2). Section 301 and fees are apart.
 * A line with a specific or compound rate (per kg, per liter) needs qty (and unit).
 *
 * @param {string|Array<Array<string>>} hts HTS code or range of codes, e.g. "6109.10.00".
 * @param {number|Array<Array<number>>} value Customs value in U.S. dollars, or a range of values.
 * @param {string|Array<Array<string>>} [origin] Country of origin: "china", "CN", "Korea", "mfn"... (default mfn).
 * @param {string|number} [s301] Section 301 rate for goods of China: 25, 7.5, "none" or "auto" (default auto).
 * @param {boolean} [ocean] TRUE when the goods arrive by vessel (harbor maintenance fee).
 * @param {number|Array<Array<number>>} [qty] Quantity, for specific or compound rates (e.g. 100).
 * @param {string|Array<Array<string>>} [unit] Unit of the quantity (kg, liter, doz…); default: the unit of the rate.
 * @param {string|Date|Array<Array<string>>} [date] Entry date, a date cell or "YYYY-MM-DD" (default today): the chapter 99 layers and fees in force that day.
 * @param {string|Array<Array<string>>} [claim] Preference claimed: "auto" (default), "none", "usmca", "korus", "cafta-dr" or a program symbol.
 * @return The duty in dollars, one per code.
 * @customfunction
 */
export function DUTY(hts: Arg, value: Arg, origin?: Arg, s301?: Arg, ocean?: Arg, qty?: Arg, unit?: Arg, date?: Arg, claim?: Arg): Out[][] {
  return dutyFunction(dutyArgs(hts, value, origin, s301, ocean, qty, unit, date, claim), withDuty((r) => r.duty!));
}

/**
 * Section 301 duty (dollars): every Section 301 action, China's lists (the list the tariff line is on, or the rate given), note 52's forced-labor action, Brazil's.
 *
 * @param {string|Array<Array<string>>} hts HTS code or range of codes.
 * @param {number|Array<Array<number>>} value Customs value in U.S. dollars.
 * @param {string|Array<Array<string>>} [origin] Country of origin.
 * @param {string|number} [s301] 25, 7.5, "none" or "auto" (default auto: from the tariff line).
 * @param {boolean} [ocean] TRUE when the goods arrive by vessel.
 * @param {number|Array<Array<number>>} [qty] Quantity, for specific or compound rates.
 * @param {string|Array<Array<string>>} [unit] Unit of the quantity.
 * @param {string|Date|Array<Array<string>>} [date] Entry date, a date cell or "YYYY-MM-DD" (default today): the chapter 99 layers and fees in force that day.
 * @param {string|Array<Array<string>>} [claim] Preference claimed: "auto" (default), "none", "usmca", "korus", "cafta-dr" or a program symbol.
 * @return Section 301 duty in dollars.
 * @customfunction
 */
export function SECTION301(hts: Arg, value: Arg, origin?: Arg, s301?: Arg, ocean?: Arg, qty?: Arg, unit?: Arg, date?: Arg, claim?: Arg): Out[][] {
  return dutyFunction(dutyArgs(hts, value, origin, s301, ocean, qty, unit, date, claim), (r) => r.section_301);
}

/**
 * Section 232 duty (dollars): steel, aluminum, copper, lumber, vehicles and their parts... the sum of the line's Section 232 layers.
 *
 * @param {string|Array<Array<string>>} hts HTS code or range of codes.
 * @param {number|Array<Array<number>>} value Customs value in U.S. dollars.
 * @param {string|Array<Array<string>>} [origin] Country of origin.
 * @param {string|number} [s301] Section 301 setting (25, 7.5, "none", "auto").
 * @param {boolean} [ocean] TRUE when the goods arrive by vessel.
 * @param {number|Array<Array<number>>} [qty] Quantity, for specific or compound rates.
 * @param {string|Array<Array<string>>} [unit] Unit of the quantity.
 * @param {string|Date|Array<Array<string>>} [date] Entry date, a date cell or "YYYY-MM-DD" (default today): the chapter 99 layers and fees in force that day.
 * @param {string|Array<Array<string>>} [claim] Preference claimed: "auto" (default), "none", "usmca", "korus", "cafta-dr" or a program symbol.
 * @return Section 232 duty in dollars.
 * @customfunction
 */
export function S232(hts: Arg, value: Arg, origin?: Arg, s301?: Arg, ocean?: Arg, qty?: Arg, unit?: Arg, date?: Arg, claim?: Arg): Out[][] {
  return dutyFunction(dutyArgs(hts, value, origin, s301, ocean, qty, unit, date, claim), (r) => r.section_232);
}

/**
 * All chapter 99 duty (dollars): Section 232, Section 301, IEEPA, Section 122 and every other additional duty of the line.
 *
 * @param {string|Array<Array<string>>} hts HTS code or range of codes.
 * @param {number|Array<Array<number>>} value Customs value in U.S. dollars.
 * @param {string|Array<Array<string>>} [origin] Country of origin.
 * @param {string|number} [s301] Section 301 setting (25, 7.5, "none", "auto").
 * @param {boolean} [ocean] TRUE when the goods arrive by vessel.
 * @param {number|Array<Array<number>>} [qty] Quantity, for specific or compound rates.
 * @param {string|Array<Array<string>>} [unit] Unit of the quantity.
 * @param {string|Date|Array<Array<string>>} [date] Entry date, a date cell or "YYYY-MM-DD" (default today): the chapter 99 layers and fees in force that day.
 * @param {string|Array<Array<string>>} [claim] Preference claimed: "auto" (default), "none", "usmca", "korus", "cafta-dr" or a program symbol.
 * @return The additional duty in dollars.
 * @customfunction
 */
export function ADDITIONAL(hts: Arg, value: Arg, origin?: Arg, s301?: Arg, ocean?: Arg, qty?: Arg, unit?: Arg, date?: Arg, claim?: Arg): Out[][] {
  return dutyFunction(dutyArgs(hts, value, origin, s301, ocean, qty, unit, date, claim), (r) => r.additional_duty);
}

/**
 * Merchandise processing fee (dollars) of the line entered on its own: 0.3464% of the value within
 * the year's minimum and maximum; none for origins whose free trade agreement exempts them.
 *
 * @param {string|Array<Array<string>>} hts HTS code or range of codes.
 * @param {number|Array<Array<number>>} value Customs value in U.S. dollars.
 * @param {string|Array<Array<string>>} [origin] Country of origin.
 * @param {string|number} [s301] Section 301 setting (25, 7.5, "none", "auto").
 * @param {boolean} [ocean] TRUE when the goods arrive by vessel.
 * @param {number|Array<Array<number>>} [qty] Quantity, for specific or compound rates.
 * @param {string|Array<Array<string>>} [unit] Unit of the quantity.
 * @param {string|Date|Array<Array<string>>} [date] Entry date, a date cell or "YYYY-MM-DD" (default today): the chapter 99 layers and fees in force that day.
 * @param {string|Array<Array<string>>} [claim] Preference claimed: "auto" (default), "none", "usmca", "korus", "cafta-dr" or a program symbol.
 * @return MPF in dollars.
 * @customfunction
 */
export function MPF(hts: Arg, value: Arg, origin?: Arg, s301?: Arg, ocean?: Arg, qty?: Arg, unit?: Arg, date?: Arg, claim?: Arg): Out[][] {
  return dutyFunction(dutyArgs(hts, value, origin, s301, ocean, qty, unit, date, claim), (r) => r.mpf);
}

/**
 * Harbor maintenance fee (dollars): 0.125% of the value of goods arriving by vessel (ocean TRUE), else 0.
 *
 * @param {string|Array<Array<string>>} hts HTS code or range of codes.
 * @param {number|Array<Array<number>>} value Customs value in U.S. dollars.
 * @param {string|Array<Array<string>>} [origin] Country of origin.
 * @param {string|number} [s301] Section 301 setting (25, 7.5, "none", "auto").
 * @param {boolean} [ocean] TRUE when the goods arrive by vessel.
 * @param {number|Array<Array<number>>} [qty] Quantity, for specific or compound rates.
 * @param {string|Array<Array<string>>} [unit] Unit of the quantity.
 * @param {string|Date|Array<Array<string>>} [date] Entry date, a date cell or "YYYY-MM-DD" (default today): the chapter 99 layers and fees in force that day.
 * @param {string|Array<Array<string>>} [claim] Preference claimed: "auto" (default), "none", "usmca", "korus", "cafta-dr" or a program symbol.
 * @return HMF in dollars.
 * @customfunction
 */
export function HMF(hts: Arg, value: Arg, origin?: Arg, s301?: Arg, ocean?: Arg, qty?: Arg, unit?: Arg, date?: Arg, claim?: Arg): Out[][] {
  return dutyFunction(dutyArgs(hts, value, origin, s301, ocean, qty, unit, date, claim), (r) => r.hmf);
}

/**
 * All duties and fees (dollars) of the line entered on its own: duty + every chapter 99 duty (Section 232,
 * 301, IEEPA...) + MPF (0.3464% within the entry's minimum and maximum, this line being the whole
 * entry) + HMF (vessel only). An order's fees are shared across its lines: cost it from the sidebar.
 *
 * @param {string|Array<Array<string>>} hts HTS code or range of codes.
 * @param {number|Array<Array<number>>} value Customs value in U.S. dollars.
 * @param {string|Array<Array<string>>} [origin] Country of origin.
 * @param {string|number} [s301] Section 301 setting (25, 7.5, "none", "auto").
 * @param {boolean} [ocean] TRUE when the goods arrive by vessel.
 * @param {number|Array<Array<number>>} [qty] Quantity, for specific or compound rates.
 * @param {string|Array<Array<string>>} [unit] Unit of the quantity.
 * @param {string|Date|Array<Array<string>>} [date] Entry date, a date cell or "YYYY-MM-DD" (default today): the chapter 99 layers and fees in force that day.
 * @param {string|Array<Array<string>>} [claim] Preference claimed: "auto" (default), "none", "usmca", "korus", "cafta-dr" or a program symbol.
 * @return Total duties and fees in dollars.
 * @customfunction
 */
export function FEES(hts: Arg, value: Arg, origin?: Arg, s301?: Arg, ocean?: Arg, qty?: Arg, unit?: Arg, date?: Arg, claim?: Arg): Out[][] {
  return dutyFunction(dutyArgs(hts, value, origin, s301, ocean, qty, unit, date, claim), withDuty((r) => r.total_duties_fees));
}

/**
 * Landed cost (dollars): the customs value plus all duties and fees.
 *
 * @param {string|Array<Array<string>>} hts HTS code or range of codes.
 * @param {number|Array<Array<number>>} value Customs value in U.S. dollars.
 * @param {string|Array<Array<string>>} [origin] Country of origin.
 * @param {string|number} [s301] Section 301 setting (25, 7.5, "none", "auto").
 * @param {boolean} [ocean] TRUE when the goods arrive by vessel.
 * @param {number|Array<Array<number>>} [qty] Quantity, for specific or compound rates.
 * @param {string|Array<Array<string>>} [unit] Unit of the quantity.
 * @param {string|Date|Array<Array<string>>} [date] Entry date, a date cell or "YYYY-MM-DD" (default today): the chapter 99 layers and fees in force that day.
 * @param {string|Array<Array<string>>} [claim] Preference claimed: "auto" (default), "none", "usmca", "korus", "cafta-dr" or a program symbol.
 * @return Landed cost in dollars.
 * @customfunction
 */
export function LANDED(hts: Arg, value: Arg, origin?: Arg, s301?: Arg, ocean?: Arg, qty?: Arg, unit?: Arg, date?: Arg, claim?: Arg): Out[][] {
  return dutyFunction(dutyArgs(hts, value, origin, s301, ocean, qty, unit, date, claim), withDuty((r) => r.landed_cost));
}

/**
 * The rate of duty that applies to goods of this origin, as the schedule prints it ("16.5%", "Free", "6.3¢/liter").
 *
 * @param {string|Array<Array<string>>} hts HTS code or range of codes.
 * @param {string|Array<Array<string>>} [origin] Country of origin (default mfn).
 * @return The rate, one per code.
 * @customfunction
 */
export function RATE(hts: Arg, origin?: Arg): Out[][] {
  return dutyFunction([['hts', hts], ['origin', origin]], (r) => r.duty_rate ?? new CellError(`#N/A ${r.hts}: no rate of duty is printed for this line`));
}

type Description = { description: string } | { error: LineError };

/** Records (GET /hts/{code}) of codes the duty query refused as headings or subheadings, one request each. */
function recordDescriptions(codes: readonly string[]): Map<string, Description> {
  return cachedLookup<Description>('hts', codes, (missing) => {
    const replies = send<{ description: string; hts_revision: string }>(missing.map((code) => ({ path: `api/v1/hts/${encodeURIComponent(code)}` })));
    const fetched = new Map<string, Fetched<Description>>();
    missing.forEach((code, i) => {
      const r = replies[i];
      if (r instanceof ApiError) fetched.set(code, { value: { error: r.error }, cacheable: r.code === 'not_found' || r.code === 'invalid_parameter' });
      else fetched.set(code, { value: { description: r.data.description }, cacheable: true, revision: r.data.hts_revision });
    });
    return fetched;
  });
}

/**
 * The description of a tariff code as the schedule prints it (headings and subheadings too).
 *
 * @param {string|Array<Array<string>>} hts HTS code or range of codes: 4, 6, 8 or 10 digits.
 * @return The description, one per code.
 * @customfunction
 */
export function DESC(hts: Arg): Out[][] {
  const { shape, queries, outcomes } = dutyCells([['hts', hts]]);
  // Headings and subheadings carry no rate, so the duty query refuses them (naming their level): their records answer.
  const isLevel = (o: Outcome | null): o is { error: LineError } => o !== null && 'error' in o && typeof o.error.details?.level === 'number';
  const code = (i: number) => queries[i]!.hts!;
  const records = recordDescriptions(outcomes.flatMap((o, i) => (isLevel(o) ? [code(i)] : [])));
  const answers: (Description | null)[] = outcomes.map((o, i) => (isLevel(o) ? records.get(code(i))! : o));
  return answer(shape, answers.map((o) => (o === null ? '' : 'error' in o ? new CellError(errorText(o.error)) : o.description)));
}

function resultRow(o: Outcome | null): Out[] {
  if (o === null) return RESULT_COLUMNS.map(() => '');
  if ('error' in o) return RESULT_COLUMNS.map((_, i) => (i === 0 ? errorText(o.error) : ''));
  return resultCells(o);
}

/**
 * The whole DutyResult of each code as a row: hts, description, origin, customs_value, duty_rate,
 * rate_basis, duty, specific_rate, section_301, mpf, hmf, total_duties_fees, landed_cost,
 * special_program, section_301_rate, section_301_heading, hts_revision, notes, origin_country,
 * section_232, additional_duty, assumptions.
 *
 * @param {string|Array<Array<string>>} hts HTS code or range of codes (one row each).
 * @param {number|Array<Array<number>>} value Customs value in U.S. dollars.
 * @param {string|Array<Array<string>>} [origin] Country of origin.
 * @param {string|number} [s301] Section 301 setting (25, 7.5, "none", "auto").
 * @param {boolean} [ocean] TRUE when the goods arrive by vessel.
 * @param {boolean} [header] TRUE to put a row of field names first.
 * @param {number|Array<Array<number>>} [qty] Quantity, for specific or compound rates.
 * @param {string|Array<Array<string>>} [unit] Unit of the quantity.
 * @param {string|Date|Array<Array<string>>} [date] Entry date, a date cell or "YYYY-MM-DD" (default today): the chapter 99 layers and fees in force that day.
 * @param {string|Array<Array<string>>} [claim] Preference claimed: "auto" (default), "none", "usmca", "korus", "cafta-dr" or a program symbol.
 * @return One row per code.
 * @customfunction
 */
export function RESULT(hts: Arg, value: Arg, origin?: Arg, s301?: Arg, ocean?: Arg, header?: Arg, qty?: Arg, unit?: Arg, date?: Arg, claim?: Arg): Out[][] {
  const { shape, outcomes } = dutyCells(dutyArgs(hts, value, origin, s301, ocean, qty, unit, date, claim));
  const [first] = outcomes;
  if (shape.rows * shape.cols === 1 && first && 'error' in first) throw new Error(errorText(first.error));
  const rows = outcomes.map(resultRow);
  return single(header) ? [[...RESULT_COLUMNS], ...rows] : rows;
}

interface Exporters {
  chapter: string;
  chapter_description: string;
  year: number;
  exporters: { rank: number; iso3: string; country: string; value_usd: number; share: number }[];
}

/**
 * The world's leading exporters of the code's HS chapter: rank, ISO code, country, exports in U.S.
 * dollars and share of world exports, under a header row.
 *
 * @param {string} hts An HTS code or chapter (its chapter is used), e.g. "8471" or "85".
 * @param {number} [limit] How many countries (default 10, at most 50).
 * @return A table with a header row.
 * @customfunction
 */
export function EXPORTERS(hts: Arg, limit?: Arg): Out[][] {
  const codes = zipCells([['hts', hts]]).cells.map(([c]) => c).filter((c) => !isBlank(c));
  if (codes.length !== 1) throw new Error(`EXPORTERS takes one HTS code; got ${codes.length}`);
  const query = { hts: readCode(codes[0]), limit: param(single(limit)) as string | number | undefined };
  const key = JSON.stringify(query);
  const answer = cachedLookup<Exporters | { error: LineError }>(
    'exporters',
    [key],
    () => {
      const [r] = send<Exporters>([{ path: 'api/v1/exporters', query }]);
      if (r instanceof ApiError && r.code !== 'not_found' && r.code !== 'invalid_parameter') throw r;
      return new Map([[key, { value: r instanceof ApiError ? { error: r.error } : r.data, cacheable: true }]]);
    },
    { byRevision: false },
  ).get(key)!;
  if ('error' in answer) throw new Error(errorText(answer.error));
  if (!answer.exporters.length) throw new Error(`#N/A No exporter data for chapter ${answer.chapter}`);
  return [['Rank', 'ISO3', 'Country', 'Value (USD)', 'Share'], ...answer.exporters.map((e): Out[] => [e.rank, e.iso3, e.country, e.value_usd, e.share])];
}

/**
 * Find the code: the schedule's lines for words describing the goods (best first, one line per
 * subheading first), or the lines under a code: code, description (heading > ... > line) and
 * general rate, under a header row.
 *
 * @param {string} words Words describing the goods, e.g. "men's cotton t-shirts", or a code such as "8471.30".
 * @param {number} [n] How many lines (default 5, at most 50).
 * @return A table with a header row.
 * @customfunction
 */
export function HTS_SEARCH(words: Arg, n?: Arg): Out[][] {
  const query = { q: String(param(single(words)) ?? ''), limit: (param(single(n)) as string | number | undefined) ?? SPILLED_LINES };
  const key = JSON.stringify(query);
  const answer = cachedLookup<SearchAnswer | { error: LineError }>('search', [key], () => {
    const [r] = send<SearchAnswer>([{ path: 'api/v1/hts', query }]);
    if (r instanceof ApiError && r.code !== 'not_found' && r.code !== 'invalid_parameter') throw r;
    return new Map([[key, r instanceof ApiError ? { value: { error: r.error }, cacheable: true } : { value: r.data, cacheable: true, revision: r.data.hts_revision }]]);
  }).get(key)!;
  if ('error' in answer) throw new Error(errorText(answer.error));
  if (!answer.results.length) throw new Error(`#N/A ${nothingFound(answer)}`);
  return searchCells(answer);
}
