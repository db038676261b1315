/**
 * What the importer tells us beyond code, value and origin: the preference claimed (`claim`) and
 * the facts some chapter 99 measures turn on (contents, end use, patent status, UK melt and quota,
 * the semiconductor test). Every fact is optional: null means "not given", and the measure that
 * needs it uses SPEC's default and says so in `assumptions`. Parsed in params.ts.
 */

/**
 * `auto`: the origin's own FTA program (as the engine always did); `none`: no preference (general
 * rate, no USMCA/KORUS/CAFTA-DR exemptions); otherwise the special-column symbols claimed.
 */
export type Claim = { kind: 'auto' } | { kind: 'none' } | { kind: 'program'; name: string; symbols: readonly string[] };

/** Named programs and their special-column symbols (HTSUS General Notes 11, 29, 33). */
export const NAMED: Readonly<Record<ProgramName, readonly string[]>> & Readonly<Record<string, readonly string[] | undefined>> = {
  usmca: ['S', 'S+'],
  korus: ['KR'],
  'cafta-dr': ['P', 'P+'],
};
export type ProgramName = 'usmca' | 'korus' | 'cafta-dr';

/** The law of each named program's preference, cited when a claim is refused: its General Note and CBP's regulations. */
export const PROGRAM_RULES: readonly [symbols: readonly string[], rule: string][] = [
  [NAMED.usmca, 'USMCA: General Note 11, 19 CFR part 182'],
  [NAMED.korus, 'KORUS: General Note 33, 19 CFR part 10 subpart R'],
  [NAMED['cafta-dr'], 'CAFTA-DR: General Note 29, 19 CFR part 10 subpart J'],
];
export const CLAIMS = ['auto', 'none', 'usmca', 'korus', 'cafta-dr'] as const;

/** Whether `symbols` (the special-column symbols claimed) include the program's. */
export const claimed = (symbols: readonly string[], program: ProgramName): boolean => NAMED[program].some((s) => symbols.includes(s));

export type PartFor = 'passenger' | 'mhd';

export interface ImporterFacts {
  /** Dollar values of content, in cents. */
  usContent: number | null;
  steelContent: number | null;
  aluminumContent: number | null;
  copperContent: number | null;
  /** Which vehicles an 8708 part (on both note 33 and note 38 lists) is for. */
  partFor: PartFor | null;
  patented: boolean | null;
  ukMelted: boolean | null;
  ukQuota: boolean | null;
  chipQualifies: boolean | null;
}

export const NO_FACTS: ImporterFacts = Object.freeze({
  usContent: null, steelContent: null, aluminumContent: null, copperContent: null,
  partFor: null, patented: null, ukMelted: null, ukQuota: null, chipQualifies: null,
});

/** The facts as the API names them (query parameters and JSON fields). */
export const FACT_PARAMS = ['us_content', 'steel_content', 'aluminum_content', 'copper_content', 'part_for', 'patented', 'uk_melted', 'uk_quota', 'chip_qualifies'] as const;

export type FactSource = Readonly<Partial<Record<(typeof FACT_PARAMS)[number], unknown>>>;
