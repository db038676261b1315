/**
 * What every chapter 99 measure shares: the query a measure answers (a line, the origin country, the
 * entry date, the claim and the importer's facts), the charge it returns, and the two kinds of table
 * it reads — the dated rate table (program_rates.csv) and product lists keyed by HTS prefix. The
 * tables are built once at load; a query is a few hash lookups.
 */
import { claimed, type ImporterFacts, type ProgramName } from '../claims.js';
import { percentShare, type Share } from '../money.js';
import type { TariffLine } from '../schedule.js';

/** One CSV file as plain records (header → cell), as the server reads it. */
export type Table = readonly Readonly<Record<string, string>>[];
/**
 * A table read when first needed (from the prebuilt index): its rows, and, when the reader knows
 * them without reading the rows, the codes a column names (`listCode` of each cell).
 */
export interface TableSource {
  rows(): Table;
  codes?(column: string): ReadonlySet<string> | undefined;
}
/** A product list's table, or how to read it when the list is first looked up. */
export type ListTable = Table | TableSource;

/**
 * How the schedule words a rate: `add` ("The duty provided in the applicable subheading + x%"),
 * `total` (a bare "x%": column-1 duty plus the additional duty equal x%), `zero` (no additional duty),
 * `col2_override` (a rate in lieu of column 2), `exempt` (a heading the entry declares to claim an
 * exemption from a program: reported as a layer of rate 0).
 */
export type RateKind = 'add' | 'total' | 'zero' | 'col2_override' | 'exempt';

/** Why goods owe a program nothing, as the `exempt:` rows of program_rates.csv name it (SPEC 0.2); `non_copper`: the non-copper content of a copper article (9903.78.02). */
export type ExemptionReason = 'section232' | 'listed' | 'usmca' | 'cafta_dr' | 'informational' | 'non_copper';

/** What the rate is charged on. */
export const BASES = ['full_value', 'steel_content', 'aluminum_content', 'copper_content', 'non_us_content', 'non_metal_content', 'non_copper_content'] as const;
export type Basis = (typeof BASES)[number];

/** One row of program_rates.csv, parsed. */
export interface RateRow {
  program: string;
  /** Exactly one provision (`9903.01.24`); '' for a row of arrangements that no heading names. */
  heading: string;
  /**
   * For a `total` row, the heading declared instead when the base duty's ad valorem (equivalent) rate
   * is at or above the total rate, so the layer adds nothing (9903.02.19 beside 9903.02.20); null otherwise.
   */
  headingAtOrAbove: string | null;
  /** ISO2 codes the row names (groups expanded); null = every country. */
  origins: ReadonlySet<string> | null;
  scope: string;
  /** What the row needs to be true of the goods or the importer (conditions_or_inputs). */
  conditions: string;
  /** The basis as the table words it (`full_value`, `non-US content ...`). */
  basisText: string;
  kind: RateKind;
  rate: Share;
  from: string;
  /** Last entry date covered (inclusive); '' = open. */
  to: string;
  priority: number;
}

export const inWindow = (date: string, from: string, to: string): boolean => (!from || date >= from) && (!to || date <= to);

/** The rows of one program: those for every country, and those naming each country. */
interface ProgramRows {
  all: RateRow[];
  everyCountry: RateRow[];
  byCountry: Map<string, RateRow[]>;
}

/** The rate table, by program and country: a pick looks at a handful of rows. */
export class RateTable {
  private readonly byProgram = new Map<string, ProgramRows>();
  /** The `exempt` rows, apart: a pick of the rates never sees them. */
  private readonly exempt = new Map<string, RateRow[]>();

  constructor(rows: Table, groups: ReadonlyMap<string, ReadonlySet<string>>) {
    for (const r of rows) {
      if (!['add', 'total', 'zero', 'col2_override', 'exempt'].includes(r.rate_kind)) continue;
      const row: RateRow = {
        program: r.program,
        heading: r.heading,
        headingAtOrAbove: r.heading_at_or_above || null,
        origins: originsOf(r.origin, groups),
        scope: r.product_scope,
        conditions: r.conditions_or_inputs ?? '',
        basisText: r.basis ?? '',
        kind: r.rate_kind as RateKind,
        rate: percentShare(r.rate_pct || '0'),
        from: r.valid_from,
        to: r.valid_to,
        priority: Number(r.priority || 0),
      };
      if (row.kind === 'exempt') {
        added(this.exempt, row.program, row);
        continue;
      }
      let p = this.byProgram.get(row.program);
      if (!p) this.byProgram.set(row.program, (p = { all: [], everyCountry: [], byCountry: new Map() }));
      p.all.push(row);
      if (!row.origins) p.everyCountry.push(row);
      else for (const c of row.origins) added(p.byCountry, c, row);
    }
  }

  rows(program: string): readonly RateRow[] {
    return this.byProgram.get(program)?.all ?? [];
  }

  /**
   * The row that governs goods of `country` entered on `date` among `program`'s rows that `fits`:
   * the highest priority among those in their window and naming the country (or every country).
   */
  pick(program: string, country: string | null, date: string, fits: (r: RateRow) => boolean = () => true): RateRow | null {
    const p = this.byProgram.get(program);
    if (!p) return null;
    let best: RateRow | null = null;
    for (const list of [p.everyCountry, (country !== null && p.byCountry.get(country)) || NO_ROWS])
      for (const r of list) if (inWindow(date, r.from, r.to) && (!best || r.priority > best.priority) && fits(r)) best = r;
    return best;
  }

  /** The heading goods of `country` declare on `date` to claim `program`'s exemption for `reason`, if the table has one. */
  exemption(program: string, reason: ExemptionReason, country: string | null, date: string): string | null {
    const scope = `exempt:${reason}`;
    return this.exempt.get(program)?.find((r) => r.scope === scope && (!r.origins || (country !== null && r.origins.has(country))) && inWindow(date, r.from, r.to))?.heading ?? null;
  }
}

const NO_ROWS: RateRow[] = [];

/** `row` added to the rows of `key`. */
function added(rows: Map<string, RateRow[]>, key: string, row: RateRow): void {
  const list = rows.get(key);
  if (list) list.push(row);
  else rows.set(key, [row]);
}

/** `ALL`, `CN`, `CA;MX`, `EU`, `GN3b`, `JP;EU;KR;CH;LI` → the countries named; null for every country. */
function originsOf(origin: string, groups: ReadonlyMap<string, ReadonlySet<string>>): ReadonlySet<string> | null {
  if (origin === 'ALL') return null;
  const set = new Set<string>();
  for (const part of origin.split(';')) for (const c of groups.get(part) ?? [part]) set.add(c);
  return set;
}

/** country_groups.csv: group → its ISO2 members. */
export function countryGroups(rows: Table): Map<string, Set<string>> {
  const groups = new Map<string, Set<string>>();
  for (const r of rows) {
    const g = groups.get(r.group) ?? new Set<string>();
    g.add(r.iso2);
    groups.set(r.group, g);
  }
  return groups;
}

/**
 * A product list: entries keyed by an HTS prefix of 4 to 10 digits (the `column` of its table), each
 * valid over a window of entry dates. The entries matching a line's prefixes are found once per line
 * and remembered. Read and indexed at the first lookup that reaches a prefix it names, and a
 * prefix's entries made when a line first reaches it: a start answers its first queries without
 * reading the lists they do not reach (14,000 entries in all), nor the lists whose codes (the
 * index's, `TableSource.codes`) name none of the line's prefixes, nor making the entries of the
 * lists they do read for other codes (README, Performance).
 */
export class ProductList<T extends { from: string; to: string }> {
  private rowsByPrefix: Map<string, Readonly<Record<string, string>>[]> | null = null;
  /** Entries by prefix, as made; a prefix whose rows make none has an empty list. */
  private readonly byPrefix = new Map<string, T[]>();
  private readonly source: TableSource;
  /** Per line: the entries of each prefix that names it, longest prefix first. */
  private readonly byLine = new WeakMap<TariffLine, T[][]>();

  constructor(
    rows: ListTable,
    private readonly column: string,
    private readonly entry: (r: Readonly<Record<string, string>>) => T | null,
  ) {
    this.source = isTable(rows) ? { rows: () => rows } : rows;
  }

  /** The entries of one prefix (digits only). */
  private entries(prefix: string): T[] | undefined {
    let list = this.byPrefix.get(prefix);
    if (list) return list;
    if (!this.rowsByPrefix) {
      const rowsByPrefix = new Map<string, Readonly<Record<string, string>>[]>();
      for (const r of this.source.rows()) {
        const key = listCode(r[this.column]);
        const same = rowsByPrefix.get(key);
        if (same) same.push(r);
        else rowsByPrefix.set(key, [r]);
      }
      this.rowsByPrefix = rowsByPrefix;
    }
    const rows = this.rowsByPrefix.get(prefix);
    if (!rows) return undefined;
    list = [];
    for (const r of rows) {
      const e = this.entry(r);
      if (e) list.push(e);
    }
    this.byPrefix.set(prefix, list);
    return list;
  }

  private levels(line: TariffLine): T[][] {
    let levels = this.byLine.get(line);
    if (!levels) {
      levels = [];
      const named = this.source.codes?.(this.column);
      for (let n = line.digits.length; n >= 4; n -= 2) {
        const prefix = line.digits.slice(0, n);
        if (named && !named.has(prefix)) continue;
        const list = this.entries(prefix);
        if (list?.length) levels.push(list);
      }
      this.byLine.set(line, levels);
    }
    return levels;
  }

  /** Every entry naming the line's code (by any prefix), whatever its dates: the record of the code. */
  all(line: TariffLine): readonly T[] {
    return this.levels(line).flat();
  }

  /** The entries of the longest prefix of the line's code that the list names and that cover `date`. */
  find(line: TariffLine, date: string): readonly T[] {
    for (const list of this.levels(line)) {
      const valid = list.filter((e) => inWindow(date, e.from, e.to));
      if (valid.length) return valid;
    }
    return NONE;
  }

  /** The entries of every prefix of the line's code that cover `date` (a code on two lists at different levels). */
  findAll(line: TariffLine, date: string): readonly T[] {
    const levels = this.levels(line);
    return levels.length ? levels.flat().filter((e) => inWindow(date, e.from, e.to)) : NONE;
  }
}

const NONE: readonly never[] = Object.freeze([]);
const DIGITS = /^\d+$/;

const isTable = (rows: Table | TableSource): rows is Table => Array.isArray(rows);

/** The columns product lists are keyed by (`ProductList`'s column): the codes a reader may know of a table. */
export const LIST_CODE_COLUMNS = ['hts_prefix', 'hts8'];

/** A list's code cell as the list is keyed: its digits (most cells are digits already). */
export const listCode = (cell: string | undefined): string => (cell === undefined ? '' : DIGITS.test(cell) ? cell : cell.replace(/\D/g, ''));

/** A product list that only says whether a code is on it (an exemption list). */
export const membership = (rows: ListTable, prefixColumn: string): ProductList<{ from: string; to: string; scope: string; heading: string }> =>
  new ProductList(rows, prefixColumn, (r) => ({ from: r.valid_from ?? '', to: r.valid_to ?? '', scope: r.scope ?? r.scope_limitation ?? r.scope_limitation_inferred_from_brazil_annex ?? '', heading: r.heading ?? '' }));

/** A product list of the chapter 99 programs (hts_prefix, program, validity, remarks). */
export interface ListedProduct {
  program: string;
  remarks: string;
  from: string;
  to: string;
}

export const programList = (rows: ListTable): ProductList<ListedProduct> =>
  new ProductList(rows, 'hts_prefix', (r) => ({ program: r.program, remarks: r.remarks ?? '', from: r.valid_from, to: r.valid_to }));

/** The product list a rate row is scoped to (`program=s232_upholstered_wood_furniture`, `s232_autos_UK_quota`), if any. */
export const listOfRow = (row: RateRow): string | null => /program=(s232_\w+)/.exec(row.scope)?.[1] ?? /^(s232_\w+)$/.exec(row.scope)?.[1] ?? null;

/** Rows that stand for a certification or approval the API does not take (note 33(p)-(r) certified parts). */
export const certifiedRow = (row: RateRow): boolean => /certified/i.test(row.scope);

/** Rows of a USMCA route, which hold only for goods claimed under USMCA ("input: USMCA-qualifying"); not a row that denies it ("no USMCA relief": buses). */
export const usmcaRow = (row: RateRow): boolean => /^input: USMCA/.test(row.conditions);

/** Everything a measure needs to decide about one line. */
export interface MeasureQuery {
  line: TariffLine;
  /** ISO2 of the origin country; null when the caller gave only an origin program (`mfn`, `col2`). */
  country: string | null;
  date: string;
  /** Special-column symbols claimed (the origin's own under claim=auto; none under claim=none). */
  preference: readonly string[];
  facts: ImporterFacts;
  valueCents: number;
  /** The base (column 1 or 2) duty actually applied; null when it could not be computed. */
  dutyCents: number | null;
  /** Whether the base rate applied is Free (CAFTA-DR duty-free textiles). */
  baseFree: boolean;
}

/** One chapter 99 duty a measure finds applicable, before stacking decides on it. */
export interface Charge {
  program: string;
  authority: string;
  /** Null only when the caller set the China Section 301 rate (s301=25/7.5). */
  heading: string | null;
  /** A `total` charge's heading when the base rate is at or above the total rate (RateRow.headingAtOrAbove). */
  headingAtOrAbove?: string;
  kind: RateKind;
  rate: Share;
  basis: Basis;
  /** The amount the rate is charged on, cents. */
  basisCents: number;
  /** IEEPA duties, held unlawful: importers are claiming them back. */
  refundable: boolean;
  /** A steel article of note 16(b) itself (9903.81.87/.88), not a derivative: stacking.ts exempts it from IEEPA reciprocal for a time. */
  steelArticle?: true;
}

const NO_RATE = percentShare('0');

/**
 * The layer of rate 0 that claims `program`'s exemption for `reason` under its heading (9903.01.33 for
 * Section 232 goods outside the reciprocal duty); null when the table names no heading for it.
 */
export function exemptCharge(rates: RateTable, program: string, authority: string, reason: ExemptionReason, q: MeasureQuery, heading = rates.exemption(program, reason, q.country, q.date)): Charge | null {
  return heading ? { program, authority, heading, kind: 'exempt', rate: NO_RATE, basis: 'full_value', basisCents: q.valueCents, refundable: false } : null;
}

/** A finding of no duty: the exemption's layer, if it has a heading, and the notes. */
export const exemptFinding = (charge: Charge | null, notes: string[] = [], assumptions: string[] = []): Finding => finding(charge ? [charge] : [], notes, assumptions);

/** The charge a rate row makes on `basisCents`. */
export const chargeOf = (row: RateRow, authority: string, basisCents: number, basis: Basis = 'full_value', refundable = false): Charge => ({
  program: row.program,
  authority,
  heading: row.heading,
  ...(row.headingAtOrAbove ? { headingAtOrAbove: row.headingAtOrAbove } : {}),
  kind: row.kind,
  rate: row.rate,
  basis,
  basisCents,
  refundable,
});

export interface Finding {
  charges: Charge[];
  notes: string[];
  /** Sentences saying which default stood in for a fact the caller did not give. */
  assumptions: string[];
  /** Metals whose content the caller did not give, so an upper bound stood in for it (the answer's `content_needed`). */
  contentNeeded?: readonly ('steel' | 'aluminum' | 'copper')[];
  /**
   * The good is under this program though it owes nothing (a USMCA-qualifying auto part, 9903.94.06):
   * the programs it displaces stay displaced (stacking.ts).
   */
  covered?: true;
}

export const NOTHING: Finding = Object.freeze({ charges: [], notes: [], assumptions: [] }) as Finding;

export const finding = (charges: Charge[], notes: string[] = [], assumptions: string[] = []): Finding => ({ charges, notes, assumptions });

/** A program that covers the good at no duty (see Finding.covered). */
export const coveredAtNoDuty = (notes: string[], assumptions: string[]): Finding => ({ charges: [], notes, assumptions, covered: true });

/** A measure: one object answering whether it applies to this line, country, date and facts, and at what rate. */
export interface Measure {
  /** The authority, as the law names it (Section 232, Section 301, IEEPA, Section 122, ...). */
  authority: string;
  assess(q: MeasureQuery): Finding;
  /** The product lists of the measure that name the line's code (GET /hts/{code}). */
  listings(line: TariffLine): Listing[];
}

/** A chapter 99 program whose product scope names a code: which list (annex tier, note), heading and dates. */
export interface Listing {
  program: string;
  list: string;
  heading: string | null;
  /** First entry date covered; null for a list not yet in force with no date (a proposed annex). */
  from: string | null;
  /** Last entry date (inclusive); null when open. */
  to: string | null;
}

export const listing = (program: string, list: string, heading: string | null, e: { from: string; to: string }): Listing => ({ program, list, heading, from: e.from || null, to: e.to || null });

/** The heading of a program's row for every country (the general heading), optionally among rows that fit. */
export const generalHeading = (rates: RateTable, program: string, fits: (r: RateRow) => boolean = () => true): string | null =>
  rates.rows(program).find((r) => !r.origins && r.kind !== 'zero' && fits(r))?.heading ?? null;

/** No product list: nothing to list. */
export const NO_LISTINGS = (): Listing[] => [];

/** Whether the goods are claimed under a named program (usmca, korus, cafta-dr). */
export const claims = (q: MeasureQuery, program: ProgramName): boolean => claimed(q.preference, program);

/** Goods of Canada or Mexico claimed under USMCA: exempt from IEEPA fentanyl (from 2025-03-07), Section 122 and note 52. */
export const usmcaGoods = (q: MeasureQuery): boolean => (q.country === 'CA' || q.country === 'MX') && claims(q, 'usmca');

/** Two-digit chapter of a line. */
export const chapterOf = (q: MeasureQuery): number => Number(q.line.digits.slice(0, 2));

/** Textiles and apparel (section XI, chapters 50-63) claimed under CAFTA-DR and entered duty-free (notes 2(aa), 52(i)). */
export const cafTaDrTextile = (q: MeasureQuery): boolean => claims(q, 'cafta-dr') && q.baseFree && chapterOf(q) >= 50 && chapterOf(q) <= 63;
