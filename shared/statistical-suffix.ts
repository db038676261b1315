/**
 * A ten-digit code whose statistical suffix the schedule does not have is costed at its 8-digit line,
 * where rates are set. But a chapter 99 list may name ten-digit lines under that 8-digit line (the
 * Section 301 lists of note 31, metal lists at statistical precision, Brazil's and India's lists):
 * then the layers depend on the suffix, and the answer says `statistical_suffix_needed` (issue 28,
 * What must hold 5).
 */
import type { Layer } from './stacking.js';

/** The chapter 99 layers of the same query on each ten-digit line under the 8-digit line costed. */
export interface TenDigitLayers {
  suffix: string;
  layers: readonly Layer[];
}

/**
 * The headings that tell the ten-digit lines apart from the 8-digit line costed (`own`), each with the
 * suffixes that get it where the 8-digit line does not, or the reverse: `9903.91.01 (s301_china): .25, .91`.
 * Empty when every ten-digit line gets the headings the 8-digit line gets.
 */
export function headingsApart(own: readonly Layer[], tens: readonly TenDigitLayers[]): string[] {
  const headings = (layers: readonly Layer[]) => new Set(layers.map((l) => `${l.heading} (${l.program})`));
  const mine = headings(own);
  const suffixes = new Map<string, string[]>();
  const differ = (heading: string, suffix: string) => suffixes.set(heading, [...(suffixes.get(heading) ?? []), `.${suffix}`]);
  for (const ten of tens) {
    const its = headings(ten.layers);
    for (const h of its) if (!mine.has(h)) differ(h, ten.suffix);
    for (const h of mine) if (!its.has(h)) differ(h, ten.suffix);
  }
  return [...suffixes].map(([heading, list]) => `${heading}: ${list.join(', ')}`);
}
