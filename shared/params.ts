/**
 * The inputs every caller passes (API query strings, JSON bodies, spreadsheet cells, the CLI),
 * validated in one place. Each error names the parameter and says what was wrong.
 */
import { NAMED, NO_FACTS, type Claim, type FactSource, type ImporterFacts, type PartFor } from './claims.js';
import { invalid } from './errors.js';
import { decimalToCents, parseDecimal, type Decimal } from './money.js';
import { MAX_VALUE_DOLLARS, SECTION_301_SETTINGS } from './policy.js';
import { parseUnit, type Unit } from './units.js';

/**
 * The offending input as a message quotes it: strings cut to 30 characters, lists and objects
 * named, never printed (they may be huge or deeply nested); JSON would print Infinity as null.
 */
export const show = (v: unknown): string => {
  if (typeof v === 'string') return JSON.stringify(v.length > 30 ? `${v.slice(0, 30)}…` : v);
  if (v !== null && typeof v === 'object') return Array.isArray(v) ? 'a list' : 'an object';
  return String(v);
};

/** Longest numeric string read (value, qty and the like): arithmetic never starts on a longer one. */
export const MAX_NUMBER_CHARS = 40;

/**
 * Refuses a name that is not a parameter of `allowed` (nor of `unlisted`, accepted but not
 * advertised, such as the API key), naming it with `prefix` (`items[3].`): a misspelt field is an
 * error, never ignored.
 */
export function checkFields(fields: object, allowed: readonly string[], prefix = '', unlisted: readonly string[] = []): void {
  for (const name in fields)
    if (!allowed.includes(name) && !unlisted.includes(name))
      throw invalid(prefix + name, `Unknown parameter ${show(name)}${prefix ? ` in ${prefix.slice(0, -1)}` : ''}; ${prefix ? 'an item takes' : 'this endpoint takes'} ${allowed.join(', ') || 'no parameters'}`);
}

/** A numeric input not longer than MAX_NUMBER_CHARS, as a decimal; null when it is not one. */
function decimalOf(input: unknown, parameter: string): Decimal | null {
  if (typeof input === 'string' && input.length > MAX_NUMBER_CHARS)
    throw invalid(parameter, `${parameter} must be a number of at most ${MAX_NUMBER_CHARS} characters; got ${input.length}`);
  return typeof input === 'number' || typeof input === 'string' ? parseDecimal(input) : null;
}

/**
 * Cents of plain dollars (`+`, 1 to 12 digits, then at most two decimals: exact in a double as
 * cents), read without a regular expression or a string; -1 when the text is not of that form.
 */
function plainCents(text: string): number {
  const n = text.length;
  let i = text.charCodeAt(0) === 43 ? 1 : 0; // '+'
  const start = i;
  let whole = 0;
  for (let c; i < n && (c = text.charCodeAt(i) - 48) >= 0 && c <= 9; i++) whole = whole * 10 + c;
  const digits = i - start;
  if (digits < 1 || digits > 12) return -1;
  if (i === n) return whole * 100;
  const decimals = n - i - 1;
  if (text.charCodeAt(i) !== 46 || decimals < 1 || decimals > 2) return -1; // '.'
  const d1 = text.charCodeAt(i + 1) - 48;
  const d2 = decimals === 2 ? text.charCodeAt(i + 2) - 48 : 0;
  if (d1 < 0 || d1 > 9 || d2 < 0 || d2 > 9) return -1;
  return whole * 100 + d1 * 10 + d2;
}

/** A customs value in dollars → integer cents. Missing means 0 (no entry: no fees). */
export function parseValue(input: unknown, parameter = 'value'): number {
  if (input === undefined || input === null) return 0;
  // The common case without BigInt; anything else takes the exact decimal path below.
  const plain = typeof input === 'number' ? plainCents(String(input)) : typeof input === 'string' ? plainCents(input.trim()) : -1;
  if (plain >= 0) return plain;
  const d = decimalOf(input, parameter);
  if (!d) {
    // "10,000" is ten thousand to some and ten to others: refused, saying how to write it.
    const comma = typeof input === 'string' && input.includes(',') ? ' (write it without thousands separators and with a decimal point: 10000.50)' : '';
    throw invalid(parameter, `${parameter} must be a number of U.S. dollars, 0 or more; got ${show(input)}${comma}`);
  }
  if (d.units > BigInt(MAX_VALUE_DOLLARS) * 10n ** BigInt(d.scale))
    throw invalid(parameter, `${parameter} must not exceed ${MAX_VALUE_DOLLARS} dollars; got ${show(input)}`);
  return decimalToCents(d);
}

/** `ocean`: whether the goods arrive by vessel (HMF). Accepts 0/1, true/false, yes/no. */
export function parseOcean(input: unknown, parameter = 'ocean'): boolean {
  if (input === undefined || input === null || input === '') return false;
  return parseFlag(input, parameter);
}

/** A yes/no parameter given: 0/1, true/false, yes/no. */
export function parseFlag(input: unknown, parameter: string): boolean {
  if (typeof input === 'boolean') return input;
  if (input === 0 || input === 1) return input === 1;
  if (typeof input === 'string') {
    const s = input.trim().toLowerCase();
    if (['1', 'true', 'yes', 'y'].includes(s)) return true;
    if (['0', 'false', 'no', 'n'].includes(s)) return false;
  }
  throw invalid(parameter, `${parameter} must be 0 or 1 (true or false); got ${show(input)}`);
}

/** `s301`: `25`, `7.5` or `none` sets the rate; missing or `auto` derives it from the schedule. */
export function parseS301(input: unknown, parameter = 's301'): string | null {
  if (input === undefined || input === null || input === '') return null;
  const s = typeof input === 'number' ? String(input) : typeof input === 'string' ? input.trim().toLowerCase().replace(/%$/, '') : '';
  if (s === 'auto') return null;
  if (s === '0') return 'none';
  if (Object.hasOwn(SECTION_301_SETTINGS, s)) return s;
  throw invalid(parameter, `${parameter} must be 25, 7.5, none or auto; got ${show(input)}`);
}

/** `date`: the entry date, YYYY-MM-DD, a real calendar day. */
export function parseDate(input: unknown, today: string, parameter = 'date'): string {
  if (input === undefined || input === null || input === '') return today;
  if (typeof input === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(input)) {
    const d = new Date(`${input}T00:00:00Z`);
    if (!Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === input && input >= '1989-01-01' && input <= '2099-12-31') return input;
  }
  throw invalid(parameter, `${parameter} must be a calendar date YYYY-MM-DD between 1989 and 2099; got ${show(input)}`);
}

export interface Quantity {
  amount: Decimal;
  /** Null: the caller gave no unit, so the rate's own unit is assumed. */
  unit: Unit | null;
}

/** `qty` and `unit`, for specific and compound rates. Both absent: no quantity. */
export function parseQuantity(qty: unknown, unit: unknown, qtyParameter = 'qty', unitParameter = 'unit'): Quantity | null {
  const noQty = qty === undefined || qty === null || qty === '';
  const noUnit = unit === undefined || unit === null || unit === '';
  if (noQty) {
    if (!noUnit) throw invalid(qtyParameter, `${qtyParameter} is required when ${unitParameter} is given`);
    return null;
  }
  const amount = decimalOf(qty, qtyParameter);
  if (!amount || amount.units === 0n) throw invalid(qtyParameter, `${qtyParameter} must be a quantity greater than 0; got ${show(qty)}`);
  if (amount.units > BigInt(MAX_VALUE_DOLLARS) * 10n ** BigInt(amount.scale))
    throw invalid(qtyParameter, `${qtyParameter} must not exceed ${MAX_VALUE_DOLLARS}; got ${show(qty)}`);
  return { amount, unit: noUnit ? null : parseUnit(unit, unitParameter) };
}

const AUTO: Claim = { kind: 'auto' };
const NONE: Claim = { kind: 'none' };
const claims = new Map<string, Claim>();

/** `claim`: auto (default), none, usmca, korus, cafta-dr, or a special-column symbol (A, A+, AU, JO, S, ...). */
export function parseClaim(input: unknown, parameter = 'claim'): Claim {
  if (input === undefined || input === null || input === '') return AUTO;
  if (typeof input !== 'string' || !/^[A-Za-z][A-Za-z-]{0,9}[+*]?$/.test(input.trim()))
    throw invalid(parameter, `${parameter} must be auto, none, usmca, korus, cafta-dr or a special-program symbol such as A, AU or S; got ${show(input)}`);
  const key = input.trim().toLowerCase();
  if (key === 'auto') return AUTO;
  if (key === 'none') return NONE;
  let c = claims.get(key);
  if (!c) {
    c = { kind: 'program', name: key, symbols: (Object.hasOwn(NAMED, key) && NAMED[key]) || [input.trim().toUpperCase()] };
    if (claims.size < 1000) claims.set(key, c);
  }
  return c;
}

const given = (v: unknown): boolean => v !== undefined && v !== null && v !== '';

/**
 * The facts of one query or line. `defaults` (an order's options) stand in for facts the line does
 * not give; `prefix` names the line's parameters in errors (`items[2].`).
 */
export function parseFacts(src: FactSource, valueCents: number, defaults: ImporterFacts = NO_FACTS, prefix = ''): ImporterFacts {
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
  const metals = { steel: content('steel_content', defaults.steelContent), aluminum: content('aluminum_content', defaults.aluminumContent), copper: content('copper_content', defaults.copperContent) };
  // The metal contents are parts of one customs value: together at most that value.
  const named = Object.entries(metals).filter(([, c]) => c !== null);
  const sum = named.reduce((s, [, c]) => s + c!, 0);
  if (sum > valueCents) {
    const params = named.map(([m]) => `${prefix}${m}_content`);
    throw invalid(params.join(', '), `${params.join(' + ')} (${(sum / 100).toFixed(2)}) must not exceed the customs value of ${prefix ? prefix.slice(0, -1) : 'the line'} (${(valueCents / 100).toFixed(2)}): the metal contents are parts of it`);
  }
  return {
    usContent: content('us_content', defaults.usContent),
    steelContent: metals.steel,
    aluminumContent: metals.aluminum,
    copperContent: metals.copper,
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
  throw invalid(parameter, `${parameter} must be passenger or mhd; got ${show(v)}`);
}
