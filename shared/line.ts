/**
 * Costing one line of an entry: which rate applies to the origin (general, special program or
 * column 2), the duty, and Section 301 for products of China. Fees belong to the entry (order.ts).
 */
import { PROGRAM_RULES, type Claim, type ImporterFacts } from './claims.js';
import { assess } from './duty.js';
import { derivedSection301, explicitSection301, section301Charge, section301Headings, type Section301 } from './measures/section301-china.js';
import { lineKey } from './codes.js';
import { mpfExemption } from './fees.js';
import { countryOf, type Origin, type ResolvedOrigin } from './origins.js';
import { IMPORTS_PROHIBITED, ORIGIN_PROGRAMS, PROGRAM_COUNTRIES, PROGRAMS_ENDED, RUSSIA_COLUMN2_HEADINGS, SECTION_301_HEADINGS } from './policy.js';
import type { Quantity } from './params.js';
import type { DutyRate } from './rates.js';
import type { Schedule, TariffLine } from './schedule.js';
import { headingsApart } from './statistical-suffix.js';
import type { CodeHistory } from './revisions.js';
import { declaredLine } from './supplier-codes.js';
import { parseSpecialColumn } from './special-programs.js';
import type { Chapter99, Layer, Plan } from './stacking.js';

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
  /** Why the goods owe no MPF (the note the answer carries), or null when they owe it. */
  mpfExemption: string | null;
  /** Shared between results: never mutated. */
  notes: readonly string[];
  assumptions: readonly string[];
  /** Metals whose content was not given (Section 232 before the annex regime): an upper bound stood in. */
  contentNeeded: readonly string[];
  /** A ten-digit code costed at its 8-digit line, under which chapter 99 lists name ten-digit lines (statistical-suffix.ts). */
  statisticalSuffixNeeded: boolean;
}

/** One query or order line, parsed and validated once (order.ts, parseLine): all that costing reads. */
export interface LineInput {
  /** The code's digits (4 to 10). */
  hts: string;
  /** How the caller named the code (`hts`, `items[3].hts`), for a code not in the schedule. */
  htsParameter: string;
  valueCents: number;
  origin: ResolvedOrigin;
  quantity: Quantity | null;
  /** Caller's explicit Section 301 setting, or null to derive it. */
  s301: string | null;
  date: string;
  claim: Claim;
  facts: ImporterFacts;
  /** The entry the line was declared on (an order item's `entry_number`), or null: groups the refund figures only. */
  entryNumber: string | null;
}

interface AppliedRate {
  basis: RateBasis;
  program: string | null;
  text: string | null;
  rate: DutyRate | null;
  notes: string[];
  /**
   * The symbols claimed that the line grants, for every purpose: its rate, the chapter 99 exemptions
   * and MPF all read these (terms), so a claim refused for the rate is refused for the rest too.
   */
  granted: readonly string[];
}

/**
 * The special-column symbols claimed that goods of this origin may claim on this date: the origin's own
 * under `auto`, none under `none`; of an explicit claim, not a program that has ended (GSP) nor an
 * agreement's program claimed for goods of a country it does not cover (KR for goods of China), each
 * dropped with a note.
 */
export function claimedSymbols(o: ResolvedOrigin, claim: Claim, date: string): { symbols: readonly string[]; notes: string[] } {
  if (claim.kind !== 'program') return { symbols: claim.kind === 'auto' ? (ORIGIN_PROGRAMS[o.origin] ?? []) : [], notes: [] };
  const country = countryOf(o);
  const kept: string[] = [];
  const foreign: string[] = [];
  const notes: string[] = [];
  for (const s of claim.symbols) {
    const ended = PROGRAMS_ENDED.find((p) => p.symbols.includes(s) && date >= p.from && (!p.to || date <= p.to));
    const partners = PROGRAM_COUNTRIES[s];
    if (ended) notes.push(`Program ${s} claimed: ${ended.why}; the general rate applies.`);
    else if (partners && !(country !== null && partners.includes(country))) foreign.push(s);
    else kept.push(s);
  }
  if (foreign.length) notes.push(`Program ${foreign.join('/')} claimed: it covers goods of ${foreign.flatMap((s) => PROGRAM_COUNTRIES[s]).filter((c, i, all) => all.indexOf(c) === i).join(', ')} only, not goods of ${o.country?.name ?? country ?? `origin ${o.origin}`}; the general rate applies.`);
  return { symbols: notes.length ? kept : claim.symbols, notes };
}

/** The rate column that applies to goods of this origin on this line, under the preference claimed (its symbols). */
export function applicableRate(schedule: Schedule, line: TariffLine, origin: Origin, programs: readonly string[]): AppliedRate {
  const r = line.rates;
  if (!r) return { basis: 'general', program: null, text: null, rate: null, notes: [], granted: programs };
  if (origin === 'col2') return { basis: 'column2', program: null, text: r.column2Text || null, rate: r.column2, notes: [], granted: programs };
  const general: AppliedRate = { basis: 'general', program: null, text: r.generalText, rate: r.general, notes: [], granted: programs };
  if (!programs.length) return general;
  for (const symbol of programs) {
    const entry = r.special.find((p) => p.program === symbol);
    if (!entry) continue;
    if (entry.reference !== null) {
      const mexican = origin === 'mx' ? goodsOfMexico(schedule, entry.reference, symbol) : null;
      if (mexican) return { basis: 'special', program: symbol, text: mexican.text, rate: mexican.rate, notes: [mexican.note], granted: programs };
      return { ...general, notes: [`Program ${symbol} on this line is governed by ${entry.reference} (a quota or staged provision of chapter 98/99); the general rate was applied.`] };
    }
    return { basis: 'special', program: symbol, text: entry.rateText, rate: entry.rate, notes: [], granted: programs };
  }
  // A line free to all needs no program: saying the program is not listed would read as the preference being refused.
  if (r.general?.kind === 'free') return general;
  return { ...general, notes: [notListed(programs, line.hts)], granted: [] };
}

/**
 * A claim the line's special column does not list is refused for every purpose: the preference is
 * the program's rate on the lines it lists (HTSUS General Note 3(c)(i), and the program's own note),
 * and the exemptions that follow from a claim (chapter 99 duties, MPF under 19 CFR 24.23(c)) follow
 * from a granted one only.
 */
function notListed(programs: readonly string[], hts: string): string {
  const rules = [...new Set(programs.flatMap((s) => PROGRAM_RULES.find(([symbols]) => symbols.includes(s))?.[1] ?? []))];
  return (
    `Program ${programs.join('/')} is not listed for ${hts}: the claim is refused for every purpose (HTSUS General Note 3(c)(i)${rules.length ? `; ${rules.join('; ')}` : ''}): ` +
    'the general rate applies, and the goods take none of the exemptions a granted claim brings (chapter 99 duties; MPF, 19 CFR 24.23(c)).'
  );
}

/**
 * The rate of goods of Mexico under a USMCA provision of chapter 98 that a line refers to (`See
 * 9823.01.01-9823.01.07 (S+)`): each group of subchapter XXIII opens with "Goods of Mexico or goods of the
 * United States provided for in note 1(a)", Free (S+); the quota lines after it are Canada's. Null when the
 * reference does not open so.
 */
function goodsOfMexico(schedule: Schedule, reference: string, symbol: string): { text: string; rate: DutyRate; note: string } | null {
  const first = /^\d{4}\.\d{2}\.\d{2}/.exec(reference)?.[0];
  const provision = first ? schedule.find(first.replace(/\./g, '')) : undefined;
  if (!provision?.otherColumns || !/^Goods of Mexico\b/.test(provision.description)) return null;
  const entry = parseSpecialColumn(provision.otherColumns.special).programs.find((p) => p.program === symbol && p.rate !== null);
  if (!entry) return null;
  return { text: entry.rateText, rate: entry.rate!, note: `Program ${symbol}: goods of Mexico are provided for in ${first} (${entry.rateText}), the first provision of ${reference}; its quota lines are Canada's.` };
}

/** A line found by queries, with the terms of those queries (see Terms). */
interface Found {
  line: TariffLine;
  /** Said when the line is not the code typed (a heading of one line, an unknown statistical suffix). */
  assumption: string | null;
  terms: Terms[];
  /** Which of a full `terms` list is replaced next. */
  replace: number;
}

/**
 * The lines queries found, by their code's digits (lineKey), each with
 * its terms. Filled by queries, one per Tariff: at most one entry per line and 8-digit code.
 */
export class FoundLines {
  /** By lineKey for 8 and 10 digits, by the digits for a heading or subheading: each code's line is found once. */
  private readonly byKey = new Map<number | string, Found>();
  /** Terms remembered over all lines: past TERMS_HELD, every line forgets its terms (see remember). */
  private held = 0;

  /** `history`: where codes absent from this schedule stood in other revisions (the dated schedule), if known. */
  constructor(
    readonly schedule: Schedule,
    private readonly history?: CodeHistory,
  ) {}

  /** How many terms are remembered now, over all lines. */
  get termsHeld(): number {
    return this.held;
  }

  /** Keeps the terms on the line, within TERMS_PER_LINE a line and TERMS_HELD in all, so memory stays bounded whatever the queries. */
  remember(found: Found, t: Terms): void {
    const list = found.terms;
    if (list.length === TERMS_PER_LINE) {
      list[found.replace] = t;
      found.replace = (found.replace + 1) % TERMS_PER_LINE;
      return;
    }
    if (this.held === TERMS_HELD) {
      for (const f of this.byKey.values()) f.terms.length = f.replace = 0;
      this.held = 0;
    }
    list.push(t);
    this.held++;
  }

  /**
   * The line of a code's digits. A 4- or 6-digit code found (a line standing in for it, said in its
   * assumption) is kept too: only codes the schedule resolves are kept, so the map stays within its size.
   */
  find(digits: string, parameter: string): Found {
    const n = lineKey(digits);
    const key = n < 0 ? digits : n;
    let found = this.byKey.get(key);
    if (!found) {
      const { line, assumption } = declaredLine(this.schedule, digits, parameter, this.history);
      found = { line, assumption, terms: [], replace: 0 };
      this.byKey.set(key, found);
    }
    return found;
  }
}

const SECTION_301 = 'Section 301';

/**
 * The assumptions of a line: those of its code and claim, then the chapter 99 measures'. Shared, not
 * copied, when there are no others; with the claim's alone, one list per plan, as notesOf keeps notes.
 */
function assumptionsOf(t: Terms, code: string | null, suffix: string | null, measures: readonly string[]): readonly string[] {
  const claim = t.claimAssumption;
  if (code === null && suffix === null) {
    if (claim === null) return measures;
    if (t.lastAssumptions?.measures !== measures) t.lastAssumptions = { measures, list: Object.freeze([claim, ...measures]) };
    return t.lastAssumptions.list;
  }
  return [...(code === null ? [] : [code]), ...(suffix === null ? [] : [suffix]), ...(claim === null ? [] : [claim]), ...measures];
}

/** Said when claim=auto costs goods as USMCA goods (the only program with symbol S): their rate, MPF and chapter 99 exemptions follow from it. */
const USMCA_ASSUMED = 'claim not given: costed as USMCA-originating (program S); claim=none costs goods that do not qualify.';

/**
 * "Section 301" is every Section 301 action, not China's alone: China's (on the whole value, as
 * ever), note 52's forced-labor action and Brazil's, each still its own layer in additional_duties.
 */
function section301Cents(layers: readonly Layer[]): number {
  let cents = 0;
  for (let i = 0; i < layers.length; i++) if (layers[i].authority === SECTION_301) cents += Math.round(layers[i].amount * 100); // exact: whole cents
  return cents;
}

export function costLine(lines: FoundLines, chapter99: Chapter99, input: LineInput): LineCost {
  const found = lines.find(input.hts, input.htsParameter);
  const line = found.line;
  const t = termsOf(lines, found, input);
  const applied = t.applied;
  const assessed = assess(applied.rate, input.valueCents, input.quantity);
  const s301 = t.s301;
  const stacked = chapter99.stack(
    { line, country: t.country, date: input.date, preference: t.preference, facts: input.facts, valueCents: input.valueCents, dutyCents: assessed.cents, baseFree: applied.rate?.kind === 'free' },
    section301Charge(s301, input.valueCents),
    t,
  );
  const suffixNeeded = suffixNeededOf(lines, chapter99, found, input, stacked.layers);
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
    section301Cents: section301Cents(stacked.layers),
    country: t.country,
    layers: stacked.layers,
    section232Cents: stacked.section232Cents,
    additionalCents: stacked.additionalCents,
    mpfExemption: t.mpfExemption,
    notes: notesOf(t, assessed.notes, stacked.notes),
    assumptions: assumptionsOf(t, found.assumption, suffixNeeded, stacked.assumptions),
    contentNeeded: stacked.contentNeeded,
    statisticalSuffixNeeded: suffixNeeded !== null,
  };
}

/**
 * Of a ten-digit code costed at its 8-digit line, the sentence saying which headings its ten-digit lines
 * get otherwise (the same query costed on each); else null.
 */
function suffixNeededOf(lines: FoundLines, chapter99: Chapter99, found: Found, input: LineInput, layers: readonly Layer[]): string | null {
  if (found.assumption === null || input.hts.length !== 10 || found.line.digits.length !== 8) return null;
  const tens = found.line.children.filter((c) => c.digits.length === 10).map((c) => ({ suffix: c.digits.slice(8), layers: costLine(lines, chapter99, { ...input, hts: c.digits }).layers }));
  const apart = headingsApart(layers, tens);
  return apart.length ? `Ten-digit lines under ${found.line.hts} get other chapter 99 headings, so the layers depend on the statistical suffix (${apart.join('; ')}); give the full ten-digit code.` : null;
}

/**
 * What costing a line owes to its origin, claim, entry date and s301 setting alone, not to the
 * value, quantity or facts: worked out once per combination and remembered on the line, so a
 * query adds only the amounts. Shared between queries: never mutated but for the memos `last` and `plan`.
 */
interface Terms {
  origin: ResolvedOrigin;
  claim: Claim;
  date: string;
  s301Setting: string | null;
  preference: readonly string[];
  applied: AppliedRate;
  s301: Section301;
  country: string | null;
  mpfExemption: string | null;
  /** The line's notes before the duty's own (origin, rate applied) and between those and the chapter 99 notes (Section 301). */
  head: readonly string[];
  middle: readonly string[];
  /** The note on chapter 99 headings cited that no measure computes. */
  other: string | null;
  /** The notes last assembled when the duty added none, and the chapter 99 notes they hold. */
  last: { stacked: readonly string[]; notes: readonly string[] } | null;
  /** The claim's assumption (USMCA taken by default), or null. */
  claimAssumption: string | null;
  /** The line's assumptions for the last plan's measures, when the claim's is the only other one. */
  lastAssumptions: { measures: readonly string[]; list: readonly string[] } | null;
  /** The chapter 99 plan of the terms' queries without importer facts (Chapter99.stack keeps it). */
  plan: Plan | null;
}

/** Terms remembered per line (one per origin, claim, date and s301 setting seen), at most; the oldest is replaced. */
const TERMS_PER_LINE = 16;
/** Terms remembered in all (a few kB each with their plan): enough for every line of a day's orders, bounded whatever the dates and origins asked. */
const TERMS_HELD = 20_000;

function termsOf(lines: FoundLines, found: Found, input: LineInput): Terms {
  const o = input.origin;
  const c = input.claim;
  const list = found.terms;
  for (let i = 0; i < list.length; i++) {
    const t = list[i];
    // Origins spelt differently (CN, China) resolve to the same origin and country: the same terms. Claims compare by name: one parsed anew is the same claim.
    if (t.origin.origin === o.origin && t.origin.country === o.country && t.date === input.date && t.s301Setting === input.s301 && (t.claim === c || (t.claim.kind === c.kind && claimName(t.claim) === claimName(c))))
      return t;
  }
  const t = terms(lines.schedule, found.line, input);
  lines.remember(found, t);
  return t;
}

const claimName = (c: Claim): string | null => (c.kind === 'program' ? c.name : null);

function terms(schedule: Schedule, line: TariffLine, input: LineInput): Terms {
  const { origin } = input.origin;
  const claimed = claimedSymbols(input.origin, input.claim, input.date);
  const applied = applicableRate(schedule, line, origin, claimed.symbols);
  // What the line grants of the claim is what every measure and the fees read: one standing for every purpose.
  const preference = applied.granted;
  const head = [...(input.origin.country ? [originNote(input.origin, input.claim.kind === 'program' ? input.claim.symbols : preference, applied)] : []), ...prohibited(input.origin), ...claimed.notes, ...applied.notes];
  const middle: string[] = [];
  let s301: Section301 = derivedSection301([], input.date);
  if (origin === 'china') s301 = input.s301 !== null ? explicitSection301(input.s301) : derivedSection301(section301Headings(line.section301, line.digits, input.date, (h) => schedule.chapter99(h)), input.date);
  else if (input.s301 !== null && input.s301 !== 'none') middle.push('Section 301 applies only to products of China; s301 was ignored.');
  middle.push(...s301.notes);
  const country = countryOf(input.origin);
  return {
    origin: input.origin,
    claim: input.claim,
    date: input.date,
    s301Setting: input.s301,
    preference,
    applied,
    s301,
    country,
    mpfExemption: mpfExemption(country, preference),
    head,
    middle,
    other: otherAdditionalDuties(line),
    last: null,
    claimAssumption: input.claim.kind === 'auto' && preference.includes('S') ? USMCA_ASSUMED : null,
    lastAssumptions: null,
    plan: null,
  };
}

/** The line's notes in their order: origin and rate, the duty's, Section 301, chapter 99, other headings cited. */
function notesOf(t: Terms, duty: readonly string[], stacked: readonly string[]): readonly string[] {
  // Most queries of a line add no note of their own and share its plan's notes: one list serves them all.
  if (duty.length === 0 && t.last?.stacked === stacked) return t.last.notes;
  const notes = [...t.head, ...duty, ...t.middle, ...stacked];
  if (t.other) notes.push(t.other);
  // Frozen: a caller changing one result's notes would change every result sharing them.
  if (duty.length === 0) t.last = { stacked, notes: Object.freeze(notes) };
  return notes;
}

/** The note on goods of an embargoed country (IMPORTS_PROHIBITED), or none. */
function prohibited(o: ResolvedOrigin): string[] {
  const law = o.country ? IMPORTS_PROHIBITED[o.country.iso2] : undefined;
  return law ? [`Imports of goods of ${o.country!.name} are prohibited without a license from the Office of Foreign Assets Control (${law}): the duty shown is what licensed or exempt goods owe.`] : [];
}

/**
 * The rate column the country's goods were costed at, in plain words: `Vietnam (VN): no trade
 * program claimed; general (normal trade relations) rate applied.` Why a program claimed was not
 * granted is the claim's or the rate's own note.
 */
function originNote(o: ResolvedOrigin, claimed: readonly string[], applied: AppliedRate): string {
  const country = `${o.country!.name} (${o.country!.iso2})`;
  if (applied.basis === 'column2') return `${country}: no normal trade relations; column 2 rate applied.`;
  if (applied.basis === 'special') return `${country}: trade program ${applied.program} claimed; its special rate applied.`;
  // A claim on a line free to all is not refused: it still counts for MPF and the chapter 99 exemptions.
  if (claimed.length && applied.rate?.kind === 'free') return `${country}: trade program ${claimed.join('/')} claimed; the general rate is Free for goods of every origin.`;
  return `${country}: ${claimed.length ? `trade program ${claimed.join('/')} claimed but not granted` : 'no trade program claimed'}; general (normal trade relations) rate applied.`;
}

/**
 * The note on chapter 99 provisions the line's footnotes cite that no measure computes: duties of
 * quotas and safeguards, and the import quotas of subchapter IV.
 */
function otherAdditionalDuties(line: TariffLine): string | null {
  const duties = line.chapter99.filter((h) => h.startsWith('9903.') && !SECTION_301_HEADINGS.test(`${h}.`) && !RUSSIA_COLUMN2_HEADINGS.test(`${h}.`));
  const quotas = line.chapter99.filter((h) => h.startsWith('9904.'));
  const notes: string[] = [];
  if (duties.length) notes.push(`This line's footnotes also cite ${duties.join(', ')}: additional duties not included in this estimate.`);
  if (quotas.length) notes.push(`This line's footnotes also cite ${quotas.join(', ')}: import quotas of chapter 99, subchapter IV, not checked in this estimate.`);
  return notes.length ? notes.join(' ') : null;
}
