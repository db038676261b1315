/**
 * A rate of duty applied to a value and, for specific and compound rates, a quantity. The amount is
 * summed exactly over the components and rounded once, to the cent.
 */
import { mulDivRound, parseDecimal, roundFraction } from './money.js';
import type { Quantity } from './params.js';
import { isMeasureQualifier, type DutyRate, type SpecificComponent } from './rates.js';

export interface Assessment {
  /** Duty in cents; null when it cannot be computed from what was given. */
  cents: number | null;
  /** Shared when empty: never mutated. */
  notes: readonly string[];
}

const NO_NOTES: readonly string[] = Object.freeze([]);
const FREE: Assessment = Object.freeze({ cents: 0, notes: NO_NOTES });

const FACTORS = new Map<string, { n: bigint; d: bigint }>();
function factor(text: string): { n: bigint; d: bigint } {
  let f = FACTORS.get(text);
  if (!f) {
    const dec = parseDecimal(text)!;
    FACTORS.set(text, (f = { n: dec.units, d: 10n ** BigInt(dec.scale) }));
  }
  return f;
}

export function assess(rate: DutyRate | null, valueCents: number, qty: Quantity | null): Assessment {
  if (!rate) return { cents: null, notes: ['No rate of duty is printed for this line.'] };
  if (rate.kind === 'free') return FREE;
  if (rate.kind === 'text') return { cents: null, notes: [textRateNote(rate.text)] };
  const only = rate.components[0];
  if (rate.components.length === 1 && only.type === 'ad_valorem' && only.qualifier === null)
    return { cents: mulDivRound(valueCents, only.num, only.den), notes: NO_NOTES };
  const inDoubles = assessInDoubles(rate, valueCents, qty);
  if (inDoubles) return inDoubles;

  let sumN = 0n;
  let sumD = 1n;
  const notes: string[] = [];
  for (const c of rate.components) {
    let n: bigint;
    let d: bigint;
    if (c.type === 'ad_valorem') {
      if (c.qualifier !== null)
        return { cents: null, notes: [`The rate "${rate.text}" is assessed ${c.qualifier}, not on the whole value; the duty is not computed.`] };
      n = BigInt(valueCents) * BigInt(c.num);
      d = BigInt(c.den);
    } else {
      const q = specificQuantity(rate, c, qty);
      if ('reason' in q) return { cents: null, notes: [q.reason] };
      n = q.n * BigInt(c.centsNum);
      d = q.d * BigInt(c.centsDen) * BigInt(c.per);
      const note = quantityNote(c, qty!);
      if (note && !notes.includes(note)) notes.push(note);
    }
    sumN = sumN * d + n * sumD;
    sumD *= d;
  }
  return { cents: Number(roundFraction(sumN, sumD)), notes };
}

/** A rate that is another provision's: an ensemble's garments, a part's article, the dearest article of a set, a juice of heading 2009. */
const ANOTHER_PROVISION = /^The rate (?:of duty )?applicable to /;

/** Why a text rate gives no duty, and what to do when the text names where the rate is. */
function textRateNote(text: string): string {
  if (ANOTHER_PROVISION.test(text))
    return `The rate "${text}" is not a formula but that of another provision: cost the goods (each article, where the text says so) under that provision's code; the duty is not computed.`;
  return `The rate "${text}" is not a formula; the duty is not computed.`;
}

/** Below this, sums and the rounding of their quotient are exact in doubles. */
const EXACT_IN_DOUBLES = 2 ** 52;

/**
 * The common case without BigInt: ad valorem on the whole value and amounts per unit with the
 * quantity in the rate's own unit, while the sum stays exact in doubles (a product past 2^53 shows
 * as past the bound). Null otherwise: the BigInt path then computes the duty or says why it cannot.
 */
function assessInDoubles(rate: DutyRate, valueCents: number, qty: Quantity | null): Assessment | null {
  if (!qty || (qty.unit === null && inSeveralUnits(rate))) return null;
  const units = Number(qty.amount.units);
  const scale = 10 ** qty.amount.scale;
  let sumN = 0;
  let sumD = 1;
  let notes: readonly string[] = NO_NOTES;
  for (const c of rate.components) {
    let n: number;
    let d: number;
    if (c.type === 'ad_valorem') {
      if (c.qualifier !== null) return null;
      n = valueCents * c.num;
      d = c.den;
    } else {
      if ((qty.unit !== null && qty.unit !== c.unit) || !isMeasureQualifier(c.qualifier)) return null;
      n = units * c.centsNum;
      d = scale * c.centsDen * c.per;
      const note = quantityNote(c, qty);
      if (note && !notes.includes(note)) notes = [...notes, note];
    }
    sumN = sumN * d + n * sumD;
    sumD *= d;
    if (sumN > EXACT_IN_DOUBLES || sumD > EXACT_IN_DOUBLES) return null;
  }
  return { cents: mulDivRound(sumN, 1, sumD), notes };
}

/** Whether the rate's specific parts are per different units (4.4¢/liter + 31.4¢/pf. liter). */
function inSeveralUnits(rate: DutyRate): boolean {
  let unit: SpecificComponent['unit'] | null = null;
  for (const c of rate.components) {
    if (c.type !== 'specific') continue;
    if (unit !== null && c.unit !== unit) return true;
    unit = c.unit;
  }
  return false;
}

/** What the quantity was taken as when the caller did not say: the rate's unit, its way of measuring. */
function quantityNote(c: SpecificComponent, qty: Quantity): string | null {
  const taken = qty.unit ? '' : `qty taken in ${c.unit.name}, the unit of the rate.`;
  if (!c.qualifier) return taken || null;
  const measured = `qty taken as ${c.qualifier === 'clean' ? 'clean weight' : c.qualifier.replace(/^on /, '')}.`;
  return taken ? `${taken} ${measured}` : measured;
}

/** The quantity in the rate's unit, as an exact fraction n/d, or the reason it cannot be had. */
function specificQuantity(rate: DutyRate, c: SpecificComponent, qty: Quantity | null): { n: bigint; d: bigint } | { reason: string } {
  const per = c.per === 1 ? c.unit.name : `${c.per} ${c.unit.name}`;
  if (!isMeasureQualifier(c.qualifier))
    return { reason: `The rate "${rate.text}" is assessed per ${c.unit.name} ${c.qualifier}; the duty is not computed.` };
  if (!qty) return { reason: `The rate "${rate.text}" is specific: give qty and unit (per ${per}) to compute the duty.` };
  // A bare qty is taken in the rate's unit; a rate in two units (liters and proof liters, kg and articles) needs two quantities.
  if (qty.unit === null && inSeveralUnits(rate))
    return { reason: `The rate "${rate.text}" is assessed on quantities in more than one unit; one qty cannot give them all: the duty is not computed.` };
  const from = qty.unit ?? c.unit;
  if (from.dimension !== c.unit.dimension)
    return { reason: `The rate "${rate.text}" is per ${c.unit.name}; a quantity in ${from.name} cannot be converted to it.` };
  const a = qty.amount;
  const ff = factor(from.factor);
  const ft = factor(c.unit.factor);
  return { n: a.units * ff.n * ft.d, d: 10n ** BigInt(a.scale) * ff.d * ft.n };
}
