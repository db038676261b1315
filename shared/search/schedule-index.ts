/**
 * The full-text index of the schedule (MiniSearch, BM25), read the way a broker reads the schedule:
 * every text of the tree (heading, the levels between, the line) is indexed once, as a node, and a
 * tariff line scores the words found along its path: the heading's and the subheading's words count
 * for every line under them, the line's own words most. An "Other" node, which says nothing of
 * itself, carries its siblings' texts (the family of goods it belongs to) at a lower weight. A line
 * that meets more of the query's words ranks above one that meets fewer.
 */
import MiniSearch from 'minisearch';
import type { TariffLine } from '../schedule.js';
import { prepared, tradeTermsOf, type TermPlace, type TradeTerm } from './trade-terms.js';
import { queryWords, searchWords } from './words.js';

/** One text of the tree with the trade terms it names; for "Other", its siblings' texts. */
interface NodeDocument {
  id: number;
  text: string;
  siblings: string;
}

/** A node's place: 0 heading, 1 a level between, 2 a line itself; and the lines under it, as [first, end) runs of positions. */
interface Node {
  level: 0 | 1 | 2;
  runs: number[];
}

/** The index as written by toJSON. */
interface IndexData {
  lines: string[];
  /** 1 for a line whose own text names its goods, 0 for "Other". */
  specific: number[];
  nodes: [number, number[]][];
  index: unknown;
}

const OPTIONS = {
  fields: ['text', 'siblings'],
  idField: 'id',
  // Texts are read into words once (searchWords); MiniSearch's own term processing would lower-case them again.
  tokenize: searchWords,
  processTerm: (term: string) => term,
};

/** Within a node: its own words and the trade terms it names; its siblings' words (an "Other" node's family) count less. */
const FIELD_BOOST = { text: 1, siblings: 0.3 };
/** Along a line's path: the heading, the levels between, the line's own text. */
const LEVEL_WEIGHT = [1, 1, 1.5];
/** A line's score is multiplied by (query words met / query words) to this power. */
const COVERAGE = 2;
/** The answers are picked from the POOL × limit best lines. */
const POOL = 8;
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
  /** Each line's score and the query words it met (bits), kept between searches: a search is synchronous, and allocating them each time was a tenth of its time in garbage collection. */
  private readonly score: Float64Array;
  private readonly met: Uint32Array;
  /** Whether the query met the line's own text. */
  private readonly ownMet: Uint8Array;

  private constructor(
    /** The declared lines' digits, in schedule order: a line is its position here. */
    private readonly lines: readonly string[],
    /** 1 where the line's own text names its goods (see NAMED_UNMET). */
    private readonly specific: Uint8Array,
    private readonly nodes: readonly Node[],
    private readonly index: MiniSearch<NodeDocument>,
  ) {
    this.special = Uint8Array.from(lines, (d) => (SPECIAL.test(d) ? 1 : 0));
    this.score = new Float64Array(lines.length);
    this.met = new Uint32Array(lines.length);
    this.ownMet = new Uint8Array(lines.length);
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
    return new ScheduleIndex(
      declared.map((l) => l.digits),
      // A line whose path is its own text alone (0501.00.00.00 "Human hair, unworked ...") has no text of its own below a heading's.
      Uint8Array.from(declared, (l) => (namesGoods(l.description) && l.fullDescription.includes(' > ') ? 1 : 0)),
      tree.nodes.map((n) => ({ level: n.level, runs: n.runs })),
      index,
    );
  }

  static fromJSON(json: string): ScheduleIndex {
    const data = JSON.parse(json) as IndexData;
    const index = MiniSearch.loadJS<NodeDocument>(data.index as never, OPTIONS);
    return new ScheduleIndex(
      data.lines,
      Uint8Array.from(data.specific),
      data.nodes.map(([level, runs]) => ({ level: level as Node['level'], runs })),
      index,
    );
  }

  toJSON(): IndexData {
    return { lines: this.lines as string[], specific: [...this.specific], nodes: this.nodes.map((n) => [n.level, n.runs]), index: this.index.toJSON() };
  }

  /** The best lines for the words, best first; chapters 98 and 99 only with `specialChapters`. */
  find(query: string, limit: number, specialChapters = false): Found[] {
    // Each word once, at its first (heaviest) weight.
    const weighted = new Map<string, number>();
    for (const { word, weight } of queryWords(query)) if (!weighted.has(word) && weighted.size < 30) weighted.set(word, weight);
    if (weighted.size === 0) return [];
    const words = [...weighted.keys()];
    const weights = [...weighted.values()];
    const { score, met, ownMet, specific } = this;
    score.fill(0);
    met.fill(0);
    ownMet.fill(0);
    const bit = new Map(words.map((w, i) => [w, 1 << i]));
    // The words are read already: searched as they are.
    for (const r of this.index.search(words.join(' '), { boost: FIELD_BOOST, tokenize: (s) => s.split(' '), boostTerm: (_t, i) => weights[i] })) {
      const node = this.nodes[r.id as number];
      const s = r.score * LEVEL_WEIGHT[node.level];
      let mask = 0;
      for (const t of r.queryTerms) mask |= bit.get(t) ?? 0;
      for (let k = 0; k < node.runs.length; k += 2)
        for (let i = node.runs[k]; i < node.runs[k + 1]; i++) {
          score[i] += s;
          met[i] |= mask;
          if (node.level === 2) ownMet[i] = 1;
        }
    }
    for (let i = 0; i < score.length; i++) if (score[i] > 0 && specific[i] === 1 && ownMet[i] === 0) score[i] *= NAMED_UNMET;
    const best = top(score, met, weights, limit * POOL, specialChapters ? null : this.special);
    const found = best.map((i) => ({ digits: this.lines[i], score: ranked(score[i], met[i], weights) }));
    return varied(found, limit);
  }
}

/** `limit` of the found lines (best first), each picked for its score discounted by the answers already picked of its heading and subheading. */
function varied(found: readonly Found[], limit: number): Found[] {
  const value = Float64Array.from(found, (f) => f.score);
  const picked: Found[] = [];
  while (picked.length < Math.min(limit, found.length)) {
    let at = -1;
    for (let k = 0; k < value.length; k++) if (value[k] >= 0 && (at < 0 || value[k] > value[at])) at = k;
    const f = found[at];
    picked.push(f);
    value[at] = -1;
    // Only the lines of its heading count less now.
    for (let k = 0; k < value.length; k++)
      if (value[k] >= 0 && found[k].digits.startsWith(f.digits.slice(0, 4))) value[k] *= found[k].digits.startsWith(f.digits.slice(0, 6)) ? REPEAT_HEADING * REPEAT_SUBHEADING : REPEAT_HEADING;
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
  const best: number[] = [];
  const value: number[] = [];
  for (let i = 0; i < score.length; i++) {
    if (score[i] === 0 || (left !== null && left[i] === 1)) continue;
    const s = ranked(score[i], met[i], weights);
    if (best.length === n && s <= value[n - 1]) continue;
    let at = best.length === n ? n - 1 : best.length;
    for (; at > 0 && value[at - 1] < s; at--) {
      if (at < n) {
        best[at] = best[at - 1];
        value[at] = value[at - 1];
      }
    }
    best[at] = i;
    value[at] = s;
  }
  return best;
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
