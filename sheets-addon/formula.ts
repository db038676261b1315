/**
 * An argument of a filled-down formula worked out as Sheets works it out, so the first cell of a
 * fill-down can ask for its neighbours' answers too (neighbours.ts): cell references and ranges of
 * the same sheet, numbers, text in quotes, TRUE/FALSE, the operators + - * / ^ % & and comparisons,
 * and the functions a value, code or origin is commonly wrapped in (ROUND(D2*E2, 2), TRIM(C2)…,
 * FUNCTIONS below). Anything else (another sheet, a function not listed, an error such as #DIV/0!,
 * a date or a TRUE in arithmetic) is not followed: that cell asks on its own, which costs a request
 * but never a wrong answer, since every cell still answers from the arguments Sheets passes it.
 */
import type { Cell } from './grid.js';

/** A value while evaluating: a cell's value, or the cells of a range (row by row). */
type Value = Cell | { range: Cell[] };

const FAIL = Symbol('not followed');

const TOKEN =
  /\s*(?:(\$?[A-Z]{1,3}\$?\d+(?::\$?[A-Z]{1,3}\$?\d+)?)(?![A-Z0-9_(])|([A-Z][A-Z0-9_.]*)\s*\(|(TRUE|FALSE)(?![A-Z0-9_(])|((?:\d+(?:\.\d*)?|\.\d+)(?:E[+-]?\d+)?)|"((?:[^"]|"")*)"|(<>|<=|>=|[-+*/^%&=<>(),;]))/iy;

type Token = { ref: string } | { fn: string } | { value: Cell } | { op: string };

function tokens(text: string): Token[] | undefined {
  const out: Token[] = [];
  TOKEN.lastIndex = 0;
  while (TOKEN.lastIndex < text.length) {
    const at = TOKEN.lastIndex;
    const m = TOKEN.exec(text);
    if (!m) return text.slice(at).trim() === '' ? out : undefined;
    if (m[1]) out.push({ ref: m[1].replace(/\$/g, '').toUpperCase() });
    else if (m[2]) out.push({ fn: m[2].toUpperCase() });
    else if (m[3]) out.push({ value: m[3].toUpperCase() === 'TRUE' });
    else if (m[4]) out.push({ value: Number(m[4]) });
    else if (m[5] !== undefined) out.push({ value: m[5].replace(/""/g, '"') });
    else out.push({ op: m[6] === ';' ? ',' : m[6] });
  }
  return out;
}

const isBlankCell = (v: Cell) => v === '' || v === null || v === undefined;

/** A value as a number, as Sheets' arithmetic reads it: blank is 0, numeric text its number; TRUE, dates and other text are not followed. */
function num(v: Value): number {
  if (typeof v === 'object' && v !== null && 'range' in v) return num(single(v));
  if (isBlankCell(v)) return 0;
  if (typeof v === 'number') return v;
  if (typeof v === 'string' && /^\s*[-+]?(\d+(\.\d*)?|\.\d+)(E[+-]?\d+)?\s*$/i.test(v)) return Number(v);
  throw FAIL;
}

/** A value as text: text as is, blank ''; a whole number its digits (other numbers are formatted by Sheets' rules: not followed). */
function text(v: Value): string {
  if (typeof v === 'object' && v !== null && 'range' in v) return text(single(v));
  if (isBlankCell(v)) return '';
  if (typeof v === 'string') return v;
  if (typeof v === 'number' && Number.isInteger(v) && Math.abs(v) < 1e15) return String(v);
  throw FAIL;
}

function bool(v: Value): boolean {
  if (typeof v === 'boolean') return v;
  return num(v) !== 0;
}

/** A range of one cell is that cell; a larger one in a cell's place is not followed. */
function single(v: { range: Cell[] }): Cell {
  if (v.range.length !== 1) throw FAIL;
  return v.range[0];
}

/** A finite number, or not followed (Sheets shows #NUM! or #DIV/0!). */
function finite(n: number): number {
  if (!Number.isFinite(n)) throw FAIL;
  return n;
}

/**
 * `x` rounded to `digits` decimals as Sheets rounds: on the number as it shows to 15 significant
 * digits (ROUND(1.005, 2) is 1.01, though the double 1.005 is a little below), half away from zero
 * for ROUND, away from zero for ROUNDUP, toward zero for ROUNDDOWN.
 */
function roundTo(x: number, digits: number, how: 'round' | 'up' | 'down'): number {
  const d = Math.trunc(digits);
  const shown = Math.abs(Number(x.toPrecision(15)));
  const step = how === 'round' ? Math.round : how === 'up' ? Math.ceil : Math.floor;
  const [mantissa, exponent = '0'] = String(shown).split('e');
  const scaled = step(Number(`${mantissa}e${Number(exponent) + d}`));
  const [m2, e2 = '0'] = String(scaled).split('e');
  return Math.sign(x) * Number(`${m2}e${Number(e2) - d}`);
}

/** The numbers of arguments to SUM, MIN…: text, TRUE and blanks inside a range are skipped, as Sheets does; given directly they are read. */
function numbers(args: Value[]): number[] {
  return args.flatMap((a) => (typeof a === 'object' && a !== null && 'range' in a ? a.range.filter((v): v is number => typeof v === 'number') : [num(a)]));
}

function arity(args: Value[], min: number, max: number): Value[] {
  if (args.length < min || args.length > max) throw FAIL;
  return args;
}

const FUNCTIONS: Record<string, (args: Value[]) => Cell> = {
  ROUND: (a) => roundTo(num(arity(a, 1, 2)[0]), a.length > 1 ? num(a[1]) : 0, 'round'),
  ROUNDUP: (a) => roundTo(num(arity(a, 1, 2)[0]), a.length > 1 ? num(a[1]) : 0, 'up'),
  ROUNDDOWN: (a) => roundTo(num(arity(a, 1, 2)[0]), a.length > 1 ? num(a[1]) : 0, 'down'),
  TRUNC: (a) => roundTo(num(arity(a, 1, 2)[0]), a.length > 1 ? num(a[1]) : 0, 'down'),
  INT: (a) => Math.floor(num(arity(a, 1, 1)[0])),
  ABS: (a) => Math.abs(num(arity(a, 1, 1)[0])),
  VALUE: (a) => num(arity(a, 1, 1)[0]),
  SUM: (a) => numbers(a).reduce((s, n) => s + n, 0),
  PRODUCT: (a) => numbers(a).reduce((s, n) => s * n, 1),
  MIN: (a) => (numbers(a).length ? Math.min(...numbers(a)) : 0),
  MAX: (a) => (numbers(a).length ? Math.max(...numbers(a)) : 0),
  IF: (a) => {
    arity(a, 2, 3);
    const v = bool(a[0]) ? a[1] : a.length > 2 ? a[2] : false;
    return typeof v === 'object' && v !== null && 'range' in v ? single(v) : v;
  },
  TRIM: (a) => text(arity(a, 1, 1)[0]).trim().replace(/ +/g, ' '),
  UPPER: (a) => text(arity(a, 1, 1)[0]).toUpperCase(),
  LOWER: (a) => text(arity(a, 1, 1)[0]).toLowerCase(),
  LEFT: (a) => text(arity(a, 1, 2)[0]).slice(0, a.length > 1 ? num(a[1]) : 1),
  CONCATENATE: (a) => a.map(text).join(''),
};

function compare(op: string, x: Value, y: Value): boolean {
  const a = typeof x === 'object' && x !== null && 'range' in x ? single(x) : x;
  const b = typeof y === 'object' && y !== null && 'range' in y ? single(y) : y;
  let c: number;
  if (typeof a === 'string' && typeof b === 'string') c = a.toLowerCase() < b.toLowerCase() ? -1 : a.toLowerCase() > b.toLowerCase() ? 1 : 0;
  else if (typeof a === 'string' || typeof b === 'string' || typeof a === 'boolean' || typeof b === 'boolean') {
    if (op !== '=' && op !== '<>') throw FAIL; // Sheets orders numbers before text before TRUE/FALSE: not followed
    c = a === b ? 0 : 1;
  } else c = num(a) - num(b);
  return { '=': c === 0, '<>': c !== 0, '<': c < 0, '>': c > 0, '<=': c <= 0, '>=': c >= 0 }[op]!;
}

const columnIndex = (letters: string) => [...letters].reduce((n, ch) => n * 26 + ch.charCodeAt(0) - 64, 0);

/**
 * The value of a formula's argument `formula`, or undefined when it is not followed (see above).
 * `cellAt(row, col)` gives a cell of the sheet (undefined when it was not read).
 */
/** The binary operators of a formula by precedence, lowest first (as in Sheets), each with what it makes of its two sides. */
const BINARY: readonly Readonly<Record<string, (x: Value, y: Value) => Value>>[] = [
  Object.fromEntries(['=', '<>', '<', '>', '<=', '>='].map((op) => [op, (x: Value, y: Value) => compare(op, x, y)])),
  { '&': (x, y) => text(x) + text(y) },
  { '+': (x, y) => finite(num(x) + num(y)), '-': (x, y) => finite(num(x) - num(y)) },
  {
    '*': (x, y) => finite(num(x) * num(y)),
    '/': (x, y) => {
      const w = num(y);
      if (w === 0) throw FAIL; // #DIV/0!
      return finite(num(x) / w);
    },
  },
  { '^': (x, y) => finite(num(x) ** num(y)) },
];

export function evaluate(formula: string, cellAt: (row: number, col: number) => Cell | undefined): { value: Cell } | undefined {
  const list = tokens(formula);
  if (!list || !list.length) return undefined;
  let i = 0;
  const peekOp = () => {
    const t = list[i];
    return t && 'op' in t ? t.op : undefined;
  };
  const expect = (op: string) => {
    if (peekOp() !== op) throw FAIL;
    i++;
  };
  const at = (ref: string) => {
    const m = /^([A-Z]+)(\d+)$/.exec(ref)!;
    return [Number(m[2]), columnIndex(m[1])] as const;
  };
  const cell = (row: number, col: number): Cell => {
    const v = cellAt(row, col);
    if (v === undefined) throw FAIL;
    if (typeof v === 'string' && v.startsWith('#')) throw FAIL; // an error value, read as its text
    return v;
  };
  const reference = (ref: string): Value => {
    const [from, to] = ref.split(':').map(at);
    if (!to) return cell(...from);
    const [r1, r2] = [from[0], to[0]].sort((x, y) => x - y);
    const [c1, c2] = [from[1], to[1]].sort((x, y) => x - y);
    if ((r2 - r1 + 1) * (c2 - c1 + 1) > 1000) throw FAIL;
    const range: Cell[] = [];
    for (let r = r1; r <= r2; r++) for (let c = c1; c <= c2; c++) range.push(cell(r, c));
    return { range };
  };
  // Precedence as in Sheets: comparison < & < + - < * / < ^ (BINARY, each level left to right) < % < unary - < operands.
  const comparison = (): Value => binary(0);
  const binary = (level: number): Value => {
    if (level === BINARY.length) return percent();
    const ops = BINARY[level];
    let v = binary(level + 1);
    for (let op = peekOp(); op !== undefined && Object.prototype.hasOwnProperty.call(ops, op); op = peekOp()) {
      i++;
      v = ops[op](v, binary(level + 1));
    }
    return v;
  };
  const percent = (): Value => {
    let v = unary();
    while (peekOp() === '%') {
      i++;
      v = num(v) / 100;
    }
    return v;
  };
  const unary = (): Value => {
    const op = peekOp();
    if (op === '-' || op === '+') {
      i++;
      const v = num(unary());
      return op === '-' ? -v : v;
    }
    return operand();
  };
  const operand = (): Value => {
    const t = list[i++];
    if (!t) throw FAIL;
    if ('value' in t) return t.value;
    if ('ref' in t) return reference(t.ref);
    if ('fn' in t) {
      const fn = FUNCTIONS[t.fn];
      if (!fn) throw FAIL;
      const args: Value[] = [];
      if (peekOp() !== ')') {
        args.push(comparison());
        while (peekOp() === ',') {
          i++;
          args.push(comparison());
        }
      }
      expect(')');
      return fn(args);
    }
    if (t.op === '(') {
      const v = comparison();
      expect(')');
      return v;
    }
    throw FAIL;
  };
  try {
    const v = comparison();
    if (i !== list.length) return undefined;
    if (typeof v === 'object' && v !== null && 'range' in v) return undefined; // a range in a cell's place is a range call: left to itself
    if (typeof v === 'number' && !Number.isFinite(v)) return undefined;
    return { value: v };
  } catch (e) {
    if (e === FAIL) return undefined;
    throw e;
  }
}
