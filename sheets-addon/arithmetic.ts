/**
 * An argument of a filled-down formula that is simple arithmetic, `D2*E2`, `(D2*E2)-F2`, `$B$1*1.1`:
 * cell references and numbers combined with + - * / and brackets, worked out as Sheets does so the
 * first cell can ask for its neighbours' answers too (neighbours.ts). Anything else (a function, a
 * range, ^ or %, text that is not a number) is not followed: that cell asks on its own.
 */
import type { Cell } from './grid.js';

const TOKEN = /\s*(?:(\$?[A-Z]{1,3}\$?\d+)|(\d+(?:\.\d+)?(?:E[+-]?\d+)?|\.\d+)|([-+*/()]))/iy;

/** A cell as a number the way Sheets' arithmetic reads it: blank is 0, numeric text its number; other values none. */
function operand(v: Cell): number | undefined {
  if (v === '' || v === null || v === undefined) return 0;
  if (typeof v === 'number') return v;
  if (typeof v === 'string' && /^\s*[-+]?(\d+(\.\d*)?|\.\d+)(E[+-]?\d+)?\s*$/i.test(v)) return Number(v);
  return undefined;
}

/**
 * The value of `text`, or undefined when it is not simple arithmetic or a cell it reads is not a
 * number. `cellAt(ref)` gives a reference's cell (undefined when it was not read).
 */
export function arithmetic(text: string, cellAt: (ref: string) => Cell | undefined): number | undefined {
  const tokens: string[] = [];
  const refs = new Set<number>();
  TOKEN.lastIndex = 0;
  while (TOKEN.lastIndex < text.length) {
    const at = TOKEN.lastIndex;
    const m = TOKEN.exec(text);
    if (!m) return text.slice(at).trim() === '' ? evaluate() : undefined;
    if (m[1]) refs.add(tokens.length);
    tokens.push(m[1] ?? m[2] ?? m[3]);
  }
  return evaluate();

  function evaluate(): number | undefined {
    let i = 0;
    const fail = Symbol('fail');
    // expression := term (('+'|'-') term)*; term := factor (('*'|'/') factor)*; factor := ('-'|'+') factor | number | ref | '(' expression ')'
    const factor = (): number => {
      const t = tokens[i++];
      if (t === '-') return -factor();
      if (t === '+') return factor();
      if (t === '(') {
        const v = expression();
        if (tokens[i++] !== ')') throw fail;
        return v;
      }
      if (t === undefined || t === ')' || '*/'.includes(t)) throw fail;
      if (refs.has(i - 1)) {
        const cell = cellAt(t);
        const v = cell === undefined ? undefined : operand(cell);
        if (v === undefined) throw fail;
        return v;
      }
      return Number(t);
    };
    const term = (): number => {
      let v = factor();
      while (tokens[i] === '*' || tokens[i] === '/') {
        const op = tokens[i++];
        const w = factor();
        // Division by zero is #DIV/0! in Sheets: not followed.
        if (op === '/' && w === 0) throw fail;
        v = op === '*' ? v * w : v / w;
      }
      return v;
    };
    const expression = (): number => {
      let v = term();
      while (tokens[i] === '+' || tokens[i] === '-') v = tokens[i++] === '+' ? v + term() : v - term();
      return v;
    };
    try {
      const v = expression();
      return i === tokens.length && Number.isFinite(v) ? v : undefined;
    } catch (e) {
      if (e === fail) return undefined;
      throw e;
    }
  }
}
