/**
 * The header names both add-ins recognise (HEADER_NAMES in spreadsheet/order-sheet.ts, one table):
 * an invoice's extended value under any common heading is the customs value, never Qty × Unit price
 * beside it.
 */
import { describe, expect, it } from 'vitest';
import { ColumnsNeeded, HEADER_NAMES, headerMapping, ORDER_COLUMNS, readSheetOrder } from '../../spreadsheet/order-sheet.js';

describe('HEADER_NAMES', () => {
  it.each([
    'Total', 'Line Total', 'Extended', 'Extended Price', 'Ext Price', 'Ext. Price', 'Total Price', 'Total (USD)', 'Invoice Amount', 'Net Amount', 'Net Value',
    'FOB Value', 'Transaction Value', 'Ext value', 'Extended Amount', 'Amount (USD)', 'Total Amount', 'Line value',
  ])('%s is the value, beside a Qty and a Unit price', (name) => {
    expect(headerMapping(['HTS', 'Qty', 'Unit price', name])).toEqual({ hts: 0, qty: 1, price: 2, value: 3 });
  });

  it.each(['HTS', 'Tariff No.', 'Harmonized Code', 'HS Code', 'HTS Number', 'Commodity code'])('%s is the code', (name) => {
    expect(headerMapping([name, 'Value'])).toEqual({ hts: 0, value: 1 });
  });

  it.each(['Origin', 'C/O', 'Ctry of Origin', 'Orig. Country', 'Country of origin', 'COO', 'Made in'])('%s is the origin', (name) => {
    expect(headerMapping(['HTS', 'Value', name])?.origin).toBe(2);
  });

  it.each(['Price', 'Unit price', 'Unit Price (USD)', 'Cost', 'Unit cost', 'FOB', 'FOB Price'])('%s is a unit price, never the value', (name) => {
    expect(headerMapping(['HTS', name])).toBeNull();
  });

  it('names each heading for one input only', () => {
    const all = ORDER_COLUMNS.flatMap((c) => HEADER_NAMES[c]);
    expect(all.length).toBe(new Set(all).size);
  });
});

describe('an invoice with Qty, Unit Price and Line Total', () => {
  const invoice = [
    ['Tariff No.', 'Description', 'C/O', 'Qty', 'Unit Price', 'Line Total'],
    ['6109.10.00', 'T-shirts (2% discount)', 'Vietnam', 100, 78, 7700],
  ];

  it('is costed on the Line Total (the discounted 7,700), not Qty × Unit Price (7,800); the description is kept for the code check, never sent', () => {
    const { lines } = readSheetOrder(invoice, null);
    expect(lines).toEqual([{ row: 1, item: { hts: '6109.10.00', origin: 'Vietnam', qty: 100, value: 7700 }, notes: [], description: 'T-shirts (2% discount)' }]);
  });

  it('without a value column, Qty × Unit Price, said on the line', () => {
    const { lines } = readSheetOrder(invoice.map((r) => r.slice(0, 5)), null);
    expect(lines[0].item?.value).toBe(7800);
    expect(lines[0].notes).toEqual(['Value 7,800.00 = Qty 100 × Unit price 78 (the order has no value column).']);
  });
});

describe('the totals block of the pane and the sidebar (totalsBlock)', () => {
  it('labels its figures as the sheet\'s columns, in dollars as the sheet shows them; Section 301 is every action', async () => {
    const { totalsBlock } = await import('../../spreadsheet/order-output.js');
    const { RESULT_HEADERS } = await import('../../spreadsheet/order-sheet.js');
    const rows = totalsBlock({
      lines: 3, errors: 1, customs_value: 18000, duty: 1656.3, section_301: 2000, section_232: 0, additional_duty: 4000, mpf: 62.35, hmf: 22.5,
      total_duties_fees: 5741.15, landed_cost: 23741.15, specific_rate_lines: 0, by_program: {}, refundable: 2000, mpf_basis: 18000, hmf_basis: 18000,
      refundable_by_heading: { total: 2000, headings: { '9903.01.24': 2000 } },
    });
    expect(rows.map((r) => `${r.label} ${r.value}`)).toEqual([
      'Lines 3 (1 with errors)', 'Customs value $18,000.00', 'Duty $1,656.30', 'Section 301 $2,000.00', 'Section 232 $0.00',
      'Other additional duties $2,000.00', // 4,000 − 2,000 − 0
      'MPF $62.35', 'HMF $22.50', 'Duties and fees $5,741.15', 'Landed cost $23,741.15', 'Refundable (IEEPA) $2,000.00',
    ]);
    for (const h of RESULT_HEADERS.slice(0, 7)) expect(rows.map((r) => r.label)).toContain(h);
  });
});

describe('issue 41: the value headings that fell back silently to Qty × Unit price, and the code and origin headings missed', () => {
  // The invoice says 7,700 (a 2% discount); Qty × Unit price would be 100 × 78 = 7,800.
  const withValue = (name: string) => [['HTSUS No.', 'Mfg Country', 'Qty', 'Unit Price', name], ['6109.10.00', 'Vietnam', 100, 78, 7700]];

  it.each(['Sub Total', 'Subtotal', 'Amount US$', 'Total US$', 'Ext. Value (US$)', 'Merchandise Value', 'Total Line Value'])('%s is the value: 7,700, not 7,800', (name) => {
    const { mapping, lines } = readSheetOrder(withValue(name), null);
    expect(mapping).toEqual({ hts: 0, origin: 1, qty: 2, price: 3, value: 4 });
    expect(lines[0]).toMatchObject({ item: { hts: '6109.10.00', origin: 'Vietnam', qty: 100, value: 7700 }, notes: [] });
  });

  it('HTSUS No. and Classification are the code, Mfg Country the origin', () => {
    expect(headerMapping(['Classification', 'Mfg Country', 'Value'])).toEqual({ hts: 0, origin: 1, value: 2 });
    expect(headerMapping(['HTSUS No.', 'Country of Manufacture', 'Value'])).toEqual({ hts: 0, origin: 1, value: 2 });
  });

  it('Units is the quantity (Units 1,200), and the unit of a Qty column beside it (Units PCS)', () => {
    expect(headerMapping(['HTS', 'Units', 'Value'])).toEqual({ hts: 0, qty: 1, value: 2 });
    expect(headerMapping(['HTS', 'Qty', 'Units', 'Value'])).toEqual({ hts: 0, qty: 1, unit: 2, value: 3 });
    expect(headerMapping(['HTS', 'Units', 'Qty', 'Value'])).toEqual({ hts: 0, qty: 2, unit: 1, value: 3 });
  });

  it('a CIF Value is never the customs value nor replaced by Qty × Unit price: it says why and asks which column', () => {
    const invoice = withValue('CIF Value');
    expect(() => readSheetOrder(invoice, null)).toThrow(ColumnsNeeded);
    expect(() => readSheetOrder(invoice, null)).toThrow(
      'The column "CIF Value" includes the international freight and insurance, which are not part of the customs value (19 U.S.C. 1401a(b)(4)(A)): choose under "Columns" which column holds the customs value (the price paid for the goods: FOB, ex-works), or Qty and Unit price.',
    );
    // Chosen in the picker, Qty × Unit price is the person's answer.
    const { lines } = readSheetOrder(invoice, { mapping: { hts: 0, origin: 1, qty: 2, price: 3 }, header: true });
    expect(lines[0].item?.value).toBe(7800);
  });

  it('a heading that looks like a value but is not known asks too; a weight or a count does not', () => {
    expect(() => readSheetOrder(withValue('Gross Amount'), null)).toThrow(/^The column "Gross Amount" looks like a value this add-in does not read as the customs value: choose under "Columns"/);
    const { lines } = readSheetOrder(withValue('Total Weight (kg)'), null);
    expect(lines[0].item?.value).toBe(7800); // 100 × 78, said on the line
    expect(lines[0].notes).toEqual(['Value 7,800.00 = Qty 100 × Unit price 78 (the order has no value column).']);
  });
});

describe('docs/addins.md', () => {
  it('lists the headings read in one table for both hosts, rendered from HEADINGS', async () => {
    const { readFileSync } = await import('node:fs');
    const { COLUMN_LABELS, HEADINGS } = await import('../../spreadsheet/order-sheet.js');
    const table = ['| Input | Headings read (any case, spacing, punctuation; a currency mark such as USD or US$ ignored) |', '| --- | --- |',
      ...ORDER_COLUMNS.map((c) => `| ${COLUMN_LABELS[c]} | ${HEADINGS[c].join(', ')} |`)].join('\n');
    // The table sits in a list item: its lines indented.
    expect(readFileSync(new URL('../../docs/addins.md', import.meta.url), 'utf8').replace(/^ +/gm, '')).toContain(table);
  });
});
