/**
 * The grammar of rates of duty as the schedule prints them (general, special and column 2):
 *   Free · 16.5% · 33 1/3% · 1¢/kg · $1.035/kg · 0.9¢ each · $1.34/1000 · 10¢/1,000 pins · 10¢/pack · 8.8¢/kg + 20% ·
 *   10¢/kg on drained weight · $1.50 each + 45% on the case + 35% on the battery
 * and free text (`The rate applicable to ...`, `See ...`, sugar polarity scales). Every string parses
 * either into components or, explicitly, into kind `text`: nothing is guessed.
 */
import { findUnit, type Unit } from './units.js';

/** A share of the customs value: num/den (16.5% is 165/1000). */
export interface AdValoremComponent {
  type: 'ad_valorem';
  num: number;
  den: number;
  /** What the percentage is of when it is not the whole value (`on the case`, `of the fair retail value`). */
  qualifier: string | null;
}

/** An amount per unit of quantity: centsNum/centsDen cents per `per` units. */
export interface SpecificComponent {
  type: 'specific';
  centsNum: number;
  centsDen: number;
  unit: Unit;
  per: number;
  /** How the quantity is measured or what it is of (`on drained weight`, `on lead content`, `over 7`). */
  qualifier: string | null;
}

export type RateComponent = AdValoremComponent | SpecificComponent;

export type RateKind = 'free' | 'ad_valorem' | 'specific' | 'compound' | 'text';

/** One rate of duty as printed in a column of the schedule. */
export interface DutyRate {
  /** The text as printed (white space tidied). */
  text: string;
  kind: RateKind;
  /** Empty for `free` and `text`. */
  components: RateComponent[];
  /** True when any component is an amount per unit (the API's `specific_rate`). */
  specific: boolean;
}

/** Column 1 general rate (normal trade relations). */
export type GeneralRate = DutyRate;
/** Column 2 rate (countries without normal trade relations). */
export type Column2Rate = DutyRate;

/**
 * Qualifiers that only say how the quantity is measured: the caller's quantity is taken to be
 * measured that way. Any other qualifier (a metal content, sugar content, part of the value)
 * needs facts a quantity does not give, so such a rate is not computed.
 */
const MEASURE_QUALIFIERS = new Set([
  'on drained weight',
  'including weight of container',
  'on entire contents of container',
  'on contents and container',
  'clean',
]);

export function isMeasureQualifier(q: string | null): boolean {
  return q === null || MEASURE_QUALIFIERS.has(q);
}

const PERCENT = /^(\d+(?:\.\d+)?|\d+ \d+\/\d+)\s*(?:%|percent\b)\s*(.*)$/;
const AMOUNT = /^(?:\$(\d+(?:\.\d+)?)|(\d+(?:\.\d+)?)\s*¢)\s*(.*)$/;
const QUALIFIER = /^(?:on .+|of .+|including weight of container|over \d+)$/;

export function tidyRateText(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** Parses one rate cell. Returns null for an empty cell (no rate on that line). */
export function parseRate(raw: string): DutyRate | null {
  const text = tidyRateText(raw);
  if (text === '') return null;
  if (/^free\.?$/i.test(text)) return { text, kind: 'free', components: [], specific: false };
  const components: RateComponent[] = [];
  for (const part of text.split(/\s*\+\s*/)) {
    const c = parseComponent(part);
    if (!c) return { text, kind: 'text', components: [], specific: false };
    components.push(c);
  }
  const specific = components.some((c) => c.type === 'specific');
  const kind: RateKind = components.length > 1 ? 'compound' : components[0].type;
  return { text, kind, components, specific };
}

function parseComponent(part: string): RateComponent | null {
  const pct = PERCENT.exec(part);
  if (pct) {
    const qualifier = qualifierOf(pct[2]);
    if (qualifier === undefined) return null;
    const [num, den] = percentFraction(pct[1]);
    return { type: 'ad_valorem', num, den, qualifier };
  }
  const amt = AMOUNT.exec(part);
  if (!amt) return null;
  const [num, den] = decimalFraction(amt[1] ?? amt[2], 1);
  // Dollars are written `$1.035`, cents `1.035¢`.
  const [centsNum, centsDen] = amt[1] !== undefined ? reduce(num * 100, den) : [num, den];
  const rest = amt[3].replace(/\s*\/\s*/, '/').trim();
  let unitText: string;
  let tail: string;
  if (/^each\b/.test(rest)) {
    unitText = 'each';
    tail = rest.slice(4);
  } else if (rest.startsWith('/')) {
    // `thou- sand` keeps the hyphen of a line break in the printed schedule (9608.99.30, column 2).
    const m = /^\/(clean kg|pf\. ?liter|lin\. m|doz\.|prs?\.|1,?000|thou- ?sand|m[23](?=of\b)|[a-z0-9]+)(.*)$/.exec(rest);
    if (!m) return null;
    unitText = m[1].startsWith('thou') ? 'thousand' : m[1];
    tail = m[2];
  } else {
    return null;
  }
  // `$1.34/1000`, `$2/1,000` and `10¢/1,000 pins` are per thousand pieces: the unit is each, `per` 1000.
  const perThousand = /^1,?000$/.test(unitText);
  if (perThousand) tail = tail.replace(/^ pins\b/, '');
  const unit = findUnit(perThousand ? 'each' : unitText);
  if (!unit) return null;
  let qualifier = qualifierOf(tail.replace(/^,\s*/, ''));
  if (qualifier === undefined) return null;
  if (unitText === 'clean kg') qualifier = 'clean';
  return { type: 'specific', centsNum, centsDen, unit, per: perThousand ? 1000 : 1, qualifier };
}

/** '' → null (no qualifier); a recognised qualifier → itself; anything else → undefined (not a rate). */
function qualifierOf(tail: string): string | null | undefined {
  const t = tail.trim();
  if (t === '') return null;
  return QUALIFIER.test(t) ? t : undefined;
}

/** `16.5` → 165/1000 of the value; `33 1/3` → 1/3. */
function percentFraction(text: string): [number, number] {
  const mixed = /^(\d+) (\d+)\/(\d+)$/.exec(text);
  if (mixed) {
    const [w, n, d] = [Number(mixed[1]), Number(mixed[2]), Number(mixed[3])];
    return reduce(w * d + n, d * 100);
  }
  return decimalFraction(text, 100);
}

/** A decimal string divided by `divisor`, as a reduced fraction of integers. */
function decimalFraction(text: string, divisor: number): [number, number] {
  const [whole, frac = ''] = text.split('.');
  return reduce(Number(whole + frac), 10 ** frac.length * divisor);
}

function reduce(n: number, d: number): [number, number] {
  let a = n;
  let b = d;
  while (b) [a, b] = [b, a % b];
  return a === 0 ? [0, 1] : [n / a, d / a];
}
