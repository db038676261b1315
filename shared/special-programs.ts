/**
 * The special column of rate column 1: groups of `<rate> (<program symbols>)`, e.g.
 * `Free (A+,AU,BH,...) 25% (KR)` or `Free (BH,CL) See 9822.04.25 (AU) See 9823.08.01-9823.08.38 (S+)`.
 * A `See 98xx/99xx` entry sends the program to a quota or staging provision of chapter 98/99.
 */
import { parseRate, tidyRateText, type DutyRate } from './rates.js';

export interface SpecialProgram {
  /** The program symbol as printed (`KR`, `S`, `S+`, `A*`). */
  program: string;
  /** The rate text for this program, as printed (`Free`, `25%`, `See 9822.04.25`). */
  rateText: string;
  /** Parsed rate; null when the program is sent to another provision (`See ...`). */
  rate: DutyRate | null;
  /** The chapter 98/99 provision(s) named by a `See ...` entry. */
  reference: string | null;
}

const GROUP = /(.*?)\(([^()]*)\)/g;
const SYMBOLS = /^[A-Z]{1,2}[+*]?(?:\s*,\s*[A-Z]{1,2}[+*]?)*$/;

/**
 * Parses a special-column cell. Returns the programs and any text the grammar did not account for
 * (`rest`, empty when the cell was read entirely); a cell with no program list has no programs.
 */
export function parseSpecialColumn(raw: string): { programs: SpecialProgram[]; rest: string } {
  const text = tidyRateText(raw);
  const programs: SpecialProgram[] = [];
  let consumed = 0;
  for (const m of text.matchAll(GROUP)) {
    const symbols = m[2].trim();
    if (!SYMBOLS.test(symbols)) break;
    const rateText = m[1].trim();
    const see = /^See (.+)$/.exec(rateText);
    for (const program of symbols.split(',')) {
      programs.push({
        program: program.trim(),
        rateText,
        rate: see ? null : parseRate(rateText),
        reference: see ? see[1] : null,
      });
    }
    consumed = (m.index ?? 0) + m[0].length;
  }
  return { programs, rest: programs.length ? text.slice(consumed).trim() : text };
}
