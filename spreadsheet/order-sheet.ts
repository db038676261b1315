/**
 * An order as it sits in a spreadsheet, the same in the Excel task pane and the Sheets sidebar:
 * the input columns and the header names that identify them, how cells are read (codes, amounts
 * in a stated number format, value = unit price × quantity), and the columns written beside the
 * order. Pure functions, so both add-ins import them and their host layers only move cells.
 */
import type { OrderItem } from '../shared/order.js';
import { sentQuantity } from './invoice-units.js';

export const ORDER_COLUMNS = [
  'hts', 'description', 'value', 'origin', 'qty', 'unit', 'price', 'date', 'claim', 'us_content', 'steel_content', 'aluminum_content', 'copper_content', 'part_for', 'patented',
] as const;
export type OrderColumn = (typeof ORDER_COLUMNS)[number];
/** Which column of the selection (0-based) holds each input. */
export type ColumnMapping = Partial<Record<OrderColumn, number>>;
/** The user's answer in the column picker. */
export interface ColumnChoice {
  mapping: ColumnMapping;
  header: boolean;
}

/** What the column pickers call each input. */
export const COLUMN_LABELS: Record<OrderColumn, string> = {
  hts: 'HTS', description: 'Description', value: 'Value', origin: 'Origin', qty: 'Qty', unit: 'Unit', price: 'Unit price', date: 'Entry date', claim: 'Claim',
  us_content: 'US content', steel_content: 'Steel content', aluminum_content: 'Aluminum content', copper_content: 'Copper content', part_for: 'Part for', patented: 'Patented',
};

/**
 * The headings recognised for each input, as invoices write them, in the one table both add-ins
 * read (docs/addins.md lists it, rendered from here: test/addins/headings.test.ts), compared as
 * headerKey makes them (lower-cased, only letters and digits kept, a currency mark dropped:
 * `Total (USD)`, `Total US$` and `Total` are one). The customs value is the line's extended value
 * (its total, amount or value), never a unit price or cost: an invoice's `Price` beside `Ext value`
 * is the price of one piece, and Qty × Unit price is taken only when no value column is there, nor
 * a heading that looks like one (unreadValueHeading).
 */
export const HEADINGS: Readonly<Record<OrderColumn, readonly string[]>> = {
  hts: [
    'HTS', 'HTSUS', 'HTS No.', 'HTSUS No.', 'HTS Number', 'HTS Code', 'HTS10', 'HS', 'HS Code', 'HS No.', 'Tariff', 'Tariff Code', 'Tariff Number', 'Tariff No.', 'Tariff Nr',
    'Harmonized Code', 'Harmonised Code', 'Harmonized Tariff Code', 'Harmonized Tariff Number', 'Harmonized System Code', 'Code', 'Commodity Code', 'Customs Code', 'Classification',
  ],
  // Searched, never sent: it suggests a code for a line without one and checks the code of a line with one (spreadsheet/code-check.ts).
  description: ['Description', 'Desc', 'Product Description', 'Item Description', 'Goods Description', 'Description of Goods', 'Commodity Description', 'Product', 'Goods'],
  value: [
    'Value', 'Customs Value', 'USD Value', 'Invoice Value', 'Entered Value', 'Line Value', 'Total Value', 'Total Line Value', 'Net Value', 'FOB Value', 'Transaction Value', 'Merchandise Value',
    'Ext Value', "Ext'd Value", 'Extended Value', 'Extended', 'Extended Price', 'Ext Price', "Ext'd Price", 'Extended Cost', 'Ext Cost', 'Ext Amount', 'Ext Amt', 'Extended Amount',
    'Total', 'Line Total', 'Sub Total', 'Total Price', 'Total Cost', 'Amount', 'Amt', 'Line Amount', 'Total Amount', 'Total Amt', 'Invoice Amount', 'Invoice Amt', 'Net Amount', 'Net Amt', 'FOB Amount',
  ],
  origin: [
    'Origin', 'Country of Origin', 'Country', 'COO', 'C/O', 'Ctry of Origin', 'Ctry Origin', 'Orig Country', 'Origin Country', 'Origin Ctry', 'Country of Orig', 'Made in',
    'Mfg Country', 'Country of Manufacture', 'Manufacturing Country', 'Country of Mfg',
  ],
  // `Units` is a count on most invoices (Units 1,200): a quantity; beside another quantity column it is the unit (namedColumns).
  qty: ['Qty', 'Quantity', 'Qnty', 'Pcs', 'Pieces', 'Units'],
  unit: ['Unit', 'UOM', 'UM', 'Unit of Measure', 'Unit of Measurement', 'Qty Unit', 'Quantity Unit'],
  price: ['Price', 'Unit Price', 'Price Each', 'Price/Unit', 'Cost', 'Unit Cost', 'Cost Each', 'Unit Value', 'FOB', 'FOB Price', 'FOB Unit Price'],
  date: ['Entry Date', 'Date of Entry', 'Date', 'Import Date'],
  claim: ['Claim', 'Preference Claim', 'SPI'],
  us_content: ['US Content', 'US Originating Content'],
  steel_content: ['Steel Content', 'Steel Value'],
  aluminum_content: ['Aluminum Content', 'Aluminium Content', 'Aluminum Value'],
  copper_content: ['Copper Content', 'Copper Value'],
  part_for: ['Part For', 'Vehicle Part'],
  patented: ['Patented'],
};

/** A header cell as the tables of names hold it: `Ext. Value (US$)` → `extvalue`, `TotalUSD` → `total`. */
export const headerKey = (c: unknown): string =>
  typeof c === 'string' ? c.toLowerCase().replace(/us\$|\$/g, ' ').replace(/[^a-z0-9]/g, '').replace(/(.)usd$/, '$1') : '';

/** HEADINGS as headerKey compares them. */
export const HEADER_NAMES = {} as Record<OrderColumn, readonly string[]>;
for (const c of ORDER_COLUMNS) HEADER_NAMES[c] = HEADINGS[c].map(headerKey);

/**
 * Headings of a value that is not the customs value, with why: a CIF (or CFR, DDP...) value includes
 * the international freight and insurance, which the transaction value leaves out (19 U.S.C.
 * 1401a(b)(4)(A)).
 */
const NOT_CUSTOMS_VALUE: readonly [pattern: RegExp, why: string][] = [
  [/^(cif|cnf|cfr|cip|cpt|ddp|dap)/, 'includes the international freight and insurance, which are not part of the customs value (19 U.S.C. 1401a(b)(4)(A))'],
];

/** A heading that reads as an amount of money (value, amount, total), not a weight, a count or a volume. */
const looksLikeValue = (key: string): boolean =>
  /value|amount|amt|total|sum|extended|^ext/.test(key) && !/weight|wt|qty|quantity|pcs|pieces|kg|lb|carton|ctn|package|pkg|unit|volume|cbm|count|date/.test(key);

/**
 * A heading of the header row that looks like the line's value but is not read as it (`CIF Value`,
 * `Gross Amount`), and what to say of it: the add-in never replaces it with Qty × Unit price
 * unasked, it asks which column to use. Null when there is none.
 */
export function unreadValueHeading(row: readonly unknown[], mapping: ColumnMapping): string | null {
  const mapped = new Set(Object.values(mapping));
  for (let i = 0; i < row.length; i++) {
    const key = headerKey(row[i]);
    if (mapped.has(i) || !key) continue;
    const shown = JSON.stringify(String(row[i]).trim().slice(0, 30));
    const known = NOT_CUSTOMS_VALUE.find(([pattern]) => pattern.test(key));
    if (known) return `The column ${shown} ${known[1]}: choose under "Columns" which column holds the customs value (the price paid for the goods: FOB, ex-works), or Qty and Unit price.`;
    if (looksLikeValue(key)) return `The column ${shown} looks like a value this add-in does not read as the customs value: choose under "Columns" which column holds it, or Qty and Unit price.`;
  }
  return null;
}

/** The columns a header row names (the first cell of each name), whichever they are. */
export function namedColumns(row: readonly unknown[]): ColumnMapping {
  const names = row.map(headerKey);
  const mapping: ColumnMapping = {};
  for (const col of ORDER_COLUMNS) {
    const i = names.findIndex((n) => HEADER_NAMES[col].includes(n));
    if (i >= 0) mapping[col] = i;
  }
  // `Units` beside another quantity column (Qty 100, Units PCS) is the unit of that quantity.
  const units = names.indexOf('units');
  const other = names.findIndex((n, i) => i !== units && HEADER_NAMES.qty.includes(n));
  if (units >= 0 && other >= 0 && mapping.unit === undefined) [mapping.qty, mapping.unit] = [other, units];
  return mapping;
}

/**
 * The columns a header row names, or null unless it names the HTS column and a value (a value
 * column, or a unit price and a quantity to multiply).
 */
export function headerMapping(row: readonly unknown[]): ColumnMapping | null {
  const mapping = namedColumns(row);
  return hasValue(mapping) ? mapping : null;
}

/** A code (or a description to suggest one) and a value. */
function hasValue(m: ColumnMapping): boolean {
  return (m.hts !== undefined || m.description !== undefined) && (m.value !== undefined || (m.price !== undefined && m.qty !== undefined));
}

/** A first row of words and no numbers reads as a header, even one whose names are not recognised. */
export function looksLikeHeader(row: readonly unknown[]): boolean {
  const filled = row.filter((c) => !isBlank(c));
  return filled.length > 0 && filled.every((c) => typeof c === 'string' && /[a-z]{2}/i.test(c) && !/^[\d\s.,$-]+$/.test(c));
}

/** 0 → A, 26 → AA. */
export function columnLetter(index: number): string {
  let s = '';
  for (let n = index + 1; n > 0; n = Math.floor((n - 1) / 26)) s = String.fromCharCode(65 + ((n - 1) % 26)) + s;
  return s;
}

/** The picker's entries for a selection starting at sheet column `firstColumn` (0-based): `B · Ext value`. */
export function columnChoices(firstRow: readonly unknown[], firstColumn: number, width: number): { value: string; label: string }[] {
  return Array.from({ length: width }, (_, i) => {
    const c = firstRow[i];
    const shown = isBlank(c) ? '' : ` · ${String(c).slice(0, 20)}`;
    return { value: String(i), label: `${columnLetter(firstColumn + i)}${shown}` };
  });
}

/** The picker's starting point: the recognised columns, and the header box ticked only when the first row reads as one. */
export function pickerDefaults(firstRow: readonly unknown[]): ColumnChoice {
  return { mapping: headerMapping(firstRow) ?? {}, header: looksLikeHeader(firstRow) };
}

/** The decimal mark of amounts typed as text: `1,234.56` or `1.234,56` / `1 234,56`. */
export type DecimalMark = '.' | ',';
export const DECIMAL_MARKS: readonly { value: DecimalMark; label: string }[] = [
  { value: '.', label: '1,234.56 (decimal point)' },
  { value: ',', label: '1.234,56 or 1 234,56 (decimal comma)' },
];

/** Options that hold for every line of an order (POST /duty/bulk), and how its text amounts are written. */
export interface OrderOptions {
  origin?: string;
  s301?: string;
  ocean?: boolean;
  date?: string;
  decimal?: DecimalMark;
  /** Whether a line's code is checked against its description (spreadsheet/code-check.ts): unless false. */
  checkCodes?: boolean;
}

/** The options as the bulk request takes them: unset ones left out. */
export function bulkOptions(o: OrderOptions): Record<string, string | boolean> {
  const out: Record<string, string | boolean> = {};
  if (o.origin) out.origin = o.origin;
  if (o.s301) out.s301 = o.s301;
  if (o.ocean) out.ocean = true;
  if (o.date) out.date = o.date;
  return out;
}

export function isBlank(v: unknown): boolean {
  return v === undefined || v === null || (typeof v === 'string' && v.trim() === '');
}

const isDate = (c: unknown): c is Date => Object.prototype.toString.call(c) === '[object Date]';

/**
 * A tariff code typed into a cell. A code typed as a number loses its trailing zeros (6109.10
 * shows as 6109.1, 6109.1000 too): its digits are those it kept, the fraction's made even with a
 * zero (6109.1 → 6109.10, 8471.3001 → 8471.3001), so it reads as the code it can only have begun
 * with, never as digits it did not have. Every host reads a code so (the order panes, Sheets'
 * =DUTY(), Excel's TARIFF.DUTY): see docs/addins.md.
 */
export function readCode(c: unknown): string | undefined {
  if (typeof c === 'number') {
    const [int, frac = ''] = String(c).split('.');
    return Number.isInteger(c) || /e/i.test(String(c)) ? String(c) : `${int}.${frac.length % 2 ? `${frac}0` : frac}`;
  }
  if (isBlank(c)) return undefined;
  return String(c).trim();
}

/** A function's code argument left blank: the API's words for a blank code (shared/codes.ts), without a request. */
export const BLANK_HTS = 'hts is blank: give a tariff code such as 6109.10.00';

/** Digits and a scale: 875.5 → [8755, 1]. Null for what is not a plain non-negative decimal. */
type Exact = [units: number, scale: number];

const GROUPS = /[,.\s\u00a0\u202f']/;

/**
 * An amount from a cell: a number, or text such as `$1,200.00`, `USD 1200`, `1 200,00` (with the
 * decimal comma stated). Returns the exact decimal, or the reason it cannot be read: a line is
 * never costed at a guessed or zero value.
 */
export function readAmount(cell: unknown, mark: DecimalMark, name: string): Exact | string {
  if (typeof cell === 'number') {
    if (!Number.isFinite(cell) || cell < 0) return `${name} ${cell} is not an amount of 0 or more`;
    const s = String(cell);
    if (s.includes('e')) return `${name} ${s} is not an amount this add-in can read exactly`;
    const [int, frac = ''] = s.split('.');
    return [Number(int + frac), frac.length];
  }
  if (typeof cell !== 'string') return `${name} ${isDate(cell) ? 'is a date' : String(cell)}, not an amount`;
  const shown = JSON.stringify(cell.trim().slice(0, 30));
  // Dollars only: a sign of another currency is an error, not a conversion.
  const text = cell.trim().replace(/^(US\$|USD|\$)\s*/i, '').replace(/\s*(USD|US\$|\$)$/i, '');
  const group = mark === '.' ? /[,\s\u00a0\u202f']/ : /[.\s\u00a0\u202f']/;
  const [intPart, frac = '', extra] = text.split(mark);
  const groups = intPart.split(group);
  const wellGrouped = groups.length === 1 || (/^\d{1,3}$/.test(groups[0]) && groups.slice(1).every((g) => /^\d{3}$/.test(g)));
  // One kind of separator between the groups: `1,200 300` is not a number.
  const separators = new Set(intPart.match(new RegExp(GROUPS.source, 'g')) ?? []);
  if (extra !== undefined || !/^\d+$/.test(groups.join('')) || !wellGrouped || separators.size > 1 || !/^\d*$/.test(frac) || (text.includes(mark) && !frac)) {
    const hint = mark === '.' ? ' (if it uses a decimal comma, choose 1.234,56 under Numbers)' : ' (if it uses a decimal point, choose 1,234.56 under Numbers)';
    return `${name} ${shown} is not an amount in U.S. dollars written ${mark === '.' ? '1,234.56' : '1.234,56'}${hint}`;
  }
  const digits = groups.join('') + frac;
  if (digits.length > 15) return `${name} ${shown} has more digits than can be read exactly`;
  return [Number(digits), frac.length];
}

const asNumber = ([units, scale]: Exact): number => units / 10 ** scale;

/** price × qty in cents, rounded once, half away from zero; null when the product is too large to be exact. */
function productCents([pu, ps]: Exact, [qu, qs]: Exact): number | null {
  const units = pu * qu;
  if (!Number.isSafeInteger(units)) return null;
  const scale = ps + qs;
  if (scale <= 2) return units * 10 ** (2 - scale);
  const d = 10 ** (scale - 2);
  const q = Math.floor(units / d);
  return 2 * (units - q * d) >= d ? q + 1 : q;
}

/** An amount read exactly, in cents rounded once, half away from zero (1.005 → 101); null when too large to be exact. */
export const amountCents = (amount: Exact): number | null => productCents(amount, [1, 0]);

/** 1234.5 → 1,234.50. */
export const money = (n: number): string => n.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });

/** A row of the selection that holds an order line: its item for the API, or why it cannot be read. */
export interface SheetLine {
  /** The row within the selection (0-based). */
  row: number;
  item: OrderItem | null;
  error?: string;
  /** What the add-in itself did to the line (value = qty × price), for the line's note. */
  notes: string[];
  /** The line's own entry date (Entry date column); absent: the order's. */
  date?: string;
  /** The Unit cell's text when the invoice-unit table does not know it: no quantity was sent. */
  unknownUnit?: string;
  /** The Unit cell's text when the API's unit has another name (CTN for each): the line's messages name it. */
  unitWord?: string;
  /** The Description cell: searched for a code, never sent. */
  description?: string;
  /** What the searches of its description say of its code (suggested codes, or check the code). */
  codeNotes?: string[];
}

export interface SheetOrder {
  header: boolean;
  mapping: ColumnMapping;
  lines: SheetLine[];
}

/** No header row names the columns: the add-in offers the column picker, starting from these defaults. */
export class ColumnsNeeded extends Error {
  readonly defaults: ColumnChoice;
  constructor(firstRow: readonly unknown[], message?: string) {
    const named = firstRow.filter((c) => !isBlank(c));
    super(
      message ??
      (looksLikeHeader(firstRow)
        ? `The header row (${named.join(', ').slice(0, 80)}) names no HTS and Value columns: choose the columns under "Columns" (a unit price is never taken as the value).`
        : 'The selection has no header row naming HTS and Value columns: choose the columns under "Columns", and whether the first row is a header.'),
    );
    this.name = 'ColumnsNeeded';
    this.defaults = pickerDefaults(firstRow);
  }
}

/**
 * The order in a selection. Without a choice, the first row must be a header that names the
 * columns; a choice says itself whether the first row is a header. Rows whose mapped cells are all
 * blank are skipped; a row whose value cannot be read is an error on that row, not sent.
 */
export function readSheetOrder(values: readonly (readonly unknown[])[], choice: ColumnChoice | null, mark: DecimalMark = '.'): SheetOrder {
  const first = values[0] ?? [];
  const detected = choice ? null : headerMapping(first);
  if (!choice && !detected) throw new ColumnsNeeded(first);
  const mapping = choice?.mapping ?? detected!;
  // A value heading not understood is never replaced by Qty × Unit price unasked (a chosen column is the person's answer).
  const unread = detected && detected.value === undefined ? unreadValueHeading(first, detected) : null;
  if (unread) throw new ColumnsNeeded(first, unread);
  const header = choice ? choice.header : true;
  if (!hasValue(mapping)) throw new Error('Choose the HTS column and the Value column (or Unit price and Qty, to multiply them).');
  const byQtyPrice = mapping.value === undefined;
  const lines: SheetLine[] = [];
  for (let r = header ? 1 : 0; r < values.length; r++) {
    const cell = (c: OrderColumn) => (mapping[c] === undefined ? undefined : values[r][mapping[c]!]);
    const used = ORDER_COLUMNS.filter((c) => mapping[c] !== undefined);
    if (used.every((c) => isBlank(cell(c)))) continue;
    lines.push(readLine(r, cell, byQtyPrice, mark));
  }
  return { header, mapping, lines };
}

function readLine(row: number, cell: (c: OrderColumn) => unknown, byQtyPrice: boolean, mark: DecimalMark): SheetLine {
  const notes: string[] = [];
  const description = isBlank(cell('description')) ? {} : { description: String(cell('description')).trim() };
  const code = readCode(cell('hts'));
  // A line with a code that fails on its value or date is not searched: its fault is named, and no codes are suggested for it.
  const fail = (error: string): SheetLine => ({ row, item: null, error, notes, ...(code === undefined ? description : {}) });
  const item: OrderItem = { hts: code ?? null };
  const origin = cell('origin');
  if (!isBlank(origin)) item.origin = String(origin).trim();
  let qty: Exact | undefined;
  if (!isBlank(cell('qty'))) {
    const q = readAmount(cell('qty'), mark, 'Qty');
    if (typeof q === 'string') return fail(q);
    qty = q;
  }
  // The invoice's unit as the API names it (PCS, KGM, YDS...); one it does not know is not sent.
  const sent = sentQuantity(qty && asNumber(qty), cell('unit'));
  if (sent.qty !== undefined) item.qty = sent.qty;
  if (sent.unit !== undefined) item.unit = sent.unit;
  const date = cell('date');
  let entryDate: string | undefined;
  if (!isBlank(date)) {
    const d = readDate(date);
    if (d === null) return fail(`Entry date ${JSON.stringify(String(date).slice(0, 30))} is not a date this add-in reads: write it YYYY-MM-DD (2026-11-30) or as a date cell`);
    entryDate = d;
  }
  const claim = cell('claim');
  if (!isBlank(claim)) item.claim = String(claim).trim();
  for (const c of CONTENT_COLUMNS) {
    if (isBlank(cell(c))) continue;
    const v = readAmount(cell(c), mark, COLUMN_LABELS[c]);
    if (typeof v === 'string') return fail(v);
    item[c] = asNumber(v);
  }
  const partFor = cell('part_for');
  if (!isBlank(partFor)) item.part_for = String(partFor).trim();
  const patented = cell('patented');
  // A ticked box (TRUE) or 1/0, yes/no: the API reads 1 and 0.
  if (!isBlank(patented)) item.patented = typeof patented === 'boolean' ? (patented ? 1 : 0) : /^(yes|y|true)$/i.test(String(patented).trim()) ? 1 : /^(no|n|false)$/i.test(String(patented).trim()) ? 0 : patented;
  const done = (): SheetLine => ({
    row, item, notes, ...description, ...(entryDate ? { date: entryDate } : {}), ...(sent.unknownUnit ? { unknownUnit: sent.unknownUnit } : {}), ...(sent.word ? { unitWord: sent.word } : {}),
  });
  if (byQtyPrice) {
    if (isBlank(cell('price')) || !qty) return fail('Value is computed as Qty × Unit price here, and this line lacks one of them');
    const p = readAmount(cell('price'), mark, 'Unit price');
    if (typeof p === 'string') return fail(p);
    const cents = productCents(p, qty);
    if (cents === null) return fail('Qty × Unit price is too large to compute exactly');
    const value = cents / 100;
    item.value = value;
    notes.push(`Value ${money(value)} = Qty ${asNumber(qty)} × Unit price ${asNumber(p)} (the order has no value column).`);
  } else {
    if (isBlank(cell('value'))) return fail('Value is blank: give the line\'s customs value in U.S. dollars');
    const v = readAmount(cell('value'), mark, 'Value');
    if (typeof v === 'string') return fail(v);
    item.value = asNumber(v);
  }
  return done();
}

/** A function's value argument left blank: an error, never a value of 0. */
export const BLANK_VALUE = 'value is empty: give the customs value in U.S. dollars';

/** A function's date argument: read like an Entry date cell, else passed on for the API to refuse by name. */
export const dateArgument = (c: unknown): string | undefined => (isBlank(c) ? undefined : (readDate(c) ?? String(c).trim()));

const CONTENT_COLUMNS = ['us_content', 'steel_content', 'aluminum_content', 'copper_content'] as const;

/**
 * An entry date from a cell: a date cell (Sheets gives a Date, read in the sheet's own calendar),
 * an Excel date serial, or text YYYY-MM-DD. Null for anything else.
 */
export function readDate(c: unknown): string | null {
  const iso = (y: number, m: number, d: number) => `${y}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
  if (isDate(c)) return Number.isNaN(c.getTime()) ? null : iso(c.getFullYear(), c.getMonth() + 1, c.getDate());
  // Excel counts days from 1899-12-30 (its 1900 leap-year bug included), 25569 being 1970-01-01.
  if (typeof c === 'number') {
    if (!Number.isInteger(c) || c < 1) return null;
    const d = new Date((c - 25569) * 86_400_000);
    return iso(d.getUTCFullYear(), d.getUTCMonth() + 1, d.getUTCDate());
  }
  const s = String(c).trim();
  return /^\d{4}-\d{2}-\d{2}$/.test(s) ? s : null;
}

/** The columns written beside the order, and their number formats (money for the seven figures). */
export const RESULT_HEADERS = [
  'Duty', 'Section 301', 'Section 232', 'Other additional duties', 'MPF', 'HMF', 'Landed cost', 'Rate', 'Program(s)', 'Assumptions/Notes', 'Status',
] as const;
export const MONEY_FORMAT = '$#,##0.00';
export const RESULT_FORMATS: readonly string[] = [...Array(7).fill(MONEY_FORMAT), '@', '@', '@', 'General'];
/** Where the Assumptions/Notes and the Status are: the last two columns. */
export const NOTES_COLUMN = RESULT_HEADERS.length - 2;
export const STATUS_COLUMN = RESULT_HEADERS.length - 1;
/** Rows the output takes below the last line: the totals, then the record of what was used. */
export const FOOTER_ROWS = 2;
