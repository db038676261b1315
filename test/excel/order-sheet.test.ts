/**
 * "Cost selected order" with Excel.run mocked by office-addin-mock (the selection read and the
 * range written) and the real API server costing the order.
 */
import { OfficeMockObject } from 'office-addin-mock';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../helpers/server.js';
import { columnLetter, MONEY_FORMAT, RESULT_HEADERS } from '../../spreadsheet/order-sheet.js';
import { costSelectedOrder } from '../../excel-addin/src/taskpane/order-sheet.js';
import { clientFor, recordingFetch, type Sent } from './helpers.js';
import { LINE_TOTAL_INVOICE, LINE_TOTAL_INVOICE_COSTED, UOM_INVOICE, UOM_INVOICE_COSTED, UOM_INVOICE_ITEMS } from '../addins/invoices.js';

let server: RunningServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server?.close());

let sent: Sent[];
let client: ReturnType<typeof clientFor>;
beforeEach(() => {
  const rec = recordingFetch();
  sent = rec.sent;
  client = clientFor(server.url, server.key, rec.fetch);
});

/**
 * A workbook whose selection (B3 down) holds `values`, and whose output range (to its right) holds
 * `existing` formulas. office-addin-mock checks that every property read was loaded and synced.
 */
function mockExcel(values: unknown[][], existing?: unknown[][]) {
  const rows = values.length;
  const cols = values[0].length;
  const outRows = rows + 2; // the totals and the costing record below the lines
  const blank = Array.from({ length: outRows }, () => RESULT_HEADERS.map(() => ''));
  const data = {
    context: {
      workbook: {
        selected: {
          rowCount: rows,
          columnCount: cols,
          used: {
            isNullObject: false,
            address: `Sheet1!B3:${columnLetter(cols)}${rows + 2}`,
            rowIndex: 2,
            columnIndex: 1,
            rowCount: rows,
            columnCount: cols,
            values,
          },
          getUsedRangeOrNullObject(this: any, valuesOnly: boolean) {
            this.valuesOnly = valuesOnly;
            return this.used;
          },
        },
        getSelectedRange(this: any) {
          return this.selected;
        },
        worksheets: {
          active: {
            target: {
              address: `Sheet1!${columnLetter(1 + cols)}3:${columnLetter(cols + RESULT_HEADERS.length)}${outRows + 2}`,
              formulas: existing ?? blank,
              values: blank,
              numberFormat: blank,
              format: { fill: { cleared: false, clear(this: any) { this.cleared = true; } } },
              header: { format: { font: { bold: false }, fill: { color: '' } } },
              line: { format: { font: { bold: false }, fill: { color: '' } } },
              last: { format: { font: { bold: false }, fill: { color: '' }, borders: { edge: { style: 'None' } } } },
              // Row 0 is the header, the row after the lines the totals; other rows are lines (their fills are recorded).
              getRow(this: any, i: number) {
                if (i === 0) return this.header;
                if (i === rows) return this.last;
                (this.filled ??= []).push(i);
                return this.line;
              },
            },
            getRangeByIndexes(this: any, ...indexes: number[]) {
              this.indexes = indexes;
              return this.target;
            },
          },
          getActiveWorksheet(this: any) {
            return this.active;
          },
        },
      },
      // office-addin-mock's sync updates nested objects in promise callbacks it does not await:
      // let them run before the add-in reads what it loaded.
      async sync(this: any) {
        await OfficeMockObject.prototype.sync.call(this);
        await new Promise((resolve) => setTimeout(resolve, 0));
      },
    },
    run: async function (this: any, callback: (context: unknown) => Promise<unknown>) {
      return callback(this.context);
    },
  };
  const excel = new OfficeMockObject(data) as any;
  excel.context.workbook.worksheets.active.target.last.format.borders.getItem = function (this: any, name: string) {
    this.edgeAsked = name;
    return this.edge;
  };
  (globalThis as Record<string, unknown>).Excel = excel;
  return excel;
}

const never = async (): Promise<boolean> => {
  throw new Error('asked to overwrite, but the output range is empty');
};

describe('costSelectedOrder', () => {
  const order = [
    ['HTS', 'Value', 'Origin'],
    ['6109.10.00', 10000, 'china'],
    ['6109.10.00', 10000, 'kr'],
    ['12345', 100, ''],
    ['0201.10.05', 1000, ''],
  ];

  it('writes duty, Sections 301 and 232, other additional duties, MPF, HMF, landed cost, rate, programs, notes and status with currency formats and a totals row', async () => {
    const excel = mockExcel(order);
    const progress: [number, number][] = [];
    const summary = await costSelectedOrder(
      { options: { ocean: false }, columns: null },
      { client, confirm: never, progress: (d, t) => progress.push([d, t]), now: () => new Date('2026-11-22T06:05:00Z') },
    );
    const sheet = excel.context.workbook.worksheets.active;
    expect(sheet.indexes).toEqual([2, 4, 7, 11]); // to the right of B3:D7, two rows more for the totals and the record
    expect(excel.context.workbook.selected.valuesOnly).toBe(true);
    const v = sheet.target.values as unknown[][];
    expect(v[0]).toEqual([...RESULT_HEADERS]);
    // One entry: MPF 0.3464% of the liable value (china 10,000 + mfn 1,000 = 11,000) = 38.10, allocated
    // by value: 34.64 and 3.46. Korea is exempt; the bad line is left out.
    // Note 52 (today) is a Section 301 action, in the Section 301 column (issue 30; it was among the other
    // additional duties): China 750 + 12.5% = 1,250; Korea 12.5% total over Free = 1,250.
    expect(v[1].slice(0, 9)).toEqual([1650, 2000, 0, 0, 34.64, 0, 13684.64, '16.5%', 's301_china 9903.88.15; s301_forced_labor 9903.05.31']);
    expect(v[1][10]).toBe('OK');
    expect(v[2].slice(0, 9)).toEqual([0, 1250, 0, 0, 0, 0, 11250, 'Free', 's301_forced_labor 9903.05.71']);
    expect(v[3].slice(0, 10)).toEqual(['', '', '', '', '', '', '', '', '', '']);
    expect(v[3][10]).toMatch(/^Error: hts must have 4, 6, 8 or 10 digits/);
    expect(v[4]).toEqual([
      '', 0, 0, 0, 3.46, 0, '', '4.4¢/kg', '',
      'No origin country given (origin is a program, not a country): only the chapter 99 duties owed by goods of every country are included.\nThe rate "4.4¢/kg" is specific: give qty and unit (per kg) to compute the duty.',
      'The rate "4.4¢/kg" is specific: give qty and unit (per kg) to compute the duty.',
    ]);
    // Landed cost: the column's sum 13,684.64 + 11,250; the beef's 1,000 + 3.46 are left out with its blank cell
    // (counted with its duty as 0 they made 25,938.10), and the Status says so.
    expect(v[5].slice(0, 10)).toEqual([1650, 3250, 0, 0, 38.1, 0, 24934.64, '', 's301_china $750.00; s301_forced_labor $2,500.00', '']);
    expect(v[5][10]).toBe('Total: 4 lines; 1 with errors (not in the totals); 1 line without a duty (see the Status): left out of Landed cost, counted in the other totals');
    expect(v[6][0]).toBe(
      "Costed by landed on 2026-11-22 06:05 UTC · HTS 2026 Revision 10 · entry date 2026-11-22 (the day of costing) · default origin mfn (general rate) · Section 301 auto (from the schedule) · ocean freight (HMF) no · numbers read as 1,234.56 · MPF/HMF figures of FY2026 used for FY2027 (FY2027's adjustment is not yet in the table)",
    );
    // The error line red, the line without its duty yellow, after the old colours were cleared.
    expect(sheet.target.format.fill.cleared).toBe(true);
    expect(sheet.target.filled).toEqual([3, 4]);
    expect((sheet.target.numberFormat as string[][])[1]).toEqual([...Array(7).fill(MONEY_FORMAT), '@', '@', '@', 'General']);
    expect(sheet.target.header.format.font.bold).toBe(true);
    expect(sheet.target.last.format.font.bold).toBe(true);
    expect(sheet.target.last.format.borders.edgeAsked).toBe('EdgeTop');
    expect(summary.address).toBe('Sheet1!E3:O9');
    expect(progress).toEqual([[0, 4], [4, 4]]);
    expect(sent.map((s) => [s.method, s.url.replace(server.url, '')])).toEqual([['POST', '/api/v1/duty/bulk']]);
    expect(sent[0].body).toEqual({ items: [{ hts: '6109.10.00', value: 10000, origin: 'china' }, { hts: '6109.10.00', value: 10000, origin: 'kr' }, { hts: '12345', value: 100 }, { hts: '0201.10.05', value: 1000 }] });
  });

  it('an invoice\'s UOM column: units mapped through the shared table, sent as the API names them; an unknown unit named on the line whose rate needs it', async () => {
    const excel = mockExcel(UOM_INVOICE);
    await costSelectedOrder({ options: {}, columns: null }, { client, confirm: never, progress: () => {} });
    expect(sent[0].body).toEqual({ items: UOM_INVOICE_ITEMS });
    const sheet = excel.context.workbook.worksheets.active;
    expect((sheet.target.values as unknown[][]).slice(1, 6)).toEqual(UOM_INVOICE_COSTED);
    expect(sheet.target.filled).toEqual([3]); // the line without its duty, yellow
  });

  it('an invoice headed Tariff No., C/O, Qty, Unit Price, Line Total: costed on the Line Total (a discounted 7,700, not 100 × 78)', async () => {
    const excel = mockExcel(LINE_TOTAL_INVOICE);
    await costSelectedOrder({ options: {}, columns: null }, { client, confirm: never, progress: () => {} });
    // Its Description column is searched first (the codes are checked), then the order is costed.
    expect(sent.map((s) => s.url.replace(server.url, ''))).toEqual(['/api/v1/hts/batch', '/api/v1/duty/bulk']);
    expect(sent[1].body.items[0]).toEqual({ hts: '6109.10.00', origin: 'Vietnam', qty: 100, value: 7700 });
    expect((excel.context.workbook.worksheets.active.target.values as unknown[][]).slice(1, 4)).toEqual(LINE_TOTAL_INVOICE_COSTED);
  });

  it('sends the order-level options: Section 301, ocean, default origin, entry date', async () => {
    const excel = mockExcel([['HTS', 'Value'], ['6109.10.00', 10000]]);
    await costSelectedOrder({ options: { s301: '25', ocean: true, origin: 'CN', date: '2025-03-01' }, columns: null }, { client, confirm: never, progress: () => {} });
    expect(sent[0].body).toEqual({ s301: '25', ocean: true, origin: 'CN', date: '2025-03-01', items: [{ hts: '6109.10.00', value: 10000 }] });
    // 25% Section 301 = 2,500; HMF 0.125% = 12.50; MPF in FY2025 = 34.64.
    // IEEPA fentanyl on 2025-03-01, China +10% = 1,000, counts in landed.
    expect(excel.context.workbook.worksheets.active.target.values[1]).toEqual([
      1650, 2500, 0, 1000, 34.64, 12.5, 15197.14, '16.5%', 's301_china; ieepa_fentanyl 9903.01.20',
      // The line's assumptions, then its own notes.
      'China (CN): no trade program claimed; general (normal trade relations) rate applied.\nSection 301 rate set by the caller: 25%.\nIEEPA duties (entries 2025-02-04 to 2026-02-23) were held unlawful (Learning Resources v. Trump, 2026); the amounts marked refundable may be recovered.',
      'OK',
    ]);
  });

  it('asks before overwriting non-empty cells, and writes nothing when told no', async () => {
    const existing = Array.from({ length: 7 }, () => RESULT_HEADERS.map(() => ''));
    existing[2][3] = '=A1*2';
    const excel = mockExcel(order, existing);
    const asked: string[] = [];
    const summary = await costSelectedOrder({ options: {}, columns: null }, { client, confirm: async (m) => (asked.push(m), false), progress: () => {} });
    expect(asked).toEqual(['The cells Sheet1!E3:O9 are not empty. Overwrite them with the costing?']);
    expect(summary.address).toBeNull();
    // Never assigned: still office-addin-mock's marker of a property that was not loaded.
    expect(Array.isArray(excel.context.workbook.worksheets.active.target.values)).toBe(false);
    expect(Array.isArray(excel.context.workbook.worksheets.active.target.numberFormat)).toBe(false);
    expect(sent).toHaveLength(0);
  });

  it('overwrites when told yes', async () => {
    const existing = Array.from({ length: 7 }, () => RESULT_HEADERS.map(() => ''));
    existing[5][10] = 'old total';
    const excel = mockExcel(order, existing);
    const summary = await costSelectedOrder({ options: {}, columns: null }, { client, confirm: async () => true, progress: () => {} });
    expect(summary.address).toBe('Sheet1!E3:O9');
    expect(excel.context.workbook.worksheets.active.target.values[1][0]).toBe(1650);
  });

  it('costs 5,000 lines as one entry in two passes of 5 bulk requests, with progress, lines back in their rows, MPF once', async () => {
    const rows = [['HTS', 'Value', 'Origin'], ...Array.from({ length: 5000 }, (_, i) => [i === 1700 ? 'bad' : '6109.10.00', 100 + i, 'china'])];
    const excel = mockExcel(rows);
    const progress: number[] = [];
    const summary = await costSelectedOrder({ options: { date: '2026-08-03' }, columns: null }, { client, confirm: never, progress: (d) => progress.push(d) });
    // Pass 1 measures each part, pass 2 costs each with its share of the one entry.
    expect(sent.map((s) => s.body.items.length)).toEqual([1000, 1000, 1000, 1000, 1000, 1000, 1000, 1000, 1000, 1000]);
    expect(sent.slice(0, 5).every((s) => s.body.entry === undefined)).toBe(true);
    // Liable value: 100 + 101 + … + 5,099 = (100 + 5,099) × 5,000 / 2 = 12,997,500, less the bad line's 1,800 = 12,995,700.
    // The second part (which holds the bad line) comes after the first's 100 + … + 1,099 = (100 + 1,099) × 1,000 / 2 = 599,500.
    expect(sent[5].body.entry).toEqual({ mpf_basis: 12995700, hmf_basis: 0, mpf_basis_before: 0, hmf_basis_before: 0 });
    expect(sent[6].body.entry).toEqual({ mpf_basis: 12995700, hmf_basis: 0, mpf_basis_before: 599500, hmf_basis_before: 0 });
    expect(progress).toEqual([0, 1000, 2000, 3000, 4000, 5000, 6000, 7000, 8000, 9000, 10000]);
    const v = excel.context.workbook.worksheets.active.target.values as unknown[][];
    expect(v).toHaveLength(5003);
    expect(v[1][0]).toBe(16.5); // 16.5% of 100
    expect(v[2500][0]).toBe(428.84); // row 2500 holds value 2,599: 16.5% = 428.835, half up
    expect(v[1701][10]).toBe('Error: hts may contain only digits, dots and spaces: "bad"');
    const bad = summary.costed!.lines[1700];
    expect(bad).toMatchObject({ line: 1701, error: { message: expect.stringMatching(/^items\[1700\]\.hts/), details: { parameter: 'items[1700].hts' } } });
    expect(summary.costed!.entries).toBe(1);
    expect(summary.costed!.totals).toMatchObject({ lines: 5000, errors: 1 });
    // MPF once: 0.3464% of 12,995,700 = 45,016 is above the FY2026 maximum, so 651.50; the lines add up to it to the cent.
    expect(v[5001][4]).toBe(651.5);
    const cents = v.slice(1, 5001).reduce((n, r) => n + Math.round(Number(r[4] || 0) * 100), 0);
    expect(cents).toBe(65150);
    expect(v[5001][10]).toBe('Total: 5,000 lines; 1 with errors (not in the totals)');
  });

  /** 1,000 lines of 6109.10.00 from China at 100, 101, … 1,099 dollars, one of them unreadable. */
  const thousand = [['HTS', 'Value', 'Origin'], ...Array.from({ length: 1000 }, (_, i) => ['6109.10.00', i === 600 ? '12 boxes' : 100 + i, 'china'])];

  it('costs a 1,000-line order in four parts of 250, measured then costed: the progress moves by a part, MPF once', async () => {
    const excel = mockExcel(thousand);
    const progress: [number, number][] = [];
    const summary = await costSelectedOrder({ options: {}, columns: null }, { client, confirm: never, progress: (d, t) => progress.push([d, t]) });
    // The third part holds the unreadable line: 249 lines sent.
    expect(sent.map((s) => [s.body.items.length, s.body.entry === undefined])).toEqual([
      [250, true], [250, true], [249, true], [250, true],
      [250, false], [250, false], [249, false], [250, false],
    ]);
    expect(progress).toEqual([0, 250, 500, 749, 999, 1249, 1499, 1748, 1998].map((d) => [d, 1998]));
    // Liable value: 100 + … + 1,099 = 599,500, less the unreadable line's 700 = 598,800; before the third part, 100 + … + 599 = 174,750.
    expect(sent[6].body.entry).toEqual({ mpf_basis: 598800, hmf_basis: 0, mpf_basis_before: 174750, hmf_basis_before: 0 });
    const v = excel.context.workbook.worksheets.active.target.values as unknown[][];
    expect(v[601][10]).toBe('Error: Value "12 boxes" is not an amount in U.S. dollars written 1,234.56 (if it uses a decimal comma, choose 1.234,56 under Numbers)');
    expect(v[602][0]).toBe(115.67); // value 701: 16.5% = 115.665, half up
    expect(summary.costed).toMatchObject({ entries: 1, totals: { lines: 999, errors: 0, mpf: 651.5 } });
    // MPF once: 0.3464% of 598,800 = 2,074.24 is above the FY2026 maximum, so 651.50, the lines' shares adding up to it.
    expect(v.slice(1, 1001).reduce((n, r) => n + Math.round(Number(r[4] || 0) * 100), 0)).toBe(65150);
    expect(v[1001][10]).toBe('Total: 1,000 lines; 1 with errors (not in the totals)');
  });

  it('Cancel between two parts stops the costing: no more requests, nothing written', async () => {
    const excel = mockExcel(thousand);
    const controller = new AbortController();
    const progress: number[] = [];
    const costing = costSelectedOrder(
      { options: {}, columns: null },
      {
        client,
        confirm: never,
        signal: controller.signal,
        progress(done) {
          progress.push(done);
          // The person presses Cancel once the first part of pass 2 is in.
          if (done === 1249) controller.abort();
        },
      },
    );
    await expect(costing).rejects.toMatchObject({ name: 'ApiError', code: 'cancelled' });
    expect(progress).toEqual([0, 250, 500, 749, 999, 1249]);
    expect(sent).toHaveLength(5);
    // Never assigned: still office-addin-mock's marker of a property that was not loaded.
    expect(Array.isArray(excel.context.workbook.worksheets.active.target.values)).toBe(false);
  });

  it('an empty selection says so', async () => {
    const excel = mockExcel([['HTS', 'Value']]);
    excel.context.workbook.selected.used.isNullObject = true;
    await expect(costSelectedOrder({ options: {}, columns: null }, { client, confirm: never, progress: () => {} })).rejects.toThrow(/The selection is empty/);
  });
});

describe('a Description column: suggested codes and "check the code" (issue 31 point 5)', () => {
  const T_SHIRTS = "men's cotton t-shirts";
  const CHECK_LAPTOP =
    'Check the code: its description reads "Automatic data processing machines and units thereof; magnetic or optical readers, machines for transcribing data onto data media in coded form and machines for processing such data, not elsewhere specified or included › Portable automatic data processing machines, weighing not more than 10 kg, consisting of at least a central processing unit, a keyboard and a display", and heading 8471 is not among the first 20 answers for "men\'s cotton t-shirts".';
  const described = [
    ['HTS', 'Description', 'Value'],
    ['', T_SHIRTS, 1000],
    ['6109.10.00', T_SHIRTS, 1000],
    ['8471.30.01', T_SHIRTS, 1000],
  ];

  it('a line without a code gets three suggested codes and stays uncosted; a code whose heading is not among the first 20 answers for its description gets "check the code" with the schedule\'s text of the code; one search request for the order', async () => {
    const excel = mockExcel(described);
    await costSelectedOrder({ options: {}, columns: null }, { client, confirm: never, progress: () => {} });
    // The description once, and each code checked once, in one POST /hts/batch before the costing.
    expect(sent.map((s) => [s.method, s.url.replace(server.url, '')])).toEqual([['POST', '/api/v1/hts/batch'], ['POST', '/api/v1/duty/bulk']]);
    expect(sent[0].body).toEqual({ queries: [T_SHIRTS, '61091000', '84713001'], limit: 20 });
    // The description is never sent for costing.
    expect(sent[1].body.items).toEqual([{ hts: null, value: 1000 }, { hts: '6109.10.00', value: 1000 }, { hts: '8471.30.01', value: 1000 }]);
    const v = excel.context.workbook.worksheets.active.target.values as unknown[][];
    // Not costed on a guess: the line stays an error, with the suggestions in its notes.
    expect(v[1].slice(0, 7)).toEqual(['', '', '', '', '', '', '']);
    expect(v[1][10]).toBe('Error: hts is blank: give a tariff code such as 6109.10.00');
    expect(v[1][9]).toMatch(/^Suggested codes: 6109\.10\.00\.12 \(T-shirts, singlets, tank tops and similar garments, knitted or crocheted › Men's \(338\)\); 6211\.11\.80\.10 \(.*\); 6205\.20\.20\.16 \(.*\)\. From a search of the description; the line is not costed until a code is chosen\.$/);
    // 6109.10.00 fits its description: costed, no note of the search (16.5% of 1,000 = 165).
    expect(v[2][0]).toBe(165);
    expect(v[2][9]).not.toMatch(/Check the code|Suggested/);
    expect(v[2][10]).toBe('OK');
    // 8471.30.01 (laptops) for t-shirts: costed as typed (Free), with the gentle note.
    expect(v[3][0]).toBe(0);
    expect(v[3][10]).toBe('OK');
    expect(String(v[3][9]).split('\n')[0]).toBe(CHECK_LAPTOP);
  });

  it('with Check codes off, only the line without a code is searched, and no code is questioned', async () => {
    const excel = mockExcel(described);
    await costSelectedOrder({ options: { checkCodes: false }, columns: null }, { client, confirm: never, progress: () => {} });
    expect(sent[0].body).toEqual({ queries: [T_SHIRTS], limit: 20 });
    const v = excel.context.workbook.worksheets.active.target.values as unknown[][];
    expect(v[1][9]).toMatch(/^Suggested codes: 6109\.10\.00\.12 /);
    expect(String(v[3][9])).not.toMatch(/Check the code/);
  });

  it('an order without a Description column makes no search request', async () => {
    mockExcel([['HTS', 'Value'], ['6109.10.00', 1000]]);
    await costSelectedOrder({ options: {}, columns: null }, { client, confirm: never, progress: () => {} });
    expect(sent.map((s) => s.url.replace(server.url, ''))).toEqual(['/api/v1/duty/bulk']);
  });
});

describe('supplier codes in an order (issue 31 point 6)', () => {
  it('a 6-digit HS code whose U.S. lines share their rates is costed, the line saying so; one whose lines differ is an error listing them', async () => {
    const excel = mockExcel([['HTS', 'Value'], ['621133', 1000], ['610990', 1000]]);
    await costSelectedOrder({ options: {}, columns: null }, { client, confirm: never, progress: () => {} });
    const v = excel.context.workbook.worksheets.active.target.values as unknown[][];
    // 6211.33.50 and 6211.33.90 are both 16%: 16% of 1,000 = 160.
    expect(v[1][0]).toBe(160);
    expect(v[1][7]).toBe('16%');
    expect(String(v[1][9]).split('\n')[0]).toBe('Supplier code 6211.33: 6211.33 is an HS subheading; costed on 6211.33.50, since every U.S. line of HS 6211.33 carries the same rates and chapter 99 citations.');
    expect(v[1][10]).toBe('OK');
    // 6109.90's four lines run from 2.6% to 32%: not costed; the candidates with their rates.
    expect(v[2][0]).toBe('');
    expect(v[2][10]).toBe('Error: hts 6109.90 is a subheading; duty needs an 8- or 10-digit tariff line. 4 8-digit lines lie under it: 6109.90.10 (32%), 6109.90.15 (5.6%), 6109.90.40 (2.6%), 6109.90.80 (16%).');
  });
});
