/**
 * How the chapter 99 layers stack, in one place (SPEC section 3; stacking_rules.csv):
 *   1. the base duty (computed by the line), with Russia's note 30 rate in lieu of column 2;
 *   2. one Section 232 product program, in precedence: semiconductors → vehicles and parts →
 *      wood → metals (annex or pre-annex; Russian aluminum prevails within) → pharmaceuticals;
 *   3. Section 301 China, always additive;
 *   4. IEEPA (to 2026-02-23): fentanyl (CA/MX not on 232 goods but copper; on copper goods only the
 *      non-copper content), reciprocal (not on autos, parts, MHD, wood, semiconductors; only the non-metal
 *      content of steel, aluminum and copper goods), Brazil/India (not on 232 goods);
 *   5. Section 122 (2026-02-24 … 07-23): not on the enumerated 232 goods (for pre-annex
 *      derivatives, not on their metal content);
 *   6. Section 301 Brazil and forced labor (note 52): not on the enumerated 232 goods;
 *   7. notes for programs whose lists are not available (Section 338 Canada, UAS).
 * Each measure says whether it applies and at what rate; this module decides which are displaced
 * and on what basis, and computes every amount (rounded once, half away from zero).
 */
import { NO_FACTS } from './claims.js';
import { dollars, mulDivRound, roundFraction } from './money.js';
import { ieepaBrazilIndia } from './measures/ieepa-brazil-india.js';
import { ieepaFentanyl } from './measures/ieepa-fentanyl.js';
import { ieepaReciprocal } from './measures/ieepa-reciprocal.js';
import { countryGroups, exemptCharge, membership, ProductList, RateTable, type Basis, type Charge, type Finding, type Listing, type Measure, type MeasureQuery, type Table, type TableSource } from './measures/measure.js';
import { russia } from './measures/russia.js';
import { section122 } from './measures/section122.js';
import { section232Metals } from './measures/section232-metals.js';
import { section232MetalsPreAnnex } from './measures/section232-metals-pre-annex.js';
import { section232Pharma } from './measures/section232-pharma.js';
import { section232Semiconductors } from './measures/section232-semiconductors.js';
import { section232Vehicles } from './measures/section232-vehicles.js';
import { section232Wood } from './measures/section232-wood.js';
import { section301Brazil } from './measures/section301-brazil.js';
import { section301ForcedLabor } from './measures/section301-forced-labor.js';
import { unlisted } from './measures/unlisted.js';
import { CHAPTER99_FROM, IEEPA_RECIPROCAL_ON_STEEL_ARTICLES_FROM } from './policy.js';
import type { TariffLine } from './schedule.js';

export type { Basis, Listing };

/** The chapter 99 data files, as plain records (the server reads them; see data/ch99); each may be made when first read. */
export interface Chapter99Tables {
  programRates: Table;
  countryGroups: Table;
  stackingRules: Table;
  headingsPostRev10: Table;
  metalsAnnex: Table;
  metalsPreAnnex: Table;
  vehicles: Table;
  woodSemiconductors: Table;
  pharma: Table;
  ieepaReciprocalExempt: Table;
  ieepaDealExemptions: Table;
  ieepaFentanylCarveouts: Table;
  s122Exempt: Table;
  /** Brazil's note 2(x)(iii) and (x)(iv) lists (headings 9903.01.81, 9903.01.90, 9903.01.82): outside 9903.01.77. */
  ieepaBrazilExempt: Table;
  /** Informational materials (50 U.S.C. 1702(b)(3)) by HTS prefix: outside IEEPA, Section 122, notes 50 and 52. */
  informationalMaterials: Table;
  s301BrazilAnnex: Table;
  s301ForcedLaborAnnex: Table;
  /**
   * The codes a table's column names, when the reader knows them without reading its rows (the
   * prebuilt index): a product list that names none of a line's prefixes is then never read.
   */
  codes?(table: TableName, column: string): ReadonlySet<string> | undefined;
}

/** The tables of Chapter99Tables by name. */
export type TableName = Exclude<keyof Chapter99Tables, 'codes'>;

/** One chapter 99 layer applied, as the API reports it. */
export interface Layer {
  /** The program's identifier in program_rates.csv: s232_metals, s232_autos, s301_china, ieepa_reciprocal, s122, ... */
  program: string;
  authority: string;
  /** Null only when the caller set the China Section 301 rate (s301=25/7.5). */
  heading: string | null;
  /** Percent as the schedule prints it: +25 (`add`) or 15 (`total`: base duty and layer together); 0 for `exempt`. */
  rate: number;
  /** `exempt`: the heading the entry declares to claim an exemption from the program (rate 0, amount 0). */
  rate_kind: 'add' | 'total' | 'exempt';
  basis: Basis;
  /** Dollars (an exact number of cents). */
  amount: number;
  /** IEEPA duties, held unlawful: importers are claiming them back. */
  refundable: boolean;
}

/** Shared between queries of the same plan: never mutated. */
export interface Stacked {
  layers: readonly Layer[];
  /** Sums of the layers, cents. */
  additionalCents: number;
  section232Cents: number;
  notes: readonly string[];
  assumptions: readonly string[];
  /** Metals whose content was not given and was bounded (Finding.contentNeeded). */
  contentNeeded: readonly string[];
}

export interface Plan {
  /** Russia's note 30 layer and Section 232: before China Section 301. */
  before: readonly Charge[];
  /** IEEPA, Section 122, Section 301 Brazil and forced labor. */
  after: readonly Charge[];
  notes: readonly string[];
  assumptions: readonly string[];
  contentNeeded: readonly string[];
  /** Every charge falls on the full customs value (a remembered plan: the value is the query's). */
  onFullValue: boolean;
  /** The answer when there is no charge at all (no China Section 301 either): shared, never mutated. */
  empty: Stacked | null;
}

/** Where the caller keeps the plan shared by its queries of one line, country, date, claim and base (see stack). */
export interface PlanMemo {
  plan: Plan | null;
}

type Family = 'semiconductors' | 'vehicles' | 'wood' | 'metals' | 'pharma';

const SECTION_232 = 'Section 232';
/** The Section 232 programs that notes 2(aa)(v), 50 and 52(f) do not enumerate: Russian aluminum (9903.85.67/.68). */
const NOT_ENUMERATED = new Set(['s232_aluminum_russia']);
/** Families whose goods owe no IEEPA reciprocal duty (note 2(v)(vi)-(xvi)); metals owe it on their non-metal content. */
const NO_RECIPROCAL = new Set<Family>(['semiconductors', 'vehicles', 'wood']);
const CONTENT_BASES = new Set<Basis>(['steel_content', 'aluminum_content', 'copper_content']);
/** A charge that owes duty (not the heading of an exemption). */
const owed = (c: Charge): boolean => c.kind !== 'exempt';

export class Chapter99 {
  private readonly s232: { family: Family; measure: Measure }[];
  private readonly russia: Measure;
  private readonly fentanyl: Measure;
  private readonly reciprocal: Measure;
  private readonly brazilIndia: Measure;
  private readonly s122: Measure;
  private readonly later: Measure[];
  private readonly unlisted: Measure;
  private readonly rates: RateTable;
  private readonly informational: ProductList<{ from: string; to: string }>;
  /** Window in which CA/MX IEEPA fentanyl takes precedence over steel and aluminum 232 (EO 14289). */
  private readonly fentanylFirst: { from: string; to: string };
  /** What an answer assumes when it declares a heading the research could only infer (program_rates.csv, confidence low). */
  private readonly inferred: ReadonlyMap<string, string>;

  /**
   * The product lists are taken as they are read (`list('s301BrazilAnnex')`): a list is read when a
   * query first reaches a prefix it names, so tables read on demand (server/data/tariff-index.ts)
   * that no query needs, such as Brazil's annex for goods of China, are never made.
   */
  constructor(t: Chapter99Tables) {
    /** A product list's table, read when a line first reaches a prefix it names. */
    const list = (table: TableName): TableSource => ({ rows: () => t[table], codes: (column) => t.codes?.(table, column) });
    const groups = countryGroups(t.countryGroups);
    const rates = (this.rates = new RateTable(t.programRates, groups));
    this.s232 = [
      { family: 'semiconductors', measure: section232Semiconductors(rates, t.woodSemiconductors) },
      { family: 'vehicles', measure: section232Vehicles(rates, list('vehicles')) },
      { family: 'wood', measure: section232Wood(rates, t.woodSemiconductors) },
      { family: 'metals', measure: section232Metals(rates, list('metalsAnnex')) },
      { family: 'metals', measure: section232MetalsPreAnnex(rates, list('metalsPreAnnex')) },
      { family: 'pharma', measure: section232Pharma(rates, t.pharma) },
    ];
    this.russia = russia(rates);
    this.fentanyl = ieepaFentanyl(rates, list('ieepaFentanylCarveouts'));
    this.reciprocal = ieepaReciprocal(rates, list('ieepaReciprocalExempt'), list('ieepaDealExemptions'), groups);
    this.brazilIndia = ieepaBrazilIndia(rates, list('ieepaReciprocalExempt'), list('ieepaBrazilExempt'));
    this.s122 = section122(rates, list('s122Exempt'));
    this.later = [section301Brazil(rates, list('s301BrazilAnnex')), section301ForcedLabor(rates, list('s301ForcedLaborAnnex'), t.headingsPostRev10, groups)];
    this.unlisted = unlisted(t.headingsPostRev10, rates);
    this.informational = membership(list('informationalMaterials'), 'hts_prefix');
    this.inferred = new Map(
      t.programRates.filter((r) => r.confidence === 'low' && r.heading).map((r) => [r.heading, `${r.heading} is inferred by the research, with no primary text at hand to confirm it: check it before declaring it.`]),
    );
    const rule = t.stackingRules.find((r) => r.when_this_applies === 'IEEPA CA/MX fentanyl' && r.effect_on.startsWith('s232 steel/aluminum'));
    this.fentanylFirst = { from: rule?.from ?? '', to: rule?.to ?? '' };
  }

  /** The chapter 99 programs whose product lists name the line's code, for its record. */
  listings(line: TariffLine): Listing[] {
    return [...this.s232.map((s) => s.measure), this.russia, this.fentanyl, this.reciprocal, this.brazilIndia, this.s122, ...this.later].flatMap((m) => m.listings(line));
  }

  /**
   * The layers owed on top of the base duty; `s301China` is the line's China Section 301 charge.
   * `memo` is the caller's, one per line, country, date, claim and base: the plan is the same for
   * all its queries when no importer fact is given and every charge falls on the full value (the
   * common case), so it is worked out once and kept there; only the amounts are computed per query.
   */
  stack(q: MeasureQuery, s301China: Charge | null, memo: PlanMemo): Stacked {
    if (q.date < CHAPTER99_FROM) return this.layers(q, BEFORE_2025, s301China);
    let plan = q.facts === NO_FACTS ? memo.plan : null;
    if (!plan) {
      plan = this.plan(q);
      const full = (c: Charge) => c.basisCents === q.valueCents;
      if (q.facts === NO_FACTS && plan.before.every(full) && plan.after.every(full)) memo.plan = { ...plan, onFullValue: true };
    }
    if (!s301China && plan.empty) return plan.empty;
    return this.layers(q, plan, s301China);
  }

  /** The charges kept for the query, in stacking order around China Section 301 (which goes between them). */
  private plan(q: MeasureQuery): Plan {
    const notes: string[] = [];
    const assumptions: string[] = [];
    const charges: Charge[] = [];
    // A measure's notes go to `into`: the plan's, or a list said only if the measure's charges are kept.
    const assess = (m: Measure, into = notes): Finding => {
      const f = m.assess(q);
      into.push(...f.notes);
      assumptions.push(...f.assumptions);
      return f;
    };
    const take = (m: Measure): Charge[] => assess(m).charges;
    if (q.country === null) assumptions.push('No origin country given (origin is a program, not a country): only the chapter 99 duties owed by goods of every country are included.');

    charges.push(...take(this.russia));
    let family: Family | null = null;
    let s232: Charge[] = [];
    let contentNeeded: readonly string[] = NO_METALS;
    // The program that covers the good: what it says is said below, unless CA/MX fentanyl displaces it.
    let covering: Finding | null = null;
    for (const s of this.s232) {
      const f = s.measure.assess(q);
      if (f.charges.length || f.covered) {
        covering = f;
        s232 = f.charges;
        family = s.family;
        contentNeeded = f.contentNeeded ?? NO_METALS;
        break;
      }
      notes.push(...f.notes);
      assumptions.push(...f.assumptions);
    }
    // Informational materials owe no IEEPA duty (50 U.S.C. 1702(b)(3)) and, by their headings, no Section 122 nor notes 50 and 52:
    // every layer those programs would add is their informational-materials heading instead (N349155).
    const informational = this.informational.find(q.line, q.date).length > 0;
    if (informational) notes.push(`${q.line.hts} is taken as informational materials (publications, films, posters, photographs, recordings, artworks; 50 U.S.C. 1702(b)(3)): no IEEPA, Section 122 or Section 301 Brazil and forced-labor duty.`);
    const unlessInformational = (m: Measure): Charge[] => {
      if (!informational) return take(m);
      const out: Charge[] = [];
      for (const c of m.assess(q).charges) {
        const e = exemptCharge(this.rates, c.program, c.authority, 'informational', q);
        if (e && !out.some((x) => x.program === e.program)) out.push(e);
      }
      return out;
    };
    // Its notes (the USMCA exemption) are said only if its charges are kept below: goods of Canada and Mexico under Section 232 owe none.
    const fentanylNotes: string[] = [];
    const fentanyl = informational ? unlessInformational(this.fentanyl) : assess(this.fentanyl, fentanylNotes).charges;
    const usMx = q.country === 'CA' || q.country === 'MX';
    // EO 14289: until 2025-06-03, CA/MX fentanyl displaced steel and aluminum 232; afterwards the reverse.
    if (family === 'metals' && usMx && fentanyl.some(owed) && q.date >= this.fentanylFirst.from && q.date <= this.fentanylFirst.to) {
      notes.push('IEEPA fentanyl duties on goods of Canada and Mexico took precedence over Section 232 steel and aluminum (EO 14289).');
      s232 = [];
      family = null;
      // Its content bounds and notes are of no duty charged.
      covering = null;
      contentNeeded = NO_METALS;
    }
    if (covering) {
      notes.push(...covering.notes);
      assumptions.push(...covering.assumptions);
    }
    charges.push(...s232);
    const before = charges.splice(0);

    const metalContent = s232.filter((c) => CONTENT_BASES.has(c.basis)).reduce((s, c) => s + c.basisCents, 0);
    const fullValueMetal = family === 'metals' && s232.some((c) => c.basis === 'full_value');
    // A good covered at no duty (s232 empty) is under an enumerated heading too (9903.94.06 is one of note 33's).
    const enumerated = family !== null && !(s232.length && s232.every((c) => NOT_ENUMERATED.has(c.program)));
    if (family !== null && !enumerated)
      notes.push(`${s232.map((c) => c.heading).join(', ')} is not among the Section 232 headings that notes 2(aa)(v), 50(a) and 52(f) exempt: on a literal reading, Section 122 and Section 301 (notes 50, 52) apply as well.`);
    // The part of the value a 232 metal charge does not cover: what IEEPA reciprocal and Section 122 may still charge.
    const nonMetal = (c: Charge): Charge | null => {
      if (fullValueMetal) return null;
      const rest = Math.max(0, c.basisCents - metalContent);
      return rest ? { ...c, basis: 'non_metal_content', basisCents: rest } : null;
    };

    // Goods under a Section 232 heading declare the exemption heading of each program it displaces (9903.01.33, 9903.03.06, 9903.05.90 ...).
    const exemptUnder232 = (c: Charge): void => {
      const e = exemptCharge(this.rates, c.program, c.authority, 'section232', q);
      if (e && !charges.some((x) => x.program === e.program)) charges.push(e);
    };
    const displaced = (m: Measure): void => m.assess(q).charges.filter(owed).forEach(exemptUnder232);
    /** The charges of a measure that may fall on the non-metal content: what is left of each, or its exemption when nothing is. */
    const onRest = (cs: Charge[], rest: (c: Charge) => Charge | null): void => {
      for (const c of cs) {
        const kept = owed(c) ? rest(c) : c;
        if (kept) charges.push(kept);
        else exemptUnder232(c);
      }
    };

    // A copper article is two entry lines (CSMS #65794272): 9903.78.01 on the copper content, 9903.78.02 on the rest, which alone
    // owes IEEPA fentanyl and reciprocal (Proclamation 10962). No note excludes copper 232 goods from CA/MX fentanyl (stacking_rules.csv).
    const copper = s232.filter((c) => c.program === 's232_copper');
    if (copper.length) {
      const copperCents = copper.reduce((s, c) => s + c.basisCents, 0);
      const line2 = copperCents < q.valueCents ? exemptCharge(this.rates, 's232_copper', SECTION_232, 'non_copper', q) : null;
      if (line2) before.push({ ...line2, basis: 'non_copper_content', basisCents: q.valueCents - copperCents });
      onRest(fentanyl, (c) => (c.basisCents > copperCents ? { ...c, basis: 'non_copper_content', basisCents: c.basisCents - copperCents } : null));
      notes.push(...fentanylNotes);
    } else if (!usMx || family === null) {
      charges.push(...fentanyl);
      notes.push(...fentanylNotes);
    }

    const steelArticle = q.date < IEEPA_RECIPROCAL_ON_STEEL_ARTICLES_FROM && s232.some((c) => c.steelArticle);
    if (!(family && NO_RECIPROCAL.has(family)) && family !== 'pharma' && !steelArticle) onRest(unlessInformational(this.reciprocal), (c) => (family === 'metals' ? nonMetal(c) : c));
    else if (family !== null) displaced(this.reciprocal);
    if (family === null) charges.push(...unlessInformational(this.brazilIndia));
    else displaced(this.brazilIndia);

    if (!enumerated || family === 'metals') onRest(unlessInformational(this.s122), (c) => (!enumerated ? c : nonMetal(c)));
    else displaced(this.s122);
    for (const m of this.later) {
      if (!enumerated) charges.push(...unlessInformational(m));
      else displaced(m);
    }
    take(this.unlisted);
    for (const list of [before, charges])
      for (const c of list) {
        const inferred = c.heading === null ? undefined : this.inferred.get(c.heading);
        if (inferred && !assumptions.includes(inferred)) assumptions.push(inferred);
      }
    // The refund note once per plan: only IEEPA layers are refundable, and China 301 never is.
    const allNotes = [...before, ...charges].some((c) => c.refundable) ? [...notes, REFUND_NOTE] : notes;
    // Frozen: every result of the plan shares the list, so a caller changing one must not change the others.
    Object.freeze(assumptions);
    const empty = before.length || charges.length ? null : { layers: NO_LAYERS, additionalCents: 0, section232Cents: 0, notes, assumptions, contentNeeded };
    return { before, after: charges, notes: allNotes, assumptions, contentNeeded, onFullValue: false, empty };
  }

  /**
   * Amounts of the plan's charges, with China Section 301 between its two halves: `add` on the basis;
   * `total` (and note 30's rate in lieu of column 2) as the top-up over the base duty.
   */
  private layers(q: MeasureQuery, plan: Plan, s301China: Charge | null): Stacked {
    // Sized once: a list grown by push would reserve room for 17 layers on every query.
    const out = { layers: new Array<Layer>(plan.before.length + plan.after.length + (s301China ? 1 : 0)), additionalCents: 0, section232Cents: 0, notes: plan.notes, assumptions: plan.assumptions, contentNeeded: plan.contentNeeded };
    let k = 0;
    for (let i = 0; i < plan.before.length; i++) addLayer(out, k++, q, plan.before[i], plan.onFullValue);
    if (s301China) addLayer(out, k++, q, s301China, plan.onFullValue);
    for (let i = 0; i < plan.after.length; i++) addLayer(out, k++, q, plan.after[i], plan.onFullValue);
    return out;
  }
}

/** Sets a charge's layer at `k` of `out`'s; a top-up over a base duty that could not be computed is said in its assumptions. */
function addLayer(out: { layers: Layer[]; additionalCents: number; section232Cents: number; assumptions: readonly string[] }, k: number, q: MeasureQuery, c: Charge, onFullValue: boolean): void {
  const basisCents = onFullValue ? q.valueCents : c.basisCents;
  const topUp = c.kind === 'total' || c.kind === 'col2_override';
  if (topUp && q.dutyCents === null)
    out.assumptions = [...out.assumptions, `The base duty could not be computed, so ${c.heading} (${c.rate.percent}% total) is charged in full, as if the base duty were 0 (an upper bound).`];
  const cents = c.kind === 'exempt' ? 0 : topUp ? topUpCents(basisCents, c.rate.num, c.rate.den, q.dutyCents ?? 0, q.valueCents) : mulDivRound(basisCents, c.rate.num, c.rate.den);
  // A base rate at or above the total rate is declared under the pair's other heading (program_rates.csv heading_at_or_above).
  const heading = c.headingAtOrAbove && q.dutyCents !== null && baseAtOrAbove(c.rate.num, c.rate.den, q.dutyCents, q.valueCents) ? c.headingAtOrAbove : c.heading;
  out.layers[k] = { program: c.program, authority: c.authority, heading, rate: c.rate.percent, rate_kind: c.kind === 'exempt' ? 'exempt' : topUp ? 'total' : 'add', basis: c.basis, amount: dollars(cents), refundable: c.refundable };
  out.additionalCents += cents;
  if (c.authority === SECTION_232) out.section232Cents += cents;
}

/** Whether the base duty's ad valorem (equivalent) rate, duty ÷ value, is at least num/den (compared exactly). */
const baseAtOrAbove = (num: number, den: number, dutyCents: number, valueCents: number): boolean => BigInt(den) * BigInt(dutyCents) >= BigInt(num) * BigInt(valueCents);

/**
 * A "total" rate's top-up on its basis (SPEC section 0): (rate − the base duty's ad valorem rate) × basis, at
 * least 0, rounded once. The base duty falls on the whole value, so on a part of it (the non-metal content, the
 * non-U.S. content) only that part's share of it counts: num/den × basis − duty × basis / value.
 */
export function topUpCents(basisCents: number, num: number, den: number, dutyCents: number, valueCents: number): number {
  if (basisCents === valueCents) return Math.max(0, mulDivRound(basisCents, num, den) - dutyCents);
  const over = num * valueCents - den * dutyCents;
  const whole = den * valueCents;
  if (Math.max(num * valueCents, den * dutyCents, whole) <= Number.MAX_SAFE_INTEGER) return over <= 0 ? 0 : mulDivRound(basisCents, over, whole);
  // Values near the largest accepted (10^14 cents): the products in BigInt, exactly.
  const exact = BigInt(num) * BigInt(valueCents) - BigInt(den) * BigInt(dutyCents);
  return exact <= 0n ? 0 : Number(roundFraction(BigInt(basisCents) * exact, BigInt(den) * BigInt(valueCents)));
}

const NO_LAYERS: readonly Layer[] = Object.freeze([]);
const NO_METALS: readonly string[] = Object.freeze([]);
/** Entries before the chapter 99 tables begin: China Section 301 alone. */
const BEFORE_2025: Plan = {
  before: [],
  after: [],
  notes: [`Entries before ${CHAPTER99_FROM}: only the base duty and Section 301 China are computed; other chapter 99 duties of that time are not modelled.`],
  assumptions: Object.freeze([]),
  contentNeeded: Object.freeze([]),
  onFullValue: false,
  empty: null,
};
const REFUND_NOTE = 'IEEPA duties (entries 2025-02-04 to 2026-02-23) were held unlawful (Learning Resources v. Trump, 2026); the amounts marked refundable may be recovered.';

