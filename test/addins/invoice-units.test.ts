/**
 * The invoice-unit table both add-ins and their functions read (spreadsheet/invoice-units.ts): the
 * units invoices write mapped to the API's, exact conversions, and a unit no one knows not sent.
 */
import { describe, expect, it } from 'vitest';
import { invoiceUnit, sentQuantity } from '../../spreadsheet/invoice-units.js';
import { readSheetOrder } from '../../spreadsheet/order-sheet.js';

describe('invoiceUnit', () => {
  it.each([
    ['PCS', 'each'], ['pc', 'each'], ['PCE', 'each'], ['EA', 'each'], ['NOS', 'each'], ['NMB', 'each'], ['C62', 'each'], ['SET', 'each'], ['SETS', 'each'],
    ['CTN', 'each'], ['BOX', 'each'], ['PK', 'each'], ['ROLL', 'each'], ['PR', 'pairs'], ['PRS', 'pairs'], ['DOZ', 'doz'], ['DZN', 'doz'], ['GRS', 'gross'],
    ['KGM', 'kg'], ['KGS', 'kg'], ['LTR', 'liter'], ['MTR', 'm'], ['MTK', 'm2'], ['LBS', 'lb'],
    // The API's own names still work.
    ['kg', 'kg'], ['liter', 'liter'], ['pf. liter', 'pf.liter'], ['doz.', 'doz'],
  ])('%s is %s', (code, unit) => {
    expect(invoiceUnit(code)?.unit).toBe(unit);
  });

  it('knows no made-up unit', () => {
    expect(invoiceUnit('XYZ')).toBeUndefined();
    expect(invoiceUnit('bundles of 7')).toBeUndefined();
  });
});

describe('sentQuantity', () => {
  it('maps the unit; converts inch-pound measures exactly', () => {
    // The invoice's own word is kept for the messages (issue 41: they said "each" where the invoice said SET).
    expect(sentQuantity(2000, 'SET')).toEqual({ qty: 2000, unit: 'each', word: 'SET' });
    expect(sentQuantity(2000, 'YDS')).toEqual({ qty: 1828.8, unit: 'm', word: 'YDS' }); // 2,000 × 0.9144 m
    expect(sentQuantity(1000, 'SQFT')).toEqual({ qty: 92.90304, unit: 'm2', word: 'SQFT' }); // 1,000 × 0.09290304 m²
    expect(sentQuantity(0.5, 'FT')).toEqual({ qty: 0.1524, unit: 'm', word: 'FT' });
    expect(sentQuantity(5, 'kg')).toEqual({ qty: 5, unit: 'kg' }); // the API's own name: nothing to say apart
  });

  it('sends neither quantity nor unit for a unit it does not know, and says which', () => {
    expect(sentQuantity(2000, 'XYZ')).toEqual({ unknownUnit: 'XYZ' });
  });

  it('leaves a quantity without a unit in the rate\'s unit, and sends nothing for a unit without a quantity', () => {
    expect(sentQuantity(100, '')).toEqual({ qty: 100 });
    expect(sentQuantity(undefined, 'KGM')).toEqual({});
  });
});

describe('an invoice\'s UOM column', () => {
  it('is read through the table: known units mapped, an unknown one kept aside on its line', () => {
    const order = readSheetOrder([
      ['HTS', 'Origin', 'Qty', 'UOM', 'Ext value'],
      ['8708.30.50.90', 'Mexico', 2000, 'SET', 15000],
      ['7005.29.08', '', 1000, 'SQFT', 1000],
      ['0201.10.05', '', 100, 'XYZ', 1000],
    ], null);
    expect(order.lines.map((l) => [l.item, l.unknownUnit])).toEqual([
      [{ hts: '8708.30.50.90', origin: 'Mexico', qty: 2000, unit: 'each', value: 15000 }, undefined],
      [{ hts: '7005.29.08', qty: 92.90304, unit: 'm2', value: 1000 }, undefined],
      [{ hts: '0201.10.05', value: 1000 }, 'XYZ'],
    ]);
  });
});
