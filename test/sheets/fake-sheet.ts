/**
 * An in-memory spreadsheet with the part of SpreadsheetApp's Sheet and Range API the add-on uses.
 * Like Sheets, getValues answers '' for empty cells, and setValues refuses an array whose size
 * differs from the range's.
 */
export type Value = string | number | boolean | Date;

interface CellData {
  value: Value;
  /** A formula as typed, e.g. `=DUTY(A2,B2,C2)`; '' for a plain value. */
  formula: string;
  note: string;
  background: string | null;
  numberFormat: string | null;
  fontWeight: string | null;
  borderTop: boolean;
}

const EMPTY: CellData = { value: '', formula: '', note: '', background: null, numberFormat: null, fontWeight: null, borderTop: false };

export function columnNumber(letters: string): number {
  return [...letters.toUpperCase()].reduce((n, ch) => n * 26 + ch.charCodeAt(0) - 64, 0);
}

export function columnLetters(col: number): string {
  let s = '';
  for (let n = col; n > 0; n = Math.floor((n - 1) / 26)) s = String.fromCharCode(65 + ((n - 1) % 26)) + s;
  return s;
}

/** A sheet's rows, as a new Sheets sheet has (more when written beyond): what a whole column spans. */
const GRID_ROWS = 1000;

/** `B2:D5`, `B2`, or whole columns `A:E` (every row of a sheet of `gridRows`) → row, column, rows, columns. */
export function parseA1(a1: string, gridRows = GRID_ROWS): { row: number; col: number; rows: number; cols: number } {
  const whole = /^([A-Z]+):([A-Z]+)$/i.exec(a1);
  if (whole) return { row: 1, col: columnNumber(whole[1]), rows: gridRows, cols: columnNumber(whole[2]) - columnNumber(whole[1]) + 1 };
  const m = /^([A-Z]+)(\d+)(?::([A-Z]+)(\d+))?$/i.exec(a1);
  if (!m) throw new Error(`bad A1 notation ${a1}`);
  const row = Number(m[2]);
  const col = columnNumber(m[1]);
  const lastRow = m[4] ? Number(m[4]) : row;
  const lastCol = m[3] ? columnNumber(m[3]) : col;
  return { row, col, rows: lastRow - row + 1, cols: lastCol - col + 1 };
}

export class FakeSheet {
  private readonly cells = new Map<string, CellData>();
  hidden = false;

  constructor(private readonly name: string) {}

  getName(): string {
    return this.name;
  }

  hideSheet(): this {
    this.hidden = true;
    return this;
  }

  cell(row: number, col: number): CellData {
    return this.cells.get(`${row},${col}`) ?? EMPTY;
  }

  update(row: number, col: number, change: Partial<CellData>): void {
    this.cells.set(`${row},${col}`, { ...this.cell(row, col), ...change });
  }

  getRange(rowOrA1: number | string, col?: number, rows = 1, cols = 1): FakeRange {
    if (typeof rowOrA1 === 'string') {
      const r = parseA1(rowOrA1, Math.max(GRID_ROWS, this.getLastRow()));
      return new FakeRange(this, r.row, r.col, r.rows, r.cols);
    }
    return new FakeRange(this, rowOrA1, col!, rows, cols);
  }

  isEmptyAt(row: number, col: number): boolean {
    const { value: v, formula } = this.cell(row, col);
    return (v === '' || v === null || v === undefined) && !formula;
  }

  /** Like Sheets: the last row and column holding a value or a formula (0 for an empty sheet). */
  getLastRow(): number {
    return Math.max(0, ...[...this.cells.keys()].filter((k) => !this.isEmptyAt(...(k.split(',').map(Number) as [number, number]))).map((k) => Number(k.split(',')[0])));
  }
  getLastColumn(): number {
    return Math.max(0, ...[...this.cells.keys()].filter((k) => !this.isEmptyAt(...(k.split(',').map(Number) as [number, number]))).map((k) => Number(k.split(',')[1])));
  }

  /** Test convenience: the values of an A1 range. */
  values(a1: string): Value[][] {
    return this.getRange(a1).getValues();
  }
}

export class FakeRange {
  constructor(
    private readonly sheet: FakeSheet,
    private readonly row: number,
    private readonly col: number,
    private readonly rows: number,
    private readonly cols: number,
  ) {
    if (row < 1 || col < 1 || rows < 1 || cols < 1) throw new Error(`Exception: The coordinates of the range are outside the dimensions of the sheet (${row}, ${col}, ${rows}, ${cols})`);
  }

  getSheet(): FakeSheet {
    return this.sheet;
  }
  getRow(): number {
    return this.row;
  }
  getColumn(): number {
    return this.col;
  }
  getNumRows(): number {
    return this.rows;
  }
  getNumColumns(): number {
    return this.cols;
  }
  getA1Notation(): string {
    return `${columnLetters(this.col)}${this.row}:${columnLetters(this.col + this.cols - 1)}${this.row + this.rows - 1}`;
  }

  private grid<T>(f: (row: number, col: number) => T): T[][] {
    return Array.from({ length: this.rows }, (_, r) => Array.from({ length: this.cols }, (_, c) => f(this.row + r, this.col + c)));
  }

  private each<T>(data: T[][], what: string, f: (row: number, col: number, v: T) => void): this {
    if (data.length !== this.rows || data.some((r) => r.length !== this.cols))
      throw new Error(`Exception: The number of rows or columns in the ${what} does not match the range ${this.getA1Notation()} (${data.length}×${data[0]?.length})`);
    data.forEach((r, i) => r.forEach((v, j) => f(this.row + i, this.col + j, v)));
    return this;
  }

  getValues(): Value[][] {
    return this.grid((r, c) => this.sheet.cell(r, c).value);
  }
  setValues(values: Value[][]): this {
    return this.each(values, 'data', (r, c, v) => this.sheet.update(r, c, { value: v === null || v === undefined ? '' : v, formula: '' }));
  }
  setValue(value: Value): this {
    return this.setValues(this.grid(() => value));
  }
  getFormulas(): string[][] {
    return this.grid((r, c) => this.sheet.cell(r, c).formula);
  }
  /** The test writes formulas; their values are what the test then computes by calling the functions. */
  setFormulas(formulas: string[][]): this {
    return this.each(formulas, 'formulas', (r, c, f) => this.sheet.update(r, c, { formula: f }));
  }
  getNotes(): string[][] {
    return this.grid((r, c) => this.sheet.cell(r, c).note);
  }
  setNotes(notes: string[][]): this {
    return this.each(notes, 'notes', (r, c, n) => this.sheet.update(r, c, { note: n ?? '' }));
  }
  setNote(note: string): this {
    return this.setNotes(this.grid(() => note));
  }
  clearNote(): this {
    return this.setNote('');
  }
  clearContent(): this {
    return this.each(this.grid(() => ''), 'data', (r, c) => this.sheet.update(r, c, { value: '', formula: '' }));
  }
  clearFormat(): this {
    return this.each(this.grid(() => ''), 'formats', (r, c) => this.sheet.update(r, c, { background: null, numberFormat: null, fontWeight: null, borderTop: false }));
  }
  getBackgrounds(): (string | null)[][] {
    return this.grid((r, c) => this.sheet.cell(r, c).background);
  }
  setBackgrounds(colors: (string | null)[][]): this {
    return this.each(colors, 'colors', (r, c, v) => this.sheet.update(r, c, { background: v }));
  }
  setBackground(color: string | null): this {
    return this.setBackgrounds(this.grid(() => color));
  }
  getNumberFormats(): (string | null)[][] {
    return this.grid((r, c) => this.sheet.cell(r, c).numberFormat);
  }
  setNumberFormat(format: string): this {
    return this.each(this.grid(() => format), 'formats', (r, c, v) => this.sheet.update(r, c, { numberFormat: v }));
  }
  setNumberFormats(formats: string[][]): this {
    return this.each(formats, 'formats', (r, c, v) => this.sheet.update(r, c, { numberFormat: v }));
  }
  /** setBorder(top, left, bottom, right, vertical, horizontal): only the top edge is kept here; null leaves it. */
  setBorder(top: boolean | null): this {
    if (top === null) return this;
    return this.each(this.grid(() => top), 'borders', (r, c, v) => this.sheet.update(r, c, { borderTop: v }));
  }
  getBorderTops(): boolean[][] {
    return this.grid((r, c) => this.sheet.cell(r, c).borderTop);
  }
  getFontWeights(): (string | null)[][] {
    return this.grid((r, c) => this.sheet.cell(r, c).fontWeight);
  }
  setFontWeight(weight: string): this {
    return this.each(this.grid(() => weight), 'weights', (r, c, v) => this.sheet.update(r, c, { fontWeight: v }));
  }
  /** Like Sheets' copyTo: every cell (value, formula, note, formats) to the block of the same size at the destination's top-left cell. */
  copyTo(destination: FakeRange): void {
    const target = destination.getSheet();
    for (let r = 0; r < this.rows; r++) for (let c = 0; c < this.cols; c++) target.update(destination.getRow() + r, destination.getColumn() + c, this.sheet.cell(this.row + r, this.col + c));
  }
  offset(rowOffset: number, colOffset: number, rows = this.rows, cols = this.cols): FakeRange {
    return new FakeRange(this.sheet, this.row + rowOffset, this.col + colOffset, rows, cols);
  }

  /** The block of non-empty cells around this range, grown until every cell bordering it is empty. */
  getDataRegion(): FakeRange {
    let [top, left, bottom, right] = [this.row, this.col, this.row + this.rows - 1, this.col + this.cols - 1];
    const anyIn = (r1: number, c1: number, r2: number, c2: number) => {
      for (let r = Math.max(1, r1); r <= r2; r++) for (let c = Math.max(1, c1); c <= c2; c++) if (!this.sheet.isEmptyAt(r, c)) return true;
      return false;
    };
    for (let grown = true; grown; ) {
      grown = false;
      if (top > 1 && anyIn(top - 1, left - 1, top - 1, right + 1)) [top, grown] = [top - 1, true];
      if (anyIn(bottom + 1, left - 1, bottom + 1, right + 1)) [bottom, grown] = [bottom + 1, true];
      if (left > 1 && anyIn(top - 1, left - 1, bottom + 1, left - 1)) [left, grown] = [left - 1, true];
      if (anyIn(top - 1, right + 1, bottom + 1, right + 1)) [right, grown] = [right + 1, true];
    }
    return new FakeRange(this.sheet, top, left, bottom - top + 1, right - left + 1);
  }
}
