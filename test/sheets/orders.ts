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
  ['Duty', 'Section 301', 'MPF', 'HMF', 'Landed cost', 'Rate', 'Status'],
  // 16.5% and List 4A 7.5% of 10,000; note 52 (China +12.5%, since 2026-07-24) 1,250 counts in landed:
  // 10,000 + 1,650 + 750 + 1,250 + 34.64 + 12.50.
  [1650, 750, 34.64, 12.5, 13697.14, '16.5%', 'OK'],
  ['', '', '', '', '', '', 'Error: hts 9999.99.99 is not in the schedule (2026 Revision 10)'],
  // Free; 5,000 + 17.32 + 6.25.
  [0, 0, 17.32, 6.25, 5023.57, 'Free', 'OK'],
  // 6.3¢/liter × 100 liters = 6.30; 1,000 + 6.30 + 3.46 + 1.25.
  [6.3, 0, 3.46, 1.25, 1011.01, '6.3¢/liter', 'OK'],
  ['', '', '', '', '', '', ''],
  // 86.5¢/kg without a quantity: no duty, no landed cost, the reason instead.
  ['', 0, 6.93, 2.5, '', '86.5¢/kg', 'The rate "86.5¢/kg" is specific: give qty and unit (per kg) to compute the duty.'],
  // Duty 1,656.30; landed 18,000 + 1,656.30 + 750 + 1,250 (note 52) + 62.35 + 22.50.
  [1656.3, 750, 62.35, 22.5, 21741.15, '', 'Total: 5 lines; 1 with errors (not in the totals); 1 without a duty (0 in the totals): a specific or compound rate needs its Qty (and Unit)'],
];
