/**
 * Costing one line of an entry: which rate applies to the origin (general, special program or
 * column 2), the duty, and Section 301 for products of China. Fees belong to the entry (order.ts).
 */
import type { Claim, ImporterFacts } from './claims.js';
import { assess } from './duty.js';
import { derivedSection301, explicitSection301, section301Charge, type Section301 } from './measures/section301-china.js';
import { mulDivRound } from './money.js';
import { countryOf, type Origin, type ResolvedOrigin } from './origins.js';
import { MPF_EXEMPT_ORIGINS, ORIGIN_PROGRAMS, RUSSIA_COLUMN2_HEADINGS, SECTION_301_HEADINGS } from './policy.js';
import type { Quantity } from './params.js';
import type { DutyRate } from './rates.js';
import { dutyLine, type Schedule, type TariffLine } from './schedule.js';
import type { Chapter99, Layer } from './stacking.js';

export type RateBasis = 'general' | 'special' | 'column2';

/** What a line owes before the entry's fees: everything of a DutyResult but MPF and HMF. */
export interface LineCost {
  line: TariffLine;
  origin: ResolvedOrigin;
  valueCents: number;
  rateBasis: RateBasis;
  specialProgram: string | null;
  rateText: string | null;
  specific: boolean;
  dutyCents: number | null;
  section301: Section301;
  section301Cents: number;
  /** ISO2 of the origin country, when known. */
  country: string | null;
  /** Every chapter 99 layer applied, China Section 301 included. */
  layers: readonly Layer[];
  section232Cents: number;
  additionalCents: number;
  /** Whether the goods are exempt from MPF under the free trade agreement claimed. */
  mpfExempt: boolean;
  notes: string[];
  assumptions: readonly string[];
}

export interface LineInput {
  hts: unknown;
  valueCents: number;
  origin: ResolvedOrigin;
  quantity: Quantity | null;
  /** Caller's explicit Section 301 setting, or null to derive it. */
  s301: string | null;
  date: string;
  claim: Claim;
  facts: ImporterFacts;
}

interface AppliedRate {
  basis: RateBasis;
  program: string | null;
  text: string | null;
  rate: DutyRate | null;
  notes: string[];
}

/** The special-column symbols claimed: the origin's own under `auto`, none under `none`. */
export function claimedSymbols(origin: Origin, claim: Claim): readonly string[] {
  if (claim.kind === 'program') return claim.symbols;
  return claim.kind === 'auto' ? (ORIGIN_PROGRAMS[origin] ?? []) : [];
}

/** The rate column that applies to goods of this origin on this line, under the preference claimed (its symbols). */
export function applicableRate(line: TariffLine, origin: Origin, programs: readonly string[]): AppliedRate {
  const r = line.rates;
  if (!r) return { basis: 'general', program: null, text: null, rate: null, notes: [] };
  if (origin === 'col2') return { basis: 'column2', program: null, text: r.column2Text || null, rate: r.column2, notes: [] };
  const general: AppliedRate = { basis: 'general', program: null, text: r.generalText, rate: r.general, notes: [] };
  if (!programs.length) return general;
  for (const symbol of programs) {
    const entry = r.special.find((p) => p.program === symbol);
    if (!entry) continue;
    if (entry.reference !== null)
      return { ...general, notes: [`Program ${symbol} on this line is governed by ${entry.reference} (a quota or staged provision of chapter 98/99); the general rate was applied.`] };
    return { basis: 'special', program: symbol, text: entry.rateText, rate: entry.rate, notes: [] };
  }
  return { ...general, notes: [`Program ${programs.join('/')} is not listed for ${line.hts}; the general rate applies.`] };
}

export function costLine(schedule: Schedule, chapter99: Chapter99, input: LineInput, parameter = 'hts'): LineCost {
  const line = dutyLine(schedule, input.hts, parameter);
  const { origin } = input.origin;
  const preference = claimedSymbols(origin, input.claim);
  const applied = applicableRate(line, origin, preference);
  const notes = [...applied.notes];
  if (input.origin.country) notes.unshift(originNote(input.origin));
  const assessed = assess(applied.rate, input.valueCents, input.quantity);
  notes.push(...assessed.notes);

  let s301: Section301 = derivedSection301([], input.date);
  if (origin === 'china') s301 = input.s301 !== null ? explicitSection301(input.s301) : derivedSection301(line.section301, input.date);
  else if (input.s301 !== null && input.s301 !== 'none') notes.push('Section 301 applies only to products of China; s301 was ignored.');
  notes.push(...s301.notes);
  const section301Cents = s301.num === 0 ? 0 : mulDivRound(input.valueCents, s301.num, s301.den);

  const country = countryOf(input.origin);
  const stacked = chapter99.stack(
    { line, country, date: input.date, preference, facts: input.facts, valueCents: input.valueCents, dutyCents: assessed.cents, baseFree: applied.rate?.kind === 'free' },
    section301Charge(s301, input.valueCents),
  );
  for (const n of stacked.notes) notes.push(n);
  const other = otherAdditionalDuties(line);
  if (other) notes.push(other);
  const own = ORIGIN_PROGRAMS[origin];

  return {
    line,
    origin: input.origin,
    valueCents: input.valueCents,
    rateBasis: applied.basis,
    specialProgram: applied.program,
    rateText: applied.text,
    specific: applied.rate?.specific ?? false,
    dutyCents: assessed.cents,
    section301: s301,
    section301Cents,
    country,
    layers: stacked.layers,
    section232Cents: stacked.section232Cents,
    additionalCents: stacked.additionalCents,
    mpfExempt: MPF_EXEMPT_ORIGINS.has(origin) && !!own && (own === preference || own.some((p) => preference.includes(p))),
    notes,
    assumptions: stacked.assumptions,
  };
}

const originNotes = new WeakMap<ResolvedOrigin, string>();
/** `Origin Vietnam (VN) taken as mfn.`, once per resolved origin. */
function originNote(o: ResolvedOrigin): string {
  let note = originNotes.get(o);
  if (note === undefined) originNotes.set(o, (note = `Origin ${o.country!.name} (${o.country!.iso2}) taken as ${o.origin}.`));
  return note;
}

const otherNotes = new WeakMap<TariffLine, string | null>();
/** The note on chapter 99 headings the line cites that no measure computes (quotas, safeguards); once per line. */
function otherAdditionalDuties(line: TariffLine): string | null {
  let note = otherNotes.get(line);
  if (note === undefined) {
    const other = line.chapter99.filter((h) => h.startsWith('9903.') && !SECTION_301_HEADINGS.test(`${h}.`) && !RUSSIA_COLUMN2_HEADINGS.test(`${h}.`));
    note = other.length ? `This line's footnotes also cite ${other.join(', ')}: additional duties not included in this estimate.` : null;
    otherNotes.set(line, note);
  }
  return note;
}
