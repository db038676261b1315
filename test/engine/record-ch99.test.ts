/** GET /hts/{code}: the chapter 99 programs naming a code, and the other columns of rows without a general rate. */
import { describe, expect, it } from 'vitest';
import { realTariff } from '../helpers/tariff.js';

const t = realTariff();

describe('chapter 99 programs in a record', () => {
  it('hot-rolled steel 7208.10.15: Annex I-A from 2026-04-06 (9903.82.02), steel mill products before', () => {
    expect(t.record('7208.10.15').chapter99_programs).toEqual([
      { program: 's232_metals', list: 'Annex I-A (steel; note 16(c)(iii))', heading: '9903.82.02', from: '2026-04-06', to: null },
      { program: 's232_steel', list: 'steel mill (before the annex regime)', heading: '9903.81.87', from: '2018-03-23', to: '2026-04-05' },
    ]);
  });
  it('fork-lift 8427.10.40: Annex I-B to 2026-06-07, then Annex I-C', () => {
    const annex = t.record('8427.10.40').chapter99_programs.filter((p) => p.program === 's232_metals');
    expect(annex.map((p) => [p.list.slice(0, 11), p.from, p.to])).toEqual([
      ['Annex I-B (', '2026-04-06', '2026-06-07'],
      ['Annex I-C (', '2026-06-08', null],
    ]);
  });
  it('auto part 8708.99.68: both vehicle lists (notes 33 and 38) and note 30 for Russia', () => {
    expect(t.record('8708.99.68').chapter99_programs.map((p) => [p.program, p.heading])).toEqual([
      ['s232_auto_parts', '9903.94.05'],
      ['s232_mhd_parts', '9903.74.08'],
      ['russia_col2', '9903.90.08'],
    ]);
  });
  it("fertilizer 3105.90.00: Brazil's note 2(x)(iii)(a) list (9903.01.81) from 2025-11-13", () => {
    expect(t.record('3105.90.00').chapter99_programs.filter((p) => p.program === 'ieepa_brazil')).toEqual([
      { program: 'ieepa_brazil', list: 'exempt (note 2(x): all articles in the provision)', heading: '9903.01.81', from: '2025-11-13', to: '2026-02-23' },
    ]);
  });
  it('T-shirts 6109.10.00: on no list', () => {
    expect(t.record('6109.10.00').chapter99_programs).toEqual([]);
  });
});

describe('rows without a general rate', () => {
  it('9903.90.08 shows its column 2 rate, 35%', () => {
    expect(t.record('9903.90.08')).toMatchObject({ general: null, column2: '35%' });
  });
});
