/** A filled-down formula's argument (sheets-addon/formula.ts), worked out as Sheets does. */
import { describe, expect, test } from 'vitest';
import { evaluate } from '../../sheets-addon/formula.js';
import type { Cell } from '../../sheets-addon/grid.js';

const cells: Record<string, Cell> = { D2: 3, E2: 2.1, F2: 0.5, G2: '', H2: '12.5', I2: 'twelve', J2: true, B1: 10, C2: '  viet   nam ', K2: 1.005, L2: -2.5, M2: '#N/A' };
const at = (row: number, col: number) => cells[`${String.fromCharCode(64 + col)}${row}`] ?? (row <= 2 && col <= 13 ? '' : undefined);
const value = (text: string) => evaluate(text, at)?.value;

describe('formula arguments', () => {
  test('references and numbers with + - * / and brackets, precedence as in Sheets, the same double Sheets passes', () => {
    expect(value('D2*E2')).toBe(3 * 2.1); // 6.300000000000001, as Sheets computes it
    expect(value('D2 * E2 - F2')).toBe(3 * 2.1 - 0.5);
    expect(value('(D2+F2)*E2')).toBe((3 + 0.5) * 2.1);
    expect(value('D2+F2*E2')).toBe(3 + 0.5 * 2.1);
    expect(value('$B$1*1.1')).toBe(10 * 1.1);
    expect(value('-D2/4')).toBe(-0.75);
    expect(value('d2*e2')).toBe(3 * 2.1);
    expect(value('D2*1E3')).toBe(3000);
    expect(value('D2^2')).toBe(9);
    expect(value('B1*50%')).toBe(5);
    // Each level left to right; comparison below +.
    expect(value('B1-D2-2')).toBe(5);
    expect(value('B1/D2/2')).toBe(10 / 3 / 2);
    expect(value('D2+1>3')).toBe(true);
  });
  test('a blank cell is 0 and numeric text its number, as in Sheets; a bare reference is the cell as it is', () => {
    expect(value('D2+G2')).toBe(3);
    expect(value('H2*2')).toBe(25);
    expect(value('G2')).toBe('');
    expect(value('H2')).toBe('12.5');
    expect(value('"china"')).toBe('china');
    expect(value('TRUE')).toBe(true);
  });
  test('the functions a value, code or origin is wrapped in', () => {
    // ROUND(6.300000000000001, 2) = 6.3; ROUND(1.005, 2) = 1.01 as Sheets shows it (the double is 1.00499999…).
    expect(value('ROUND(D2*E2,2)')).toBe(6.3);
    expect(value('ROUND(K2, 2)')).toBe(1.01);
    expect(value('ROUND(L2)')).toBe(-3); // half away from zero
    expect(value('ROUNDUP(E2*1.01;1)')).toBe(2.2); // 2.121 → 2.2; a semicolon as some locales write it
    expect(value('ROUNDDOWN(E2*1.01,1)')).toBe(2.1);
    expect(value('ROUND(1234.5,-2)')).toBe(1200);
    expect(value('INT(L2)')).toBe(-3);
    expect(value('SUM(D2:F2)')).toBe(3 + 2.1 + 0.5);
    expect(value('SUM(D2:J2)')).toBe(3 + 2.1 + 0.5); // text, TRUE and blanks of a range are skipped
    expect(value('PRODUCT(D2,E2)*MAX(1,B1)')).toBe(3 * 2.1 * 10);
    expect(value('IF(D2>2,D2*E2,0)')).toBe(3 * 2.1);
    expect(value('IF(G2="","mfn",C2)')).toBe('mfn');
    expect(value('TRIM(C2)')).toBe('viet nam');
    expect(value('UPPER(TRIM(C2))&"!"')).toBe('VIET NAM!');
    expect(value('VALUE(H2)*2')).toBe(25);
  });
  test('anything else is not followed (that cell asks on its own)', () => {
    for (const text of ['I2*2', 'J2*2', 'D2/G2', 'D2:E2', 'D2*', '(D2', 'D2)', 'Sheet2!D2*2', 'Z9*2', '"3"&D2*1.5', 'VLOOKUP(C2,A:B,2,0)', 'DUTY(A2,B2)', 'M2', 'M2*2', 'ROUND(D2,2,1)', '', '1/0'])
      expect(evaluate(text, at), text).toBeUndefined();
  });
});
