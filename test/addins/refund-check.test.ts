/**
 * The refund check's shared logic (spreadsheet/refund-check.ts, refund-totals.ts): which headers it
 * reads, what it refuses on a line, how it splits its requests, and how it adds the answers of several.
 */
import { describe, expect, it } from 'vitest';
import { readRefundSheet, refundRequests } from '../../spreadsheet/refund-check.js';
import { addRefunds } from '../../spreadsheet/refund-totals.js';
import { requestItems } from '../../spreadsheet/order-requests.js';

describe('readRefundSheet', () => {
  it('reads the entry columns under other common names, and the order\'s headings for the rest', () => {
    const { lines, paid } = readRefundSheet([
      ['Entry #', 'Date of Entry', 'Tariff No.', 'C/O', 'Entered Value', 'SPI', 'Duties Paid'],
      ['ABC-1234567-8', '2025-05-20', '6109.10.0012', 'CN', '$10,000.00', '', '5,400.00'],
      [12345678, '2025-09-15', '9401.61.40', 'CA', 8000, 'S', ''],
    ]);
    expect(paid).toBe(true);
    expect(lines.map((l) => l.item)).toEqual([
      { hts: '6109.10.0012', origin: 'CN', value: 10000, entry_number: 'ABC-1234567-8', date: '2025-05-20', claim: 'none' },
      // A number typed as the entry number is its text; the claim as entered.
      { hts: '9401.61.40', origin: 'CA', value: 8000, entry_number: '12345678', date: '2025-09-15', claim: 'S' },
    ]);
    expect(lines.map((l) => l.paidCents)).toEqual([540000, undefined]);
  });

  it('duty paid in cents rounded once, half away from zero, from the exact decimal (1.005 is 1.01, not 1.00 as 1.005 * 100 in doubles)', () => {
    const { lines } = readRefundSheet([
      ['Entry number', 'Entry date', 'HTS', 'Value', 'Duty paid'],
      ['E1', '2025-05-20', '6109.10.00', 1000, '1.005'],
      ['E2', '2025-05-20', '6109.10.00', 1000, '4.015'],
      ['E3', '2025-05-20', '6109.10.00', 1000, 1.005],
    ]);
    expect(lines.map((l) => l.paidCents)).toEqual([101, 402, 101]);
  });

  it('a line without entry number or date, an entry number given two dates, an unreadable duty paid: that line\'s error', () => {
    const { lines } = readRefundSheet([
      ['Entry number', 'Entry date', 'HTS', 'Value', 'Duty paid'],
      ['E1', '2025-05-20', '6109.10.00', 1000, 300],
      ['', '2025-05-20', '6109.10.00', 1000, ''],
      ['E2', '', '6109.10.00', 1000, ''],
      ['E1', '2025-05-21', '6109.10.00', 1000, ''],
      ['E3', '2025-05-20', '6109.10.00', 1000, 'paid'],
    ]);
    expect(lines.map((l) => l.error ?? 'ok')).toEqual([
      'ok',
      'Entry number is empty',
      'Entry date is empty: the refund turns on the date the goods were entered',
      'Entry E1 is dated 2025-05-20 on row 2 of the selection, 2025-05-21 here',
      'Duty paid "paid" is not an amount in U.S. dollars written 1,234.56 (if it uses a decimal comma, choose 1.234,56 under Numbers)',
    ]);
    expect(lines.filter((l) => l.item).length).toBe(1);
  });

  it('names the columns a header lacks', () => {
    expect(() => readRefundSheet([['Entry', 'HTS', 'Price'], ['E1', '6109.10.00', 5]])).toThrow(/names no Entry date, Value column\.$/);
  });
});

describe('refundRequests', () => {
  it('parts of up to 1,000 lines whatever their dates; a part of unreadable lines only is not sent', () => {
    const rows = Array.from({ length: 2500 }, (_, i) => [`E${i % 700}`, `2025-0${1 + (i % 700) % 9}-10`, '6109.10.00', i < 2000 ? 100 : 'x']);
    const { lines } = readRefundSheet([['Entry', 'Entry date', 'HTS', 'Value'], ...rows]);
    // Entries E0…E699 each keep one date (i % 700 decides both), so only the last 500 values fail.
    expect(refundRequests(lines).map((r) => r.lines.length)).toEqual([1000, 1000]);
    expect(refundRequests(lines).every((r) => r.date === undefined)).toBe(true);
  });
});

describe('addRefunds', () => {
  it('adds heading by heading in cents, an entry split over two requests once, a reason only when every request gives it', () => {
    const after = 'Entered 2026-03-10, after …';
    const sum = addRefunds([
      { total: 0.3, headings: { '9903.01.24': 0.1, '9903.01.25': 0.2 }, entries: [{ entry_number: 'E1', date: '2025-05-20', total: 0.3, headings: { '9903.01.24': 0.1, '9903.01.25': 0.2 } }] },
      {
        total: 0.2,
        headings: { '9903.01.24': 0.2 },
        entries: [
          { entry_number: 'E1', date: '2025-05-20', total: 0.2, headings: { '9903.01.24': 0.2 } },
          { entry_number: 'E9', date: '2026-03-10', total: 0, headings: {}, reason: after },
        ],
      },
    ]);
    // 0.1 + 0.2 is 0.30000000000000004 in floating point: added in cents, 0.3.
    expect(sum).toEqual({
      total: 0.5,
      headings: { '9903.01.24': 0.3, '9903.01.25': 0.2 },
      entries: [
        { entry_number: 'E1', date: '2025-05-20', total: 0.5, headings: { '9903.01.24': 0.3, '9903.01.25': 0.2 } },
        { entry_number: 'E9', date: '2026-03-10', total: 0, headings: {}, reason: after },
      ],
    });
    expect(addRefunds([{ total: 0, headings: {}, reason: after }, { total: 0, headings: {}, reason: after }]).reason).toBe(after);
    expect(addRefunds([{ total: 0, headings: {}, reason: after }, { total: 0, headings: {} }]).reason).toBeUndefined();
    expect(addRefunds([])).toEqual({ total: 0, headings: {} });
  });
});

describe('readRefundSheet: the claim columns', () => {
  it('liquidation, type, flags and the IEEPA deposit per 9903 column, under ACE report names; an entry number in any writing is CBP\'s form', () => {
    const { lines } = readRefundSheet([
      ['Entry Number', 'Entry Date', 'Entry Type', 'Liq Date', 'Liq Status', 'Recon Flag', 'Drawback', 'Open Protest', 'Entry Summary Date', 'HTS', 'Value', '9903.01.24', '9903.01.25'],
      ['abc12345676', '2025-05-20', '1', '2026-03-01', 'LIQUIDATED', 'N', '', 'Y', '2025-05-30', '6109.10.00', 10000, '2,000.00', 1000],
      ['XYZ-1-2', '2025-05-20', '09 - Reconciliation', '', 'Extended', 'Y', 'X', 'No', '', '6109.10.00', 10000, '', ''],
    ]);
    expect(lines.map((l) => l.entryNumber)).toEqual(['ABC-1234567-6', 'XYZ-1-2']);
    expect(lines.map((l) => l.claim)).toEqual([
      { facts: { liquidationDate: '2026-03-01', liquidationStatus: 'liquidated', entryType: '01', openProtest: true }, summaryDate: '2025-05-30', deposited: new Map([['9903.01.24', 200000], ['9903.01.25', 100000]]) },
      { facts: { liquidationStatus: 'extended', entryType: '09', reconciliation: true, drawback: true }, deposited: null },
    ]);
  });

  it('an entry summary\'s 9903 rows: the duty is the deposit under the heading, not a line to cost; an unreadable status is the row\'s error', () => {
    const { lines } = readRefundSheet([
      ['Entry', 'Entry date', 'HTS', 'Value', 'Duty', 'Liquidation status'],
      ['ABC-2222222-0', '2025-05-20', '6109.10.00', 10000, 2400, ''],
      ['ABC-2222222-0', '2025-05-20', '9903.01.24', '', 2000, ''],
      ['ABC-2222222-0', '2025-05-20', '9903.88.15', '', 750, ''],
      ['ABC-3333333-9', '2025-05-20', '6109.10.00', 10000, '', 'pending review'],
    ]);
    expect(lines.map((l) => [l.heading ?? null, l.item ? 'costed' : null, l.claim?.deposited ?? null, l.error ?? null])).toEqual([
      [null, 'costed', null, null],
      ['9903.01.24', null, new Map([['9903.01.24', 200000]]), null],
      // Section 301's heading: a row of the entry summary, not an IEEPA deposit.
      ['9903.88.15', null, null, null],
      [null, null, null, 'Liquidation status "pending review" is not one of unliquidated, liquidated, extended, suspended, final'],
    ]);
    // One item sent: the 9903 rows and the row in error are not costed.
    expect(refundRequests(lines).map((r) => requestItems(r).length)).toEqual([1]);
  });
});
