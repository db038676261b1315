/**
 * Past entry lines as a broker lists them for an IEEPA refund claim, fed to both hosts (Excel's
 * task pane and the Sheets sidebar), with the cells the check must write beside them, worked out by
 * hand from the 2026 Revision 10 schedule and data/ch99/program_rates.csv:
 * - ABC-1234567-8, China, 2025-05-20: 6109.10.00 10,000: duty 16.5% 1,650, Section 301 (9903.88.15)
 *   7.5% 750 (not refundable), fentanyl 9903.01.24 20% 2,000, reciprocal 9903.01.25 10% 1,000:
 *   5,400 computed, 3,000 refundable. 9403.60.80 5,000: Free, Section 301 (9903.88.03) 25% 1,250,
 *   fentanyl 1,000, reciprocal 500: 2,750 computed, 1,500 refundable.
 * - ABC-2222222-1, Canada, 2025-09-15: 9401.61.40 8,000 (Free) with no claim entered: fentanyl
 *   9903.01.10 35% 2,800; paid 2,000 (the 25% of before August): 800 short. The same line with USMCA
 *   claimed: exempt (9903.01.14), nothing.
 * - ABC-3333333-5, 2026-03-10, after the IEEPA period: 6109.10.00 China 10,000: 1,650 + 750 + Section
 *   122 (9903.03.01) 10% 1,000 = 3,400, refund 0 with the reason; 9999.99.99 is no line: its error.
 * Issue 38: each line is costed on the revision in force on its date (2025 Revision 13 from 2025-05-16, Revision 22
 * from 2025-09-08, 2026 Revision 4 from 2026-02-24). The figures are those of 2026 Revision 10 still: these lines'
 * rates and Section 301 footnotes are the same in those revisions. What changes is the revision named: the
 * error's and the record's and status's (the three revisions used, in order of first use).
 */
export const REFUND_ENTRIES = [
  ['Entry No.', 'Entry date', 'HTS', 'Country of origin', 'Claim', 'Entered value', 'Duty paid'],
  ['ABC-1234567-8', '2025-05-20', '6109.10.00', 'China', '', 10000, 5400],
  ['ABC-1234567-8', '2025-05-20', '9403.60.80', 'China', '', 5000, '2,750.00'],
  ['ABC-2222222-1', '2025-09-15', '9401.61.40', 'Canada', '', 8000, 2000],
  ['ABC-2222222-1', '2025-09-15', '9401.61.40', 'Canada', 'usmca', 8000, 0],
  ['ABC-3333333-5', '2026-03-10', '6109.10.00', 'China', '', 10000, 3400],
  ['ABC-3333333-5', '2026-03-10', '9999.99.99', 'China', '', 500, ''],
];

/** The one request: each item with its entry date, its entry number and its claim as entered (none when blank). */
export const REFUND_REQUESTS = [
  {
    items: [
      { hts: '6109.10.00', origin: 'China', value: 10000, entry_number: 'ABC-1234567-8', date: '2025-05-20', claim: 'none' },
      { hts: '9403.60.80', origin: 'China', value: 5000, entry_number: 'ABC-1234567-8', date: '2025-05-20', claim: 'none' },
      { hts: '9401.61.40', origin: 'Canada', value: 8000, entry_number: 'ABC-2222222-1', date: '2025-09-15', claim: 'none' },
      { hts: '9401.61.40', origin: 'Canada', value: 8000, entry_number: 'ABC-2222222-1', date: '2025-09-15', claim: 'usmca' },
      { hts: '6109.10.00', origin: 'China', value: 10000, entry_number: 'ABC-3333333-5', date: '2026-03-10', claim: 'none' },
      { hts: '9999.99.99', origin: 'China', value: 500, entry_number: 'ABC-3333333-5', date: '2026-03-10', claim: 'none' },
    ],
  },
];

const AFTER = 'Entered 2026-03-10, after the IEEPA duties (entries 2025-02-04 to 2026-02-23): no IEEPA duty was assessed, nothing to refund.';

/** The cells written right of the selection (H1:L18), the record row under them apart. */
export const REFUND_CHECKED = [
  ['IEEPA refundable', 'IEEPA headings', 'Duties computed', 'Paid − computed', 'Status'],
  [3000, '9903.01.24 $2,000.00; 9903.01.25 $1,000.00', 5400, 0, 'OK'],
  [1500, '9903.01.24 $1,000.00; 9903.01.25 $500.00', 2750, 0, 'OK'],
  [2800, '9903.01.10 $2,800.00', 2800, -800, 'OK'],
  [0, '', 0, 0, 'OK: no IEEPA duty on this line'],
  [0, '', 3400, 0, `Refund 0: ${AFTER}`],
  ['', '', '', '', 'Error: hts 9999.99.99 is not in the schedule (2026 Revision 4)'],
  // Totals: 3,000 + 1,500 + 2,800; computed 5,400 + 2,750 + 2,800 + 0 + 3,400; paid 13,550 − 14,350.
  [7300, '9903.01.10 $2,800.00; 9903.01.24 $3,000.00; 9903.01.25 $1,500.00', 14350, -800, 'Total: 6 lines, 3 entries; 1 with errors (not in the totals)'],
  ['Entry', 'Entry date', 'Heading', 'Refundable', 'Note'],
  ['ABC-1234567-8', '2025-05-20', '9903.01.24', 3000, ''],
  ['ABC-1234567-8', '2025-05-20', '9903.01.25', 1500, ''],
  ['ABC-1234567-8', '2025-05-20', 'Entry total', 4500, ''],
  ['ABC-2222222-1', '2025-09-15', '9903.01.10', 2800, ''],
  ['ABC-3333333-5', '2026-03-10', '', 0, AFTER],
  ['All entries', '', '9903.01.10', 2800, ''],
  ['All entries', '', '9903.01.24', 3000, ''],
  ['All entries', '', '9903.01.25', 1500, ''],
  ['All entries', '', 'Total refundable', 7300, ''],
];

/** The record row's first cell. */
export const REFUND_RECORD =
  /^Refund check by landed on \d{4}-\d\d-\d\d \d\d:\d\d UTC · HTS 2025 Revision 13; 2025 Revision 22; 2026 Revision 4 with its chapter 99 tables · IEEPA duties of entries 2025-02-04 to 2026-02-23 \(Learning Resources v\. Trump\) · each line at its entry date · claims as entered \(none when blank\) · default origin mfn \(general rate\) · numbers read as 1,234\.56$/;

/** Rows in bold: the header, the totals, the entries' header, an entry's total, the total refundable. */
export const REFUND_BOLD_ROWS = [0, 7, 8, 11, 17];

/** The pane's and the sidebar's totals block. */
export const REFUND_TOTALS = [
  'Lines 6 (1 with errors)', 'Entries 3', 'IEEPA 9903.01.10 $2,800.00', 'IEEPA 9903.01.24 $3,000.00', 'IEEPA 9903.01.25 $1,500.00',
  'IEEPA refundable $7,300.00', 'Duties computed $14,350.00', 'Duty paid $13,550.00', 'Paid − computed -$800.00',
];

export const REFUND_STATUS = 'Checked 6 lines into Sheet1!H1:L19: IEEPA refundable $7,300.00; 1 with errors (see the Status column). Schedule 2025 Revision 13; 2025 Revision 22; 2026 Revision 4.';
