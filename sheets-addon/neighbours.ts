/**
 * Filled down a column, `=DUTY(A2, B2, C2)` is one execution per cell, each of which would ask the
 * API on its own. The first cell to miss the cache reads the formulas around it instead (a custom
 * function may read its own spreadsheet), works out the arguments of every landed function call
 * as Sheets would (cells, constants, arithmetic and the common functions around them,
 * `ROUND(D2*E2, 2)`: formula.ts), and its answers are fetched in the same batch requests.
 */
import { evaluate } from './formula.js';
import type { Cell } from './grid.js';

/** The argument names of each function whose answers come from POST /duty/batch. */
export const DUTY_ARGS = ['hts', 'value', 'origin', 's301', 'ocean', 'qty', 'unit', 'date', 'claim'] as const;
export const FUNCTION_ARGS: Record<string, readonly string[]> = {
  DUTY: DUTY_ARGS,
  SECTION301: DUTY_ARGS,
  S232: DUTY_ARGS,
  ADDITIONAL: DUTY_ARGS,
  MPF: DUTY_ARGS,
  HMF: DUTY_ARGS,
  FEES: DUTY_ARGS,
  LANDED: DUTY_ARGS,
  RESULT: ['hts', 'value', 'origin', 's301', 'ocean', 'header', 'qty', 'unit', 'date', 'claim'],
  RATE: ['hts', 'origin'],
  DESC: ['hts'],
};

/** Rows read above and below the calling cell: enough for a column of a few thousand lines. */
const WINDOW_ROWS = 2500;

const CALL = new RegExp(`(?:^|[^A-Z0-9_.])(${Object.keys(FUNCTION_ARGS).join('|')})\\s*\\(`, 'gi');
/** The arguments of a call starting after its `(`: split at commas (or the semicolons of some locales) outside quotes and brackets. */
function splitArgs(formula: string, start: number): string[] | null {
  const args: string[] = [];
  let depth = 0;
  let quoted = false;
  let current = '';
  for (let i = start; i < formula.length; i++) {
    const ch = formula[i];
    if (quoted) {
      current += ch;
      if (ch === '"') quoted = false;
    } else if (ch === '"') {
      quoted = true;
      current += ch;
    } else if (ch === '(' || ch === '{') {
      depth++;
      current += ch;
    } else if ((ch === ')' || ch === '}') && depth > 0) {
      depth--;
      current += ch;
    } else if (ch === ')') {
      args.push(current.trim());
      return args;
    } else if ((ch === ',' || ch === ';') && depth === 0) {
      args.push(current.trim());
      current = '';
    } else current += ch;
  }
  return null;
}

/** An argument's value, or undefined for one this reading does not follow (a range, another sheet, a nested landed call). */
function argValue(text: string, cellAt: (row: number, col: number) => Cell | undefined): { value: Cell } | undefined {
  return text === '' ? { value: undefined } : evaluate(text, cellAt);
}

/** The named arguments of every landed call near the calling cell whose arguments can be read. */
export function neighbourCalls(): Record<string, Cell>[] {
  const here = SpreadsheetApp.getActiveRange();
  if (!here) return [];
  const sheet = here.getSheet();
  const lastRow = sheet.getLastRow();
  const lastCol = sheet.getLastColumn();
  if (!lastRow || !lastCol) return [];
  const top = Math.max(1, here.getRow() - WINDOW_ROWS);
  const bottom = Math.min(lastRow, here.getRow() + WINDOW_ROWS);
  const block = sheet.getRange(top, 1, bottom - top + 1, lastCol);
  const formulas = block.getFormulas();
  const values = block.getValues() as Cell[][];
  const cellAt = (row: number, col: number): Cell | undefined => (row >= top && row <= bottom && col <= lastCol ? values[row - top][col - 1] : undefined);
  const calls: Record<string, Cell>[] = [];
  for (const row of formulas)
    for (const formula of row) {
      if (!formula) continue;
      for (const m of formula.matchAll(CALL)) {
        const names = FUNCTION_ARGS[m[1].toUpperCase()];
        const args = splitArgs(formula, m.index! + m[0].length);
        if (!args || args.length > names.length) continue;
        const read = args.map((a) => argValue(a, cellAt));
        if (read.some((r) => r === undefined)) continue;
        calls.push(Object.fromEntries(names.map((n, i) => [n, read[i]?.value])));
      }
    }
  return calls;
}
