/**
 * The rules of an IEEPA refund as dated data, each with its legal source: CBP's CAPE phases (which
 * entries its ACE tab takes, and what its file is), the protest and court limits, the estimated
 * liquidation, and the overpayment interest rates by calendar quarter. The code (shared/refund-channel.ts)
 * reads only these tables: a later CAPE phase or a new quarter's rate is a row, not a rewrite; add rows,
 * never edit a past one.
 */

/** One phase of CAPE (Consolidated Administration and Processing of Entries), from the day its ACE tab takes it. */
export interface CapePhase {
  name: string;
  /** First filing date of the phase. */
  from: string;
  /** An entry liquidated at most this many days before the filing date is taken (more: a protest). */
  liquidatedWithinDays: number;
  /** Entry types CAPE refuses, with why. */
  refusedTypes: Readonly<Record<string, string>>;
  /** Entries per declaration file, and the file's single header. */
  fileLimit: number;
  header: string;
  source: string;
}

export const CAPE_PHASES: readonly CapePhase[] = [
  {
    name: 'CAPE phase 1',
    from: '2026-04-20',
    liquidatedWithinDays: 80,
    refusedTypes: {
      '08': 'type 08 (duty deferral) entries are outside CAPE',
      '09': 'type 09 (reconciliation) entries are outside CAPE',
      '47': 'type 47 (drawback) entries are outside CAPE',
    },
    fileLimit: 9999,
    header: 'Entry Number',
    source: 'CBP CSMS #68315804 (CAPE in the ACE Portal from 2026-04-20); CBP CAPE guidance of 2026-04-13 (declaration: a CSV file of entry numbers under the header "Entry Number", at most 9,999 a file)',
  },
];

/** The limits outside CAPE, counted from the liquidation date. */
export const LIQUIDATION_LIMITS = {
  /** A protest of the liquidation: 180 days. */
  protestDays: 180,
  protestSource: '19 U.S.C. 1514(c)(3): a protest within 180 days after the liquidation',
  /** Beyond it the liquidation is final; a civil action in the Court of International Trade within two years. */
  courtYears: 2,
  courtSource: '28 U.S.C. 2636(i): a civil action under 28 U.S.C. 1581(i) within two years after the cause of action accrues (counted here from the liquidation)',
  /** An entry not yet liquidated is taken to liquidate 314 days after entry (19 CFR 159.11: one year from entry; CBP schedules liquidation on the 314th day). */
  estimatedLiquidationDays: 314,
  estimatedSource: '19 U.S.C. 1504(a), 19 CFR 159.11 (liquidation within one year of entry; CBP posts it about 314 days after entry)',
} as const;

/** CBP's overpayment (refund) rates for one calendar quarter, percent a year. */
export interface OverpaymentRate {
  /** First day of the quarter. */
  from: string;
  corporate: string;
  noncorporate: string;
  source: string;
}

/**
 * Interest on refunds of duties (19 U.S.C. 1505(c)) at the IRS overpayment rates of 26 U.S.C. 6621,
 * compounded daily (26 U.S.C. 6622), as CBP publishes them each quarter in the Federal Register.
 * A quarter past the last row is estimated at the last row's rates, and says so.
 */
export const OVERPAYMENT_RATES: readonly OverpaymentRate[] = [
  { from: '2025-01-01', corporate: '6', noncorporate: '7', source: 'CBP notice, 90 FR 9036 (2025-02-05, FR Doc. 2025-02228)' },
  // From 2025 Q2 the Federal Register page of CBP's notice is not in the sources at hand: the rates are the IRS's
  // (26 U.S.C. 6621, which CBP's notice repeats), cited by revenue ruling; CBP's summary text agrees each quarter.
  { from: '2025-04-01', corporate: '6', noncorporate: '7', source: 'IRS Rev. Rul. 2025-7, I.R.B. 2025-13 (IR-2025-29); CBP notice for the quarter beginning 2025-04-01 (same rates; FR page not at hand)' },
  { from: '2025-07-01', corporate: '6', noncorporate: '7', source: 'IRS Rev. Rul. 2025-11, I.R.B. 2025-23 (IR-2025-59); CBP notice for the quarter beginning 2025-07-01 (same rates; FR page not at hand)' },
  { from: '2025-10-01', corporate: '6', noncorporate: '7', source: 'IRS Rev. Rul. 2025-18, I.R.B. 2025-37; CBP notice for the quarter beginning 2025-10-01 (same rates; FR page not at hand)' },
  { from: '2026-01-01', corporate: '6', noncorporate: '7', source: 'IRS Rev. Rul. 2025-22, I.R.B. 2025-48 (IR-2025-112); CBP notice in the Federal Register of 2026-01-22 (rates unchanged; FR page not at hand)' },
];

export const INTEREST_SOURCE = '19 U.S.C. 1505(c) (interest on refunds from deposit to liquidation or reliquidation); 26 U.S.C. 6621 rates, compounded daily (26 U.S.C. 6622)';

/** How long after filing a CAPE refund is expected, the default refund date of the interest estimate. */
export const REFUND_AFTER_FILING_DAYS = 90;
