/** Orders the order-costing tests write into the stand-in sheet, with what costing them must give. */
import type { AddonWorld } from './gas.js';

/**
 * A1:E7: a header row, a T-shirt from China, a bad code, a laptop, wine with its quantity, a blank
 * row and milk powder (a specific rate) without one.
 */
export function writeMixedOrder(w: AddonWorld): void {
  w.sheet.getRange('A1:E7').setValues([
    ['HTS', 'Value', 'Country of origin', 'Qty', 'Unit'],
    ['6109.10.00', 10000, 'China', '', ''],
    ['9999.99.99', 5, '', '', ''],
    ['8471.30.01', 5000, '', '', ''],
    ['2204.21.50', 1000, '', 100, 'liter'],
    ['', '', '', '', ''],
    ['0402.10.50', 2000, '', '', ''],
  ]);
}

/**
 * F1:L8 after costing the mixed order by vessel (ocean). Worked out by hand: liable value 18,000,
 * MPF 0.3464% = 62.35 → 34.64 / 17.32 / 3.46 / 6.93 by value (largest remainder), HMF 0.125% = 22.50
 * → 12.50 / 6.25 / 1.25 / 2.50.
 */
export const MIXED_ORDER_BY_VESSEL = [
  ['Duty', 'Section 301', 'Section 232', 'Other additional duties', 'MPF', 'HMF', 'Landed cost', 'Rate', 'Program(s)', 'Assumptions/Notes', 'Status'],
  // 16.5%; Section 301, every action (issue 30): List 4A 7.5% of 10,000 = 750 and note 52 (China +12.5%,
  // since 2026-07-24) 1,250; 10,000 + 1,650 + 750 + 1,250 + 34.64 + 12.50.
  [1650, 2000, 0, 0, 34.64, 12.5, 13697.14, '16.5%', 's301_china 9903.88.15; s301_forced_labor 9903.05.31', '', 'OK'],
  // Lines without an origin country get the API's note saying so (the order's caveats are once on the record).
  ['', '', '', '', '', '', '', '', '', '', 'Error: hts 9999.99.99 is not in the schedule (2026 Revision 10)'],
  // Free; 5,000 + 17.32 + 6.25.
  [0, 0, 0, 0, 17.32, 6.25, 5023.57, 'Free', '', 'No origin country given (origin is a program, not a country): only the chapter 99 duties owed by goods of every country are included.\npart_for not given: 8471.30.01.00 (a dual-use provision of note 33(g)) is taken as not a part of passenger vehicles or light trucks; give part_for=passenger if it is one (9903.94.05, +25%).', 'OK'],
  // 6.3¢/liter × 100 liters = 6.30; 1,000 + 6.30 + 3.46 + 1.25.
  [6.3, 0, 0, 0, 3.46, 1.25, 1011.01, '6.3¢/liter', '', 'No origin country given (origin is a program, not a country): only the chapter 99 duties owed by goods of every country are included.', 'OK'],
  ['', '', '', '', '', '', '', '', '', '', ''],
  // 86.5¢/kg without a quantity: no duty, no landed cost, the reason instead.
  ['', 0, 0, 0, 6.93, 2.5, '', '86.5¢/kg', '', 'No origin country given (origin is a program, not a country): only the chapter 99 duties owed by goods of every country are included.\nThe rate "86.5¢/kg" is specific: give qty and unit (per kg) to compute the duty.\nThis line\'s footnotes also cite 9904.04.22, 9904.04.30: import quotas of chapter 99, subchapter IV, not checked in this estimate.', 'The rate "86.5¢/kg" is specific: give qty and unit (per kg) to compute the duty.'],
  // Duty 1,656.30; each program's total; Landed cost the column's sum 13,697.14 + 5,023.57 + 1,011.01: the milk
  // powder's blank cell leaves out its 2,000 + 6.93 + 2.50 (counted with its duty as 0, it made 21,741.15).
  [1656.3, 2000, 0, 0, 62.35, 22.5, 19731.72, '', 's301_china $750.00; s301_forced_labor $1,250.00', '', 'Total: 5 lines; 1 with errors (not in the totals); 1 line without a duty (see the Status): left out of Landed cost, counted in the other totals'],
];

/**
 * A1:E4: an invoice with the optional columns Entry date and Claim: a steel line from Vietnam entered
 * today, a T-shirt from Vietnam entered on 2025-10-01 (a past date: IEEPA applied then), and a line
 * whose entry date is unreadable.
 */
export function writeDatedInvoice(w: AddonWorld): void {
  w.sheet.getRange('A1:E4').setValues([
    ['HTS', 'Origin', 'Ext value', 'Entry date', 'Claim'],
    ['7208.10.15', 'VN', 12000, '', 'none'],
    ['6109.10.00', 'VN', 10000, '2025-10-01', ''],
    ['6109.10.00', 'VN', 500, 'next week', ''],
  ]);
}
