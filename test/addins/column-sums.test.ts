/**
 * Issue 41 point 1: the totals row of every order fixture of both hosts equals its columns' sums,
 * Landed cost included (a line without a duty leaves its Landed cost blank, and the total leaves it
 * out, saying so). The fixtures are the cells the hosts' tests check they write (test/addins/parity.e2e.test.ts,
 * test/sheets/order.test.ts), so a total that stops adding up fails here and there.
 */
import { describe, it } from 'vitest';
import { expectColumnsAddUp } from './column-sums.js';
import { BROKER_INVOICE_COSTED, DATED_INVOICE_COSTED, LINE_TOTAL_INVOICE_COSTED, UOM_INVOICE_COSTED } from './invoices.js';
import { MIXED_ORDER_BY_VESSEL } from '../sheets/orders.js';

const FIXTURES = {
  'the UOM invoice (a line without a duty)': UOM_INVOICE_COSTED,
  'the Line Total invoice (an error line)': LINE_TOTAL_INVOICE_COSTED,
  'the mixed order by vessel (header, error, blank row, a line without a duty)': MIXED_ORDER_BY_VESSEL.slice(1),
  "a broker's invoice (CTN against a per-kg rate, two unreadable values)": BROKER_INVOICE_COSTED,
  'the dated invoice (two entries, an unreadable date)': DATED_INVOICE_COSTED,
};

describe('every order fixture: the totals row is the sum of its columns', () => {
  for (const [name, rows] of Object.entries(FIXTURES))
    it(name, () => expectColumnsAddUp(rows.slice(0, -1), rows[rows.length - 1]));
});
