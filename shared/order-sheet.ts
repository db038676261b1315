/**
 * An order as it sits in a spreadsheet, the same in the Excel task pane and the Sheets sidebar:
 * the input columns and the header names that identify them, and the result columns written
 * beside the order. Pure data and one function, so both add-ins import it.
 */

export const ORDER_COLUMNS = ['hts', 'value', 'origin', 'qty', 'unit'] as const;
export type OrderColumn = (typeof ORDER_COLUMNS)[number];
/** Which column of the selection (0-based) holds each input. */
export type ColumnMapping = Partial<Record<OrderColumn, number>>;

/** Header names people use, compared lower-cased with only letters and digits kept. */
const HEADER_NAMES: Record<OrderColumn, readonly string[]> = {
  hts: ['hts', 'htsus', 'htsno', 'htsnumber', 'htscode', 'hs', 'hscode', 'tariff', 'tariffcode', 'tariffnumber', 'code', 'commoditycode'],
  value: ['value', 'customsvalue', 'valueusd', 'usdvalue', 'amount', 'amountusd', 'invoicevalue', 'linevalue', 'totalvalue', 'enteredvalue', 'price', 'cost'],
  origin: ['origin', 'countryoforigin', 'country', 'coo', 'origincountry', 'madein'],
  qty: ['qty', 'quantity', 'qnty'],
  unit: ['unit', 'units', 'uom', 'unitofmeasure', 'qtyunit', 'quantityunit'],
};

/** The columns a header row names (the first cell of each name), or null unless it names at least HTS and value. */
export function headerMapping(row: readonly unknown[]): ColumnMapping | null {
  const names = row.map((c) => (typeof c === 'string' ? c.toLowerCase().replace(/[^a-z0-9]/g, '') : ''));
  const mapping: ColumnMapping = {};
  for (const col of ORDER_COLUMNS) {
    const i = names.findIndex((n) => HEADER_NAMES[col].includes(n));
    if (i >= 0) mapping[col] = i;
  }
  return mapping.hts !== undefined && mapping.value !== undefined ? mapping : null;
}

/** The columns written beside the order, and their number formats (money for the five figures). */
export const RESULT_HEADERS = ['Duty', 'Section 301', 'MPF', 'HMF', 'Landed cost', 'Rate', 'Status'] as const;
export const MONEY_FORMAT = '$#,##0.00';
export const RESULT_FORMATS: readonly string[] = [MONEY_FORMAT, MONEY_FORMAT, MONEY_FORMAT, MONEY_FORMAT, MONEY_FORMAT, '@', 'General'];
