/**
 * An entry (a whole order): each line costed like a single one, except MPF and HMF, which are owed
 * once per entry on the combined value of the lines liable to them (minimum and maximum applied
 * once) and then allocated back to those lines pro rata by value, so the lines add up to the
 * totals cent for cent. A single query is an entry of one line: the same code serves both.
 */
import { FACT_PARAMS, NO_FACTS, type Claim, type ImporterFacts } from './claims.js';
import { codeDigits } from './codes.js';
import { errorBodyOf, InputError, invalid, type ErrorBody } from './errors.js';
import { feeScheduleOn, hmfCents, mpfCents } from './fees.js';
import { costLine, type FoundLines, type LineCost, type LineInput, type RateBasis } from './line.js';
import { allocate, allocatePart, dollars } from './money.js';
import type { Origin, Origins } from './origins.js';
import { checkFields, parseClaim, parseDate, parseFacts, parseOcean, parseQuantity, parseS301, parseValue } from './params.js';
import { CAVEATS } from './policy.js';
import { parseEntryNumber, refundByHeading, type RefundByHeading } from './refund.js';
import type { Chapter99, Layer } from './stacking.js';

/** One chapter 99 layer applied to the line (Section 232, 301, IEEPA, 122, ...). */
export type AdditionalDuty = Layer;

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
  /** ISO2 of the origin country; null when only an origin program (mfn, col2) was given. */
  origin_country: string | null;
  additional_duties: AdditionalDuty[];
  /** Sum of the Section 232 layers. */
  section_232: number;
  /** Sum of every layer (section_301, every Section 301 action, included). */
  additional_duty: number;
  /** What was assumed for facts the caller did not give. */
  assumptions: string[];
  /**
   * Present only when an upper bound stood in for a metal content the caller did not give: the metals
   * (`steel`, `aluminum`, `copper`) whose `*_content` would make the estimate exact.
   */
  content_needed?: string[];
  /**
   * Present (true) only when a ten-digit code whose statistical suffix the schedule does not have was costed at its
   * 8-digit line and chapter 99 lists name ten-digit lines under it: the layers depend on the suffix (said in assumptions).
   */
  statistical_suffix_needed?: true;
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
  section_232: number;
  additional_duty: number;
  /** Total of each program's layers, by program identifier. */
  by_program: Record<string, number>;
  /** Total of the refundable (IEEPA) layers. */
  refundable: number;
  /** The same by 9903 heading, and per entry when the items carry entry numbers (refund.ts). */
  refundable_by_heading: RefundByHeading;
  /** The value of the lines liable to MPF and to HMF: summed over the parts of an entry sent in several requests. */
  mpf_basis: number;
  hmf_basis: number;
  /** With `entry`: the whole entry's fees (mpf and hmf are then this part's share). */
  entry_mpf?: number;
  entry_hmf?: number;
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
export const DUTY_QUERY_PARAMS = ['hts', 'value', 'origin', 's301', 'ocean', 'date', 'qty', 'unit', 'claim', ...FACT_PARAMS] as const;
export const ORDER_ITEM_FIELDS = ['hts', 'value', 'origin', 'qty', 'unit', 'claim', 'date', 'entry_number', ...FACT_PARAMS] as const;
/** An order's claim and facts are the defaults of its items. */
export const ORDER_FIELDS = ['items', 'origin', 's301', 'ocean', 'date', 'entry', 'claim', ...FACT_PARAMS] as const;

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
  claim?: unknown;
  us_content?: unknown;
  steel_content?: unknown;
  aluminum_content?: unknown;
  copper_content?: unknown;
  part_for?: unknown;
  patented?: unknown;
  uk_melted?: unknown;
  uk_quota?: unknown;
  chip_qualifies?: unknown;
}

/** The importer's facts and claim, as a query, an order item or an order's defaults give them. */
type Facts = Pick<DutyQuery, 'claim' | 'us_content' | 'steel_content' | 'aluminum_content' | 'copper_content' | 'part_for' | 'patented' | 'uk_melted' | 'uk_quota' | 'chip_qualifies'>;

export interface OrderItem extends Facts {
  hts?: unknown;
  value?: unknown;
  origin?: unknown;
  qty?: unknown;
  unit?: unknown;
  /** The line's own entry date (default the order's): lines of each date are an entry of their own for the fees. */
  date?: unknown;
  /** The entry the line was declared on: groups totals.refundable_by_heading. */
  entry_number?: unknown;
}

/** A whole entry: items plus the options that hold for all of them (the facts and claim as defaults of the items). */
export interface Order extends Facts {
  items: readonly OrderItem[];
  origin?: unknown;
  s301?: unknown;
  ocean?: unknown;
  date?: unknown;
  /** This request is one part of a larger entry (an order sent in several requests): see EntryPart. */
  entry?: unknown;
}

/**
 * An order of more than one request is still one entry: MPF (its minimum and maximum once) and HMF
 * are owed on the whole. The caller first costs each part and adds up their `mpf_basis` and
 * `hmf_basis`; it then sends each part again with the sums and what the parts before it held, and
 * each line gets its share of the entry's fees, so the parts add up to them to the cent.
 */
export const ENTRY_FIELDS = ['mpf_basis', 'hmf_basis', 'mpf_basis_before', 'hmf_basis_before'] as const;

interface EntryPart {
  /** Cents: the value of the entry's lines liable to MPF and to HMF, and of those in earlier parts. */
  mpfBasis: number;
  hmfBasis: number;
  mpfBefore: number;
  hmfBefore: number;
}

function parseEntry(input: unknown): EntryPart | null {
  if (input === undefined || input === null) return null;
  if (typeof input !== 'object' || Array.isArray(input)) throw invalid('entry', `entry must be an object with ${ENTRY_FIELDS.join(', ')}`);
  checkFields(input, ENTRY_FIELDS, 'entry.');
  const e = input as Record<string, unknown>;
  for (const f of ENTRY_FIELDS) if (e[f] === undefined) throw invalid(`entry.${f}`, `entry.${f} is required (dollars)`);
  return {
    mpfBasis: parseValue(e.mpf_basis, 'entry.mpf_basis'),
    hmfBasis: parseValue(e.hmf_basis, 'entry.hmf_basis'),
    mpfBefore: parseValue(e.mpf_basis_before, 'entry.mpf_basis_before'),
    hmfBefore: parseValue(e.hmf_basis_before, 'entry.hmf_basis_before'),
  };
}

export interface Entry {
  /** The lines of the schedule in force on an entry date, as queries find them (a memo of the Tariff's per revision). */
  linesOn(date: string): FoundLines;
  chapter99: Chapter99;
  origins: Origins;
  today: string;
}

/** What an order (or a single query) gives every line that does not say otherwise. */
interface LineDefaults {
  origin: unknown;
  s301: string | null;
  date: string;
  claim: Claim;
  facts: ImporterFacts;
}

/**
 * One query or order line, parsed and validated in one place, whatever the caller (GET /duty, a
 * batch query, a bulk item, the CLI, the add-ins through the API): every field is read here, once,
 * into the typed input costing takes; errors name the field as the caller wrote it (`p`).
 */
function parseLine(origins: Origins, src: DutyQuery | OrderItem, d: LineDefaults, p: ItemNames): LineInput {
  const valueCents = parseValue(src.value, p.value);
  return {
    valueCents,
    origin: origins.resolve(src.origin ?? d.origin, p.origin),
    quantity: parseQuantity(src.qty, src.unit, p.qty, p.unit),
    s301: d.s301,
    date: parseDate(src.date, d.date, p.date),
    claim: src.claim === undefined ? d.claim : parseClaim(src.claim, p.claim),
    facts: parseFacts(src, valueCents, d.facts, p.prefix),
    hts: codeDigits(src.hts, p.hts),
    htsParameter: p.hts,
    entryNumber: parseEntryNumber((src as OrderItem).entry_number, p.entryNumber),
  };
}

/** Costs one query as an entry of one line. Throws InputError for bad input. */
export function costQuery(ctx: Entry, q: DutyQuery): DutyResult {
  const input = parseLine(ctx.origins, q, { origin: undefined, s301: parseS301(q.s301), date: ctx.today, claim: parseClaim(undefined), facts: NO_FACTS }, QUERY_NAMES);
  const ocean = parseOcean(q.ocean);
  const lines = ctx.linesOn(input.date);
  const cost = costLine(lines, ctx.chapter99, input);
  const fees = entryFees([cost], ocean, input.date);
  return result(cost, fees.mpf[0], fees.hmf[0], lines.schedule.revision, fees.notes.length ? [...fees.notes, ...CAVEATS] : CAVEATS);
}

/**
 * Costs an entry. Order-level options must be valid (they hold for every line); a bad item only
 * turns its own line into an error.
 */
export function costOrder(ctx: Entry, order: Order): OrderResult {
  const date = parseDate(order.date, ctx.today);
  const ocean = parseOcean(order.ocean);
  const defaults: LineDefaults = { origin: order.origin, s301: parseS301(order.s301), date, claim: parseClaim(order.claim), facts: parseFacts(order, Number.MAX_SAFE_INTEGER) };
  const entry = parseEntry(order.entry);
  if (!Array.isArray(order.items)) throw invalid('items', 'items must be an array of order lines');
  // A misspelt field of the order or of any item refuses the order (by name): it is a mistake of
  // the caller's, never data to ignore. A line that is not an object is that line's own error.
  checkFields(order, ORDER_FIELDS);
  const items = order.items;
  for (let i = 0; i < items.length; i++) {
    const item = items[i];
    if (item !== null && typeof item === 'object' && !Array.isArray(item)) checkFields(item, ORDER_ITEM_FIELDS, itemNames(i).prefix);
  }
  // The order's origin is the default of every line, so it must be valid itself.
  ctx.origins.resolve(order.origin);
  const costs = new Array<LineCost | LineError>(items.length);
  const entryNumbers = new Array<string | null>(items.length).fill(null);
  const dates = new Array<string>(items.length).fill(date);
  /** The revision each line was costed on (its entry date's: docs/data.md). */
  const revisions = new Array<string>(items.length);
  const ok: LineCost[] = [];
  /** The costed lines (indices into ok) of each entry date, in the order the dates first appear. */
  const byDate = new Map<string, number[]>();
  for (let i = 0; i < items.length; i++) {
    const item = items[i];
    const p = itemNames(i);
    try {
      if (item === null || typeof item !== 'object' || Array.isArray(item))
        throw new InputError('invalid_parameter', p.item, `${p.item} must be an object with hts and value`);
      const input = parseLine(ctx.origins, item, defaults, p);
      // One part of a larger entry (`entry`) is of the order's date: a line of another date is that line's error.
      if (entry && input.date !== date)
        throw invalid(p.date, `${p.date} ${input.date} is not the order's date ${date}: the parts of one entry (entry) share its entry date`);
      const own = (dates[i] = input.date);
      entryNumbers[i] = input.entryNumber;
      const lines = ctx.linesOn(own);
      revisions[i] = lines.schedule.revision;
      const cost = costLine(lines, ctx.chapter99, input);
      costs[i] = cost;
      const group = byDate.get(own);
      if (group) group.push(ok.length);
      else byDate.set(own, [ok.length]);
      ok.push(cost);
    } catch (e) {
      costs[i] = lineError(e);
    }
  }
  const fees = datedEntryFees(ok, byDate, ocean, date, entry);
  const lines = new Array<OrderLine>(costs.length);
  let k = 0;
  for (let i = 0; i < costs.length; i++) {
    const c = costs[i];
    // The entry's notes and the caveats are the order's, once: a line carries only its own.
    lines[i] = 'code' in c ? { line: i + 1, error: c } : (result(c, fees.mpf[k], fees.hmf[k++], revisions[i], NO_NOTES, i + 1) as OrderLine);
  }
  let valueCents = 0;
  let dutyCents = 0;
  let s301Cents = 0;
  let s232Cents = 0;
  let additionalCents = 0;
  let specificLines = 0;
  let refundableCents = 0;
  const byProgram = new Map<string, number>();
  for (const c of ok) {
    valueCents += c.valueCents;
    dutyCents += c.dutyCents ?? 0;
    s301Cents += c.section301Cents;
    s232Cents += c.section232Cents;
    additionalCents += c.additionalCents;
    if (c.specific) specificLines++;
    // By index: an iterator over the layers (a frozen empty list or a holey one) was made anew for every line.
    for (let j = 0; j < c.layers.length; j++) {
      const l = c.layers[j];
      // An exemption's heading owes nothing: not a program of the totals.
      if (l.rate_kind === 'exempt') continue;
      const cents = Math.round(l.amount * 100); // exact: amounts are whole cents
      byProgram.set(l.program, (byProgram.get(l.program) ?? 0) + cents);
      if (l.refundable) refundableCents += cents;
    }
  }
  const totalCents = dutyCents + additionalCents + fees.mpfTotal + fees.hmfTotal;
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
      specific_rate_lines: specificLines,
      section_232: dollars(s232Cents),
      additional_duty: dollars(additionalCents),
      by_program: Object.fromEntries([...byProgram].map(([p, cents]) => [p, dollars(cents)])),
      refundable: dollars(refundableCents),
      refundable_by_heading: refundByHeading(costs.map((c, i) => ({ entryNumber: entryNumbers[i], date: dates[i], layers: 'code' in c ? null : c.layers }))),
      mpf_basis: dollars(fees.mpfBasis),
      hmf_basis: dollars(fees.hmfBasis),
      ...(entry ? { entry_mpf: dollars(fees.entryMpf), entry_hmf: dollars(fees.entryHmf) } : {}),
    },
    hts_revision: orderRevision(revisions, () => ctx.linesOn(date).schedule.revision),
    notes: [...fees.notes, ...CAVEATS],
  };
}

const NO_NOTES: readonly string[] = Object.freeze([]);

/** The revisions an order's lines were costed on, in order of first use (`; ` between), or the order date's when no line was costed. */
function orderRevision(revisions: readonly (string | undefined)[], ofDate: () => string): string {
  let first: string | undefined;
  let all: Set<string> | undefined;
  for (const r of revisions) {
    if (r === undefined || r === first) continue;
    if (first === undefined) first = r;
    else (all ??= new Set([first])).add(r);
  }
  return all ? [...all].join('; ') : (first ?? ofDate());
}

/** The names of an order item's parameters in errors (`items[3].value`), made once per position, not per line costed. */
interface ItemNames {
  item: string;
  prefix: string;
  hts: string;
  value: string;
  origin: string;
  qty: string;
  unit: string;
  claim: string;
  date: string;
  entryNumber: string;
}
const itemNamesAt: ItemNames[] = [];
/** A single query's parameters are named as they are. */
const QUERY_NAMES: ItemNames = { item: 'query', prefix: '', hts: 'hts', value: 'value', origin: 'origin', qty: 'qty', unit: 'unit', claim: 'claim', date: 'date', entryNumber: 'entry_number' };

function itemNames(i: number): ItemNames {
  let names = itemNamesAt[i];
  if (!names) {
    const item = `items[${i}]`;
    names = { item, prefix: `${item}.`, hts: `${item}.hts`, value: `${item}.value`, origin: `${item}.origin`, qty: `${item}.qty`, unit: `${item}.unit`, claim: `${item}.claim`, date: `${item}.date`, entryNumber: `${item}.entry_number` };
    // Orders are at most a few thousand lines; a longer one's names are made as needed.
    if (i < 10_000) itemNamesAt[i] = names;
  }
  return names;
}

interface EntryFees {
  /** This request's share of the entry's fees (the whole, unless the request is one part). */
  mpfTotal: number;
  hmfTotal: number;
  /** The entry's fees. */
  entryMpf: number;
  entryHmf: number;
  /** The value of this request's lines liable to each fee. */
  mpfBasis: number;
  hmfBasis: number;
  /** Per line, in the order of the lines given. */
  mpf: number[];
  hmf: number[];
  notes: string[];
}

/**
 * The fees of an order whose lines carry their own entry dates: the lines of each date are an entry
 * of their own (MPF minimum and maximum each), as lines entered on different days are. `byDate`
 * holds each date's lines (indices into `lines`); an order of one date is entryFees itself.
 */
function datedEntryFees(lines: readonly LineCost[], byDate: ReadonlyMap<string, number[]>, ocean: boolean, date: string, part: EntryPart | null): EntryFees {
  if (byDate.size <= 1) return entryFees(lines, ocean, byDate.keys().next().value ?? date, part);
  const sum: EntryFees = { mpfTotal: 0, hmfTotal: 0, entryMpf: 0, entryHmf: 0, mpfBasis: 0, hmfBasis: 0, mpf: new Array<number>(lines.length), hmf: new Array<number>(lines.length), notes: [] };
  for (const [d, group] of byDate) {
    const f = entryFees(group.map((i) => lines[i]), ocean, d);
    group.forEach((i, k) => {
      sum.mpf[i] = f.mpf[k];
      sum.hmf[i] = f.hmf[k];
    });
    sum.mpfTotal += f.mpfTotal;
    sum.hmfTotal += f.hmfTotal;
    sum.entryMpf += f.entryMpf;
    sum.entryHmf += f.entryHmf;
    sum.mpfBasis += f.mpfBasis;
    sum.hmfBasis += f.hmfBasis;
    for (const n of f.notes) if (!sum.notes.includes(n)) sum.notes.push(n);
  }
  sum.notes.push(`The lines have ${byDate.size} entry dates: each date is costed as an entry of its own (MPF minimum and maximum apply to each).`);
  return sum;
}

/** MPF and HMF owed by the entry, and each line's share; `part` when the lines are one part of a larger entry. */
export function entryFees(lines: readonly LineCost[], ocean: boolean, date: string, part: EntryPart | null = null): EntryFees {
  const f = feeScheduleOn(date);
  const mpfWeights = new Array<number>(lines.length);
  const hmfWeights = new Array<number>(lines.length);
  let mpfBasis = 0;
  let hmfBasis = 0;
  for (let i = 0; i < lines.length; i++) {
    const c = lines[i];
    mpfBasis += mpfWeights[i] = c.mpfExemption !== null ? 0 : c.valueCents;
    hmfBasis += hmfWeights[i] = ocean ? c.valueCents : 0;
  }
  if (part) {
    for (const [name, before, basis, total] of [['mpf', part.mpfBefore, mpfBasis, part.mpfBasis], ['hmf', part.hmfBefore, hmfBasis, part.hmfBasis]] as const)
      if (before + basis > total)
        throw invalid(`entry.${name}_basis`, `entry.${name}_basis is ${dollars(total)} but the parts before this one (${dollars(before)}) and this one (${dollars(basis)}) hold more: send the sums of every part's totals.${name}_basis`);
  }
  const entryMpf = mpfCents(part ? part.mpfBasis : mpfBasis, f);
  const entryHmf = hmfCents(part ? part.hmfBasis : hmfBasis, f);
  const mpf = part ? allocatePart(entryMpf, part.mpfBasis, part.mpfBefore, mpfWeights) : allocate(entryMpf, mpfWeights);
  const hmf = part ? allocatePart(entryHmf, part.hmfBasis, part.hmfBefore, hmfWeights) : allocate(entryHmf, hmfWeights);
  const notes: string[] = f.note && (entryMpf || entryHmf) ? [f.note] : [];
  if (part) notes.push(`This request is one part of an entry: its lines carry their share of the entry's MPF (${dollars(entryMpf)}) and HMF (${dollars(entryHmf)}).`);
  const sum = (xs: number[]) => xs.reduce((s, x) => s + x, 0);
  return { mpfTotal: part ? sum(mpf) : entryMpf, hmfTotal: part ? sum(hmf) : entryHmf, entryMpf, entryHmf, mpfBasis, hmfBasis, mpf, hmf, notes };
}

/**
 * The result of a costed line. `line` is its number in an order; a single query has none (the key
 * is there, undefined, which JSON leaves out): one object literal either way, no copy per line.
 * `after`: the notes that follow the line's own (a single query's fee notes and the caveats).
 */
function result(c: LineCost, mpf: number, hmf: number, revision: string, after: readonly string[], line?: number): DutyResult {
  const total = (c.dutyCents ?? 0) + c.additionalCents + mpf + hmf;
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
    notes: notesList(c.notes, mpf === 0 && c.valueCents > 0 ? c.mpfExemption : null, after),
    origin_country: c.country,
    additional_duties: c.layers as Layer[],
    section_232: dollars(c.section232Cents),
    additional_duty: dollars(c.additionalCents),
    assumptions: c.assumptions as string[],
    ...(c.contentNeeded.length ? { content_needed: c.contentNeeded as string[] } : {}),
    ...(c.statisticalSuffixNeeded ? { statistical_suffix_needed: true } : {}),
  } as DutyResult;
}

/** The line's own notes, then `extra` (unless null), then `after`: the line's own list when nothing follows. */
function notesList(own: readonly string[], extra: string | null, after: readonly string[]): string[] {
  if (extra === null && after.length === 0) return own as string[];
  // A loop: concat and spread cost several times as much, once per result.
  const notes = new Array<string>(own.length + (extra === null ? 0 : 1) + after.length);
  let k = 0;
  for (let i = 0; i < own.length; i++) notes[k++] = own[i];
  if (extra !== null) notes[k++] = extra;
  for (let i = 0; i < after.length; i++) notes[k++] = after[i];
  return notes;
}

function lineError(e: unknown): LineError {
  if (e instanceof InputError) return errorBodyOf(e);
  throw e;
}
