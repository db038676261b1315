/**
 * Supplier codes: a 6-digit HS subheading, or a foreign 8- or 10-digit code whose first six digits
 * are one, names goods of several U.S. lines. Such a code is costed only when every U.S. line under
 * it carries the same rates (general, special and column 2) and cites the same chapter 99
 * provisions: then the duty is the same whichever is declared, and the result says which line was
 * costed and why. Otherwise it is an error naming the lines to choose from.
 */
import { codeDigits, dotted } from './codes.js';
import { InputError } from './errors.js';
import type { CodeElsewhere, CodeHistory } from './revisions.js';
import { dutyLineOf, linesUnder, type Schedule, type TariffLine } from './schedule.js';


/** The lines the rates are printed on (8-digit lines, or a merged 10-digit line). */
const rateLines = (lines: readonly TariffLine[]) => lines.filter((l) => l.rates?.from === l.hts);

const ratesOf = (l: TariffLine) => `${l.rates!.generalText}|${l.rates!.specialText}|${l.rates!.column2Text}|${l.chapter99.join(' ')}`;

/** Whether the lines carry one set of rates and chapter 99 citations: what costing a supplier's code needs. */
export function sameRates(lines: readonly TariffLine[]): boolean {
  const printed = rateLines(lines);
  return printed.length > 0 && new Set(printed.map(ratesOf)).size === 1;
}

/**
 * The line a typed code is costed on, and what was assumed when it is not the code typed. A
 * supplier's code (a 6-digit HS subheading of several U.S. lines, or a foreign 8- or 10-digit code
 * whose subheading is in the schedule) is costed on the first U.S. line of its subheading when every
 * line there carries the same rates and chapter 99 citations; anything else is the schedule's own
 * rule (dutyLineOf: a subheading of one line, an unknown statistical suffix, candidates to choose
 * from, not found).
 */
export function declaredLine(schedule: Schedule, input: unknown, parameter: string, history?: CodeHistory): { line: TariffLine; assumption: string | null } {
  const digits = codeDigits(input, parameter);
  if (history && digits.length >= 8 && !schedule.find(digits)) {
    const then = history(digits);
    if (then) return datedCode(schedule, digits, then, parameter);
  }
  const foreign = digits.length >= 8 && !schedule.find(digits) && !schedule.find(digits.slice(0, 8));
  if (digits.length === 6 || foreign) {
    const six = digits.slice(0, 6);
    const lines = linesUnder(schedule, six);
    const printed = rateLines(lines);
    if ((foreign || printed.length > 1) && sameRates(lines)) {
      const code = dotted(digits);
      const what = digits.length === 6 ? `${code} is an HS subheading` : `${code} is not a U.S. line`;
      return { line: printed[0], assumption: `Supplier code ${code}: ${what}; costed on ${printed[0].hts}, since every U.S. line of HS ${dotted(six)} carries the same rates and chapter 99 citations.` };
    }
  }
  return dutyLineOf(schedule, input, parameter);
}

const tidy = (s: string) => s.replace(/\s+/g, ' ').trim();

/**
 * A code of another revision than the one in force on the entry date (issue 38): costed on that date's
 * 8-digit line when the rates the code then carried are the rates of that line, saying which code it was
 * read as; otherwise an error naming that date's codes under the same 8 digits (or 6, without them).
 */
function datedCode(schedule: Schedule, digits: string, then: CodeElsewhere, parameter: string): { line: TariffLine; assumption: string } {
  const code = dotted(digits);
  const eight = digits.length === 10 ? schedule.find(digits.slice(0, 8)) : undefined;
  const r = eight?.rates;
  if (eight && r && r.generalText === tidy(then.general) && r.specialText === tidy(then.special) && r.column2Text === tidy(then.column2))
    return {
      line: eight,
      assumption: `Code ${code} is not in ${schedule.revision}, the schedule in force on the entry date; it was a line of ${then.revision} with the rates of ${eight.hts} (general ${r.generalText || 'none'}): read as ${eight.hts}.`,
    };
  const under = eight ? digits.slice(0, 8) : digits.slice(0, 6);
  const codes = linesUnder(schedule, under).map((l) => l.hts);
  throw new InputError(
    'not_found',
    parameter,
    `${parameter} ${code} is not in ${schedule.revision}, the schedule in force on the entry date (it was a line of ${then.revision}${eight ? `, with rates other than ${eight.hts}'s now` : ''}); ${codes.length ? `that schedule's codes under ${dotted(under)}: ${codes.join(', ')}` : `that schedule has no code under ${dotted(under)}`}.`,
    { revision: schedule.revision, codes },
  );
}
