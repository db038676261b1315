/**
 * Tariff codes: the schedule prints them dotted (`6109.10.00.12`); people type them any way
 * (`6109100012`, `6109.10.00`, ` 6109 10 00 `). Internally a code is its digits.
 */
import { invalid } from './errors.js';

/** Digits of a code, as typed: dots and white space removed; anything else is an error. */
export function codeDigits(input: unknown, parameter = 'hts'): string {
  if (typeof input === 'number' && Number.isInteger(input) && input > 0) input = String(input);
  // An order line whose code cell is blank sends null: the fault is that the code is blank, not its form.
  if (input === null) throw invalid(parameter, `${parameter} is blank: give a tariff code such as 6109.10.00`);
  if (typeof input !== 'string') throw invalid(parameter, `${parameter} must be a tariff code such as 6109.10.00`);
  if (input.length > 40) throw invalid(parameter, `${parameter} is too long to be a tariff code (${input.length} characters)`);
  const digits = withoutSeparators(input);
  if (digits === null) throw invalid(parameter, `${parameter} may contain only digits, dots and spaces: ${JSON.stringify(truncate(input))}`);
  if (digits === '') throw invalid(parameter, `${parameter} is required: a tariff code such as 6109.10.00`);
  if (digits.length > 10 || digits.length % 2 === 1)
    throw invalid(parameter, `${parameter} must have 4, 6, 8 or 10 digits; ${JSON.stringify(truncate(input))} has ${digits.length}`);
  return digits;
}

/**
 * The digits of a code with its dots and white space taken out, the runs of digits between them
 * joined (a code typed as digits alone is returned as it is); null when anything else is in it.
 * A loop rather than a regular expression's replace: every query and order line goes through it.
 */
function withoutSeparators(input: string): string | null {
  let digits = '';
  let from = 0;
  for (let i = 0; i < input.length; i++) {
    const c = input.charCodeAt(i);
    if (c >= 48 && c <= 57) continue;
    if (c !== 46 && !WHITE_SPACE.test(input[i])) return null;
    digits += input.slice(from, i);
    from = i + 1;
  }
  return from === 0 ? input : digits + input.slice(from);
}

const WHITE_SPACE = /\s/;

/**
 * The code of a tariff line typed with digits, dots and spaces only, as a number: its 10 digits, or
 * its 8 digits + 10^10 (so 8- and 10-digit codes never meet); -1 for anything else, which
 * codeDigits then reads or refuses. A query's lookup key, built without a string.
 */
export function lineKey(input: string): number {
  if (input.length > 40) return -1;
  let n = 0;
  let count = 0;
  for (let i = 0; i < input.length; i++) {
    const c = input.charCodeAt(i);
    if (c >= 48 && c <= 57) {
      n = n * 10 + c - 48;
      count++;
    } else if (c !== 46 && c !== 32) return -1;
  }
  return count === 10 ? n : count === 8 ? n + 1e10 : -1;
}

/** `61091000` → `6109.10.00`, `6109100012` → `6109.10.00.12`, `6109` → `6109`. */
export function dotted(digits: string): string {
  const parts = [digits.slice(0, 4)];
  for (let i = 4; i < digits.length; i += 2) parts.push(digits.slice(i, i + 2));
  return parts.join('.');
}

function truncate(s: string): string {
  return s.length > 30 ? `${s.slice(0, 30)}…` : s;
}
