/**
 * Past entries as a broker lists them for IEEPA refunds, across every channel, fed to both hosts
 * (Excel's task pane and the Sheets sidebar) with ONE expected grid, worked out by hand. Filing date
 * 2026-05-20 (set in the pane and the sidebar); refund date the default, 2026-05-20 + 90 = 2026-08-18;
 * corporate rates. Duties from the schedule and data/ch99/program_rates.csv (issue 38: each line on the revision
 * in force on its date, 2025 Revision 13 from 2025-05-16, Revision 22 from 2025-09-08, 2026 Revision 4 from
 * 2026-02-24; these lines' rates and Section 301 footnotes are those of 2026 Revision 10 in each):
 * 6109.10.00 China 10,000 on 2025-05-20: duty 16.5% 1,650, Section 301 7.5% 750 (not refundable),
 * fentanyl 9903.01.24 20% 2,000, reciprocal 9903.01.25 10% 1,000: 5,400 computed, 3,000 refundable.
 * 9403.60.80 China 5,000: Free, 301 25% 1,250, fentanyl 1,000, reciprocal 500: 2,750, 1,500 refundable.
 * 9401.61.40 Canada 8,000 on 2025-09-15 (Free, no claim): fentanyl 9903.01.10 35% 2,800.
 *
 * The entries (check digits: test/server/refunds-cape.test.ts):
 * - ABC-1234567-6, unliquidated: CAPE now. Its second line is written `abc 1234567 6`: the same entry
 *   (one row in the CAPE file). Deposited 3,000 + 1,500 = 4,500 = computed: as deposited, split as computed.
 * - ABC-2222222-0, liquidated 2026-03-01 (80 days before filing): CAPE now. Entry summary layout: its
 *   9903 numbers on rows of their own, 2,000 and 1,000 deposited.
 * - ABC-3333333-9, liquidated 2026-02-28 (81 days): Protest by 2026-02-28 + 180 = 2026-08-27. No deposit
 *   given: the computed 1,500.
 * - ABC-4444444-8, liquidated 2025-11-20 (181 days): Final: court action by 2027-11-20. Deposited 2,000
 *   (the 25% of before August), computed 2,800: 40% apart, both figures said, the refund 2,000.
 * - ABC-5555555-3 type 08, ABC-6666666-2 type 09: not for CAPE; no liquidation date: estimated at
 *   2025-05-20 + 314 = 2026-03-30 (May 11, Jun 30, Jul 31, Aug 31, Sep 30, Oct 31, Nov 30, Dec 31,
 *   Jan 31, Feb 28, Mar 30 = 314).
 * - ABC-1234567-8: a bad check digit (6 is right): CAPE by its dates, refused for the file, in red.
 * - ABC-7777777-1, 2026-03-10: after the IEEPA period, nothing to refund; its 9999.99.99 line is an error.
 *
 * Interest, 6% every day (2026 Q2 and Q3 are past the table's last quarter: 2026 Q1's 6% assumed, and said):
 * 2025-05-20 to 2026-08-18 is 365 + 90 = 455 days; 2025-09-15 to 2026-08-18 is 365 − 28 = 337 days.
 * (1 + 0.06/365)^455 − 1 = 0.0776545: 4,500 → 349.45, 3,000 → 232.97, 1,500 → 116.48.
 * (1 + 0.06/365)^337 − 1 = 0.0569556: 2,000 → 113.91.
 */
import { entryCheckDigit } from '../../shared/entry-number.js';

export const REFUND_FILING_DATE = '2026-05-20';

export const REFUND_ENTRIES = [
  ['Entry No.', 'Entry date', 'Entry type', 'Liquidation date', 'Liquidation status', 'HTS', 'Country of origin', 'Entered value', 'Duty paid', 'IEEPA deposited'],
  ['ABC-1234567-6', '2025-05-20', '01', '', 'Unliquidated', '6109.10.00', 'China', 10000, 5400, 3000],
  ['ABC-2222222-0', '2025-05-20', '01', '2026-03-01', 'Liquidated', '6109.10.00', 'China', 10000, '', ''],
  ['ABC-2222222-0', '2025-05-20', '', '', '', '9903.01.24', '', '', 2000, ''],
  ['ABC-2222222-0', '2025-05-20', '', '', '', '9903.01.25', '', '', 1000, ''],
  ['ABC-3333333-9', '2025-05-20', '01', '2026-02-28', 'Liquidated', '9403.60.80', 'China', 5000, '', ''],
  ['ABC-4444444-8', '2025-09-15', '01', '2025-11-20', 'Liquidated', '9401.61.40', 'Canada', 8000, 2000, 2000],
  ['ABC-5555555-3', '2025-05-20', '08', '', '', '6109.10.00', 'China', 10000, 5400, 3000],
  ['ABC-6666666-2', '2025-05-20', '09', '', '', '6109.10.00', 'China', 10000, 5400, 3000],
  ['ABC-1234567-8', '2025-05-20', '01', '', 'Unliquidated', '6109.10.00', 'China', 10000, 5400, 3000],
  ['abc 1234567 6', '2025-05-20', '01', '', '', '9403.60.80', 'China', 5000, 2750, 1500],
  ['ABC-7777777-1', '2026-03-10', '01', '', '', '6109.10.00', 'China', 10000, 3400, ''],
  ['ABC-7777777-1', '2026-03-10', '01', '', '', '9999.99.99', 'China', 500, '', ''],
];

const line = (hts: string, origin: string, value: number, entry_number: string, date = '2025-05-20') => ({ hts, origin, value, entry_number, date, claim: 'none' });
/** The one request: the costed lines (not the 9903 rows), each with its entry number in CBP's form and its date. */
export const REFUND_REQUESTS = [
  {
    items: [
      line('6109.10.00', 'China', 10000, 'ABC-1234567-6'),
      line('6109.10.00', 'China', 10000, 'ABC-2222222-0'),
      line('9403.60.80', 'China', 5000, 'ABC-3333333-9'),
      line('9401.61.40', 'Canada', 8000, 'ABC-4444444-8', '2025-09-15'),
      line('6109.10.00', 'China', 10000, 'ABC-5555555-3'),
      line('6109.10.00', 'China', 10000, 'ABC-6666666-2'),
      line('6109.10.00', 'China', 10000, 'ABC-1234567-8'),
      line('9403.60.80', 'China', 5000, 'ABC-1234567-6'),
      line('6109.10.00', 'China', 10000, 'ABC-7777777-1', '2026-03-10'),
      line('9999.99.99', 'China', 500, 'ABC-7777777-1', '2026-03-10'),
    ],
  },
];

const AFTER = 'Entered 2026-03-10, after the IEEPA duties (entries 2025-02-04 to 2026-02-23): no IEEPA duty was assessed, nothing to refund.';
const CN = '9903.01.24 $2,000.00; 9903.01.25 $1,000.00';
const CN_NAMED = '9903.01.24 China fentanyl 20% $2,000.00; 9903.01.25 China reciprocal 10% $1,000.00';

/** The cells written right of the selection (K1:O31), the record row under them apart. */
export const REFUND_CHECKED = [
  ['IEEPA refundable', 'IEEPA headings', 'Duties computed', 'Paid − computed', 'Status'],
  [3000, CN, 5400, 0, 'OK'],
  [3000, CN, 5400, '', 'OK'],
  ['', '', '', '', 'Entry summary row: 9903.01.24 $2,000.00 deposited'],
  ['', '', '', '', 'Entry summary row: 9903.01.25 $1,000.00 deposited'],
  [1500, '9903.01.24 $1,000.00; 9903.01.25 $500.00', 2750, '', 'OK'],
  [2800, '9903.01.10 $2,800.00', 2800, -800, 'OK'],
  [3000, CN, 5400, 0, 'OK'],
  [3000, CN, 5400, 0, 'OK'],
  [3000, CN, 5400, 0, 'OK'],
  [1500, '9903.01.24 $1,000.00; 9903.01.25 $500.00', 2750, 0, 'OK'],
  [0, '', 3400, 0, `Refund 0: ${AFTER}`],
  ['', '', '', '', 'Error: hts 9999.99.99 is not in the schedule (2026 Revision 4)'],
  // Refundable: five 6109.10.00 lines of 3,000 + two 9403.60.80 of 1,500 + 2,800 = 20,800; the 9903 rows are deposits, not lines.
  // Computed: 5,400 × 5 + 2,750 × 2 + 2,800 + 3,400 = 38,700. Paid − computed over 7 lines: only Canada's 2,000 − 2,800 = −800.
  // By heading: 9903.01.24 2,000 × 5 + 1,000 × 2 = 12,000; 9903.01.25 1,000 × 5 + 500 × 2 = 6,000.
  [20800, '9903.01.10 $2,800.00; 9903.01.24 $12,000.00; 9903.01.25 $6,000.00', 38700, -800, 'Total: 10 lines, 8 entries; 1 with errors (not in the totals); Paid − computed over the 7 lines with a duty paid'],
  ['Entry', 'Channel', 'IEEPA refund', 'Interest (est.)', 'Note'],
  ['ABC-1234567-6', 'CAPE now', 4500, 349.45, 'entered 2025-05-20, unliquidated; refund as deposited; 9903.01.24 China fentanyl 20% $3,000.00; 9903.01.25 China reciprocal 10% $1,500.00'],
  ['ABC-2222222-0', 'CAPE now', 3000, 232.97, `entered 2025-05-20, liquidated 2026-03-01; refund as deposited; ${CN_NAMED}`],
  ['ABC-3333333-9', 'Protest by 2026-08-27', 1500, 116.48, "entered 2025-05-20, liquidated 2026-02-28; refund computed for the entry's date (no IEEPA deposit given); 9903.01.24 China fentanyl 20% $1,000.00; 9903.01.25 China reciprocal 10% $500.00"],
  ['ABC-4444444-8', 'Final: court action by 2027-11-20', 2000, 113.91, 'entered 2025-09-15, liquidated 2025-11-20; deposited $2,000.00, computed $2,800.00: more than 1% apart; the refund is what was deposited; 9903.01.10 Canada fentanyl 35% $2,000.00'],
  ['ABC-5555555-3', 'Not for CAPE (type 08 (duty deferral) entries are outside CAPE)', 3000, 232.97, `entered 2025-05-20, liquidation estimated 2026-03-30; refund as deposited; ${CN_NAMED}`],
  ['ABC-6666666-2', 'Not for CAPE (type 09 (reconciliation) entries are outside CAPE)', 3000, 232.97, `entered 2025-05-20, liquidation estimated 2026-03-30; refund as deposited; ${CN_NAMED}`],
  ['ABC-1234567-8', 'CAPE now', 3000, 232.97, `entered 2025-05-20, unliquidated; refund as deposited; ${CN_NAMED}; not in the CAPE file: ABC-1234567-8 has the check digit 8; CATAIR Appendix E gives 6 for ABC-1234567`],
  // 2026-03-10 + 314 = 2027-01-18 (Mar 21, Apr 30, May 31, Jun 30, Jul 31, Aug 31, Sep 30, Oct 31, Nov 30, Dec 31, Jan 18).
  ['ABC-7777777-1', 'Not for CAPE (entered 2026-03-10, outside the IEEPA duties (2025-02-04 to 2026-02-23))', 0, 0, "entered 2026-03-10, liquidation estimated 2027-01-18; refund computed for the entry's date (no IEEPA deposit given)"],
  // By heading: 9903.01.24: 3,000 + 2,000 + 1,000 + 2,000 + 2,000 + 2,000 = 12,000; 9903.01.25: 1,500 + 1,000 + 500 + 1,000 × 3 = 6,000.
  ['By heading', '9903.01.10 Canada fentanyl 35%', 2000, '', ''],
  ['By heading', '9903.01.24 China fentanyl 20%', 12000, '', ''],
  ['By heading', '9903.01.25 China reciprocal 10%', 6000, '', ''],
  // CAPE now: 4,500 + 3,000 + 3,000 = 10,500, interest 349.45 + 232.97 + 232.97 = 815.39; not for CAPE: 3,000 + 3,000 + 0, 465.94.
  ['By channel', 'CAPE now', 10500, 815.39, '3 entries'],
  ['By channel', 'Protest', 1500, 116.48, '1 entry; earliest deadline 2026-08-27'],
  ['By channel', 'Final: court action', 2000, 113.91, '1 entry; earliest deadline 2027-11-20'],
  ['By channel', 'Not for CAPE', 6000, 465.94, '3 entries'],
  // 10,500 + 1,500 + 2,000 + 6,000 = 20,000; interest 815.39 + 116.48 + 113.91 + 465.94 = 1,511.72.
  // Deposited: 4,500 + 3,000 + 2,000 + 3,000 × 3 = 18,500 (6 entries); computed: ABC-3333333-9's 1,500.
  [
    'All entries', 'Total refund', 20000, 1511.72,
    'Refund $18,500.00 as deposited (6 entries); $1,500.00 as computed by the service for the entry dates (1 entry without the IEEPA duty deposited: check them against the entry summaries); 1 entry where deposited and computed are more than 1% apart (see their notes).',
  ],
];

/** The record row's first cell. */
export const REFUND_RECORD =
  /^Refund check by landed on \d{4}-\d\d-\d\d \d\d:\d\d UTC · HTS 2025 Revision 13; 2025 Revision 22; 2026 Revision 4 with its chapter 99 tables · IEEPA duties of entries 2025-02-04 to 2026-02-23 \(Learning Resources v\. Trump\) · each line at its entry date · claims as entered \(none when blank\) · default origin mfn \(general rate\) · numbers read as 1,234\.56 · channels on the filing date 2026-05-20$/;

/** The record row's notes: the caveats and the interest method, no fee notes. */
export const REFUND_RECORD_NOTES =
  'Antidumping and countervailing duties are not included. FTA preference assumes the goods meet the rules of origin of the program. An estimate: verify with a licensed customs broker before relying on it. Interest: corporate overpayment rates of each quarter, compounded daily, from the deposit (entry summary date, else entry date) to the filing date + 90 days; 19 U.S.C. 1505(c) (interest on refunds from deposit to liquidation or reliquidation); 26 U.S.C. 6621 rates, compounded daily (26 U.S.C. 6622). Interest: rates after the quarter of 2026-01-01 not yet in the table: 6% assumed.';

/** Rows in bold: the header, the totals, the entries' header, the total refund. */
export const REFUND_BOLD_ROWS = [0, 13, 14, 30];
/** Rows in red: the line in error, the entry refused for the CAPE file. */
export const REFUND_RED_ROWS = [12, 21];

/** The CAPE declaration sheet: ABC-1234567-6 once (its two writings are one entry), ABC-2222222-0. */
export const REFUND_CAPE_SHEETS = { 'CAPE declaration 1': [['Entry Number'], ['ABC-1234567-6'], ['ABC-2222222-0']] };

/** The pane's and the sidebar's totals block: by channel with a bar (of the largest, CAPE now's 10,500), by heading, in words. */
export const REFUND_TOTALS = [
  'Lines 10 (1 with errors)',
  'Entries 8',
  'CAPE now ██████████ $10,500.00 · 3 entries · interest $815.39',
  // 1,500 / 10,500 × 10 = 1.4 → 1 block; 2,000 → 1.9 → 2; 6,000 → 5.7 → 6.
  'Protest (earliest 2026-08-27) █░░░░░░░░░ $1,500.00 · 1 entry · interest $116.48',
  'Final: court action (earliest 2027-11-20) ██░░░░░░░░ $2,000.00 · 1 entry · interest $113.91',
  'Not for CAPE ██████░░░░ $6,000.00 · 3 entries · interest $465.94',
  '9903.01.10 Canada fentanyl 35% $2,000.00',
  '9903.01.24 China fentanyl 20% $12,000.00',
  '9903.01.25 China reciprocal 10% $6,000.00',
  'IEEPA refund $20,000.00',
  'Interest (estimated) $1,511.72',
  'Deposited or computed Refund $18,500.00 as deposited (6 entries); $1,500.00 as computed by the service for the entry dates (1 entry without the IEEPA duty deposited: check them against the entry summaries); 1 entry where deposited and computed are more than 1% apart (see their notes).',
];

/** The status, which says how to save each CAPE sheet as CSV in the host. */
export const refundStatus = (output: string, save: string): string =>
  `Checked 10 lines into ${output}: IEEPA refund $20,000.00; 1 with errors (see the Status column). CAPE: CAPE declaration 1 (2 entries); to file each, ${save}, and upload it in the CAPE tab of the ACE Portal. 1 entry for CAPE refused (in red below the lines).`;

/**
 * 10,001 unliquidated entries for CAPE, XYZ-0000000-7 … XYZ-0010000-5 (each with its check digit), one
 * 6109.10.00 line of 100 each: two declaration files, 9,999 and 2. Check digits by hand (X Y Z are 7 8 9):
 * XYZ0000000: seven zeros, Z 9, Y 8 doubled 16 (1 + 6 = 7), X 7: 23 → 7. XYZ0009998: 8 doubled 16 (7), 9,
 * 9 doubled 18 (9), 9 = 34, + 23 = 57 → 3. XYZ0009999: 9, 9, 9, 9 = 36 + 23 = 59 → 1. XYZ0010000: 1 doubled
 * 2 + 23 = 25 → 5.
 */
export const CAPE_10001 = [
  ['Entry number', 'Entry date', 'Liquidation status', 'HTS', 'Origin', 'Value'],
  ...Array.from({ length: 10001 }, (_, i) => {
    const base = `XYZ${String(i).padStart(7, '0')}`;
    return [`${base}${entryCheckDigit(base)}`, '2025-05-20', 'Unliquidated', '6109.10.00', 'China', 100];
  }),
];
export const CAPE_10001_FIRST = [['Entry Number'], ['XYZ-0000000-7']];
export const CAPE_10001_LAST_OF_FIRST = 'XYZ-0009998-3';
export const CAPE_10001_SECOND = [['Entry Number'], ['XYZ-0009999-1'], ['XYZ-0010000-5']];
export const CAPE_10001_STATUS = 'CAPE: CAPE declaration 1 (9,999 entries), CAPE declaration 2 (2 entries);';
