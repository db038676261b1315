/**
 * Policy numbers, in one dated table: fee rates with their minimums and maximums, the programs an
 * origin claims, the MPF exemptions and the column 2 countries. Code elsewhere reads them from here
 * and never writes them as literals. Each entry names its legal source; add a row when a notice
 * changes a figure, never edit a past one.
 */
/**
 * The origins the API names as programs rather than countries: the general rate (`mfn`), China's
 * Section 301 (`china`), column 2 (`col2`), and the partners whose programs ORIGIN_PROGRAMS lists.
 */
export const ORIGINS = [
  'mfn', 'china', 'col2', 'ca', 'mx', 'kr', 'au', 'sg', 'cl', 'co', 'pe', 'il', 'pa', 'jo', 'bh', 'ma', 'om',
] as const;
export type Origin = (typeof ORIGINS)[number];

/** Merchandise processing fee and harbor maintenance fee for one U.S. government fiscal year. */
export interface FeePeriod {
  /** First day the figures apply (fiscal years start on October 1). */
  from: string;
  /** Last day of the fiscal year the figures were published for. */
  through: string;
  /** MPF, formal entries: percent of the customs value, with a minimum and maximum per entry. */
  mpf: { percent: string; minimum: string; maximum: string };
  /** HMF: percent of the value of commercial cargo unloaded from vessels (ocean shipments). */
  hmf: { percent: string };
  source: string;
}

export const FEE_PERIODS: readonly FeePeriod[] = [
  {
    from: '2023-10-01',
    through: '2024-09-30',
    mpf: { percent: '0.3464', minimum: '31.67', maximum: '614.35' },
    hmf: { percent: '0.125' },
    // 19 U.S.C. 58c(a)(9)(A), (b)(8)(A)(i); 19 CFR 24.23(b)(1); CBP FY2024 fee adjustment notice (88 FR 50890).
    source: '19 U.S.C. 58c; 19 CFR 24.23, 24.24; CBP notice of FY2024 COBRA fee adjustments',
  },
  {
    from: '2024-10-01',
    through: '2025-09-30',
    mpf: { percent: '0.3464', minimum: '32.71', maximum: '634.62' },
    hmf: { percent: '0.125' },
    // CBP FY2025 fee adjustment notice (89 FR 61895).
    source: '19 U.S.C. 58c; 19 CFR 24.23, 24.24; CBP notice of FY2025 COBRA fee adjustments',
  },
  {
    from: '2025-10-01',
    through: '2026-09-30',
    mpf: { percent: '0.3464', minimum: '33.58', maximum: '651.50' },
    hmf: { percent: '0.125' },
    // CBP FY2026 fee adjustment notice; HMF rate: 26 U.S.C. 4461(c), 19 CFR 24.24(b).
    source: '19 U.S.C. 58c; 19 CFR 24.23, 24.24; CBP notice of FY2026 COBRA fee adjustments',
  },
];

/**
 * MPF exemptions of 19 CFR 24.23(c), as CBP's table "MPF and Preferential Trade Programs" reads them.
 * Programs whose originating goods are exempt when the program is claimed on the line (its symbol):
 * USMCA S/S+ (c)(3), Singapore (c)(6), Chile (c)(7), Australia (c)(8), Bahrain, CAFTA-DR P/P+, Oman, Peru,
 * Korea (c)(12), Colombia, Panama. Jordan, Morocco and the qualifying industrial zones (N) carry none; the
 * Israel agreement's exemption is for products of Israel (MPF_EXEMPT_COUNTRIES), not for the goods of the
 * West Bank, Gaza or the zones that may claim IL.
 */
export const MPF_EXEMPT_PROGRAMS: ReadonlySet<string> = new Set(['S', 'S+', 'SG', 'CL', 'AU', 'BH', 'P', 'P+', 'OM', 'PE', 'KR', 'CO', 'PA']);

/**
 * Countries whose products are exempt from MPF whether or not a program is claimed: Israel (19 CFR
 * 24.23(c)(5)) and the beneficiaries of the Caribbean Basin Economic Recovery Act (19 CFR
 * 24.23(c)(1)(iii); HTSUS General Note 7(a): Antigua and Barbuda, Aruba, Bahamas, Barbados, Belize,
 * British Virgin Islands, Curaçao, Dominica, Grenada, Guyana, Haiti, Jamaica, Montserrat, Saint Kitts
 * and Nevis, Saint Lucia, Saint Vincent and the Grenadines, Trinidad and Tobago).
 */
export const MPF_EXEMPT_COUNTRIES: Readonly<Record<string, string>> = {
  IL: '19 CFR 24.23(c)(5)',
  ...Object.fromEntries(
    ['AG', 'AW', 'BS', 'BB', 'BZ', 'VG', 'CW', 'DM', 'GD', 'GY', 'HT', 'JM', 'MS', 'KN', 'LC', 'VC', 'TT'].map((c) => [c, 'a beneficiary country of the Caribbean Basin Economic Recovery Act, 19 CFR 24.23(c)(1)(iii)']),
  ),
};

/**
 * Special-program symbols of the special column claimed by each partner origin, in order of
 * preference (HTSUS General Note 3(c)(i); USMCA is `S`, with `S+` on lines of General Note 11).
 */
export const ORIGIN_PROGRAMS: Readonly<Partial<Record<Origin, readonly string[]>>> = {
  ca: ['S', 'S+'],
  mx: ['S', 'S+'],
  kr: ['KR'], // General Note 33, United States–Korea FTA
  au: ['AU'], // General Note 28
  sg: ['SG'], // General Note 25
  cl: ['CL'], // General Note 26
  co: ['CO'], // General Note 34
  pe: ['PE'], // General Note 32
  il: ['IL'], // General Note 8
  pa: ['PA'], // General Note 35
  jo: ['JO'], // General Note 18
  bh: ['BH'], // General Note 30
  ma: ['MA'], // General Note 27
  om: ['OM'], // General Note 31
};

/**
 * Who may claim a trade agreement's program beyond the partner origins of ORIGIN_PROGRAMS (ISO2): IL also
 * covers products of the West Bank, Gaza and the qualifying industrial zones of Jordan and Egypt (General
 * Note 3(a)(v)); CAFTA-DR (General Note 29) and the United States-Japan agreement (General Note 36) have
 * no origin of their own in the API.
 */
const CAFTA_DR = ['CR', 'DO', 'SV', 'GT', 'HN', 'NI'];
const OTHER_BENEFICIARIES: Readonly<Record<string, readonly string[]>> = { IL: ['PS', 'JO', 'EG'], P: CAFTA_DR, 'P+': CAFTA_DR, JP: ['JP'] };

/** Who may claim each program of a trade agreement (ISO2 of the country of origin); any other origin claiming it takes the general rate. */
export const PROGRAM_COUNTRIES: Readonly<Record<string, readonly string[]>> = (() => {
  const table: Record<string, string[]> = {};
  for (const [origin, symbols] of Object.entries(ORIGIN_PROGRAMS)) for (const s of symbols!) (table[s] ??= []).push(origin.toUpperCase());
  for (const [s, countries] of Object.entries(OTHER_BENEFICIARIES)) (table[s] ??= []).push(...countries);
  return table;
})();

/**
 * Special programs no longer in force, from the first entry date they stopped covering: a claim of
 * their symbols takes the general rate. GSP (A, A+, A*; 19 U.S.C. 2465) expired on 2020-12-31 and had not
 * been renewed by the date of this table; a renewal sets `to`, the last entry date the lapse covers.
 */
export const PROGRAMS_ENDED: readonly { symbols: readonly string[]; from: string; to?: string; why: string }[] = [
  { symbols: ['A', 'A+', 'A*'], from: '2021-01-01', why: 'GSP expired on 2020-12-31 and has not been renewed' },
];

/**
 * Countries whose goods take column 2 rates: Cuba and North Korea (General Note 3(b)), Russia and
 * Belarus (Suspending Normal Trade Relations with Russia and Belarus Act, Pub. L. 117-110, 2022).
 */
export const COLUMN2_COUNTRIES: ReadonlySet<string> = new Set(['CU', 'KP', 'RU', 'BY']);

/**
 * Origins whose goods may not be imported without a license from the Treasury's Office of Foreign
 * Assets Control: the comprehensive embargoes. An answer for their goods says so; the duty it shows
 * is what licensed or exempt goods owe.
 */
export const IMPORTS_PROHIBITED: Readonly<Record<string, string>> = {
  CU: 'Cuban Assets Control Regulations, 31 CFR 515.204',
  IR: 'Iranian Transactions and Sanctions Regulations, 31 CFR 560.201',
  KP: 'North Korea Sanctions Regulations, 31 CFR 510.205',
};

/** Chapter 99, subchapter III headings of the Section 301 action on China (U.S. notes 20 and 31). */
export const SECTION_301_HEADINGS = /^9903\.(88|91|92)\./;
/**
 * Section 301 headings whose lists (U.S. note 31, the 2024 four-year review and its later steps) name
 * statistical reporting numbers: cited on an 8-digit line, they cover only its ten-digit lines whose own
 * footnotes cite one of them (CBP ruling N353032: 6307.90.9891 owes 9903.88.15, not 9903.91.01).
 */
export const SECTION_301_TEN_DIGIT_LISTS = /^9903\.91\./;

/**
 * Lines a Section 301 list of U.S. note 31 names where the schedule's footnotes do not say it exactly: a
 * heading cited on an 8-digit line whose list names only some of its ten-digit lines (which cite nothing
 * of their own), or a line a revision's footnotes left out. From `from` to `until` (inclusive) the
 * heading covers exactly the `lines` (ten or eight digits) of `of`, cited there or not; it covers no other
 * line of `of`, whatever the footnotes cite.
 */
export interface Note31Lines {
  heading: string;
  /** The 8-digit line whose ten-digit lines the list tells apart. */
  of: string;
  lines: readonly string[];
  from: string;
  until: string | null;
  source: string;
}
export const SECTION_301_NOTE_31_LINES: readonly Note31Lines[] = [
  {
    heading: '9903.91.01',
    of: '85076000',
    lines: ['8507600010'],
    from: '2024-09-27',
    until: '2025-12-31',
    source:
      'U.S. note 31(b): lithium-ion electrical vehicle batteries, 8507.60.0010, +25% from 2024-09-27 (USTR, 89 FR 76581, 2024-09-18, FR Doc 2024-21217); the other lithium-ion batteries (8507.60.0020) stay on List 4A, 9903.88.15 at 7.5%, until 2025-12-31 (CBP ruling NY N314994). From 2026-01-01 note 31(g) (9903.91.06, +25%) covers all of 8507.60 and 31(b) items (1)-(4) are deleted (89 FR 76581, Annex C), as the 2026 footnotes print',
  },
  {
    heading: '9903.91.05',
    of: '40151210',
    lines: ['40151210'],
    from: '2025-01-01',
    until: '2025-12-31',
    source:
      'U.S. note 31(f)(3): medical and surgical rubber gloves, 4015.12.10, +50% from 2025-01-01 (89 FR 76581); the footnote first appears in a later 2025 revision. Deleted from 31(f) on 2026-01-01 by FR Doc 2024-29462, Annex B, when 9903.91.08 (note 31(i), +100%) takes over',
  },
];

/** Chapter 99 headings of the rates in lieu of column 2 for products of Russia (U.S. note 30; computed by measures/russia.ts). */
export const RUSSIA_COLUMN2_HEADINGS = /^9903\.90\./;

/** The caller's explicit Section 301 settings and their rates, as num/den of the value. */
export const SECTION_301_SETTINGS: Readonly<Record<string, { num: number; den: number }>> = {
  '25': { num: 25, den: 100 }, // Lists 1-3 (9903.88.01-.04)
  '7.5': { num: 75, den: 1000 }, // List 4A (9903.88.15)
  none: { num: 0, den: 1 },
};

/**
 * First entry date for which the chapter 99 tables (data/ch99) describe every program; earlier
 * entries are costed with the base duty and Section 301 China only.
 */
export const CHAPTER99_FROM = '2025-01-01';

/**
 * IEEPA fentanyl duties on Canada and Mexico: USMCA-qualifying goods are exempt from this entry date,
 * whatever their rate (EO 14231 and EO 14232, 2025-03-06; U.S. note 2(a)-(c), (j)-(m); headings 9903.01.04,
 * 9903.01.14). The rate table repeats the condition on most rows but not on Mexico's potash (9903.01.05).
 */
export const IEEPA_FENTANYL_USMCA_FROM = '2025-03-07';

/**
 * IEEPA reciprocal duties on steel articles of U.S. note 16(b) under Section 232 (9903.81.87/.88, not
 * derivatives): none at all before this entry date, then on their non-steel content like every steel and
 * aluminum good (U.S. note 2(v)(vi)-(ix), heading 9903.01.33; data/ch99/SPEC.md section 2.13).
 */
export const IEEPA_RECIPROCAL_ON_STEEL_ARTICLES_FROM = '2025-08-18';

/**
 * IEEPA fentanyl duties on Canada: energy and energy resources paid 10% instead of 25% from the first day
 * (EO 14193 as amended, in force 2025-03-04; heading 9903.01.13). The carve-out list (ieepa_fentanyl_carveouts.csv)
 * dates every row from 2025-03-07, when the USMCA-era amendment added potash; its SOURCE.md notes the energy rate
 * applied from 2025-03-04.
 */
export const IEEPA_FENTANYL_CA_ENERGY_FROM = '2025-03-04';

/** IEEPA reciprocal duties: goods with at least this share of U.S. content owe nothing on it (heading 9903.01.34, U.S. note 2(v)(iv)). */
export const IEEPA_US_CONTENT_SHARE = { num: 20, den: 100 } as const;

/**
 * The entry dates on which IEEPA duties were assessed, hence refundable: from the first IEEPA duties
 * (EO 14193-14195, entries from 2025-02-04) to the last day before they ended (EO 14389; CBP CSMS
 * #67834313: none on entries from 2026-02-24). Held unlawful in Learning Resources, Inc. v. Trump (2026).
 */
export const IEEPA_REFUND_PERIOD = { from: '2025-02-04', through: '2026-02-23' } as const;

/** Largest customs value accepted for one line or order, in dollars: keeps cents exact in doubles. */
export const MAX_VALUE_DOLLARS = 1_000_000_000_000;

/** Every estimate carries these. */
export const CAVEATS: readonly string[] = [
  'Antidumping and countervailing duties are not included.',
  'FTA preference assumes the goods meet the rules of origin of the program.',
  'An estimate: verify with a licensed customs broker before relying on it.',
];
