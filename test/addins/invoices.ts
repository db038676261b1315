/**
 * Orders laid out as brokers' invoices are, fed to both hosts (Excel's task pane and the Sheets
 * sidebar) with the figures costing them must give, worked out by hand from the 2026 Revision 10
 * schedule.
 */

/**
 * An invoice with a UOM column: auto parts counted in SET (2.5% ad valorem: the unit does not
 * matter), glass in SQFT (18.7¢/m²: converted), beef in a unit no table knows (4.4¢/kg: the line
 * says so), T-shirts in DOZ (16.5%).
 */
export const UOM_INVOICE = [
  ['HTS', 'Origin', 'Qty', 'UOM', 'Ext value'],
  ['8708.30.50.90', 'Mexico', 2000, 'SET', 15000],
  ['7005.29.08', '', 1000, 'SQFT', 1000],
  ['0201.10.05', '', 100, 'BNDL', 1000],
  ['6109.10.00', 'Vietnam', 50, 'DOZ', 1000],
];

/** The items its POST /duty/bulk sends: units mapped, SQFT in m², the unknown unit and its quantity left out. */
export const UOM_INVOICE_ITEMS = [
  { hts: '8708.30.50.90', origin: 'Mexico', qty: 2000, unit: 'each', value: 15000 },
  { hts: '7005.29.08', qty: 92.90304, unit: 'm2', value: 1000 },
  { hts: '0201.10.05', value: 1000 },
  { hts: '6109.10.00', origin: 'Vietnam', qty: 50, unit: 'doz', value: 1000 },
];

const NO_COUNTRY = 'No origin country given (origin is a program, not a country): only the chapter 99 duties owed by goods of every country are included.';

/**
 * The lines and the totals written beside it (entered today, not by vessel). MPF: the liable value is
 * 3,000 (Mexico's USMCA goods are exempt), 0.3464% = 10.39, raised to the FY2026 minimum 33.58, by
 * value 11.20 / 11.19 / 11.19 (largest remainder).
 */
export const UOM_INVOICE_COSTED = [
  // USMCA: Free, Section 232 9903.94.06 no duty, no MPF.
  [0, 0, 0, 0, 0, 0, 15000, 'Free', '', 'claim not given: costed as USMCA-originating (program S); claim=none costs goods that do not qualify.\npart_for not given: 8708.30.50.90 (on the note 33 and note 38 lists) is taken as a part of passenger vehicles or light trucks.\nMexico (MX): trade program S claimed; its special rate applied.\nSection 232: 9903.94.06 (USMCA-qualifying) — no duty.\nNo MPF: goods originating in MX are exempt under the free trade agreement.', 'OK'],
  // 18.7¢/m² × 92.90304 m² = 17.3729 → 17.37; 1,000 + 17.37 + 11.20.
  [17.37, 0, 0, 0, 11.2, 0, 1028.57, '18.7¢/m2', '', NO_COUNTRY, 'OK'],
  // No quantity sent: no duty, no landed cost, the unit named.
  ['', 0, 0, 0, 11.19, 0, '', '4.4¢/kg', '', `${NO_COUNTRY}\nThe rate "4.4¢/kg" is specific: give qty and unit (per kg) to compute the duty.`,
    'Unit "BNDL" is not a unit of quantity this add-in knows (such as PCS, PR, DOZ, KGM, LTR, MTR, MTK, YDS), and the rate "4.4¢/kg" needs the quantity: write the Qty in the rate\'s unit'],
  // 16.5% of 1,000 = 165; note 52 (a Section 301 action), Vietnam +12.5% = 125; 1,000 + 165 + 125 + 11.19.
  [165, 125, 0, 0, 11.19, 0, 1301.19, '16.5%', 's301_forced_labor 9903.05.84', 'Vietnam (VN): no trade program claimed; general (normal trade relations) rate applied.', 'OK'],
  // The Landed cost column's sum, 15,000 + 1,028.57 + 1,301.19: the beef's 1,000 + 11.19 is left out with its
  // blank cell (it was counted, with its duty as 0: 18,340.95), and the Status says so.
  [182.37, 125, 0, 0, 33.58, 0, 17329.76, '', 's301_forced_labor $125.00', '', 'Total: 4 lines; 1 line without a duty (see the Status): left out of Landed cost, counted in the other totals'],
];

/** An invoice whose value is its Line Total, a discounted line beside Qty × Unit Price (100 × 78 = 7,800). */
export const LINE_TOTAL_INVOICE = [
  ['Tariff No.', 'Description', 'C/O', 'Qty', 'Unit Price', 'Line Total'],
  ['6109.10.00', 'T-shirts, 2% discount', 'Vietnam', 100, 78, 7700],
  ['8471.30.01', 'Laptops', 'Ctry: none', 10, 500, 5000],
];

/**
 * Costed on 7,700 and 5,000, today. The laptops' origin is no country: an error on its line only.
 * 16.5% of 7,700 = 1,270.50; note 52 (Section 301), Vietnam +12.5% = 962.50; MPF 0.3464% of 7,700 = 26.67,
 * raised to the FY2026 minimum 33.58: 7,700 + 1,270.50 + 962.50 + 33.58.
 */
export const LINE_TOTAL_INVOICE_COSTED = [
  [1270.5, 962.5, 0, 0, 33.58, 0, 9966.58, '16.5%', 's301_forced_labor 9903.05.84', 'Vietnam (VN): no trade program claimed; general (normal trade relations) rate applied.', 'OK'],
  ['', '', '', '', '', '', '', '', '', '', 'Error: origin "Ctry: none" is not a known origin: use one of mfn, china, col2, ca, mx, kr, au, sg, cl, co, pe, il, pa, jo, bh, ma, om, an ISO country code or an English country name'],
  [1270.5, 962.5, 0, 0, 33.58, 0, 9966.58, '', 's301_forced_labor $962.50', '', 'Total: 2 lines; 1 with errors (not in the totals)'],
];

/**
 * Issue 41: a broker's invoice headed HTSUS No., Mfg Country, Qty, UOM, Unit Price, Sub Total (none of
 * them read before: Qty × Unit price stood in, 7,800 for 7,700), beef counted in CTN against a per-kg
 * rate (no duty: its Landed cost is blank and left out of the total, which says so), and a line with
 * a code whose Sub Total is blank and one whose Sub Total is N/A (the fault is the value).
 */
export const BROKER_INVOICE = [
  ['HTSUS No.', 'Mfg Country', 'Qty', 'UOM', 'Unit Price', 'Sub Total'],
  ['6109.10.00', 'Vietnam', 100, 'DZ', 78, 7700],
  ['0201.10.05', '', 10, 'CTN', 100, 1000],
  ['6109.10.00', 'Vietnam', 10, 'PCS', 5, ''],
  ['6109.10.00', 'Vietnam', 10, 'PCS', 5, 'N/A'],
];

/**
 * Entered today. MPF: liable value 7,700 + 1,000 = 8,700, 0.3464% = 30.14, raised to the FY2026 minimum
 * 33.58, by value 29.72 (33.58 × 7,700 / 8,700 = 29.7204) and 3.86 (3.8597).
 */
export const BROKER_INVOICE_COSTED = [
  // 16.5% of 7,700 = 1,270.50; note 52, Vietnam +12.5% = 962.50; 7,700 + 1,270.50 + 962.50 + 29.72.
  [1270.5, 962.5, 0, 0, 29.72, 0, 9962.72, '16.5%', 's301_forced_labor 9903.05.84', 'Vietnam (VN): no trade program claimed; general (normal trade relations) rate applied.', 'OK'],
  // CTN is sent as a count of articles: the message names CTN (it said "a quantity in each").
  ['', 0, 0, 0, 3.86, 0, '', '4.4¢/kg', '', `${NO_COUNTRY}\nThe rate "4.4¢/kg" is per kg; a quantity in CTN cannot be converted to it.`, 'The rate "4.4¢/kg" is per kg; a quantity in CTN cannot be converted to it.'],
  ['', '', '', '', '', '', '', '', '', '', 'Error: Value is blank: give the line\'s customs value in U.S. dollars'],
  ['', '', '', '', '', '', '', '', '', '', 'Error: Value "N/A" is not an amount in U.S. dollars written 1,234.56 (if it uses a decimal comma, choose 1.234,56 under Numbers)'],
  // The Landed cost column's sum: the beef's 1,000 + 3.86 left out with its blank cell.
  [1270.5, 962.5, 0, 0, 33.58, 0, 9962.72, '', 's301_forced_labor $962.50', '', 'Total: 4 lines; 2 with errors (not in the totals); 1 line without a duty (see the Status): left out of Landed cost, counted in the other totals'],
];

/**
 * The dated invoice of both hosts' pictures (test/sheets/orders.ts writeDatedInvoice), its date a
 * date cell: Excel hands the add-in its serial (45931 is 2025-10-01), Sheets a Date in the sheet's
 * calendar. The cells written are worked out in test/excel/taskpane.e2e.test.ts and test/sheets/order.test.ts.
 */
export const datedInvoice = (date: number | Date) => [
  ['HTS', 'Origin', 'Ext value', 'Entry date', 'Claim'],
  ['7208.10.15', 'VN', 12000, '', 'none'],
  ['6109.10.00', 'VN', 10000, date, ''],
  ['6109.10.00', 'VN', 500, '11/30/2026', ''],
];

export const DATED_INVOICE_COSTED = [
  // Today: Section 232 +50% of 12,000 = 6,000; MPF 0.3464% of 12,000 = 41.57.
  [0, 0, 6000, 0, 41.57, 0, 18041.57, 'Free', 's232_metals 9903.82.02; s301_forced_labor 9903.05.90'],
  // 2025-10-01: 16.5% = 1,650; IEEPA reciprocal Vietnam 20% = 2,000; MPF 34.64, its own entry.
  [1650, 0, 0, 2000, 34.64, 0, 13684.64, '16.5%', 'ieepa_reciprocal 9903.02.69'],
  ['', '', '', '', '', '', '', '', ''],
  [1650, 0, 6000, 2000, 76.21, 0, 31726.21, '', 's232_metals $6,000.00; ieepa_reciprocal $2,000.00'],
];
