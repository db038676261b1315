/** What every written order must satisfy: each money column of the totals row is the sum of the cells above it. */
import { expect } from 'vitest';
import { RESULT_FORMATS, MONEY_FORMAT } from '../../spreadsheet/order-sheet.js';

const MONEY = RESULT_FORMATS.flatMap((f, i) => (f === MONEY_FORMAT ? [i] : []));

/**
 * `lines` are the rows written for the lines (results columns only, blank rows and error rows
 * included), `totals` the totals row: each of the seven money columns adds up to the cent, a blank
 * cell counting nothing.
 */
export function expectColumnsAddUp(lines: readonly (readonly unknown[])[], totals: readonly unknown[]): void {
  const sums = MONEY.map((c) => lines.reduce((s: number, row) => s + (typeof row[c] === 'number' ? Math.round((row[c] as number) * 100) : 0), 0) / 100);
  expect(MONEY.map((c) => totals[c])).toEqual(sums);
}
