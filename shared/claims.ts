/**
 * What the importer tells us beyond code, value and origin: the preference claimed (`claim`) and
 * the facts some chapter 99 measures turn on (contents, end use, patent status, UK melt and quota,
 * the semiconductor test). Every fact is optional: null means "not given", and the measure that
 * needs it uses SPEC's default and says so in `assumptions`.
 */
import { invalid } from './errors.js';
import { parseFlag, parseValue } from './params.js';

/**
 * `auto`: the origin's own FTA program (as the engine always did); `none`: no preference (general
 * rate, no USMCA/KORUS/CAFTA-DR exemptions); otherwise the special-column symbols claimed.
 */
export type Claim = { kind: 'auto' } | { kind: 'none' } | { kind: 'program'; name: string; symbols: readonly string[] };

/** Named programs and their special-column symbols (HTSUS General Notes 11, 29, 33). */
const NAMED: Readonly<Record<ProgramName, readonly string[]>> & Readonly<Record<string, readonly string[] | undefined>> = {
  usmca: ['S', 'S+'],
  korus: ['KR'],
  'cafta-dr': ['P', 'P+'],
};
export type ProgramName = 'usmca' | 'korus' | 'cafta-dr';
export const CLAIMS = ['auto', 'none', 'usmca', 'korus', 'cafta-dr'] as const;

/** Whether `symbols` (the special-column symbols claimed) include the program's. */
export const claimed = (symbols: readonly string[], program: ProgramName): boolean => NAMED[program].some((s) => symbols.includes(s));

const AUTO: Claim = { kind: 'auto' };
const NONE: Claim = { kind: 'none' };
const claims = new Map<string, Claim>();

/** `claim`: auto (default), none, usmca, korus, cafta-dr, or a special-column symbol (A, A+, AU, JO, S, ...). */
export function parseClaim(input: unknown, parameter = 'claim'): Claim {
  if (input === undefined || input === null || input === '') return AUTO;
  if (typeof input !== 'string' || !/^[A-Za-z][A-Za-z-]{0,9}\+?$/.test(input.trim()))
    throw invalid(parameter, `${parameter} must be auto, none, usmca, korus, cafta-dr or a special-program symbol such as A, AU or S; got ${JSON.stringify(String(input).slice(0, 30))}`);
  const key = input.trim().toLowerCase();
  if (key === 'auto') return AUTO;
  if (key === 'none') return NONE;
  let c = claims.get(key);
  if (!c) {
    c = { kind: 'program', name: key, symbols: NAMED[key] ?? [input.trim().toUpperCase()] };
    if (claims.size < 1000) claims.set(key, c);
  }
  return c;
}

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

type Source = Readonly<Partial<Record<(typeof FACT_PARAMS)[number], unknown>>>;

const given = (v: unknown): boolean => v !== undefined && v !== null && v !== '';

/**
 * The facts of one query or line. `defaults` (an order's options) stand in for facts the line does
 * not give; `prefix` names the line's parameters in errors (`items[2].`).
 */
export function parseFacts(src: Source, valueCents: number, defaults: ImporterFacts = NO_FACTS, prefix = ''): ImporterFacts {
  // Most queries give no fact: a chain of property reads is what V8 answers fastest.
  const none =
    src.us_content === undefined && src.steel_content === undefined && src.aluminum_content === undefined && src.copper_content === undefined && src.part_for === undefined &&
    src.patented === undefined && src.uk_melted === undefined && src.uk_quota === undefined && src.chip_qualifies === undefined;
  if (none && defaults === NO_FACTS) return NO_FACTS;
  const content = (k: 'us_content' | 'steel_content' | 'aluminum_content' | 'copper_content', d: number | null): number | null => {
    const own = given(src[k]);
    const cents = own ? parseValue(src[k], prefix + k) : d;
    // An order's default is checked against each line it stands in for.
    const p = own ? prefix + k : k;
    if (cents !== null && cents > valueCents) throw invalid(p, `${p} must not exceed the customs value of ${prefix ? `${prefix.slice(0, -1)}` : 'the line'}`);
    return cents;
  };
  const flag = (k: 'patented' | 'uk_melted' | 'uk_quota' | 'chip_qualifies', d: boolean | null): boolean | null => (given(src[k]) ? parseFlag(src[k], prefix + k) : d);
  return {
    usContent: content('us_content', defaults.usContent),
    steelContent: content('steel_content', defaults.steelContent),
    aluminumContent: content('aluminum_content', defaults.aluminumContent),
    copperContent: content('copper_content', defaults.copperContent),
    partFor: given(src.part_for) ? parsePartFor(src.part_for, prefix + 'part_for') : defaults.partFor,
    patented: flag('patented', defaults.patented),
    ukMelted: flag('uk_melted', defaults.ukMelted),
    ukQuota: flag('uk_quota', defaults.ukQuota),
    chipQualifies: flag('chip_qualifies', defaults.chipQualifies),
  };
}

function parsePartFor(v: unknown, parameter: string): PartFor {
  const s = typeof v === 'string' ? v.trim().toLowerCase() : '';
  if (s === 'passenger' || s === 'mhd') return s;
  throw invalid(parameter, `${parameter} must be passenger or mhd; got ${JSON.stringify(String(v).slice(0, 30))}`);
}
