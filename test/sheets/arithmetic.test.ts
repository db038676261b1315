/** Simple arithmetic of a filled-down argument (sheets-addon/arithmetic.ts), worked out as Sheets does. */
import { describe, expect, test } from 'vitest';
import { arithmetic } from '../../sheets-addon/arithmetic.js';
import type { Cell } from '../../sheets-addon/grid.js';

const cells: Record<string, Cell> = { D2: 3, E2: 2.1, F2: 0.5, G2: '', H2: '12.5', I2: 'twelve', J2: true, B1: 10 };
const at = (ref: string) => cells[ref.replace(/\$/g, '').toUpperCase()];

describe('arithmetic', () => {
  test('references and numbers with + - * / and brackets, precedence as in Sheets, the same double Sheets passes', () => {
    expect(arithmetic('D2*E2', at)).toBe(3 * 2.1); // 6.300000000000001, as Sheets computes it
    expect(arithmetic('D2 * E2 - F2', at)).toBe(3 * 2.1 - 0.5);
    expect(arithmetic('(D2+F2)*E2', at)).toBe((3 + 0.5) * 2.1);
    expect(arithmetic('D2+F2*E2', at)).toBe(3 + 0.5 * 2.1);
    expect(arithmetic('$B$1*1.1', at)).toBe(10 * 1.1);
    expect(arithmetic('-D2/4', at)).toBe(-0.75);
    expect(arithmetic('d2*e2', at)).toBe(3 * 2.1);
    expect(arithmetic('D2*1E3', at)).toBe(3000);
  });
  test('a blank cell is 0 and numeric text its number, as in Sheets', () => {
    expect(arithmetic('D2+G2', at)).toBe(3);
    expect(arithmetic('H2*2', at)).toBe(25);
  });
  test('anything else is not followed (that cell asks on its own)', () => {
    for (const text of ['I2*2', 'J2*2', 'D2/G2', 'SUM(D2:E2)', 'D2^2', 'D2*', '(D2', 'D2)', 'Sheet2!D2*2', 'D2*E2%', 'K9*2', '"3"*2', ''])
      expect(arithmetic(text, at), text).toBeUndefined();
  });
});
