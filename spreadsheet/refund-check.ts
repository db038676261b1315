/**
 * The refund check, the same in the Excel task pane and the Sheets sidebar: past entry lines (entry
 * number, entry date, code, origin, value, and optionally the duty paid) costed through POST
 * /duty/bulk as they were entered, and the IEEPA duties refundable written beside them, per line,
 * per entry and heading, in all, with the record of what the check used. Pure functions: the hosts
 * read the selection, send the requests refundRequests plans (each item with its own entry date) and
 * write the grid this module returns.
 */
import type { OrderLine, OrderResult, OrderTotals } from '../shared/order.js';
import { IEEPA_REFUND_PERIOD } from '../shared/policy.js';
import { refundableCents, type EntryRefund } from '../shared/refund.js';
import { headerKey, isBlank, namedColumns, money, MONEY_FORMAT, DECIMAL_MARKS, amountCents, readAmount, readSheetOrder, type DecimalMark, type OrderOptions, type SheetLine } from './order-sheet.js';
import { addTotals, type TotalsRow } from './order-output.js';
import { BULK_LIMIT, requestItems, type OrderRequest } from './order-requests.js';

/**
 * The header names of the refund check's own columns, read like the order's (HEADER_NAMES in
 * order-sheet.ts, which names the code, value, origin, entry date and claim columns): lower-cased,
 * letters and digits only.
 */
export const REFUND_HEADER_NAMES = {
  entry_number: ['entry', 'entryno', 'entrynumber', 'entrynr', 'entrynum', 'entrysummary', 'entrysummaryno', 'entrysummarynumber', 'cbpentry', 'cbpentryno', 'cbpentrynumber', '7501', '7501no'],
  paid: ['dutypaid', 'dutiespaid', 'paid', 'amountpaid', 'dutyamount', 'dutiesamount', 'totalduty', 'totalduties', 'duty', 'duties'],
} as const;

/** A past entry line: the order line the API costs, its entry number and the duty paid (cents), if given. */
export interface RefundLine extends SheetLine {
  entryNumber?: string;
  paidCents?: number;
}

export interface RefundSheet {
  lines: RefundLine[];
  /** Whether a Duty paid column is there. */
  paid: boolean;
}

/**
 * The entry lines of a selection whose first row is a header naming the entry number, entry date,
 * code and value (origin, claim and duty paid optional). A line without its entry number or date,
 * or whose entry number was given another date above, is that line's error; a line with no claim is
 * costed with none (claim `none`): an entry claims what it declared, not what the goods could claim.
 */
export function readRefundSheet(values: readonly (readonly unknown[])[], mark: DecimalMark = '.'): RefundSheet {
  const first = values[0] ?? [];
  const names = first.map(headerKey);
  const own = (col: keyof typeof REFUND_HEADER_NAMES) => names.findIndex((n) => (REFUND_HEADER_NAMES[col] as readonly string[]).includes(n));
  const mapping = namedColumns(first);
  const entryCol = own('entry_number');
  const paidCol = own('paid');
  const missing = [
    ...(entryCol < 0 ? ['Entry number'] : []),
    ...(mapping.date === undefined ? ['Entry date'] : []),
    ...(mapping.hts === undefined ? ['HTS'] : []),
    ...(mapping.value === undefined ? ['Value'] : []),
  ];
  if (missing.length)
    throw new Error(`A refund check needs a header row naming Entry number, Entry date, HTS and Value columns (Origin, Claim and Duty paid if known); this one names no ${missing.join(', ')} column.`);
  const order = readSheetOrder(values, { mapping, header: true }, mark);
  const dated = new Map<string, { date: string; row: number }>();
  const lines = order.lines.map((l): RefundLine => {
    const fail = (error: string): RefundLine => ({ ...l, item: null, error });
    const cell = values[l.row][entryCol];
    const entryNumber = isBlank(cell) ? undefined : String(cell).trim();
    if (l.error) return { ...l, entryNumber };
    if (!entryNumber) return fail('Entry number is empty');
    if (!l.date) return fail('Entry date is empty: the refund turns on the date the goods were entered');
    const seen = dated.get(entryNumber);
    if (seen && seen.date !== l.date) return { ...fail(`Entry ${entryNumber} is dated ${seen.date} on row ${seen.row + 1} of the selection, ${l.date} here`), entryNumber };
    if (!seen) dated.set(entryNumber, { date: l.date, row: l.row });
    let paidCents: number | undefined;
    if (paidCol >= 0 && !isBlank(values[l.row][paidCol])) {
      const p = readAmount(values[l.row][paidCol], mark, 'Duty paid');
      if (typeof p === 'string') return { ...fail(p), entryNumber };
      const cents = amountCents(p);
      if (cents === null) return { ...fail(`Duty paid has more digits than can be read exactly`), entryNumber };
      paidCents = cents;
    }
    const item = { ...l.item!, entry_number: entryNumber, date: l.date, claim: l.item!.claim ?? 'none' };
    return { ...l, item, entryNumber, ...(paidCents === undefined ? {} : { paidCents }) };
  });
  return { lines, paid: paidCol >= 0 };
}

/**
 * The check's requests to POST /duty/bulk: every item carries its own entry date, so the lines go in
 * parts of up to 1,000 whatever their dates (one request for most checks, where one per entry date
 * would spend the key's 120 a minute on a year of entries). The fees, which go by date, are not shown.
 */
export function refundRequests(lines: readonly RefundLine[]): OrderRequest[] {
  const parts: OrderRequest[] = [];
  for (let i = 0; i < lines.length; i += BULK_LIMIT) parts.push({ lines: lines.slice(i, i + BULK_LIMIT) });
  return parts.filter((r) => requestItems(r).length);
}

/** The answers of the requests as one: their lines one after the other, the totals added. */
export function refundChecked(answers: readonly OrderResult[]): RefundChecked {
  return {
    lines: answers.flatMap((a) => a.lines),
    totals: addTotals(answers.map((a) => a.totals)),
    hts_revision: answers[0]?.hts_revision ?? '',
    notes: [...new Set(answers.flatMap((a) => a.notes))],
  };
}

/** The columns written beside the entry lines. */
export const REFUND_HEADERS = ['IEEPA refundable', 'IEEPA headings', 'Duties computed', 'Paid − computed', 'Status'] as const;
const LINE_FORMATS = [MONEY_FORMAT, '@', MONEY_FORMAT, MONEY_FORMAT, '@'];
/** The per-entry block below the lines. */
export const ENTRY_HEADERS = ['Entry', 'Entry date', 'Heading', 'Refundable', 'Note'] as const;
const ENTRY_FORMATS = ['@', '@', '@', MONEY_FORMAT, '@'];
const TEXT_FORMATS = REFUND_HEADERS.map(() => '@');

/** The grid a host writes to the right of the selection, from its first row down. */
export interface RefundGrid {
  values: (string | number)[][];
  formats: string[][];
  /** Rows to set in bold (headers, totals), and the row with a rule above it (the totals). */
  bold: number[];
  ruled: number;
  /** Each row's background (an error line red), null for none. */
  fills: (string | null)[];
  /** The record row (the last), whose cell note holds the answers' notes. */
  recordRow: number;
}

export interface RefundChecked {
  lines: readonly OrderLine[];
  totals: OrderTotals;
  hts_revision: string;
  notes: readonly string[];
}

const usd = (cents: number): string => `${cents < 0 ? '-' : ''}$${money(Math.abs(cents) / 100)}`;
const cents = (n: number): number => Math.round(n * 100);


const headingsText = (m: ReadonlyMap<string, number> | Record<string, number>): string =>
  (m instanceof Map ? [...m] : Object.entries(m)).map(([h, c]) => `${h} ${usd(m instanceof Map ? c : cents(c))}`).join('; ');

export interface RefundSums {
  refundable: number;
  computed: number;
  paid: number;
  /** Paid − computed over the lines with a duty paid. */
  difference: number;
  paidLines: number;
  /** Lines in error: unreadable, or refused by the API. */
  errors: number;
}

/**
 * The check's cells: a row per selected row (the header row's names, each line's figures or its
 * error), the totals row, the entries by heading and the record. `checked` holds the API's lines of
 * the sheet's readable lines, in order; `rows` is the selection's height.
 */
export function refundGrid(sheet: RefundSheet, rows: number, checked: RefundChecked, options: OrderOptions, at: Date): RefundGrid & { sums: RefundSums } {
  const blank = () => REFUND_HEADERS.map(() => '' as string | number);
  const values: (string | number)[][] = Array.from({ length: rows }, blank);
  const formats: string[][] = Array.from({ length: rows }, () => [...LINE_FORMATS]);
  const fills: (string | null)[] = Array.from({ length: rows }, () => null);
  values[0] = [...REFUND_HEADERS];
  formats[0] = [...TEXT_FORMATS];
  const entries = checked.totals.refundable_by_heading.entries ?? [];
  const reasonOf = (l: RefundLine) => entries.find((e) => e.entry_number === l.entryNumber && e.date === l.date)?.reason;
  const answers = [...checked.lines];
  const sums: RefundSums = { refundable: 0, computed: 0, paid: 0, difference: 0, paidLines: 0, errors: 0 };
  const { lines } = sheet;
  for (const l of lines) {
    const a = l.item ? answers.shift() : undefined;
    const error = l.error ?? (a && 'error' in a ? a.error.message.replace(/^items\[\d+\]\./, '') : a ? undefined : 'not costed');
    if (error !== undefined || !a || 'error' in a) {
      values[l.row] = ['', '', '', '', `Error: ${error}`];
      fills[l.row] = '#f4cccc';
      sums.errors++;
      continue;
    }
    const refund = refundableCents(a.additional_duties);
    const refundable = [...refund.values()].reduce((s, c) => s + c, 0);
    // Duties as an entry summary's duty lines show them: the base duty and every chapter 99 duty, no fees.
    const computed = cents(a.duty ?? 0) + cents(a.additional_duty);
    const reason = reasonOf(l);
    sums.refundable += refundable;
    sums.computed += computed;
    let difference: string | number = '';
    if (l.paidCents !== undefined) {
      sums.paid += l.paidCents;
      sums.difference += l.paidCents - computed;
      sums.paidLines++;
      difference = (l.paidCents - computed) / 100;
    }
    const status = reason ? `Refund 0: ${reason}` : a.duty === null ? `Duty not computed (${a.duty_rate ?? 'no rate'}): the duties computed leave it out` : refundable ? 'OK' : 'OK: no IEEPA duty on this line';
    values[l.row] = [refundable / 100, headingsText(refund), computed / 100, difference, status];
    if (a.duty === null) fills[l.row] = '#fff2cc';
  }
  const t = checked.totals.refundable_by_heading;
  const lineCount = lines.length;
  const totalsRow = rows;
  const parts = [`Total: ${lineCount} line${lineCount === 1 ? '' : 's'}, ${entries.length} entr${entries.length === 1 ? 'y' : 'ies'}`];
  if (sums.errors) parts.push(`${sums.errors} with errors (not in the totals)`);
  if (sums.paidLines && sums.paidLines < lineCount - sums.errors) parts.push(`Paid − computed over the ${sums.paidLines} lines with a duty paid`);
  values.push([t.total, headingsText(t.headings), sums.computed / 100, sums.paidLines ? sums.difference / 100 : '', parts.join('; ')]);
  formats.push([...LINE_FORMATS]);
  fills.push(null);
  const bold = [0, totalsRow];
  // The entries, heading by heading; an entry with nothing to refund says why.
  bold.push(values.length);
  values.push([...ENTRY_HEADERS]);
  formats.push([...TEXT_FORMATS]);
  fills.push(null);
  const entryRow = (cells: (string | number)[], strong = false) => {
    if (strong) bold.push(values.length);
    values.push(cells);
    formats.push([...ENTRY_FORMATS]);
    fills.push(null);
  };
  for (const e of entries) entryRows(e).forEach((cells, i, all) => entryRow(cells, all.length > 1 && i === all.length - 1));
  for (const [h, amount] of Object.entries(t.headings)) entryRow(['All entries', '', h, amount, '']);
  entryRow(['All entries', '', 'Total refundable', t.total, t.reason ?? ''], true);
  const recordRow = values.length;
  // The answers' notes (the fee years used, the caveats) beside the record, as every host shows cells.
  values.push([refundRecord(checked.hts_revision, options, at), '', '', '', checked.notes.join(' ')]);
  formats.push(REFUND_HEADERS.map(() => 'General'));
  fills.push(null);
  return { values, formats, bold, ruled: totalsRow, fills, recordRow, sums };
}

/** An entry's rows: one per heading, then its total when it has several; one row of 0 with the reason when there is nothing. */
function entryRows(e: EntryRefund): (string | number)[][] {
  const name = e.entry_number ?? '(no entry number)';
  const headings = Object.entries(e.headings);
  if (!headings.length) return [[name, e.date, '', 0, e.reason ?? 'No IEEPA duty on its lines']];
  const rows: (string | number)[][] = headings.map(([h, amount]) => [name, e.date, h, amount, '']);
  if (headings.length > 1) rows.push([name, e.date, 'Entry total', e.total, '']);
  return rows;
}

/** The record under the check: what the figures were computed from. */
export function refundRecord(revision: string, options: OrderOptions, at: Date): string {
  const iso = at.toISOString();
  const numbers = DECIMAL_MARKS.find((m) => m.value === (options.decimal ?? '.'))!.label.replace(/ \(.*/, '');
  return [
    `Refund check by landed on ${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`,
    `HTS ${revision || '(none: no line could be sent)'} with its chapter 99 tables`,
    `IEEPA duties of entries ${IEEPA_REFUND_PERIOD.from} to ${IEEPA_REFUND_PERIOD.through} (Learning Resources v. Trump)`,
    'each line at its entry date',
    'claims as entered (none when blank)',
    `default origin ${options.origin || 'mfn (general rate)'}`,
    `numbers read as ${numbers}`,
  ].join(' · ');
}

/** The totals the pane and the sidebar show after a check. */
export function refundTotalsBlock(checked: RefundChecked, sums: RefundSums, sheet: RefundSheet): TotalsRow[] {
  const t = checked.totals.refundable_by_heading;
  const errors = sums.errors;
  const entries = t.entries?.length ?? 0;
  return [
    { label: 'Lines', value: `${sheet.lines.length.toLocaleString('en-US')}${errors ? ` (${errors.toLocaleString('en-US')} with errors)` : ''}` },
    { label: 'Entries', value: entries.toLocaleString('en-US') },
    ...Object.entries(t.headings).map(([h, amount]) => ({ label: `IEEPA ${h}`, value: usd(cents(amount)) })),
    { label: 'IEEPA refundable', value: usd(cents(t.total)), total: true },
    { label: 'Duties computed', value: usd(sums.computed) },
    ...(sums.paidLines ? [{ label: 'Duty paid', value: usd(sums.paid) }, { label: 'Paid − computed', value: usd(sums.difference) }] : []),
  ];
}

/** What both hosts say when the check is written. */
export function refundCheckedText(checked: RefundChecked, sums: RefundSums, sheet: RefundSheet, output: string): string {
  const errors = sums.errors;
  const n = sheet.lines.length;
  return `Checked ${n.toLocaleString('en-US')} line${n === 1 ? '' : 's'} into ${output}: IEEPA refundable ${usd(cents(checked.totals.refundable_by_heading.total))}${errors ? `; ${errors} with errors (see the Status column)` : ''}. Schedule ${checked.hts_revision || '(none)'}.`;
}
