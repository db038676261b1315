/**
 * Custom-function arguments: Sheets passes a single cell as its value and a range as a 2-D array
 * (rows of cells). Functions answer a 2-D array of the same shape; single cells repeat over it.
 */
import { isBlank } from '../spreadsheet/order-sheet.js';

export type Cell = string | number | boolean | Date | null | undefined;
export type Arg = Cell | Cell[][];
/** What a cell of a custom function's answer may hold. */
export type Out = string | number | boolean;

export interface Shape {
  rows: number;
  cols: number;
}

function shapeOf(arg: Arg): Shape {
  if (!Array.isArray(arg)) return { rows: 1, cols: 1 };
  return { rows: arg.length, cols: Array.isArray(arg[0]) ? arg[0].length : 1 };
}

function cellAt(arg: Arg, r: number, c: number): Cell {
  if (!Array.isArray(arg)) return arg;
  // A single cell given as a 1×1 range repeats like a plain value.
  const { rows, cols } = shapeOf(arg);
  const row = arg[rows === 1 ? 0 : r] as Cell[] | Cell;
  return Array.isArray(row) ? row[cols === 1 ? 0 : c] : row;
}

/**
 * The cells of the named arguments, position by position (row by row), over the shape their
 * ranges share. A range of another size than the first range is an error naming both.
 */
export function zipCells(args: readonly [string, Arg][]): { shape: Shape; cells: Cell[][] } {
  let shape: Shape = { rows: 1, cols: 1 };
  let from = '';
  for (const [name, arg] of args) {
    const s = shapeOf(arg);
    if (s.rows * s.cols === 1) continue;
    if (!from) [shape, from] = [s, name];
    else if (s.rows !== shape.rows || s.cols !== shape.cols)
      throw new Error(`${name} is a ${s.rows}×${s.cols} range but ${from} is ${shape.rows}×${shape.cols}: give ranges of the same size, or single cells`);
  }
  const cells: Cell[][] = [];
  for (let r = 0; r < shape.rows; r++) for (let c = 0; c < shape.cols; c++) cells.push(args.map(([, arg]) => cellAt(arg, r, c)));
  return { shape, cells };
}

/** Row-major answers back into the shape. */
export function reshape(shape: Shape, flat: readonly Out[]): Out[][] {
  const out: Out[][] = [];
  for (let r = 0; r < shape.rows; r++) out.push(flat.slice(r * shape.cols, (r + 1) * shape.cols));
  return out;
}

function isDate(c: Cell): c is Date {
  return Object.prototype.toString.call(c) === '[object Date]';
}

/**
 * A cell as an API parameter: blank → undefined, text trimmed, a date as YYYY-MM-DD, numbers and
 * booleans as they are (the API validates them).
 */
export function param(c: Cell): string | number | boolean | undefined {
  if (isBlank(c)) return undefined;
  if (isDate(c)) return Number.isNaN(c.getTime()) ? String(c) : c.toISOString().slice(0, 10);
  return typeof c === 'string' ? c.trim() : (c as number | boolean);
}

/** The first cell of an argument that must be a single value (a flag or a limit). */
export function single(arg: Arg): Cell {
  return cellAt(arg, 0, 0);
}
