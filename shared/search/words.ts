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
  'a an and are as at be been by each for from has have in into is it its of on or other others over per such than that the their then there these they this those to under up was were which whether with without not no nesoi thereof therefor therein including include includes etc kind kinds similar like used type'.split(' '),
);

/**
 * Words that open what describes the goods rather than names them: a part (with a blade), a use
 * (for bicycle riders), a source (made from milk), a place (in tubes).
 */
const DESCRIBING = new Set(['with', 'for', 'from', 'in', 'into', 'on', 'that', 'which', 'containing', 'having']);

/**
 * Plurals the Porter stemmer leaves apart from their singular (scarves → "scarv", scarf → "scarf";
 * ties → "ti", tie → "tie"): the schedule says knives, scarves, ties and dies, people type knife,
 * scarf, tie and die. Read as the singular on both sides.
 */
const SPLIT_PLURALS: Readonly<Record<string, string>> = {
  knives: 'knife', leaves: 'leaf', loaves: 'loaf', scarves: 'scarf', hooves: 'hoof', shelves: 'shelf', halves: 'half',
  ties: 'tie', dies: 'die', pies: 'pie', mice: 'mouse', teeth: 'tooth', feet: 'foot', geese: 'goose',
};

/** How much a query word counts once a describing word has come before it. */
export const DESCRIBED = 0.4;

/** The words of `text`, stemmed, in order, noise left out. */
export function searchWords(text: string): string[] {
  return queryWords(text).map((w) => w.word);
}

/**
 * The words of a query, each with its weight: 1 for the words that name the goods, DESCRIBED for
 * those after a describing word ("electric coffee grinder with stainless steel blade": a grinder,
 * not steel).
 */
export function queryWords(text: string): { word: string; weight: number }[] {
  const folded = text
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/['’`]/g, '')
    .replace(/\b([a-z])-(?=[a-z])/g, '$1');
  const words: { word: string; weight: number }[] = [];
  let weight = 1;
  for (const w of folded.split(/[^a-z0-9]+/)) {
    if (DESCRIBING.has(w) && words.length) weight = DESCRIBED;
    if (w.length < 2 || NOISE.has(w)) continue;
    words.push({ word: /^\d/.test(w) ? w : stemmer(SPLIT_PLURALS[w] ?? w), weight });
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
