/**
 * "Refund check (IEEPA)" in the built Code.js, as the sidebar calls it, on an in-memory sheet
 * against the real API: the same past entry lines and the same cells as Excel's task pane
 * (test/excel/taskpane.e2e.test.ts), from the fixture both read (test/addins/refund-entries.ts).
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startAddon, type Addon } from './harness.js';
import { REFUND_BOLD_ROWS, REFUND_CHECKED, REFUND_ENTRIES, REFUND_RECORD, REFUND_REQUESTS, REFUND_STATUS, REFUND_TOTALS } from '../addins/refund-entries.js';

let addon: Addon;
beforeAll(async () => {
  addon = await startAddon();
});
afterAll(async () => {
  await addon?.close();
});

interface Answer {
  confirm?: string;
  output?: string;
  status: string;
  errors: boolean;
  totals: { label: string; value: string; total?: boolean }[];
  notes: string[];
}

describe('the sidebar\'s refund check', () => {
  test('past entries of China, Canada and after the IEEPA period, and a bad line: per line, per entry and heading, totals and record', () => {
    const w = addon.fresh();
    w.sheet.getRange('A1:G7').setValues(REFUND_ENTRIES);
    w.select('A1:G7');
    const r = w.call<Answer>('checkSelectedRefund', { origin: '', decimal: '.' }, false);
    // One request, each item with its entry date, its entry number and its claim as entered.
    expect(w.requests.map((q) => q.url.replace(addon.server.url, ''))).toEqual(['/api/v1/duty/bulk']);
    expect(w.requests.map((q) => q.body)).toEqual(REFUND_REQUESTS);
    expect(w.sheet.values('H1:L18')).toEqual(REFUND_CHECKED);
    expect(w.sheet.values('H19:H19')[0][0]).toMatch(REFUND_RECORD);
    // The answers' notes (the entries by date, the caveats) beside the record.
    expect(w.sheet.values('L19:L19')[0][0]).toContain('The lines have 3 entry dates: each date is costed as an entry of its own (MPF minimum and maximum apply to each).');
    expect(w.sheet.values('L19:L19')[0][0]).toContain('Antidumping and countervailing duties are not included.');
    expect(r).toMatchObject({ output: 'Sheet1!H1:L19', status: REFUND_STATUS, errors: true });
    expect(r.totals.map((t) => `${t.label} ${t.value}`)).toEqual(REFUND_TOTALS);
    // Formats, bold rows, the rule above the totals, the error line red.
    expect(w.sheet.getRange('H2:L2').getNumberFormats()[0]).toEqual(['$#,##0.00', '@', '$#,##0.00', '$#,##0.00', '@']);
    expect(w.sheet.getRange('H10:L10').getNumberFormats()[0]).toEqual(['@', '@', '@', '$#,##0.00', '@']);
    const bold = w.sheet.getRange('H1:H19').getFontWeights().flatMap((row, i) => (row[0] === 'bold' ? [i] : []));
    expect(bold).toEqual(REFUND_BOLD_ROWS);
    expect(w.sheet.getRange('H8:L8').getBorderTops()[0]).toEqual(Array(5).fill(true));
    expect(w.sheet.getRange('H2:H7').getBackgrounds().map((row) => row[0])).toEqual([null, null, null, null, null, '#f4cccc']);
  });

  test('cells not empty: asks first and writes nothing; with overwrite, writes', () => {
    const w = addon.fresh();
    w.sheet.getRange('A1:G7').setValues(REFUND_ENTRIES);
    w.sheet.getRange('K12').setValue('kept');
    w.select('A1:G7');
    const asked = w.call<Answer>('checkSelectedRefund', { origin: '', decimal: '.' }, false);
    expect(asked.confirm).toBe('Cells in Sheet1!H1:L19 are not empty. Overwrite them with the refund check?');
    expect(w.sheet.values('H1:L1')).toEqual([['', '', '', '', '']]);
    const written = w.call<Answer>('checkSelectedRefund', { origin: '', decimal: '.' }, true);
    expect(written.output).toBe('Sheet1!H1:L19');
    expect(w.sheet.values('H1:L18')).toEqual(REFUND_CHECKED);
  });

  test('a header without an entry number or entry date column says which are missing', () => {
    const w = addon.fresh();
    w.sheet.getRange('A1:C2').setValues([['HTS', 'Origin', 'Value'], ['6109.10.00', 'China', 1000]]);
    w.select('A1:C2');
    expect(() => w.call('checkSelectedRefund', { origin: '', decimal: '.' }, false)).toThrow(
      'A refund check needs a header row naming Entry number, Entry date, HTS and Value columns (Origin, Claim and Duty paid if known); this one names no Entry number, Entry date column.',
    );
    expect(w.requests).toEqual([]);
  });
});
