/**
 * Issue 41 point 2: the notes both hosts write say what is wrong. A line with a code whose value or
 * date cannot be read is told so, and its description is not searched for codes to suggest; the
 * status counts the lines costed; a code typed as a number is read as its digits.
 */
import { describe, expect, it } from 'vitest';
import { codeQueries } from '../../spreadsheet/code-check.js';
import { costedText } from '../../spreadsheet/order-output.js';
import { readCode, readSheetOrder } from '../../spreadsheet/order-sheet.js';

describe('a line with a code and an unreadable value or date', () => {
  const order = readSheetOrder(
    [
      ['HTS', 'Description', 'Total', 'Entry date'],
      ['6109.10.00', "men's cotton t-shirts", '', ''],
      ['6109.10.00', "men's cotton t-shirts", 'N/A', ''],
      ['6109.10.00', "men's cotton t-shirts", 500, '11/30/2026'],
      ['', "men's cotton t-shirts", 500, ''],
    ],
    null,
  );

  it('is an error naming the value or the date', () => {
    expect(order.lines.slice(0, 3).map((l) => l.error)).toEqual([
      "Value is blank: give the line's customs value in U.S. dollars",
      'Value "N/A" is not an amount in U.S. dollars written 1,234.56 (if it uses a decimal comma, choose 1.234,56 under Numbers)',
      'Entry date "11/30/2026" is not a date this add-in reads: write it YYYY-MM-DD (2026-11-30) or as a date cell',
    ]);
  });

  it('is not searched for codes to suggest (it was told "Suggested codes … not costed until a code is chosen"); a line without a code is', () => {
    expect(order.lines.map((l) => l.description)).toEqual([undefined, undefined, undefined, "men's cotton t-shirts"]);
    expect(codeQueries(order.lines, { checkCodes: false })).toEqual(["men's cotton t-shirts"]);
  });
});

describe('the status after costing (costedText)', () => {
  it('counts the lines costed, and says none was when every line is an error (it said "Costed 20 lines; 20 with errors")', () => {
    expect(costedText({ lines: 20, errors: 20 }, 'Sheet1!F1:P23', '2026 Revision 10')).toBe(
      'No line was costed: all 20 lines have errors (see the Status column in Sheet1!F1:P23). Schedule 2026 Revision 10.',
    );
    expect(costedText({ lines: 20, errors: 3 }, 'Sheet1!F1:P23', '2026 Revision 10')).toBe(
      'Costed 17 of 20 lines into Sheet1!F1:P23; 3 with errors (see the Status column). Schedule 2026 Revision 10.',
    );
    expect(costedText({ lines: 1, errors: 0 }, 'Sheet1!F1:P4', '2026 Revision 10')).toBe('Costed 1 line into Sheet1!F1:P4. Schedule 2026 Revision 10.');
  });
});

describe('a code typed as a number (readCode), the same in every host', () => {
  it.each([
    [6109.1, '6109.10'], // 6109.10 or 6109.1000 typed: the digits it kept, the fraction made even
    [8471.3001, '8471.3001'],
    [6109.12, '6109.12'],
    [61091000, '61091000'],
  ])('%s is %s', (typed, read) => expect(readCode(typed)).toBe(read));
});
