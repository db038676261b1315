/**
 * What both add-ins write beside a costed order: a row of results per line with its status and its
 * colour, the totals row, and the record of what the costing used (schedule revision, entry date,
 * options, time, and the order's notes as its cell note), so a printed quote can be checked later.
 * Hosts only write the cells.
 */
import type { DutyResult, OrderLine, OrderTotals } from '../shared/order.js';
import { feeYearsUsed } from '../shared/fees.js';
import { inInvoiceUnit, unknownUnitText, type SentQuantity } from './invoice-units.js';
import { addRefunds } from './refund-totals.js';
import { DECIMAL_MARKS, money, NOTES_COLUMN, RESULT_HEADERS, STATUS_COLUMN, type OrderOptions, type SheetLine } from './order-sheet.js';

export type LineKind = 'ok' | 'warning' | 'error';

/**
 * The columns of both add-ins' RESULT function, in the API's names: the first columns as they have
 * always been, then the chapter 99 ones, appended so sheets reading columns by position keep working.
 */
export const RESULT_COLUMNS = [
  'hts', 'description', 'origin', 'customs_value', 'duty_rate', 'rate_basis', 'duty', 'specific_rate', 'section_301', 'mpf', 'hmf',
  'total_duties_fees', 'landed_cost', 'special_program', 'section_301_rate', 'section_301_heading', 'hts_revision', 'notes',
  'origin_country', 'section_232', 'additional_duty', 'assumptions', 'content_needed', 'statistical_suffix_needed',
] as const satisfies readonly (keyof DutyResult)[];

/** A result's RESULT row: lists of sentences joined by spaces, nothing for null. */
export function resultCells(r: DutyResult): (string | number | boolean)[] {
  return RESULT_COLUMNS.map((c) => {
    const v = r[c];
    return Array.isArray(v) ? v.join(' ') : (v ?? '');
  });
}
/** Cell backgrounds: an error line red, a line without its duty yellow. */
export const KIND_COLOURS: Record<LineKind, string | null> = { ok: null, warning: '#fff2cc', error: '#f4cccc' };

/**
 * A line's row and colour. No cell note: what the add-in did and what the API said of the line are
 * in its Assumptions/Notes cell, and a note on the Status cell would only repeat it.
 */
export interface LineOutput {
  cells: (string | number)[];
  kind: LineKind;
  /** A line without its duty: the landed cost its blank Landed cost cell leaves out of the total (the API's, with the duty as 0). */
  leftOut?: number;
}

/** Why the API left `duty` null (a specific or compound rate without a quantity, a text rate, no rate). */
export function dutyNotComputed(r: Pick<DutyResult, 'notes' | 'specific_rate' | 'duty_rate'>): string {
  const reason = r.notes.find((n) => /not computed|to compute the duty|cannot be converted|no rate of duty/i.test(n));
  if (reason) return reason;
  return r.specific_rate
    ? `The rate "${r.duty_rate}" is specific or compound: the duty needs a quantity.`
    : `The duty is not computed for the rate ${r.duty_rate === null ? '(none printed)' : `"${r.duty_rate}"`}.`;
}

/** The unit a specific rate is per, as its text or its reason says (`18.7¢/m2` → m2); null when neither says. */
function rateUnit(r: Pick<DutyResult, 'notes' | 'duty_rate'>): string | null {
  for (const n of r.notes) {
    const m = /\(per (?:[\d.]+ )?([^)]+)\)|is per ([^;]+);/.exec(n);
    if (m) return m[1] ?? m[2];
  }
  return /[¢$][\d.]+\/\s*([^\s+;)]+)/.exec(r.duty_rate ?? '')?.[1] ?? null;
}

/**
 * The message of a function cell without its duty, in both hosts (`fn` is the function as the host
 * names it: TARIFF.DUTY, DUTY): why, once, and for a specific rate the call that gives the quantity
 * in the rate's own unit.
 */
export function missingDutyText(r: Pick<DutyResult, 'hts' | 'notes' | 'specific_rate' | 'duty_rate'>, fn: string, sent: Pick<SentQuantity, 'unit' | 'word'> = {}): string {
  const unit = r.specific_rate ? rateUnit(r) : null;
  const hint = unit ? ` For example =${fn}(hts, value, origin, , , 100, "${unit}").` : '';
  return `${r.hts}: ${inInvoiceUnit(dutyNotComputed(r), sent)}${hint}`;
}

/** A count as every message of both add-ins shows it: `5,000`. */
export const count = (n: number): string => n.toLocaleString('en-US');
/** `1 line`, `5,000 lines`. */
export const lineCount = (n: number): string => `${count(n)} line${n === 1 ? '' : 's'}`;

const blankRow = (): (string | number)[] => RESULT_HEADERS.map(() => '');

/** The chapter 99 layers of a line: `s232_metals 9903.82.02; s301_forced_labor 9903.05.84` (no heading for a rate the caller set). */
const programs = (r: DutyResult): string => r.additional_duties.map((d) => (d.heading ? `${d.program} ${d.heading}` : d.program)).join('; ');

/** The additional duties other than Sections 301 (every action: China, note 52, Brazil) and 232: IEEPA, Section 122, ...; in whole cents. */
const otherAdditional = (r: Pick<DutyResult, 'additional_duty' | 'section_301' | 'section_232'>): number =>
  Math.round(r.additional_duty * 100 - r.section_301 * 100 - r.section_232 * 100) / 100;

/**
 * A line's row. `costed` is the API's answer for it (absent when the add-in could not read the
 * line); `orderNotes` are the notes of the whole order (the caveats), left out of each line's
 * notes: they are once on the costing record.
 */
export function lineOutput(line: SheetLine, costed: OrderLine | undefined, orderNotes: readonly string[]): LineOutput {
  // The API names the unit it was sent (each); the line's messages name the invoice's (CTN).
  const said = (text: string) => inInvoiceUnit(text, { unit: String(line.item?.unit), word: line.unitWord });
  const own = (notes: readonly string[]) => said([...line.notes, ...(line.codeNotes ?? []), ...notes.filter((n) => !orderNotes.includes(n))].join('\n'));
  const error = line.error ?? (costed && 'error' in costed ? costed.error.message.replace(/^items\[\d+\]\./, '') : undefined);
  if (error !== undefined || !costed || 'error' in costed) {
    const cells = blankRow();
    // What the add-in did (value = Qty × Unit price) still stands beside a line the API refused.
    cells[NOTES_COLUMN] = own([]);
    cells[STATUS_COLUMN] = `Error: ${error ?? 'not costed'}`;
    return { cells, kind: 'error' };
  }
  const notes = own([...costed.assumptions, ...costed.notes]);
  const layers = [costed.section_301, costed.section_232, otherAdditional(costed), costed.mpf, costed.hmf];
  // Without the duty, the landed cost would be understated: both are left blank, with the reason.
  if (costed.duty === null) {
    const why = line.unknownUnit && costed.specific_rate ? unknownUnitText(line.unknownUnit, costed.duty_rate) : said(dutyNotComputed(costed));
    return { cells: ['', ...layers, '', costed.duty_rate ?? '', programs(costed), notes, why], kind: 'warning', leftOut: costed.landed_cost };
  }
  return { cells: [costed.duty, ...layers, costed.landed_cost, costed.duty_rate ?? '', programs(costed), notes, okStatus(line, costed)], kind: 'ok' };
}

/**
 * "OK", with what the figures rest on in brackets: a value the add-in computed, metal content the
 * API took as an upper bound (the order's content columns it asks for), a code it costed at eight
 * digits whose statistical suffix decides a chapter 99 heading.
 */
function okStatus(line: SheetLine, costed: DutyResult): string {
  const said: string[] = [];
  if (line.notes.length) said.push('value = Qty × Unit price');
  if (costed.content_needed?.length) said.push(`upper bound: give ${costed.content_needed.map((m) => `${m[0].toUpperCase()}${m.slice(1)} content`).join(', ')}`);
  if (costed.statistical_suffix_needed) said.push('give the full ten-digit code');
  return said.length ? `OK (${said.join('; ')})` : 'OK';
}

/**
 * The totals as the sheet shows them, so that each is the sum of its column: the lines the add-in
 * could not read counted as errors, and the Landed cost of the lines without a duty (their cell is
 * blank) taken out. Their value, Sections 301 and 232, MPF and HMF stay in those totals, as their
 * cells show them; the totals row's Status and the Landed cost label say how many are left out.
 */
export function shownTotals(t: OrderTotals, outputs: readonly LineOutput[], unread: number): OrderTotals {
  const leftOut = outputs.reduce((c, o) => c + Math.round((o.leftOut ?? 0) * 100), 0);
  return { ...t, lines: t.lines + unread, errors: t.errors + unread, landed_cost: (Math.round(t.landed_cost * 100) - leftOut) / 100 };
}

/** The lines written without a duty (and so without a Landed cost). */
export const dutyMissing = (outputs: readonly LineOutput[]): number => outputs.filter((o) => o.leftOut !== undefined).length;

const TOTAL_FIELDS = [
  'lines', 'errors', 'customs_value', 'duty', 'section_301', 'section_232', 'additional_duty', 'refundable', 'mpf', 'hmf', 'total_duties_fees', 'landed_cost', 'specific_rate_lines',
] as const satisfies readonly Exclude<keyof OrderTotals, 'by_program' | 'refundable_by_heading'>[];

/** Adds the totals of several requests (none: all zero), in whole cents so no floating error creeps in; by_program program by program. */
export function addTotals(parts: readonly OrderTotals[]): OrderTotals {
  const sum = addCents(Object.fromEntries(TOTAL_FIELDS.map((k) => [k, 0])), parts.map((p) => Object.fromEntries(TOTAL_FIELDS.map((k) => [k, p[k]]))));
  return {
    ...(sum as Omit<OrderTotals, 'by_program' | 'refundable_by_heading'>),
    by_program: addCents({}, parts.map((p) => p.by_program)),
    refundable_by_heading: addRefunds(parts.map((p) => p.refundable_by_heading)),
  };
}

/** Field-wise sums of records of dollar amounts (and counts), added in cents from `start`. */
function addCents(start: Record<string, number>, parts: readonly Record<string, number>[]): Record<string, number> {
  const sum = { ...start };
  for (const part of parts) for (const [k, v] of Object.entries(part)) sum[k] = (sum[k] ?? 0) + Math.round(v * 100);
  for (const k of Object.keys(sum)) sum[k] /= 100;
  return sum;
}

/**
 * The totals row: the seven figures, each program's total under Program(s), the refundable (IEEPA)
 * total when there is one, and a status saying what the figures leave out.
 */
/** What the Landed cost total leaves out: `1 line without a duty`. */
const withoutDuty = (n: number): string => `${lineCount(n)} without a duty`;

export function totalsOutput(t: OrderTotals, dutyMissing: number, entries: number): (string | number)[] {
  const parts = [`Total: ${lineCount(t.lines)}`];
  if (t.errors) parts.push(`${count(t.errors)} with errors (not in the totals)`);
  if (dutyMissing) parts.push(`${withoutDuty(dutyMissing)} (see the Status): left out of Landed cost, counted in the other totals`);
  if (entries > 1) parts.push(`costed as ${count(entries)} entries, one per entry date (MPF minimum and maximum apply to each)`);
  const byProgram = Object.entries(t.by_program).map(([p, amount]) => `${p} $${money(amount)}`).join('; ');
  const refundable = t.refundable ? `Refundable (IEEPA, past entry dates): $${money(t.refundable)}` : '';
  return [t.duty, t.section_301, t.section_232, otherAdditional(t), t.mpf, t.hmf, t.landed_cost, '', byProgram, refundable, parts.join('; ')];
}

/**
 * The notes both add-ins list under their totals block: what the totals row's Status says the
 * figures leave out, then the order's notes (the fee years used, the caveats).
 */
export function shownNotes(totalsRow: readonly (string | number)[], orderNotes: readonly string[]): string[] {
  return [String(totalsRow[STATUS_COLUMN]), ...orderNotes];
}

/** One figure of the totals block: its label (the sheet's column where there is one), the amount as the sheet formats it, and whether it is the bottom line. */
export interface TotalsRow {
  label: string;
  value: string;
  total?: boolean;
}

/**
 * The totals both the Excel pane and the Sheets sidebar show after a costing, labelled as the
 * sheet's columns and totals row, in dollars as the sheet formats them.
 */
export function totalsBlock(t: OrderTotals, dutyMissing = 0): TotalsRow[] {
  const usd = (n: number) => `${n < 0 ? '-' : ''}$${money(Math.abs(n))}`;
  const [, s301, s232, other, mpf, hmf, landed] = RESULT_HEADERS;
  return [
    { label: 'Lines', value: `${count(t.lines)}${t.errors ? ` (${count(t.errors)} with errors)` : ''}` },
    { label: 'Customs value', value: usd(t.customs_value) },
    { label: RESULT_HEADERS[0], value: usd(t.duty) },
    { label: s301, value: usd(t.section_301) },
    { label: s232, value: usd(t.section_232) },
    { label: other, value: usd(otherAdditional(t)) },
    { label: mpf, value: usd(t.mpf) },
    { label: hmf, value: usd(t.hmf) },
    { label: 'Duties and fees', value: usd(t.total_duties_fees) },
    { label: dutyMissing ? `${landed} (${withoutDuty(dutyMissing)} left out)` : landed, value: usd(t.landed_cost), total: true },
    ...(t.refundable ? [{ label: 'Refundable (IEEPA)', value: usd(t.refundable) }] : []),
  ];
}

/**
 * What both add-ins say when an order is written (the pane's and the sidebar's status, the Sheets
 * menu's toast): how many lines were costed of how many, and none when every line is an error.
 */
export function costedText({ lines, errors }: Pick<OrderTotals, 'lines' | 'errors'>, output: string, revision: string): string {
  const schedule = `Schedule ${revision || '(none)'}.`;
  if (errors && errors === lines) return `No line was costed: ${lines === 1 ? 'the line has an error' : `all ${lineCount(lines)} have errors`} (see the Status column in ${output}). ${schedule}`;
  if (errors) return `Costed ${count(lines - errors)} of ${lineCount(lines)} into ${output}; ${count(errors)} with errors (see the Status column). ${schedule}`;
  return `Costed ${lineCount(lines)} into ${output}. ${schedule}`;
}

/**
 * What both add-ins say when the person cancels, at the overwrite question or mid-order: Excel writes
 * nothing before every part is costed; Sheets takes back what it wrote and puts back what it overwrote.
 */
export const CANCELLED = 'Cancelled: the sheet is as it was.';

/** What the Sheets add-on says when a costing fails part-way (a request refused, an Apps Script error): what it wrote is taken back too. */
export const failedText = (message: string): string => `${message} The costing stopped: the sheet is as it was.`;

/** What both add-ins ask before writing over cells that hold something. */
export const overwriteQuestion = (output: string): string => `The cells ${output} are not empty. Overwrite them with the costing?`;

/** What both add-ins say while an order is costed: `done` of `total` line costings, twice the lines when the fees of one entry need two passes. */
export function progressText(lines: number, done: number, total: number): string {
  if (done >= total) return `Writing ${lineCount(lines)} to the sheet…`;
  return `Costing ${lineCount(lines)}${total > lines ? ' (twice: the fees are of one entry)' : ''}: ${count(done)} of ${count(total)} done…`;
}

export interface CostingRecord {
  revision: string;
  options: OrderOptions;
  /** The lines' own entry dates (Entry date column), if any. */
  dates?: readonly string[];
  /** When the costing was done. */
  at: Date;
}

/**
 * The line under the totals: what the figures were computed from, so a printed quote can be checked
 * (the schedule revision, the entry date, the options, the time).
 */
export function costingRecord({ revision, options, dates = [], at }: CostingRecord): string {
  const iso = at.toISOString();
  const today = iso.slice(0, 10);
  const orderDate = options.date ? `entry date ${options.date}` : `entry date ${today} (the day of costing)`;
  const date = dates.length ? `entry dates ${[...new Set(dates)].sort().join(', ')} (per line; lines without one: ${orderDate})` : orderDate;
  const s301 = options.s301 ? (options.s301 === 'none' ? 'none' : `${options.s301}%`) : 'auto (from the schedule)';
  const numbers = DECIMAL_MARKS.find((m) => m.value === (options.decimal ?? '.'))!.label.replace(/ \(.*/, '');
  return [
    `Costed by landed on ${today} ${iso.slice(11, 16)} UTC`,
    `HTS ${revision || '(none: no line could be sent)'}`,
    date,
    `default origin ${options.origin || 'mfn (general rate)'}`,
    `Section 301 ${s301}`,
    `ocean freight (HMF) ${options.ocean ? 'yes' : 'no'}`,
    `numbers read as ${numbers}`,
    // Last fiscal year's MPF minimum and maximum standing in for this year's must show on a printed quote.
    feeYearsUsed([...dates, options.date || today]),
  ]
    .filter((part) => part !== null)
    .join(' · ');
}
