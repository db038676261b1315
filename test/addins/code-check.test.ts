/** The shared logic of an order's Description column (spreadsheet/code-check.ts), over real search answers of the real schedule. */
import { describe, expect, it } from 'vitest';
import { answersByQuery, CHECKED, codeNotes, codeQueries, searchBatches } from '../../spreadsheet/code-check.js';
import { readSheetOrder, type SheetLine } from '../../spreadsheet/order-sheet.js';
import type { SearchAnswer } from '../../shared/search/search.js';
import { readTradeTerms } from '../../server/data/search-index.js';
import { ScheduleIndex } from '../../shared/search/schedule-index.js';
import { searchSchedule } from '../../shared/search/search.js';
import { realTariff } from '../helpers/tariff.js';

// The index with the project's trade terms, as the service builds it.
let index: ScheduleIndex | undefined;
const search = (q: string, limit = CHECKED) => searchSchedule(realTariff().schedule, () => (index ??= ScheduleIndex.build(realTariff().schedule.lines(), readTradeTerms())), { q, limit });

const line = (hts: string | null, description?: string): SheetLine => ({ row: 1, item: { hts, value: 1 }, notes: [], ...(description === undefined ? {} : { description }) });
const answers = (queries: string[]): Map<string, SearchAnswer> => new Map(queries.map((q) => [q, search(q)]));

describe('codeQueries', () => {
  it('each description once; a code checked once, as its digits; nothing for a line without a description, nor for a code that is no 4-10 digit code (the costing says what is wrong with it)', () => {
    const lines = [line(null, 'steel screws'), line('7318.15.20', 'steel screws'), line('7318.15.20', ' steel   screws '), line('7318.15.20'), line('abc', 'bolts'), line('12345', 'nuts')];
    expect(codeQueries(lines, {})).toEqual(['steel screws', '73181520']);
    // Check codes off: only lines without a code are searched.
    expect(codeQueries(lines, { checkCodes: false })).toEqual(['steel screws']);
    // A description that is a code, or a single letter, is no words to search.
    expect(codeQueries([line(null, '6109.10'), line(null, 'x')], {})).toEqual([]);
  });
  it('a description longer than GET /hts?q= takes is cut to 200 characters', () => {
    expect(codeQueries([line(null, 'cotton '.repeat(40))], {})[0]).toBe('cotton '.repeat(40).slice(0, 200));
  });
});

describe('searchBatches and answersByQuery', () => {
  it('50 queries a request, each asking for the first 20 answers', () => {
    const queries = Array.from({ length: 120 }, (_, i) => `goods ${i}`);
    expect(searchBatches(queries).map((b) => [b.queries.length, b.limit])).toEqual([[50, 20], [50, 20], [20, 20]]);
    expect(searchBatches(queries).flatMap((b) => b.queries)).toEqual(queries);
  });
  it('and at most 2,000 characters of query text a request: long descriptions go fewer to a request', () => {
    const queries = Array.from({ length: 25 }, (_, i) => `${'steel shelving unit with adjustable shelves '.repeat(4)}${i}`.slice(0, 180));
    const batches = searchBatches(queries);
    expect(batches.map((b) => b.queries.length)).toEqual([11, 11, 3]);
    for (const b of batches) expect(b.queries.join('').length).toBeLessThanOrEqual(2000);
    expect(batches.flatMap((b) => b.queries)).toEqual(queries);
  });
  it('a refused query has no answer; a count that does not match is an error, never answers given to the wrong lines', () => {
    const a = search('laptop');
    const found = answersByQuery(['laptop', 'x'], [a, { error: { code: 'invalid_parameter', message: 'q must be…', details: { parameter: 'q' } } }]);
    expect([...found.keys()]).toEqual(['laptop']);
    expect(() => answersByQuery(['laptop', 'shoes'], [a])).toThrow(/answered 1 searches for 2/);
  });
});

describe('codeNotes', () => {
  it('a line without a code: the first three answers, code and heading text, and no costing', () => {
    const [note] = codeNotes(line(null, 'laptop computer'), answers(['laptop computer']), {});
    expect(note).toMatch(/^Suggested codes: 8471\.\d\d\.\d\d\.\d\d \(Automatic data processing machines and units thereof; .* › [^)]*\); \d{4}\.\d\d\.\d\d\.\d\d \(.*\); \d{4}\.\d\d\.\d\d\.\d\d \(.*\)\. From a search of the description; the line is not costed until a code is chosen\.$/);
  });
  it('a code whose heading is among the first 20 answers: no note; one that is not: its schedule text down to the code', () => {
    const found = answers(['laptop computer', '84713001', '61091000']);
    expect(codeNotes(line('8471.30.01', 'laptop computer'), found, {})).toEqual([]);
    // 6109.10.00 is an 8-digit line with statistical lines: the text its lines share, down to "Of cotton".
    expect(codeNotes(line('6109.10.00', 'laptop computer'), found, {})).toEqual([
      'Check the code: its description reads "T-shirts, singlets, tank tops and similar garments, knitted or crocheted › Of cotton", and heading 6109 is not among the first 20 answers for "laptop computer".',
    ]);
    expect(codeNotes(line('6109.10.00', 'laptop computer'), found, { checkCodes: false })).toEqual([]);
  });
  it('reads the Description column of a sheet, which is never sent', () => {
    const { lines } = readSheetOrder([['HTS', 'Product description', 'Value'], ['', 'laptop computer', 900]], null);
    expect(lines[0]).toMatchObject({ item: { hts: null, value: 900 }, description: 'laptop computer' });
    // An order of descriptions without an HTS column is read too.
    expect(readSheetOrder([['Description', 'Value'], ['laptop computer', 900]], null).lines[0]).toMatchObject({ item: { hts: null, value: 900 }, description: 'laptop computer' });
  });
});
