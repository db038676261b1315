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
import { checkEntryNumber } from '../shared/entry-number.js';
import { interestMethod, type CapeDeclaration } from '../shared/refund-channel.js';
import { refundableCents } from '../shared/refund.js';
import { headerKey, isBlank, namedColumns, MONEY_FORMAT, DECIMAL_MARKS, amountCents, readAmount, readDate, readSheetOrder, type DecimalMark, type OrderOptions, type SheetLine } from './order-sheet.js';
import { bar, basisWords, entryChannelTotals, claimColumns, entryFigures, entryNote, gather, headingNames, headingOf, isIeepaHeading, readClaimCells, refundHeadings, usd, type ClaimCells, type EntryClaim, type EntryFigures, type RefundOptions } from './refund-claims.js';
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
  /** The entry's facts and IEEPA deposit this row gives. */
  claim?: ClaimCells;
  /** An entry summary's 9903 row: the heading (not costed; its duty is the deposit under it). */
  heading?: string;
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
  const claimCols = claimColumns(first);
  const dated = new Map<string, { date: string; row: number }>();
  const lines = order.lines.map((l): RefundLine => {
    const fail = (error: string): RefundLine => ({ ...l, item: null, error });
    const row = values[l.row];
    const cell = row[entryCol];
    // One entry however its number is written (abc 1234567 6 is ABC-1234567-6): CBP's form when it is one.
    const written = isBlank(cell) ? undefined : String(cell).trim();
    const checked = written === undefined ? null : checkEntryNumber(written);
    const entryNumber = checked && 'entryNumber' in checked ? checked.entryNumber : written;
    // An entry summary lists its 9903 numbers on rows of their own, with their duty: a deposit, not a line to cost.
    const heading = headingOf(row[mapping.hts!]);
    const date = heading ? (readDate(row[mapping.date!]) ?? undefined) : l.date;
    if (l.error && !heading) return { ...l, entryNumber };
    if (!entryNumber) return fail('Entry number is empty');
    if (!date) return fail('Entry date is empty: the refund turns on the date the goods were entered');
    const seen = dated.get(entryNumber);
    if (seen && seen.date !== date) return { ...fail(`Entry ${entryNumber} is dated ${seen.date} on row ${seen.row + 1} of the selection, ${date} here`), entryNumber };
    if (!seen) dated.set(entryNumber, { date, row: l.row });
    const ieepaRow = heading && isIeepaHeading(heading) ? heading : null;
    const claim = readClaimCells(row, claimCols, mark, ieepaRow, ieepaRow && paidCol >= 0 ? row[paidCol] : undefined);
    if (typeof claim === 'string') return { ...fail(claim), entryNumber };
    if (heading) return { row: l.row, item: null, notes: [], date, entryNumber, heading, claim };
    let paidCents: number | undefined;
    if (paidCol >= 0 && !isBlank(row[paidCol])) {
      const p = readAmount(row[paidCol], mark, 'Duty paid');
      if (typeof p === 'string') return { ...fail(p), entryNumber };
      const cents = amountCents(p);
      if (cents === null) return { ...fail(`Duty paid has more digits than can be read exactly`), entryNumber };
      paidCents = cents;
    }
    const item = { ...l.item!, entry_number: entryNumber, date, claim: l.item!.claim ?? 'none' };
    return { ...l, item, entryNumber, claim, ...(paidCents === undefined ? {} : { paidCents }) };
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
/** The per-entry block below the lines: where each entry's refund goes. */
export const ENTRY_HEADERS = ['Entry', 'Channel', 'IEEPA refund', 'Interest (est.)', 'Note'] as const;
const ENTRY_FORMATS = ['@', '@', MONEY_FORMAT, MONEY_FORMAT, '@'];
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

/** What the check found, beside its cells: each entry's figures, the CAPE files, the heading names. */
export interface RefundFound {
  sums: RefundSums;
  entries: EntryFigures[];
  cape: CapeDeclaration;
  names: Map<string, string>;
  filingDate: string;
}

/**
 * The check's cells: a row per selected row (the header row's names, each line's figures or its
 * error), the totals row, then each entry (its channel, refund, interest and note), the refund by
 * heading and by channel, and the record. `checked` holds the API's lines of the sheet's readable
 * lines, in order; `rows` is the selection's height.
 */
export function refundGrid(sheet: RefundSheet, rows: number, checked: RefundChecked, options: OrderOptions, at: Date, refund: RefundOptions = {}): RefundGrid & RefundFound {
  const blank = () => REFUND_HEADERS.map(() => '' as string | number);
  const values: (string | number)[][] = Array.from({ length: rows }, blank);
  const formats: string[][] = Array.from({ length: rows }, () => [...LINE_FORMATS]);
  const fills: (string | null)[] = Array.from({ length: rows }, () => null);
  values[0] = [...REFUND_HEADERS];
  formats[0] = [...TEXT_FORMATS];
  const entries = checked.totals.refundable_by_heading.entries ?? [];
  // By entry number and date, once: a check of 10,000 entries would otherwise search them for every line.
  const reasons = new Map(entries.map((e) => [`${e.entry_number}\u0000${e.date}`, e.reason]));
  const reasonOf = (l: RefundLine) => reasons.get(`${l.entryNumber}\u0000${l.date}`);
  const answers = [...checked.lines];
  const sums: RefundSums = { refundable: 0, computed: 0, paid: 0, difference: 0, paidLines: 0, errors: 0 };
  const claims = new Map<string, EntryClaim>();
  const { lines } = sheet;
  for (const l of lines) {
    if (l.heading) {
      gather(claims, l.entryNumber!, l.date!, l.claim!);
      const deposit = l.claim!.deposited;
      values[l.row] = ['', '', '', '', deposit ? `Entry summary row: ${headingsText(deposit)} deposited` : `Entry summary row: ${l.heading} is not an IEEPA heading, nothing to refund`];
      continue;
    }
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
    const claim = gather(claims, l.entryNumber!, l.date!, l.claim!);
    for (const [h, c] of refund) claim.computed.set(h, (claim.computed.get(h) ?? 0) + c);
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
  const costed = lines.filter((l) => !l.heading).length;
  const totalsRow = rows;
  const parts = [`Total: ${costed} line${costed === 1 ? '' : 's'}, ${claims.size} entr${claims.size === 1 ? 'y' : 'ies'}`];
  if (sums.errors) parts.push(`${sums.errors} with errors (not in the totals)`);
  if (sums.paidLines && sums.paidLines < costed - sums.errors) parts.push(`Paid − computed over the ${sums.paidLines} lines with a duty paid`);
  values.push([t.total, headingsText(t.headings), sums.computed / 100, sums.paidLines ? sums.difference / 100 : '', parts.join('; ')]);
  formats.push([...LINE_FORMATS]);
  fills.push(null);
  const bold = [0, totalsRow];
  const filingDate = refund.filingDate ?? at.toISOString().slice(0, 10);
  const gathered = [...claims.values()];
  const found = entryFigures(gathered, filingDate, refund);
  const names = headingNames(checked.lines);
  const row = (cells: (string | number)[], strong = false, fill: string | null = null) => {
    if (strong) bold.push(values.length);
    values.push(cells);
    formats.push([...ENTRY_FORMATS]);
    fills.push(fill);
  };
  // Each entry: where its refund goes, how much, its interest, and why.
  bold.push(values.length);
  values.push([...ENTRY_HEADERS]);
  formats.push([...TEXT_FORMATS]);
  fills.push(null);
  found.entries.forEach((e, i) => row([e.entryNumber, e.channel.label, e.refundCents / 100, e.interest.cents / 100, entryNote(e, names, gathered[i].facts.entryDate)], false, e.refused ? '#f4cccc' : null));
  // By heading, named; by channel, CAPE first, then the earliest deadline, not for CAPE last; the total with deposited against computed in words.
  for (const [h, c] of refundHeadings(found.entries)) row(['By heading', h ? (names.get(h) ?? h) : 'IEEPA (no heading given)', c / 100, '', '']);
  for (const c of entryChannelTotals(found.entries))
    row(['By channel', c.label, c.refundCents / 100, c.interestCents / 100, `${c.entries} entr${c.entries === 1 ? 'y' : 'ies'}${c.earliestDeadline ? `; earliest deadline ${c.earliestDeadline}` : ''}`]);
  const total = found.entries.reduce((s, e) => s + e.refundCents, 0);
  const interest = found.entries.reduce((s, e) => s + e.interest.cents, 0);
  row(['All entries', 'Total refund', total / 100, interest / 100, basisWords(found.entries)], true);
  const recordRow = values.length;
  // The refund's notes (the caveats, the interest method) beside the record; fee notes are not the refund's.
  values.push([refundRecord(checked.hts_revision, options, at, filingDate), '', '', '', [...refundNotes(checked.notes), interestMethod(refund.corporate ?? true, refund.refundDate ?? null), ...new Set(found.entries.flatMap((e) => (e.interest.note ? [`Interest: ${e.interest.note}.`] : [])))].join(' ')]);
  formats.push(REFUND_HEADERS.map(() => 'General'));
  fills.push(null);
  return { values, formats, bold, ruled: totalsRow, fills, recordRow, sums, ...found, names, filingDate };
}

/** The answers' notes that concern a refund: not the fees'. */
export const refundNotes = (notes: readonly string[]): string[] => notes.filter((n) => !/\b(MPF|HMF)\b/.test(n));

/** The record under the check: what the figures were computed from. */
export function refundRecord(revision: string, options: OrderOptions, at: Date, filingDate: string): string {
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
    `channels on the filing date ${filingDate}`,
  ].join(' · ');
}

/** The totals the pane and the sidebar show after a check: by channel with a bar, by heading, the total, interest, deposited against computed. */
export function refundTotalsBlock(found: RefundFound, sheet: RefundSheet): TotalsRow[] {
  const errors = found.sums.errors;
  const channels = entryChannelTotals(found.entries);
  const largest = Math.max(0, ...channels.map((c) => c.refundCents));
  const total = found.entries.reduce((s, e) => s + e.refundCents, 0);
  const interest = found.entries.reduce((s, e) => s + e.interest.cents, 0);
  const costed = sheet.lines.filter((l) => !l.heading).length;
  return [
    { label: 'Lines', value: `${costed.toLocaleString('en-US')}${errors ? ` (${errors.toLocaleString('en-US')} with errors)` : ''}` },
    { label: 'Entries', value: found.entries.length.toLocaleString('en-US') },
    ...channels.map((c) => ({
      label: `${c.label}${c.earliestDeadline ? ` (earliest ${c.earliestDeadline})` : ''}`,
      value: `${bar(c.refundCents, largest)} ${usd(c.refundCents)} · ${c.entries} entr${c.entries === 1 ? 'y' : 'ies'} · interest ${usd(c.interestCents)}`,
    })),
    ...refundHeadings(found.entries).map(([h, c]) => ({ label: h ? (found.names.get(h) ?? h) : 'IEEPA (no heading given)', value: usd(c) })),
    { label: 'IEEPA refund', value: usd(total), total: true },
    { label: 'Interest (estimated)', value: usd(interest) },
    { label: 'Deposited or computed', value: basisWords(found.entries) },
  ];
}

/** How to save a CAPE declaration sheet as the CSV file CBP takes, in each host. */
export const CAPE_SAVE = {
  excel: 'select its sheet, then File > Save a Copy (or Save As) > CSV UTF-8 (Comma delimited) (*.csv): Excel saves the active sheet only',
  sheets: 'open its tab, then File > Download > Comma Separated Values (.csv): Sheets downloads the current tab only',
} as const;

/** The CAPE declaration sheets' names and rows: `CAPE declaration 1`, `2`, …, each its header and entry numbers. */
export function capeSheets(found: RefundFound): { name: string; rows: string[][] }[] {
  return found.cape.files.map((f, i) => ({ name: `CAPE declaration ${i + 1}`, rows: [['Entry Number'], ...f.map((n) => [n])] }));
}

/** What both hosts say when the check is written: the refund, the CAPE sheets and how to save them, the refused. */
export function refundCheckedText(found: RefundFound, sheet: RefundSheet, output: string, host: keyof typeof CAPE_SAVE): string {
  const errors = found.sums.errors;
  const n = sheet.lines.filter((l) => !l.heading).length;
  const total = found.entries.reduce((s, e) => s + e.refundCents, 0);
  const files = capeSheets(found);
  const cape = files.length
    ? ` CAPE: ${files.map((f) => `${f.name} (${(f.rows.length - 1).toLocaleString('en-US')} entr${f.rows.length === 2 ? 'y' : 'ies'})`).join(', ')}; to file each, ${CAPE_SAVE[host]}, and upload it in the CAPE tab of the ACE Portal.`
    : ' No entry for CAPE now.';
  const refused = found.entries.filter((e) => e.refused).length;
  return `Checked ${n.toLocaleString('en-US')} line${n === 1 ? '' : 's'} into ${output}: IEEPA refund ${usd(total)}${errors ? `; ${errors} with errors (see the Status column)` : ''}.${cape}${refused ? ` ${refused} entr${refused === 1 ? 'y' : 'ies'} for CAPE refused (in red below the lines).` : ''}`;
}
