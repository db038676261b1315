/**
 * The custom functions of the built Code.js, in the Apps Script stand-ins, against the real API.
 * Expected figures are worked out by hand from the 2026 Revision 10 schedule:
 * 6109.10.00 (T-shirts of cotton) general 16.5%, Section 301 List 4A (9903.88.15, 7.5%);
 * MPF 0.3464% (above the minimum at these values), HMF 0.125%; KORUS: Free, MPF-exempt.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { serverRequests, startAddon, type Addon } from './harness.js';

let addon: Addon;
beforeAll(async () => {
  addon = await startAddon();
});
afterAll(async () => {
  await addon?.close();
});

const column = <T>(values: T[]) => values.map((v) => [v]);
const batchRequests = (world: Addon['world']) => world.requests.filter((r) => r.url.endsWith('/api/v1/duty/batch'));

describe('single cells', () => {
  test('a T-shirt of cotton from China: duty, Section 301, fees and landed cost', () => {
    const w = addon.fresh();
    const args = ['6109.10.00', 10000, 'china'];
    expect(w.call('DUTY', ...args)).toEqual([[1650]]); // 16.5% of 10,000
    // Every Section 301 action (issue 30): List 4A 7.5% of 10,000 = 750 and note 52 (China +12.5%) 1,250.
    expect(w.call('SECTION301', ...args)).toEqual([[2000]]);
    expect(w.call('MPF', ...args)).toEqual([[34.64]]); // 0.3464% of 10,000
    expect(w.call('HMF', ...args)).toEqual([[0]]); // not by vessel
    // Since 2026-07-24 also note 52, China +12.5% = 1,250.
    expect(w.call('FEES', ...args)).toEqual([[3684.64]]); // 1650 + 750 + 1250 + 34.64
    expect(w.call('LANDED', ...args)).toEqual([[13684.64]]);
    expect(w.call('HMF', '6109.10.00', 10000, 'china', '', true)).toEqual([[12.5]]); // 0.125% of 10,000
    // The five functions asked one question: one request, then the cache answered.
    expect(batchRequests(w)).toHaveLength(2);
    expect(w.requests[0].headers.Authorization).toBe(`Bearer ${addon.server.key}`);
  });

  test('from Korea: Free under KORUS and no MPF', () => {
    const w = addon.fresh();
    expect(w.call('DUTY', '6109.10.00', 10000, 'kr')).toEqual([[0]]);
    expect(w.call('MPF', '6109.10.00', 10000, 'Korea')).toEqual([[0]]);
    expect(w.call('RATE', '6109.10.00', 'kr')).toEqual([['Free']]);
    expect(w.call('RATE', '6109.10.00')).toEqual([['16.5%']]);
  });

  test('S232 and ADDITIONAL; date and claim, the last arguments', () => {
    const w = addon.fresh();
    // 7208.10.15 (steel, Free) from Vietnam today: Section 232 +50% (9903.82.02) of 12,000 = 6,000, its only chapter 99 duty.
    expect(w.call('S232', '7208.10.15', 12000, 'VN')).toEqual([[6000]]);
    expect(w.call('ADDITIONAL', '7208.10.15', 12000, 'VN')).toEqual([[6000]]);
    // A T-shirt from Vietnam entered 2025-10-01, typed or as a date cell: IEEPA reciprocal 20% = 2,000.
    expect(w.call('ADDITIONAL', '6109.10.00', 10000, 'VN', '', '', '', '', '2025-10-01')).toEqual([[2000]]);
    expect(w.call('ADDITIONAL', '6109.10.00', 10000, 'VN', '', '', '', '', new Date(2025, 9, 1))).toEqual([[2000]]);
    // Korea without its KORUS claim: the general 16.5% of 10,000.
    expect(w.call('DUTY', '6109.10.00', 10000, 'kr', '', '', '', '', '', 'none')).toEqual([[1650]]);
  });

  test('Section 301 follows the s301 argument', () => {
    const w = addon.fresh();
    // s301 sets China's lists; note 52's 1,250 stays in the Section 301 figure.
    expect(w.call('SECTION301', '6109.10.00', 10000, 'china', 25)).toEqual([[3750]]);
    expect(w.call('SECTION301', '6109.10.00', 10000, 'china', 'none')).toEqual([[1250]]);
  });

  test('DESC of a tariff line, a heading and an unknown code', () => {
    const w = addon.fresh();
    const answer = w.call<string[][]>('DESC', column(['6109.10.00', '6109', '', '9999']));
    // One batch for the four codes, then the records of the two the batch called headings.
    expect(w.requests.map((r) => r.url.replace(addon.server.url, ''))).toEqual(['/api/v1/duty/batch', '/api/v1/hts/6109', '/api/v1/hts/9999']);
    expect(answer[0]).toEqual(['Of cotton']);
    expect(answer[1]).toEqual(['T-shirts, singlets, tank tops and similar garments, knitted or crocheted:']);
    expect(answer[2]).toEqual(['']);
    expect(answer[3][0]).toMatch(/^#N\/A 9999 is not in the schedule/);
  });

  test('RESULT: the whole DutyResult as a row, under a header row', () => {
    const w = addon.fresh();
    const [header, row] = w.call<(string | number | boolean)[][]>('RESULT', '6109.10.00', 10000, 'china', '', '', true);
    const r = Object.fromEntries(header.map((h, i) => [h, row[i]]));
    expect(header.slice(0, 4)).toEqual(['hts', 'description', 'origin', 'customs_value']);
    expect(r).toMatchObject({ hts: '6109.10.00', origin: 'china', duty_rate: '16.5%', duty: 1650, section_301: 2000, section_301_heading: '9903.88.15', section_301_rate: 7.5, mpf: 34.64, landed_cost: 13684.64, special_program: '' }); // 750 + 1,250 note 52
    expect(String(r.notes)).toMatch(/An estimate: verify with a licensed customs broker/);
    // The chapter 99 columns, appended: 301 China 7.5% = 750 and note 52 (China +12.5%) = 1,250 → 2,000; no Section 232.
    expect(header.slice(-6)).toEqual(['origin_country', 'section_232', 'additional_duty', 'assumptions', 'content_needed', 'statistical_suffix_needed']);
    expect(r).toMatchObject({ origin_country: 'CN', section_232: 0, additional_duty: 2000, content_needed: '', statistical_suffix_needed: '' });
    // A steel-frame seat of China with no content given: the metals whose content would make it exact (issue 28).
    const [, seat] = w.call<(string | number | boolean)[][]>('RESULT', '9401.79.0015', 10000, 'CN', '', '', true, '', '', '2025-09-15');
    expect(seat.slice(-2)).toEqual(['steel aluminum', '']);
    expect(w.call<unknown[][]>('RESULT', column(['6109.10.00', '6109.10.00']), 10000, column(['kr', 'china']))).toHaveLength(2);
  });

  test('EXPORTERS: a table of the chapter’s leading exporters', () => {
    const w = addon.fresh();
    const table = w.call<(string | number)[][]>('EXPORTERS', '8471.30.01', 3);
    // exports_by_chapter.csv, chapter 84, 2024: China 630,054,778,184; United States 266,261,310,265; Germany 251,375,625,700.
    expect(table.map((r) => r.slice(0, 4))).toEqual([
      ['Rank', 'ISO3', 'Country', 'Value (USD)'],
      [1, 'CHN', 'China', 630054778184],
      [2, 'USA', 'United States', 266261310265],
      [3, 'DEU', 'Germany', 251375625700],
    ]);
    expect(() => w.call('EXPORTERS', column(['8471', '6109']))).toThrow(/one HTS code/);
    expect(() => w.call('EXPORTERS', '9903.88.15')).toThrow(/^#N\/A No export data for chapter 99/);
  });
});

describe('whole ranges', () => {
  // 2,000 distinct lines of 6109.10.00: values 100, 200, … 200,000; origins china, kr, mfn in turn.
  const n = 2000;
  const hts = column(Array.from({ length: n }, () => '6109.10.00'));
  const values = column(Array.from({ length: n }, (_, i) => 100 * (i + 1)));
  const origins = column(Array.from({ length: n }, (_, i) => ['china', 'kr', 'mfn'][i % 3]));
  // 16.5% of 100·(i+1) is 16.5·(i+1), exact to the cent; Korea's goods enter free.
  const expected = Array.from({ length: n }, (_, i) => [i % 3 === 1 ? 0 : Math.round(1650 * (i + 1)) / 100]);

  test('a 2,000-row range is answered by 2 batch requests of 1,000 and then by the cache alone', async () => {
    const w = addon.fresh();
    const before = await serverRequests(addon.server, '/api/v1/duty/batch');
    expect(w.call('DUTY', hts, values, origins)).toEqual(expected);
    expect(w.requests.map((r) => [r.method, r.url.replace(addon.server.url, ''), (r.body as { queries: unknown[] }).queries.length])).toEqual([
      ['POST', '/api/v1/duty/batch', 1000],
      ['POST', '/api/v1/duty/batch', 1000],
    ]);
    expect(await serverRequests(addon.server, '/api/v1/duty/batch')).toBe(before + 2);

    // The same range again: every answer from CacheService, no request.
    expect(w.call('DUTY', hts, values, origins)).toEqual(expected);
    expect(w.requests).toHaveLength(2);
    // Another function over the same queries reads the same cached answers: Section 301, every action, is
    // 7.5% (List 4A) + 12.5% (note 52) for China, note 52's 12.5% total over Free for Korea, none for mfn.
    const s301 = w.call<number[][]>('SECTION301', hts, values, origins);
    expect(s301[0]).toEqual([20]);
    expect(s301[1]).toEqual([25]);
    expect(s301[2]).toEqual([0]);
    expect(s301[1998]).toEqual([39980]); // row 1999: 199,900 × 20%
    expect(w.requests).toHaveLength(2);
    expect(await serverRequests(addon.server, '/api/v1/duty/batch')).toBe(before + 2);

    // One changed cell: one request, for that query only.
    const changed = values.map((v) => [...v]);
    changed[5] = [1000];
    const answer = w.call<number[][]>('DUTY', hts, changed, origins);
    expect(answer[5]).toEqual([165]); // row 6 is mfn: 16.5% of 1,000
    expect(answer[6]).toEqual(expected[6]);
    expect(w.requests).toHaveLength(3);
    expect((w.requests[2].body as { queries: unknown[] }).queries).toEqual([{ hts: '6109.10.00', value: 1000, origin: 'mfn' }]);
  });

  test('one bad row shows its own error and never blanks the column', () => {
    const w = addon.fresh();
    const answer = w.call<(string | number)[][]>(
      'DUTY',
      column(['6109.10.00', '9999.99.99', '6109', 'T-shirt', '', '6109.10.00', '2204.21.50']),
      column([10000, 5, 5, 5, '', -5, 1000]),
      'china',
    );
    expect(answer[0]).toEqual([1650]);
    expect(answer[1][0]).toBe('#N/A hts 9999.99.99 is not in the schedule (2026 Revision 10)');
    expect(answer[2][0]).toMatch(/^#VALUE! hts 6109 is a heading; duty needs an 8- or 10-digit tariff line/);
    expect(answer[3][0]).toMatch(/^#VALUE! hts may contain only digits/);
    expect(answer[4]).toEqual(['']); // a blank row stays blank and asks nothing
    expect(answer[5][0]).toMatch(/^#VALUE! value must be a number of U.S. dollars, 0 or more/);
    // Wine, 6.3¢/liter: a specific rate needs a quantity.
    // The call's example in the rate's own unit (it said "kg" for every rate), the reason once.
    const needsQty = '#N/A 2204.21.50: The rate "6.3¢/liter" is specific: give qty and unit (per liter) to compute the duty. For example =DUTY(hts, value, origin, , , 100, "liter").';
    expect(answer[6][0]).toBe(needsQty);
    expect((w.requests[0].body as { queries: unknown[] }).queries).toHaveLength(6);

    // A single cell's error is an error value (thrown), which SUM() does not skip; figures that
    // include the duty fail with it; Section 301 (none: not from China) is still a number.
    expect(() => w.call('DUTY', '9999.99.99', 5)).toThrow('#N/A hts 9999.99.99 is not in the schedule (2026 Revision 10)');
    expect(() => w.call('LANDED', '2204.21.50', 1000)).toThrow(needsQty);
    expect(() => w.call('FEES', '2204.21.50', 1000)).toThrow(needsQty);
    expect(w.call('SECTION301', '2204.21.50', 1000)).toEqual([[0]]);
  });

  test('qty and unit, per cell, for specific rates', () => {
    const w = addon.fresh();
    // 6.3¢/liter: 100 liters → $6.30; 1 gal = 3.785411784 liters, 100 gal → 378.5411784 l × 6.3¢ = $23.85.
    expect(w.call('DUTY', '2204.21.50', 1000, '', '', '', column([100, 100]), column(['liter', 'gal']))).toEqual([[6.3], [23.85]]);
    // Landed cost: 1,000 + 6.30 duty + MPF (the FY minimum at this value) + no HMF.
    const [[landed]] = w.call<number[][]>('LANDED', '2204.21.50', 1000, '', '', '', 100, 'liter');
    const [[mpf]] = w.call<number[][]>('MPF', '2204.21.50', 1000, '', '', '', 100, 'liter');
    expect(landed).toBeCloseTo(1006.3 + mpf, 2);
    expect(() => w.call('DUTY', '2204.21.50', 1000, '', '', '', 100, 'kg')).toThrow(/^#N\/A 2204\.21\.50: The rate "6\.3¢\/liter" is per liter; a quantity in kg cannot be converted/);
    // Counted in cartons (sent as articles): the message names CTN, as the formula does and as TARIFF.DUTY says, not "each".
    expect(() => w.call('DUTY', '0201.10.05', 1000, '', '', '', 10, 'CTN')).toThrow(
      '#N/A 0201.10.05: The rate "4.4¢/kg" is per kg; a quantity in CTN cannot be converted to it. For example =DUTY(hts, value, origin, , , 100, "kg").',
    );
  });

  test('invoice units (the shared table): any unit on an ad valorem line, converted for a specific one, an unknown one named where it matters', () => {
    const w = addon.fresh();
    // =DUTY("8708.30.5090",15000,"Mexico",,,2000,"SET"): USMCA Free; without the claim, the general 2.5% = 375.
    expect(w.call('DUTY', '8708.30.5090', 15000, 'Mexico', '', '', 2000, 'SET')).toEqual([[0]]);
    expect(w.call('DUTY', '8708.30.5090', 15000, 'Mexico', '', '', 2000, 'BNDL', '', 'none')).toEqual([[375]]);
    // 4.4¢/kg × 100 KGM = 4.40; 18.7¢/m², 1,000 SQFT = 92.90304 m² → 17.37.
    expect(w.call('DUTY', column(['0201.10.05', '7005.29.08']), 1000, '', '', '', column([100, 1000]), column(['KGM', 'SQFT']))).toEqual([[4.4], [17.37]]);
    expect(() => w.call('DUTY', '0201.10.05', 1000, '', '', '', 100, 'BNDL')).toThrow(/^#VALUE! 0201\.10\.05: Unit "BNDL" is not a unit of quantity this add-in knows .* the rate "4\.4¢\/kg" needs the quantity/);
  });

  test('a blank value is an error, never a duty on 0 (it answered 0); RATE takes none', () => {
    const w = addon.fresh();
    expect(() => w.call('DUTY', '6109.10.00', '', 'china')).toThrow(/^#VALUE! value is empty: give the customs value in U\.S\. dollars$/);
    expect(w.call('DUTY', column(['6109.10.00', '6109.10.00']), column([10000, '']))).toEqual([[1650], ['#VALUE! value is empty: give the customs value in U.S. dollars']]);
    expect(w.call('RATE', '6109.10.00')).toEqual([['16.5%']]);
  });

  test('single cells repeat over the range; ranges of different sizes are refused', () => {
    const w = addon.fresh();
    expect(w.call('DUTY', '6109.10.00', [[100, 200, 300]], 'china')).toEqual([[16.5, 33, 49.5]]);
    expect(() => w.call('DUTY', column(['6109.10.00', '6109.10.00']), column([1, 2, 3]))).toThrow(/value is a 3×1 range but hts is 2×1/);
  });

  test('a code typed as a number is read as the code', () => {
    const w = addon.fresh();
    // 61091000 typed as a number (a cell formatted as a number drops leading text, not digits).
    expect(w.call('DUTY', 61091000, 10000)).toEqual([[1650]]);
    expect(w.call('DESC', 6109)).toEqual([['T-shirts, singlets, tank tops and similar garments, knitted or crocheted:']]);
    // 6109.10 typed as a number is 6109.1: read with its two decimals, as the subheading 6109.10, whose one
    // 8-digit line 6109.10.00 costs it since issue 28 (16.5% of 10,000); 6109.9 (several lines) is still an error.
    expect(w.call('DUTY', 6109.1, 10000)).toEqual([[1650]]);
    expect(() => w.call('DUTY', 6109.9, 10000)).toThrow(/^#\S+ hts 6109\.90 /);
  });
});

describe('a column filled down: =DUTY(A2, B2, C2) on 2,000 rows', () => {
  // 2,000 lines of 6109.10.00: values 100, 200, … 200,000; origins china, kr, mfn in turn; row 1000 a bad code.
  const n = 2000;
  const rows = Array.from({ length: n }, (_, i) => [i === 998 ? '9999.99.99' : '6109.10.00', 100 * (i + 1), ['china', 'kr', 'mfn'][i % 3]]);
  const expected = rows.map(([, , origin], i) => (origin === 'kr' ? 0 : Math.round(1650 * (i + 1)) / 100));

  /** Sheets runs each cell in an execution of its own, the active range being the cell; here in an order of its choosing. */
  function recalculate(w: Addon['world'], order: number[]): (number | string)[] {
    const out: (number | string)[] = [];
    for (const i of order) {
      w.select(`D${i + 2}`);
      try {
        out[i] = w.call<number[][]>('DUTY', ...rows[i])[0][0];
      } catch (e) {
        out[i] = (e as Error).message;
      }
    }
    return out;
  }

  test('costs 2 batch requests whichever cell runs first, holds the 2,000 answers in the cache, and a recalculation asks nothing', async () => {
    const w = addon.fresh();
    w.sheet.getRange('A1:D1').setValues([['HTS', 'Value', 'Origin', 'Duty']]);
    w.sheet.getRange(`A2:C${n + 1}`).setValues(rows);
    w.sheet.getRange(`D2:D${n + 1}`).setFormulas(rows.map((_, i) => [`=DUTY(A${i + 2},B${i + 2},C${i + 2})`]));
    const order = Array.from({ length: n }, (_, i) => (i + 1234) % n);
    const before = await serverRequests(addon.server, '/api/v1/duty/batch');

    const first = recalculate(w, order);
    expect(first.filter((v, i) => i !== 998 && v !== expected[i])).toEqual([]);
    // A bad line is an error value in its own cell (thrown), not text that SUM() would skip.
    expect(first[998]).toBe('#N/A hts 9999.99.99 is not in the schedule (2026 Revision 10)');
    // The first cell to miss read its neighbours' arguments: one fetchAll of two requests of 1,000 answered every cell.
    expect(batchRequests(w).map((r) => (r.body as { queries: unknown[] }).queries.length)).toEqual([1000, 1000]);
    expect(await serverRequests(addon.server, '/api/v1/duty/batch')).toBe(before + 2);
    // CacheService keeps about 1,000 items: the 2,000 answers sit in a few hundred buckets at most.
    expect(w.documentCache.size).toBeLessThanOrEqual(200);

    expect(recalculate(w, order.reverse())).toEqual(first);
    expect(batchRequests(w)).toHaveLength(2);
  });

  test('reads constants, absolute references and other landed functions of the same row', () => {
    const w = addon.fresh();
    w.sheet.getRange('A1:B3').setValues([
      ['6109.10.00', 1000],
      ['6109.10.00', 2000],
      ['6109.10.00', 3000],
    ]);
    w.sheet.getRange('C1:D3').setFormulas([
      ['=DUTY($A1, B1, "china")', '=IFERROR(LANDED(A1;B1;"china"), 0)'],
      ['=DUTY($A2, B2, "china")', '=LANDED(A2:A3, B2, "china")'],
      ['=duty($A3, B3, "china", 25)', '=SUM(B1:B3)'],
    ]);
    w.select('C1');
    expect(w.call('DUTY', '6109.10.00', 1000, 'china')).toEqual([[165]]);
    // One request for the row's own call and the four other readable calls; the range call is left to itself.
    expect(batchRequests(w).map((r) => (r.body as { queries: unknown[] }).queries)).toEqual([
      [
        { hts: '6109.10.00', value: 1000, origin: 'china' },
        { hts: '6109.10.00', value: 2000, origin: 'china' },
        { hts: '6109.10.00', value: 3000, origin: 'china', s301: 25 },
      ],
    ]);
    w.select('D1');
    expect(w.call('LANDED', '6109.10.00', 1000, 'china')).toEqual([[1398.58]]); // 1,000 + 165 + 75 + 125 (note 52, +12.5%) + the FY2026 MPF minimum 33.58
    expect(batchRequests(w)).toHaveLength(1);
  });
});

// A fill-down whose value is Qty × Unit price, bare or in a function (issue 41: ROUND around it cost 570 requests and 248 s).
describe.each([
  { formula: (r: number) => `=DUTY(A${r},D${r}*E${r},C${r})`, sheets: (qty: number, cents: number) => qty * (cents / 100), name: 'D2*E2' },
  // ROUND(D*E, 2) as Sheets hands it over: the product in whole cents, divided by 100 (3 × 2.12 = 6.36).
  { formula: (r: number) => `=DUTY(A${r},ROUND(D${r}*E${r},2),C${r})`, sheets: (qty: number, cents: number) => (qty * cents) / 100, name: 'ROUND(D2*E2,2)' },
])('a fill-down of =DUTY(A2, $name, C2) (value = Qty × Unit price) on 500 rows, its cells recalculated in parallel', ({ formula, sheets }) => {
  // 500 lines of 6109.10.00: Qty 1, 2, … 500 at unit prices 2.10, 2.11, …; origins china, kr, mfn, Vietnam in turn.
  const n = 500;
  const rows = Array.from({ length: n }, (_, i) => ({ hts: '6109.10.00', origin: ['china', 'kr', 'mfn', 'Vietnam'][i % 4], qty: i + 1, cents: 210 + i }));
  // What Sheets passes for the value (for D*E the product in doubles: 3 × 2.1 is 6.300000000000001).
  const value = (r: (typeof rows)[number]) => sheets(r.qty, r.cents);

  test('the cells cost at most 2 requests reaching the server, and each equals the single-cell result', async () => {
    const w = addon.fresh();
    w.sheet.getRange('A1:F1').setValues([['HTS', 'Description', 'Origin', 'Qty', 'Unit price', 'Duty']]);
    w.sheet.getRange(`A2:E${n + 1}`).setValues(rows.map((r) => [r.hts, 'T-shirt', r.origin, r.qty, r.cents / 100]));
    w.sheet.getRange(`F2:F${n + 1}`).setFormulas(rows.map((_, i) => [formula(i + 2)]));
    const before = await serverRequests(addon.server, '/api/v1/duty/batch');

    // Each cell an execution of its own, eight at a time, as Sheets recalculates a filled-down column.
    const answers = await w.recalculateInParallel(rows.map((r, i) => ({ a1: `F${i + 2}`, name: 'DUTY', args: [r.hts, value(r), r.origin] })));
    const cells = answers.map((a) => (Array.isArray(a) ? a[0][0] : a));
    expect(w.documentLock.waited).toBeGreaterThan(0); // executions did run at the same time: some waited for the one filling the cache
    expect((await serverRequests(addon.server, '/api/v1/duty/batch')) - before).toBeLessThanOrEqual(2);
    // The first cell to miss worked out the value for every row: all 500 queries in its request.
    expect(batchRequests(w).map((r) => (r.body as { queries: unknown[] }).queries.length)).toEqual([n]);

    // Single-cell results: each cell on its own, in a spreadsheet with nothing around it (a request each: a sample of them),
    // and all 500 as one range call; 16.5% of the value (China: + 7.5% List 4A + 12.5% note 52 on top, not in DUTY; Korea Free).
    const alone = addon.fresh();
    for (const i of [0, 1, 2, 3, 4, 250, 499]) expect(cells[i], `row ${i + 2}`).toEqual(alone.call<number[][]>('DUTY', rows[i].hts, value(rows[i]), rows[i].origin)[0][0]);
    const single = alone.call<number[][]>('DUTY', column(rows.map((r) => r.hts)), column(rows.map(value)), column(rows.map((r) => r.origin)));
    expect(cells).toEqual(single.map(([v]) => v));
    // By hand: row 3 (mfn) 3 × 2.12 = 6.36 → 16.5% = 1.0494 → 1.05; row 2 (kr) Free; row 500 (Vietnam) 500 × 7.09 = 3,545 → 584.925 → 584.93.
    expect([cells[2], cells[1], cells[499]]).toEqual([1.05, 0, 584.93]);
  });
});

describe('a fill-down whose value the add-on cannot work out (a lookup into another sheet)', () => {
  test('each cell still answers from what Sheets passes it, asking on its own', () => {
    const w = addon.fresh();
    w.sheet.getRange('A2:C3').setValues([
      ['6109.10.00', 'T-shirt', 'mfn'],
      ['6109.10.00', 'T-shirt', 'mfn'],
    ]);
    w.sheet.getRange('F2:F3').setFormulas([['=DUTY(A2,VLOOKUP(B2,Prices!A:B,2,0),C2)'], ['=DUTY(A3,VLOOKUP(B3,Prices!A:B,2,0),C3)']]);
    w.select('F2');
    expect(w.call('DUTY', '6109.10.00', 1000, 'mfn')).toEqual([[165]]); // 16.5% of 1,000
    w.select('F3');
    expect(w.call('DUTY', '6109.10.00', 2000, 'mfn')).toEqual([[330]]); // 16.5% of 2,000
    expect(batchRequests(w).map((r) => (r.body as { queries: unknown[] }).queries.length)).toEqual([1, 1]);
  });
});

describe('the key', () => {
  test('saved from the sidebar into document properties, so every user’s custom functions use it', () => {
    const w = addon.fresh();
    expect(w.documentProperties.get('landed.apiKey')).toBe(addon.server.key);
    expect([...w.userProperties.values()].every((p) => p.size === 0)).toBe(true);
    w.user = 'viewer@example.com';
    expect(w.call('DUTY', '6109.10.00', 10000)).toEqual([[1650]]);
    expect(w.call('getSettings')).toMatchObject({ keySet: true, keyHint: addon.server.key.slice(-4), apiUrl: `${addon.server.url}/` });
    expect(JSON.stringify(w.call('getSettings'))).not.toContain(addon.server.key);
  });

  test('no key, or a wrong one: the function fails with what to do', () => {
    const w = addon.fresh();
    w.call('saveSettings', { clearKey: true });
    expect(() => w.call('DUTY', '6109.10.00', 10000)).toThrow(/No landed API key is set for this spreadsheet/);
    expect(w.requests).toHaveLength(0);
    w.call('saveSettings', { apiKey: 'not-a-key' });
    expect(() => w.call('DUTY', '6109.10.00', 10000)).toThrow(/The landed API refused the key \(The API key is not valid/);
    expect(w.call('testConnection')).toMatchObject({ ok: false });
  });

  test('the connection test reports the schedule and the requests left', () => {
    const w = addon.fresh();
    const r = w.call<{ ok: boolean; revision: string; limit: number; message: string }>('testConnection');
    expect(r).toMatchObject({ ok: true, revision: '2026 Revision 10', limit: 120 });
    expect(r.message).toMatch(/of 120 requests left this minute/);
  });

  test('an address the build did not whitelist is refused in one sentence saying how to rebuild', () => {
    const w = addon.fresh();
    expect(() => w.call('saveSettings', { apiUrl: 'https://elsewhere.example.net' })).toThrow(
      `This copy of the add-on may only call ${addon.server.url}/ (the address it was built for, in appsscript.json's urlFetchWhitelist), so to use https://elsewhere.example.net/ rebuild it with SHEETS_API_ORIGIN=https://elsewhere.example.net/ npm run build and push it again with clasp.`,
    );
    expect(w.documentProperties.get('landed.apiUrl')).toBe(`${addon.server.url}/`);
    expect(() => w.call('saveSettings', { apiUrl: 'ftp://x' })).toThrow(/must be an https:\/\/ address/);
    // A path under the whitelisted origin is fine.
    expect(w.call('saveSettings', { apiUrl: `${addon.server.url}/` })).toMatchObject({ apiUrl: `${addon.server.url}/` });
  });
});

describe('rate limit', () => {
  let limited: Addon;
  beforeAll(async () => {
    limited = await startAddon({ RATE_LIMIT: '2' });
  });
  afterAll(async () => {
    await limited?.close();
  });

  test('a 429 whose wait does not fit in a custom function says when to retry, and answers already cached still come', async () => {
    const w = limited.world; // saving settings made no request; the limit is 2 a minute
    expect(w.call('DUTY', '6109.10.00', 100)).toEqual([[16.5]]);
    expect(w.call('DUTY', '6109.10.00', 200)).toEqual([[33]]);
    expect(() => w.call('DUTY', '6109.10.00', 300)).toThrow(/rate limit is reached \(2 requests a minute for this spreadsheet's key\): retry in \d+ s/);
    expect(w.call('DUTY', '6109.10.00', 100)).toEqual([[16.5]]);
    expect(w.slept).toEqual([]);
  });

  test('a 429 whose wait fits is waited out (Utilities.sleep) and retried: the cell gets its answer', async () => {
    // A server of its own (its key's log untouched by the test above). The limiter counts the last
    // 60 s: with the first request 55 s old, the third's Retry-After is about 5 s, which fits.
    const own = await startAddon({ RATE_LIMIT: '2' });
    const w = own.world;
    expect(w.call('DUTY', '6109.10.00', 400)).toEqual([[66]]);
    await new Promise((r) => setTimeout(r, 55_000));
    expect(w.call('DUTY', '6109.10.00', 500)).toEqual([[82.5]]);
    expect(w.call('DUTY', '6109.10.00', 600)).toEqual([[99]]);
    expect(w.slept).toHaveLength(1);
    expect(w.slept[0]).toBeGreaterThan(0);
    expect(w.slept[0]).toBeLessThanOrEqual(7_000);
    expect(batchRequests(w)).toHaveLength(4); // the third sent twice
    await own.close();
  }, 90_000);
});
