/**
 * An entry (a whole order): each line costed like a single one, except MPF and HMF, which are owed
 * once per entry on the combined value of the lines liable to them (minimum and maximum applied
 * once) and then allocated back to those lines pro rata by value, so the lines add up to the
 * totals cent for cent. A single query is an entry of one line: the same code serves both.
 */
import { errorBodyOf, InputError, invalid, type ErrorBody } from './errors.js';
import { feeScheduleOn, hmfCents, mpfCents } from './fees.js';
import { costLine, type LineCost, type RateBasis } from './line.js';
import { allocate, dollars } from './money.js';
import type { Origin, Origins } from './origins.js';
import { parseDate, parseOcean, parseQuantity, parseS301, parseValue } from './params.js';
import { CAVEATS, MPF_EXEMPT_ORIGINS } from './policy.js';
import type { Schedule } from './schedule.js';

/** The API's DutyResult: the documented fields, then the additions. */
export interface DutyResult {
  hts: string;
  description: string;
  origin: Origin;
  customs_value: number;
  duty_rate: string | null;
  rate_basis: RateBasis;
  duty: number | null;
  specific_rate: boolean;
  section_301: number;
  mpf: number;
  hmf: number;
  total_duties_fees: number;
  landed_cost: number;
  special_program: string | null;
  section_301_rate: number;
  section_301_heading: string | null;
  hts_revision: string;
  notes: string[];
}

export type LineError = ErrorBody;

export type OrderLine = ({ line: number } & DutyResult) | { line: number; error: LineError };

export interface OrderTotals {
  lines: number;
  errors: number;
  customs_value: number;
  duty: number;
  section_301: number;
  mpf: number;
  hmf: number;
  total_duties_fees: number;
  landed_cost: number;
  specific_rate_lines: number;
}

export interface OrderResult {
  lines: OrderLine[];
  totals: OrderTotals;
  hts_revision: string;
  notes: string[];
}

/**
 * The parameters a query takes (GET /duty, a batch query), an order item's fields and an order's
 * own: any other name is refused by name, never ignored (a misspelt `orgin` must not cost as mfn).
 */
export const DUTY_QUERY_PARAMS = ['hts', 'value', 'origin', 's301', 'ocean', 'date', 'qty', 'unit'] as const;
export const ORDER_ITEM_FIELDS = ['hts', 'value', 'origin', 'qty', 'unit'] as const;
export const ORDER_FIELDS = ['items', 'origin', 's301', 'ocean', 'date'] as const;

/** One query, as the API's GET /duty takes it. */
export interface DutyQuery {
  hts?: unknown;
  value?: unknown;
  origin?: unknown;
  s301?: unknown;
  ocean?: unknown;
  date?: unknown;
  qty?: unknown;
  unit?: unknown;
}

export interface OrderItem {
  hts?: unknown;
  value?: unknown;
  origin?: unknown;
  qty?: unknown;
  unit?: unknown;
}

/** A whole entry: items plus the options that hold for all of them. */
export interface Order {
  items: readonly OrderItem[];
  origin?: unknown;
  s301?: unknown;
  ocean?: unknown;
  date?: unknown;
}

export interface Entry {
  schedule: Schedule;
  origins: Origins;
  today: string;
}

/** Costs one query as an entry of one line. Throws InputError for bad input. */
export function costQuery(ctx: Entry, q: DutyQuery): DutyResult {
  const date = parseDate(q.date, ctx.today);
  const cost = costLine(ctx.schedule, {
    hts: q.hts,
    valueCents: parseValue(q.value),
    origin: ctx.origins.resolve(q.origin),
    quantity: parseQuantity(q.qty, q.unit),
    s301: parseS301(q.s301),
    date,
  });
  const fees = entryFees([cost], parseOcean(q.ocean), date);
  return result(cost, fees.mpf[0], fees.hmf[0], ctx.schedule.revision, fees.notes);
}

/**
 * Costs an entry. Order-level options must be valid (they hold for every line); a bad item only
 * turns its own line into an error.
 */
export function costOrder(ctx: Entry, order: Order): OrderResult {
  const date = parseDate(order.date, ctx.today);
  const ocean = parseOcean(order.ocean);
  const s301 = parseS301(order.s301);
  if (!Array.isArray(order.items)) throw invalid('items', 'items must be an array of order lines');
  // The order's origin is the default of every line, so it must be valid itself.
  ctx.origins.resolve(order.origin);
  const costs: (LineCost | LineError)[] = order.items.map((item, i) => {
    const p = `items[${i}]`;
    try {
      if (item === null || typeof item !== 'object' || Array.isArray(item))
        throw new InputError('invalid_parameter', p, `${p} must be an object with hts and value`);
      return costLine(
        ctx.schedule,
        {
          hts: item.hts,
          valueCents: parseValue(item.value, `${p}.value`),
          origin: ctx.origins.resolve(item.origin ?? order.origin, `${p}.origin`),
          quantity: parseQuantity(item.qty, item.unit, `${p}.qty`, `${p}.unit`),
          s301,
          date,
        },
        `${p}.hts`,
      );
    } catch (e) {
      return lineError(e);
    }
  });
  const ok = costs.filter((c): c is LineCost => !('code' in c));
  const fees = entryFees(ok, ocean, date);
  const lines: OrderLine[] = [];
  let k = 0;
  costs.forEach((c, i) => {
    if ('code' in c) lines.push({ line: i + 1, error: c });
    else {
      lines.push(result(c, fees.mpf[k], fees.hmf[k], ctx.schedule.revision, [], i + 1) as OrderLine);
      k++;
    }
  });
  const sum = (f: (c: LineCost, i: number) => number): number => ok.reduce((s, c, i) => s + f(c, i), 0);
  const valueCents = sum((c) => c.valueCents);
  const dutyCents = sum((c) => c.dutyCents ?? 0);
  const s301Cents = sum((c) => c.section301Cents);
  const totalCents = dutyCents + s301Cents + fees.mpfTotal + fees.hmfTotal;
  return {
    lines,
    totals: {
      lines: costs.length,
      errors: costs.length - ok.length,
      customs_value: dollars(valueCents),
      duty: dollars(dutyCents),
      section_301: dollars(s301Cents),
      mpf: dollars(fees.mpfTotal),
      hmf: dollars(fees.hmfTotal),
      total_duties_fees: dollars(totalCents),
      landed_cost: dollars(valueCents + totalCents),
      specific_rate_lines: ok.filter((c) => c.specific).length,
    },
    hts_revision: ctx.schedule.revision,
    notes: [...fees.notes, ...CAVEATS],
  };
}

interface EntryFees {
  mpfTotal: number;
  hmfTotal: number;
  /** Per line, in the order of the lines given. */
  mpf: number[];
  hmf: number[];
  notes: string[];
}

/** MPF and HMF owed by the entry, and each line's share. */
export function entryFees(lines: readonly LineCost[], ocean: boolean, date: string): EntryFees {
  const f = feeScheduleOn(date);
  const mpfWeights = lines.map((c) => (MPF_EXEMPT_ORIGINS.has(c.origin.origin) ? 0 : c.valueCents));
  const mpfTotal = mpfCents(mpfWeights.reduce((s, w) => s + w, 0), f);
  const hmfWeights = lines.map((c) => (ocean ? c.valueCents : 0));
  const hmfTotal = hmfCents(hmfWeights.reduce((s, w) => s + w, 0), f);
  const notes: string[] = [];
  if (f.note && (mpfTotal || hmfTotal)) notes.push(f.note);
  return { mpfTotal, hmfTotal, mpf: allocate(mpfTotal, mpfWeights), hmf: allocate(hmfTotal, hmfWeights), notes };
}

/**
 * The result of a costed line. `line` is its number in an order; a single query has none (the key
 * is there, undefined, which JSON leaves out): one object literal either way, no copy per line.
 */
function result(c: LineCost, mpf: number, hmf: number, revision: string, entryNotes: string[], line?: number): DutyResult {
  const total = (c.dutyCents ?? 0) + c.section301Cents + mpf + hmf;
  const exempt = mpf === 0 && c.valueCents > 0 && MPF_EXEMPT_ORIGINS.has(c.origin.origin);
  return {
    line,
    hts: c.line.hts,
    description: c.line.description,
    origin: c.origin.origin,
    customs_value: dollars(c.valueCents),
    duty_rate: c.rateText,
    rate_basis: c.rateBasis,
    duty: c.dutyCents === null ? null : dollars(c.dutyCents),
    specific_rate: c.specific,
    section_301: dollars(c.section301Cents),
    mpf: dollars(mpf),
    hmf: dollars(hmf),
    total_duties_fees: dollars(total),
    landed_cost: dollars(c.valueCents + total),
    special_program: c.specialProgram,
    section_301_rate: c.section301.percent,
    section_301_heading: c.section301.heading,
    hts_revision: revision,
    notes: c.notes.concat(exempt ? [noMpfNote(c.origin.origin)] : [], entryNotes, CAVEATS),
  } as DutyResult;
}

const noMpfNotes = new Map<Origin, string>();
function noMpfNote(origin: Origin): string {
  let note = noMpfNotes.get(origin);
  if (!note) noMpfNotes.set(origin, (note = `No MPF: goods originating in ${origin.toUpperCase()} are exempt under the free trade agreement.`));
  return note;
}

function lineError(e: unknown): LineError {
  if (e instanceof InputError) return errorBodyOf(e);
  throw e;
}
