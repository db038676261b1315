/** Reading CSV (server/data/countries.ts): the start's check of the trade file agrees with the parse made on first use. */
import { describe, expect, it } from 'vitest';
import { csvColumns, parseCsv } from '../../server/data/countries.js';

const HEADER = 'chapter,year,exporter_iso3,exporter_name,value_usd';

describe('csvColumns, the check at start', () => {
  it.each([
    ['plain', `${HEADER}\n01,2024,CAN,Canada,2487369015\n01,2024,FRA,France,2471113612\n`],
    ['CRLF, blank and white lines, no final newline', `\r\n${HEADER}\r\n01,2024,CAN,Canada,1\r\n   \r\n\r\n01,2024,FRA,France,2`],
    ['spaces around cells', ` chapter , year,exporter_iso3,exporter_name,value_usd \n01, 2024,CAN,Canada,1\n`],
  ])('%s: the columns the records have', (_name, text) => {
    expect(csvColumns(text, 'x.csv')).toEqual(Object.keys(parseCsv(text, 'x.csv')[0]));
  });

  it.each([
    ['a short row', `${HEADER}\n01,2024,CAN,Canada,1\n01,2024,FRA\n`, 'record 2 has 3 fields, the header 5'],
    ['a long row after blank lines', `${HEADER}\n\n01,2024,CAN,Canada,1\n  \n01,2024,FRA,France,2,9\n`, 'record 2 has 6 fields, the header 5'],
    ['a short first row, CRLF', `${HEADER}\r\n01,2024\r\n`, 'record 1 has 2 fields, the header 5'],
  ])('%s: refused, naming the record as the parse does', (_name, text, why) => {
    expect(() => parseCsv(text, 'x.csv')).toThrow(`x.csv: not a readable CSV file (${why})`);
    expect(() => csvColumns(text, 'x.csv')).toThrow(`x.csv: not a readable CSV file (${why})`);
  });

  it('no record, or nothing: no columns', () => {
    expect(csvColumns(`${HEADER}\n`, 'x.csv')).toEqual([]);
    expect(csvColumns(`${HEADER}\n \n`, 'x.csv')).toEqual([]);
    expect(csvColumns('', 'x.csv')).toEqual([]);
  });
});
