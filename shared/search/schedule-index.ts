/**
 * The full-text index of the schedule (MiniSearch, BM25), read the way a broker reads the schedule:
 * every text of the tree (heading, the levels between, the line) is indexed once, as a node, and a
 * tariff line scores the words found along its path: the heading's and the subheading's words count
 * for every line under them, the line's own words most. An "Other" node, which says nothing of
 * itself, carries its siblings' texts (the family of goods it belongs to) at a lower weight. A line
 * that meets more of the query's words ranks above one that meets fewer.
 */
import MiniSearch, { type AsPlainObject } from 'minisearch';
import type { TariffLine } from '../schedule.js';
import { prepared, tradeTermsOf, type TermPlace, type TradeTerm } from './trade-terms.js';
import { queryWords, searchWords } from './words.js';

/** One text of the tree with the trade terms it names; for "Other", its siblings' texts. */
interface NodeDocument {
  id: number;
  text: string;
  siblings: string;
}

/**
 * The index as numbers and words, what a file holds (server/data/search-index.ts). The tree's nodes:
 * each one's level (0 heading, 1 a level between, 2 a line itself) and the lines under it, as
 * [first, end) runs of positions: node k's runs are runs[runStart[k]] to runs[runStart[k + 1]].
 * Each field's postings (in the order of FIELDS): for the term numbered k, entries start[k] to
 * start[k + 1] of `node` and `bm25`, the nodes holding it and its BM25 score there, as MiniSearch
 * scores it, worked out when the index is built.
 */
export interface IndexParts {
  /** The declared lines' digits, in schedule order: a line is its position here. */
  lines: string[];
  /** 1 for a line whose own text names its goods, 0 for "Other" (see NAMED_UNMET). */
  specific: Uint8Array;
  level: Uint8Array;
  runStart: Int32Array;
  runs: Int32Array;
  terms: string[];
  fields: { start: Int32Array; node: Int32Array; bm25: Float64Array }[];
}

/** A field's postings as a search reads them, with the field's boost. */
type Postings = IndexParts['fields'][number] & { boost: number };

const FIELDS = ['text', 'siblings'] as const;
const OPTIONS = {
  fields: [...FIELDS],
  idField: 'id',
  // Texts are read into words once (searchWords); MiniSearch's own term processing would lower-case them again.
  tokenize: searchWords,
  processTerm: (term: string) => term,
};

/** Within a node: its own words and the trade terms it names; its siblings' words (an "Other" node's family) count less. */
const FIELD_BOOST = { text: 1, siblings: 0.3 };
/** MiniSearch's BM25 parameters (its defaults): the index is built by MiniSearch and scored as MiniSearch scores it. */
const BM25 = { k: 1.2, b: 0.7, d: 0.5 };
/** Along a line's path: the heading, the levels between, the line's own text. */
const LEVEL_WEIGHT = [1, 1, 1.5];
/** A line's score is multiplied by (query words met / query words) to this power. */
const COVERAGE = 2;
/** The answers are picked from the POOL × limit best lines. */
const POOL = 8;
/** Query words read, at most (a line's words met are bits of a 32-bit mask). */
const MAX_WORDS = 30;
/**
 * The work of one search, at most: postings read plus line scores added (a word found in a heading
 * adds to every line under it). The rarest words are read first, while their work fits: a word that
 * would pass the bound is of those the schedule is full of ("contain", "percent", "weight" are in
 * over 1,500 texts each and add to over 5,000 lines each), the least telling of the query's words;
 * it is left out, not read in part. The rarest word is read whatever its work, so that no query
 * loses all its words: no word of the schedule passes the bound alone (the costliest, "contain",
 * is 11,055). A query of invoice words mostly stays under it (the rulings of bench/search: median
 * 3,465, at most 33,200 unbounded; four of its 159 get another first five bounded, and the figures of
 * `npm run bench:search` are the same). Each search also passes over the 23,304 lines a few times
 * (zeroing, ranking), whatever its words.
 */
export const MAX_WORK = 12_000;

/**
 * Answers are picked best first, but a line counts less for each answer already shown of its
 * heading (× REPEAT_HEADING each time) and of its 6-digit subheading (× REPEAT_SUBHEADING more):
 * ten answers show several headings to choose from, not ten statistical suffixes of one (a listing
 * by code shows them all), yet a heading far ahead of the others still shows more than one line.
 */
const REPEAT_HEADING = 0.5;
const REPEAT_SUBHEADING = 0.3;

/**
 * A line whose own text names its goods ("Exercise cycles") but meets none of the query's words
 * counts this much: of the lines a query finds by their heading's and subheading's words alone,
 * the residual "Other" comes first, as a broker reads a subheading whose named lines do not fit
 * (yoga mat: 9506.91.00.30 "Other", not .10 "Exercise cycles").
 */
const NAMED_UNMET = 0.98;

/** Chapters 98 and 99: special provisions and temporary modifications, searched only when asked. */
const SPECIAL = /^9[89]/;

export interface Found {
  digits: string;
  score: number;
}

export class ScheduleIndex {
  /** Whether the line at a position is of chapter 98 or 99. */
  private readonly special: Uint8Array;
  /**
   * Scratch space kept between searches: a search is synchronous, and allocating it each time was a
   * tenth of its time in garbage collection. Per line: its score, the query words it met (bits),
   * whether the query met its own text. Per node: its score, the words met (bits) and how many, the
   * score of the word being read; and the nodes met, in the order met.
   */
  private readonly score: Float64Array;
  private readonly met: Uint32Array;
  private readonly ownMet: Uint8Array;
  private readonly nodeScore: Float64Array;
  private readonly nodeMet: Uint32Array;
  private readonly nodeWords: Uint8Array;
  private readonly termScore: Float64Array;
  private readonly touched: Int32Array;
  /** Each term's number, and the work of reading it (postings + line scores added). */
  private readonly termIds: Map<string, number>;
  private readonly cost: Float64Array;
  private readonly postings: Postings[];
  /** The work of the last search (postings read + line scores added): at most MAX_WORK, or a single word's. */
  work = 0;

  private constructor(private readonly parts: IndexParts) {
    const { lines, level, runStart, runs, terms, fields } = parts;
    const nodes = level.length;
    this.special = new Uint8Array(lines.length);
    for (let i = 0; i < lines.length; i++) if (SPECIAL.test(lines[i])) this.special[i] = 1;
    this.score = new Float64Array(lines.length);
    this.met = new Uint32Array(lines.length);
    this.ownMet = new Uint8Array(lines.length);
    this.nodeScore = new Float64Array(nodes);
    this.nodeMet = new Uint32Array(nodes);
    this.nodeWords = new Uint8Array(nodes);
    this.termScore = new Float64Array(nodes);
    this.touched = new Int32Array(nodes);
    this.termIds = new Map();
    for (let k = 0; k < terms.length; k++) this.termIds.set(terms[k], k);
    const under = new Int32Array(nodes);
    for (let n = 0; n < nodes; n++) for (let r = runStart[n]; r < runStart[n + 1]; r += 2) under[n] += runs[r + 1] - runs[r];
    this.cost = new Float64Array(terms.length);
    for (const f of fields) for (let k = 0; k < terms.length; k++) for (let p = f.start[k]; p < f.start[k + 1]; p++) this.cost[k] += 1 + under[f.node[p]];
    this.postings = fields.map((f, i) => ({ ...f, boost: FIELD_BOOST[FIELDS[i]] }));
  }

  /** The index of the lines a declaration names (10-digit lines, and 8-digit lines without them) and of every text above them. */
  static build(lines: Iterable<TariffLine>, terms: readonly TradeTerm[]): ScheduleIndex {
    const declared = [...lines].filter((l) => l.digits.length === 10 || (l.digits.length === 8 && l.children.length === 0));
    const tree = new Tree();
    declared.forEach((line, position) => tree.add(line, position));
    const vocabulary = prepared(terms);
    const words = tree.nodes.map((n) => searchWords(named(n.text)));
    // Whether every line under a node is under one of the codes (none above a heading). The lines are in
    // code order, so the node's first and last line under a code hold every line between them under it.
    const inside = (id: number, codes: readonly string[]) => {
      if (id < 0) return false;
      const runs = tree.nodes[id].runs;
      const first = declared[runs[0]].digits;
      const last = declared[runs[runs.length - 1] - 1].digits;
      return codes.some((code) => first.startsWith(code) && last.startsWith(code));
    };
    const place = (id: number): TermPlace => ({
      words: words[id],
      above: tree.pathAbove(id).map((a) => words[a]),
      inside: (codes) => inside(id, codes),
      parentInside: (codes) => inside(tree.nodes[id].parent, codes),
    });
    const index = new MiniSearch<NodeDocument>(OPTIONS);
    index.addAll(
      tree.nodes.map((n, id) => ({
        id,
        text: `${named(n.text)} ${tradeTermsOf(place(id), vocabulary)}`,
        siblings: namesGoods(n.text) ? '' : tree.siblingsOf(id).join('; '),
      })),
    );
    const runStart = [0];
    for (const n of tree.nodes) runStart.push(runStart[runStart.length - 1] + n.runs.length);
    return new ScheduleIndex({
      lines: declared.map((l) => l.digits),
      // A line whose path is its own text alone (0501.00.00.00 "Human hair, unworked ...") has no text of its own below a heading's.
      specific: Uint8Array.from(declared, (l) => (namesGoods(l.description) && l.fullDescription.includes(' > ') ? 1 : 0)),
      level: Uint8Array.from(tree.nodes, (n) => n.level),
      runStart: Int32Array.from(runStart),
      runs: Int32Array.from(tree.nodes.flatMap((n) => n.runs)),
      ...postingsOf(index.toJSON(), tree.nodes.length),
    });
  }

  static fromParts(parts: IndexParts): ScheduleIndex {
    return new ScheduleIndex(parts);
  }

  /** What a file holds of the index. */
  toParts(): IndexParts {
    return this.parts;
  }

  /** The best lines for the words, best first; chapters 98 and 99 only with `specialChapters`. */
  find(query: string, limit: number, specialChapters = false): Found[] {
    // Each word once, at its first (heaviest) weight.
    const weighted = new Map<string, number>();
    for (const { word, weight } of queryWords(query)) if (!weighted.has(word) && weighted.size < MAX_WORDS) weighted.set(word, weight);
    this.work = 0;
    if (weighted.size === 0) return [];
    const words = [...weighted.keys()];
    const weights = [...weighted.values()];
    const { score, met, ownMet, nodeScore, termScore, nodeMet, nodeWords, touched } = this;
    const { specific, level, runStart, runs } = this.parts;
    score.fill(0);
    met.fill(0);
    ownMet.fill(0);
    // The words read: the rarest first while the work fits, then in the query's order (as MiniSearch sums them).
    const known = words.map((w, i) => ({ i, k: this.termIds.get(w) ?? -1 })).filter((t) => t.k >= 0);
    known.sort((a, b) => this.cost[a.k] - this.cost[b.k]);
    let planned = 0;
    const read = known.filter((t, j) => (j === 0 || planned + this.cost[t.k] <= MAX_WORK ? ((planned += this.cost[t.k]), true) : false));
    read.sort((a, b) => a.i - b.i);
    let nodesMet = 0;
    let work = 0;
    for (const { i, k } of read) {
      // A node's score for the word: its text's BM25, then its siblings' (MiniSearch's order of sums).
      for (const f of this.postings) {
        const boost = weights[i] * f.boost;
        for (let p = f.start[k]; p < f.start[k + 1]; p++) termScore[f.node[p]] += boost * f.bm25[p];
        work += f.start[k + 1] - f.start[k];
      }
      for (const f of this.postings)
        for (let p = f.start[k]; p < f.start[k + 1]; p++) {
          const n = f.node[p];
          if (termScore[n] === 0) continue;
          if (nodeMet[n] === 0) touched[nodesMet++] = n;
          nodeScore[n] += termScore[n];
          termScore[n] = 0;
          nodeMet[n] |= 1 << i;
          nodeWords[n]++;
        }
    }
    for (let j = 0; j < nodesMet; j++) {
      const n = touched[j];
      // MiniSearch's score (times the query words the node holds), then the level's weight.
      const s = nodeScore[n] * nodeWords[n] * LEVEL_WEIGHT[level[n]];
      const mask = nodeMet[n];
      const own = level[n] === 2 ? 1 : 0;
      nodeScore[n] = 0;
      nodeMet[n] = 0;
      nodeWords[n] = 0;
      for (let r = runStart[n]; r < runStart[n + 1]; r += 2) {
        work += runs[r + 1] - runs[r];
        for (let i = runs[r]; i < runs[r + 1]; i++) {
          score[i] += s;
          met[i] |= mask;
          ownMet[i] |= own;
        }
      }
    }
    this.work = work;
    for (let i = 0; i < score.length; i++) if (score[i] > 0 && specific[i] === 1 && ownMet[i] === 0) score[i] *= NAMED_UNMET;
    const best = top(score, met, weights, limit * POOL, specialChapters ? null : this.special);
    const found = best.map((i) => ({ digits: this.parts.lines[i], score: ranked(score[i], met[i], weights) }));
    return varied(found, limit);
  }
}

/** MiniSearch's serialized index (its documented toJSON) as postings by field, by node number, each scored as MiniSearch's BM25 scores it. */
function postingsOf(index: AsPlainObject, nodes: number): Pick<IndexParts, 'terms' | 'fields'> {
  const fields = FIELDS.map((name) => {
    const fieldId = index.fieldIds[name];
    const length = new Int32Array(nodes);
    for (const [shortId, lengths] of Object.entries(index.fieldLength)) length[index.documentIds[shortId] as number] = lengths[fieldId];
    const average = index.averageFieldLength[fieldId];
    const start = [0];
    const node: number[] = [];
    const bm25: number[] = [];
    for (const [, byField] of index.index) {
      const postings = Object.entries(byField[fieldId] ?? {});
      // Its idf counts the nodes holding the term in this field.
      const idf = Math.log(1 + (index.documentCount - postings.length + 0.5) / (postings.length + 0.5));
      for (const [shortId, tf] of postings) {
        const n = index.documentIds[shortId] as number;
        node.push(n);
        bm25.push(idf * (BM25.d + (tf * (BM25.k + 1)) / (tf + BM25.k * (1 - BM25.b + (BM25.b * length[n]) / average))));
      }
      start.push(node.length);
    }
    return { start: Int32Array.from(start), node: Int32Array.from(node), bm25: Float64Array.from(bm25) };
  });
  return { terms: index.index.map(([term]) => term), fields };
}

/** `limit` of the found lines (best first), each picked for its score discounted by the answers already picked of its heading and subheading. */
function varied(found: readonly Found[], limit: number): Found[] {
  const value = Float64Array.from(found, (f) => f.score);
  // Each line's heading and subheading as a number: compared for every pair of lines.
  const heading = Int32Array.from(found, (f) => Number(f.digits.slice(0, 4)));
  const subheading = Int32Array.from(found, (f) => Number(f.digits.slice(0, 6)));
  const picked: Found[] = [];
  while (picked.length < Math.min(limit, found.length)) {
    let at = -1;
    for (let k = 0; k < value.length; k++) if (value[k] >= 0 && (at < 0 || value[k] > value[at])) at = k;
    picked.push(found[at]);
    value[at] = -1;
    // Only the lines of its heading count less now.
    for (let k = 0; k < value.length; k++)
      if (value[k] >= 0 && heading[k] === heading[at]) value[k] *= subheading[k] === subheading[at] ? REPEAT_HEADING * REPEAT_SUBHEADING : REPEAT_HEADING;
  }
  return picked;
}

/** Whether a text names goods: "Other" does not, nor a textile category number ("Other (363)"). */
const namesGoods = (text: string): boolean => searchWords(text).some((w) => !/^\d/.test(w));

/**
 * What a text names, without what it leaves out ("domestic appliances ..., other than vacuum
 * cleaners of heading 8508"): an exclusion, up to the next comma, semicolon, colon or bracket,
 * names goods classified elsewhere.
 */
export const named = (text: string): string => text.replace(/\b(other than|excluding|except)\b[^,;:()]*?\b(heading|subheading|chapter)s? \d[^,;:()]*/gi, ' ');

/** A line's score: the words' scores along its path, times the (weighted) share of the query's words it meets, squared. */
function ranked(score: number, met: number, weights: readonly number[]): number {
  let share = 0;
  let all = 0;
  for (let k = 0; k < weights.length; k++) {
    all += weights[k];
    if (met & (1 << k)) share += weights[k];
  }
  return score * (share / all) ** COVERAGE;
}

/** The positions of the `n` best lines, none of those `left` marks, best first (ties in schedule order). */
function top(score: Float64Array, met: Uint32Array, weights: readonly number[], n: number, left: Uint8Array | null): number[] {
  const best = new Int32Array(n);
  const value = new Float64Array(n);
  // The share of the query's words met is the same for every line that met the same words: worked out once.
  const shares = new Map<number, number>();
  let size = 0;
  for (let i = 0; i < score.length; i++) {
    if (score[i] === 0 || (left !== null && left[i] === 1)) continue;
    let share = shares.get(met[i]);
    if (share === undefined) shares.set(met[i], (share = ranked(1, met[i], weights)));
    const s = score[i] * share;
    if (size === n && s <= value[n - 1]) continue;
    // After every line of equal value: ties stay in schedule order.
    let lo = 0;
    let hi = size;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (value[mid] >= s) lo = mid + 1;
      else hi = mid;
    }
    if (size < n) size++;
    best.copyWithin(lo + 1, lo, size - 1);
    value.copyWithin(lo + 1, lo, size - 1);
    best[lo] = i;
    value[lo] = s;
  }
  return Array.from(best.subarray(0, size));
}

/**
 * The tree of texts over the declared lines: a node per distinct path from a heading (text rows
 * without a code are levels too), each with the runs of line positions under it.
 */
class Tree {
  readonly nodes: { text: string; level: 0 | 1 | 2; runs: number[]; parent: number }[] = [];
  private readonly byPath = new Map<string, number>();
  private readonly children = new Map<number, number[]>();

  add(line: TariffLine, position: number): void {
    const levels = line.fullDescription.split(' > ');
    let parent = -1;
    let key = line.digits.slice(0, 4);
    levels.forEach((text, depth) => {
      const last = depth === levels.length - 1;
      key += `\u0000${last ? line.digits : text}`;
      let id = this.byPath.get(key);
      if (id === undefined) {
        id = this.nodes.push({ text: text.replace(/:$/, ''), level: depth === 0 ? 0 : last ? 2 : 1, runs: [], parent }) - 1;
        this.byPath.set(key, id);
        if (!this.children.has(parent)) this.children.set(parent, []);
        this.children.get(parent)!.push(id);
      }
      const runs = this.nodes[id].runs;
      if (runs.length && runs[runs.length - 1] === position) runs[runs.length - 1] = position + 1;
      else runs.push(position, position + 1);
      parent = id;
    });
  }

  /** The nodes above a node, from its parent up to its heading. */
  pathAbove(id: number): number[] {
    const above: number[] = [];
    for (let p = this.nodes[id].parent; p >= 0; p = this.nodes[p].parent) above.push(p);
    return above;
  }

  /** The texts of a node's siblings that say something. */
  siblingsOf(id: number): string[] {
    return (this.children.get(this.nodes[id].parent) ?? []).filter((s) => s !== id).map((s) => this.nodes[s].text);
  }
}
