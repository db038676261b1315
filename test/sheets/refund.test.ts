/**
 * "Refund check (IEEPA)" in the built Code.js, as the sidebar calls it, on an in-memory sheet
 * against the real API: the same past entries and the same cells as Excel's task pane
 * (test/excel/taskpane.e2e.test.ts), from the fixture both read (test/addins/refund-entries.ts).
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startAddon, type Addon } from './harness.js';
import { CAPE_SAVE } from '../../spreadsheet/refund-check.js';
import {
  CAPE_10001, CAPE_10001_FIRST, CAPE_10001_LAST_OF_FIRST, CAPE_10001_SECOND, CAPE_10001_STATUS,
  REFUND_BOLD_ROWS, REFUND_CAPE_SHEETS, REFUND_CHECKED, REFUND_ENTRIES, REFUND_FILING_DATE, REFUND_RECORD, REFUND_RECORD_NOTES, REFUND_RED_ROWS, REFUND_REQUESTS, REFUND_TOTALS, refundStatus,
} from '../addins/refund-entries.js';

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
  const refund = { filingDate: REFUND_FILING_DATE };
  test('entries across every channel: per line, per entry (channel, refund, interest), by heading and channel, the CAPE tab, totals and record', () => {
    const w = addon.fresh();
    w.sheet.getRange('A1:J13').setValues(REFUND_ENTRIES);
    w.select('A1:J13');
    const r = w.call<Answer>('checkSelectedRefund', { origin: '', decimal: '.' }, false, refund);
    // One request, each costed line with its entry date, its entry number in CBP's form and its claim as entered.
    expect(w.requests.map((q) => q.url.replace(addon.server.url, ''))).toEqual(['/api/v1/duty/bulk']);
    expect(w.requests.map((q) => q.body)).toEqual(REFUND_REQUESTS);
    expect(w.sheet.values('K1:O31')).toEqual(REFUND_CHECKED);
    expect(w.sheet.values('K32:K32')[0][0]).toMatch(REFUND_RECORD);
    expect(w.sheet.values('O32:O32')[0][0]).toBe(REFUND_RECORD_NOTES);
    expect(r).toMatchObject({ output: 'Sheet1!K1:O32', status: refundStatus('Sheet1!K1:O32', CAPE_SAVE.sheets), errors: true });
    expect(r.totals.map((t) => `${t.label} ${t.value}`)).toEqual(REFUND_TOTALS);
    // No fee note among the refund's notes.
    expect(r.notes.some((n) => /MPF/.test(n))).toBe(false);
    // The CAPE declaration tab: the header and the entry numbers, as text.
    for (const [name, rows] of Object.entries(REFUND_CAPE_SHEETS)) {
      const tab = w.sheets.get(name)!;
      expect(tab.values(`A1:A${rows.length + 1}`)).toEqual([...rows, ['']]);
      expect(tab.getRange(`A1:A${rows.length}`).getNumberFormats().flat()).toEqual(rows.map(() => '@'));
    }
    // Formats, bold rows, the rule above the totals, the error line and the refused entry red.
    expect(w.sheet.getRange('K2:O2').getNumberFormats()[0]).toEqual(['$#,##0.00', '@', '$#,##0.00', '$#,##0.00', '@']);
    expect(w.sheet.getRange('K16:O16').getNumberFormats()[0]).toEqual(['@', '@', '$#,##0.00', '$#,##0.00', '@']);
    const bold = w.sheet.getRange('K1:K32').getFontWeights().flatMap((row, i) => (row[0] === 'bold' ? [i] : []));
    expect(bold).toEqual(REFUND_BOLD_ROWS);
    expect(w.sheet.getRange('K14:O14').getBorderTops()[0]).toEqual(Array(5).fill(true));
    const red = w.sheet.getRange('K1:K32').getBackgrounds().flatMap((row, i) => (row[0] === '#f4cccc' ? [i] : []));
    expect(red).toEqual(REFUND_RED_ROWS);
  });

  test('cells not empty: asks first and writes nothing; with overwrite, writes', () => {
    const w = addon.fresh();
    w.sheet.getRange('A1:J13').setValues(REFUND_ENTRIES);
    w.sheet.getRange('N20').setValue('kept');
    w.select('A1:J13');
    const asked = w.call<Answer>('checkSelectedRefund', { origin: '', decimal: '.' }, false, refund);
    expect(asked.confirm).toBe('Cells in Sheet1!K1:O32 are not empty. Overwrite them with the refund check?');
    expect(w.sheet.values('K1:O1')).toEqual([['', '', '', '', '']]);
    const written = w.call<Answer>('checkSelectedRefund', { origin: '', decimal: '.' }, true, refund);
    expect(written.output).toBe('Sheet1!K1:O32');
    expect(w.sheet.values('K1:O31')).toEqual(REFUND_CHECKED);
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

describe('10,001 entries for CAPE', () => {
  test('two CAPE declaration tabs, 9,999 and 2 entry numbers, each under Entry Number', () => {
    const w = addon.fresh();
    w.sheet.getRange('A1:F10002').setValues(CAPE_10001);
    w.select('A1:F10002');
    const r = w.call<Answer>('checkSelectedRefund', { origin: '', decimal: '.' }, false, { filingDate: REFUND_FILING_DATE });
    expect(r.status).toContain(CAPE_10001_STATUS);
    const first = w.sheets.get('CAPE declaration 1')!;
    const second = w.sheets.get('CAPE declaration 2')!;
    expect(first.values('A1:A2')).toEqual(CAPE_10001_FIRST);
    expect(first.values('A10000:A10001')).toEqual([[CAPE_10001_LAST_OF_FIRST], ['']]);
    expect(second.values('A1:A4')).toEqual([...CAPE_10001_SECOND, ['']]);
  }, 120_000);
});
