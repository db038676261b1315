/**
 * Costing one line of an entry: which rate applies to the origin (general, special program or
 * column 2), the duty, and Section 301 for products of China. Fees belong to the entry (order.ts).
 */
import { assess } from './duty.js';
import { mulDivRound } from './money.js';
import type { Origin, ResolvedOrigin } from './origins.js';
import { ORIGIN_PROGRAMS, SECTION_301_HEADINGS } from './policy.js';
import type { Quantity } from './params.js';
import type { DutyRate } from './rates.js';
import { dutyLine, type Schedule, type TariffLine } from './schedule.js';
import { derivedSection301, explicitSection301, type Section301 } from './section301.js';

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
  notes: string[];
}

export interface LineInput {
  hts: unknown;
  valueCents: number;
  origin: ResolvedOrigin;
  quantity: Quantity | null;
  /** Caller's explicit Section 301 setting, or null to derive it. */
  s301: string | null;
  date: string;
}

interface AppliedRate {
  basis: RateBasis;
  program: string | null;
  text: string | null;
  rate: DutyRate | null;
  notes: string[];
}

/** The rate column that applies to goods of this origin on this line. */
export function applicableRate(line: TariffLine, origin: Origin): AppliedRate {
  const r = line.rates;
  if (!r) return { basis: 'general', program: null, text: null, rate: null, notes: [] };
  if (origin === 'col2') return { basis: 'column2', program: null, text: r.column2Text || null, rate: r.column2, notes: [] };
  const general: AppliedRate = { basis: 'general', program: null, text: r.generalText, rate: r.general, notes: [] };
  const programs = ORIGIN_PROGRAMS[origin];
  if (!programs) return general;
  for (const symbol of programs) {
    const entry = r.special.find((p) => p.program === symbol);
    if (!entry) continue;
    if (entry.reference !== null)
      return { ...general, notes: [`Program ${symbol} on this line is governed by ${entry.reference} (a quota or staged provision of chapter 98/99); the general rate was applied.`] };
    return { basis: 'special', program: symbol, text: entry.rateText, rate: entry.rate, notes: [] };
  }
  return { ...general, notes: [`Program ${programs.join('/')} is not listed for ${line.hts}; the general rate applies.`] };
}

export function costLine(schedule: Schedule, input: LineInput, parameter = 'hts'): LineCost {
  const line = dutyLine(schedule, input.hts, parameter);
  const { origin } = input.origin;
  const applied = applicableRate(line, origin);
  const notes = [...applied.notes];
  if (input.origin.country) notes.unshift(originNote(input.origin));
  const assessed = assess(applied.rate, input.valueCents, input.quantity);
  notes.push(...assessed.notes);

  let s301: Section301 = derivedSection301([], input.date);
  if (origin === 'china') s301 = input.s301 !== null ? explicitSection301(input.s301) : derivedSection301(line.section301, input.date);
  else if (input.s301 !== null && input.s301 !== 'none') notes.push('Section 301 applies only to products of China; s301 was ignored.');
  notes.push(...s301.notes);

  const other = otherAdditionalDuties(line);
  if (other) notes.push(other);

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
    section301Cents: s301.num === 0 ? 0 : mulDivRound(input.valueCents, s301.num, s301.den),
    notes,
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
/** The note on chapter 99 additional duties (other than Section 301) the line cites; once per line. */
function otherAdditionalDuties(line: TariffLine): string | null {
  let note = otherNotes.get(line);
  if (note === undefined) {
    const other = line.chapter99.filter((h) => h.startsWith('9903.') && !SECTION_301_HEADINGS.test(`${h}.`));
    note = other.length ? `This line's footnotes also cite ${other.join(', ')}: additional duties not included in this estimate.` : null;
    otherNotes.set(line, note);
  }
  return note;
}
