/**
 * Which cells both add-ins read as the order, whatever the person selected:
 * - one cell inside the table: the table around it (Sheets' data region, Excel's surrounding region:
 *   the block of cells bounded by blank rows and columns);
 * - a larger selection (blank rows above the table, whole columns): its non-blank cells' bounding
 *   box (Excel's used range of the selection; in Sheets, orderBlock over its values).
 * So the same table is read, and the results go to the same cells right of it, in both hosts.
 */
import { isBlank } from './order-sheet.js';

/** Where the non-blank cells of a block of values lie (0-based offsets and size); null when all are blank. */
export function orderBlock(values: readonly (readonly unknown[])[]): { top: number; left: number; rows: number; cols: number } | null {
  let [top, left, bottom, right] = [Infinity, Infinity, -1, -1];
  values.forEach((row, r) =>
    row.forEach((v, c) => {
      if (isBlank(v)) return;
      [top, left, bottom, right] = [Math.min(top, r), Math.min(left, c), Math.max(bottom, r), Math.max(right, c)];
    }),
  );
  return bottom < 0 ? null : { top, left, rows: bottom - top + 1, cols: right - left + 1 };
}
