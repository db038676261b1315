/**
 * The words a search compares: the schedule's descriptions and a user's query are read the same
 * way, so "T-shirts" and "t-shirt", "Men's" and "mens", "knitted" and "knit" meet. Accents and
 * case go, a single letter joined by a hyphen stays one word (T-shirt, X-ray, E-cigarette), the
 * schedule's connecting words (of, other, thereof, nesoi, ...) count for nothing, and every word
 * is reduced to its Porter stem.
 */
import { stemmer } from 'stemmer';

/** Words every description is full of: they tell no line from another. */
const NOISE = new Set(
  'a an and are as at be been by each for from has have in into is it its of on or other others over per such than that the their then there these they this those to under up was were which whether with without not no nesoi thereof therefor therein including include includes etc kind kinds similar like used'.split(' '),
);

/** The words of `text`, stemmed, in order, noise left out. */
export function searchWords(text: string): string[] {
  const folded = text
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/['’`]/g, '')
    .replace(/\b([a-z])-(?=[a-z])/g, '$1');
  const words: string[] = [];
  for (const w of folded.split(/[^a-z0-9]+/)) {
    if (w.length < 2 || NOISE.has(w)) continue;
    words.push(/^\d/.test(w) ? w : stemmer(w));
  }
  return words;
}

/** Whether `run` occurs in `words` as consecutive words. */
export function containsRun(words: readonly string[], run: readonly string[]): boolean {
  if (run.length === 0) return false;
  outer: for (let i = 0; i + run.length <= words.length; i++) {
    for (let k = 0; k < run.length; k++) if (words[i + k] !== run[k]) continue outer;
    return true;
  }
  return false;
}
