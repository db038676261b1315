/**
 * What the refund check makes of each entry, the same in Excel and Sheets: the entry's facts read from
 * the columns brokers' ACE reports carry (liquidation date and status, entry type, reconciliation and
 * drawback flags, open protest, the IEEPA duty deposited per line, per 9903 column, or on a 9903 row of
 * its own as an entry summary lists it), its channel (shared/refund-channel.ts), its refund (what was
 * deposited where given, else what the service computes, marked), its interest, the CAPE declaration
 * files, and the totals by channel and heading.
 */
import type { OrderLine } from '../shared/order.js';
import { addDays, capeDeclaration, channelTotals, entryChannel, parseLiquidationStatus, refundInterest, type CapeDeclaration, type ChannelTotal, type EntryChannel, type EntryFacts, type Interest } from '../shared/refund-channel.js';
import { REFUND_AFTER_FILING_DAYS } from '../shared/refund-rules.js';
import { addHeadingCents, type HeadingCents } from '../shared/refund.js';
import { amountCents, headerKey, isBlank, money, readAmount, readDate, type DecimalMark } from './order-sheet.js';

/** The claim columns' header names, read like the order's: lower-cased, letters and digits only. */
export const CLAIM_HEADER_NAMES = {
  liquidation_date: ['liquidationdate', 'liqdate', 'dateofliquidation', 'liquidationdt', 'liquidated'],
  liquidation_status: ['liquidationstatus', 'liqstatus', 'liquidationstatuscode'],
  entry_type: ['entrytype', 'entrytypecode'],
  reconciliation: ['reconciliation', 'reconciliationflag', 'recon', 'reconflag', 'reconciliationindicator'],
  drawback: ['drawback', 'drawbackflag', 'drawbackclaim', 'drawbackindicator'],
  open_protest: ['openprotest', 'protest', 'protestopen', 'protestfiled', 'protestnumber'],
  deposited: ['ieepadeposited', 'ieepadutydeposited', 'ieepaduty', 'ieepadutypaid', 'ieepapaid', 'ieepaamount', 'ieepadutyamount'],
  summary_date: ['entrysummarydate', 'summarydate', 'esdate', 'entrysumdate'],
} as const;
type ClaimColumn = keyof typeof CLAIM_HEADER_NAMES;

/** A 9903 number as a header or code cell writes it (`9903.01.24`, `99030124`). */
const HEADING = /^9903\.?(\d\d)\.?(\d\d)$/;
export const headingOf = (c: unknown): string | null => {
  const m = HEADING.exec(String(c ?? '').trim());
  return m ? `9903.${m[1]}.${m[2]}` : null;
};
/** IEEPA's headings: 9903.01 (fentanyl, reciprocal, Brazil, India) and 9903.02 (reciprocal by country). */
export const isIeepaHeading = (h: string): boolean => h.startsWith('9903.01.') || h.startsWith('9903.02.');

export interface ClaimColumns {
  cols: Partial<Record<ClaimColumn, number>>;
  /** Columns headed by a 9903 number: the IEEPA duty deposited under it. */
  headings: { col: number; heading: string }[];
}

export function claimColumns(header: readonly unknown[]): ClaimColumns {
  const names = header.map(headerKey);
  const cols: Partial<Record<ClaimColumn, number>> = {};
  for (const col of Object.keys(CLAIM_HEADER_NAMES) as ClaimColumn[]) {
    const i = names.findIndex((n) => (CLAIM_HEADER_NAMES[col] as readonly string[]).includes(n));
    if (i >= 0) cols[col] = i;
  }
  const headings = header.flatMap((h, col) => {
    const heading = headingOf(h);
    return heading && isIeepaHeading(heading) ? [{ col, heading }] : [];
  });
  return { cols, headings };
}

const NO = new Set(['', 'n', 'no', 'false', '0', 'none', '-']);
/** A flag cell: blank, N, No, FALSE, 0 are no; anything else (Y, X, TRUE, a protest number) yes. */
const flag = (c: unknown): boolean => (typeof c === 'boolean' ? c : typeof c === 'number' ? c !== 0 : !NO.has(String(c ?? '').trim().toLowerCase()));

/** What a row says of its entry: the facts, the IEEPA duty deposited by heading ('' when the heading is not named). */
export interface ClaimCells {
  facts: Omit<EntryFacts, 'entryDate'>;
  summaryDate?: string;
  deposited: HeadingCents | null;
}

/** Reads a row's claim cells; a string is the row's error. `ownHeading`: the 9903 number of an entry summary's 9903 row, whose amount is `amount`. */
export function readClaimCells(row: readonly unknown[], c: ClaimColumns, mark: DecimalMark, ownHeading: string | null, amount: unknown): ClaimCells | string {
  const cell = (k: ClaimColumn) => (c.cols[k] === undefined ? undefined : row[c.cols[k]!]);
  const facts: ClaimCells['facts'] = {};
  const liq = cell('liquidation_date');
  if (!isBlank(liq)) {
    const d = readDate(liq);
    if (d === null) return `Liquidation date ${JSON.stringify(String(liq).slice(0, 30))} is not a date (write it YYYY-MM-DD or as a date cell)`;
    facts.liquidationDate = d;
  }
  const status = cell('liquidation_status');
  if (!isBlank(status)) {
    const s = parseLiquidationStatus(status);
    if (s === null) return `Liquidation status ${JSON.stringify(String(status).slice(0, 30))} is not one of unliquidated, liquidated, extended, suspended, final`;
    facts.liquidationStatus = s;
  }
  const type = cell('entry_type');
  if (!isBlank(type)) {
    const t = String(type).trim().replace(/^(\d\d?)\b.*/, '$1');
    if (!/^\d\d?$/.test(t)) return `Entry type ${JSON.stringify(String(type).slice(0, 30))} is not CBP's two-digit entry type (01, 11, 08…)`;
    facts.entryType = t.padStart(2, '0');
  }
  for (const k of ['reconciliation', 'drawback', 'open_protest'] as const) if (!isBlank(cell(k)) && flag(cell(k))) facts[k === 'open_protest' ? 'openProtest' : k] = true;
  let summaryDate: string | undefined;
  const sd = cell('summary_date');
  if (!isBlank(sd)) {
    const d = readDate(sd);
    if (d === null) return `Entry summary date ${JSON.stringify(String(sd).slice(0, 30))} is not a date (write it YYYY-MM-DD or as a date cell)`;
    summaryDate = d;
  }
  let deposited: HeadingCents | null = null;
  const add = (heading: string, v: unknown, name: string): string | null => {
    if (isBlank(v)) return null;
    const a = readAmount(v, mark, name);
    if (typeof a === 'string') return a;
    const cents = amountCents(a);
    if (cents === null) return `${name} has more digits than can be read exactly`;
    addHeadingCents((deposited ??= new Map()), heading, cents);
    return null;
  };
  const errors = [
    ownHeading ? add(ownHeading, amount, `${ownHeading} duty`) : add('', cell('deposited'), 'IEEPA deposited'),
    ...c.headings.map(({ col, heading }) => add(heading, row[col], heading)),
  ].filter((e): e is string => e !== null);
  if (errors.length) return errors[0];
  return { facts, ...(summaryDate ? { summaryDate } : {}), deposited };
}

/** An entry as the check gathers it from its rows and the API's answers. */
export interface EntryClaim {
  entryNumber: string;
  facts: EntryFacts;
  summaryDate?: string;
  /** The refundable duty the service computes, by heading. */
  computed: HeadingCents;
  /** The IEEPA duty deposited, by heading ('' when not named); null when no row gives it. */
  deposited: HeadingCents | null;
}

/** Adds a row's facts to its entry's (a fact given on any row holds for the entry). */
export function gather(claims: Map<string, EntryClaim>, entryNumber: string, entryDate: string, cells: ClaimCells): EntryClaim {
  let e = claims.get(entryNumber);
  if (!e) claims.set(entryNumber, (e = { entryNumber, facts: { entryDate }, computed: new Map(), deposited: null }));
  Object.assign(e.facts, cells.facts);
  if (cells.summaryDate) e.summaryDate ??= cells.summaryDate;
  if (cells.deposited) for (const [h, c] of cells.deposited) addHeadingCents((e.deposited ??= new Map()), h, c);
  return e;
}

export interface RefundOptions {
  /** The CAPE filing date (default today). */
  filingDate?: string;
  /** When the refund is expected (default the filing date + 90 days). */
  refundDate?: string;
  /** Corporate overpayment rates (the default) or non-corporate. */
  corporate?: boolean;
}

export interface EntryFigures {
  entryNumber: string;
  channel: EntryChannel;
  refundCents: number;
  basis: 'deposited' | 'computed';
  computedCents: number;
  depositedCents: number | null;
  interest: Interest;
  /** Why the entry is not in the CAPE file although its channel is CAPE (bad number, listed twice). */
  refused: string | null;
  /** The refund by heading, as deposited where given, else as computed. */
  headings: HeadingCents;
}

const sum = (m: HeadingCents | null): number => (m ? [...m.values()].reduce((s, c) => s + c, 0) : 0);
export const usd = (cents: number): string => `${cents < 0 ? '-' : ''}$${money(Math.abs(cents) / 100)}`;

/** Whether deposited and computed differ by more than 1% of the deposit. */
const apart = (deposited: number, computed: number): boolean => Math.abs(deposited - computed) * 100 > Math.abs(deposited);

/** Each entry's figures on the filing date, and the CAPE declaration of those for CAPE now. */
export function entryFigures(claims: readonly EntryClaim[], filingDate: string, o: RefundOptions): { entries: EntryFigures[]; cape: CapeDeclaration } {
  const refundDate = o.refundDate ?? addDays(filingDate, REFUND_AFTER_FILING_DAYS);
  const entries = claims.map((e): EntryFigures => {
    const computedCents = sum(e.computed);
    const depositedCents = e.deposited ? sum(e.deposited) : null;
    const basis = depositedCents === null ? 'computed' : 'deposited';
    const refundCents = depositedCents ?? computedCents;
    // The deposit's headings where it names them. A deposit given without one: the computed split when the totals agree,
    // else the computed heading when there is one only.
    const unnamed = e.deposited?.size === 1 && e.deposited.has('');
    const headings = !e.deposited ? e.computed
      : !unnamed ? e.deposited
      : !apart(depositedCents!, computedCents) ? e.computed
      : e.computed.size === 1 ? new Map([[[...e.computed.keys()][0], depositedCents!]])
      : e.deposited;
    const facts = { ...e.facts, ...(refundCents === 0 && e.facts.ieepa === undefined ? { ieepa: false } : {}) };
    return {
      entryNumber: e.entryNumber,
      channel: entryChannel(facts, filingDate),
      refundCents,
      basis,
      computedCents,
      depositedCents,
      interest: refundInterest(refundCents, e.summaryDate ?? e.facts.entryDate, refundDate, o.corporate ?? true),
      refused: null,
      headings,
    };
  });
  const cape = capeDeclaration(entries.map((e) => ({ entryNumber: e.entryNumber, channel: e.channel })), filingDate);
  // An entry for CAPE that is not in a file says why (its number, or listed twice); the others' channel says it.
  entries.forEach((e, i) => e.channel.channel === 'cape' && (e.refused = cape.reasons[i]));
  return { entries, cape };
}

/** An entry's note: its dates, the refund's basis (both figures when they are more than 1% apart), its headings, a refusal. */
export function entryNote(e: EntryFigures, names: ReadonlyMap<string, string>, entryDate: string): string {
  const liq = e.channel.liquidation;
  const parts = [`entered ${entryDate}${liq ? `, ${liq.estimated ? 'liquidation estimated' : 'liquidated'} ${liq.date}` : ', unliquidated'}`];
  if (e.basis === 'computed') parts.push(`refund computed for the entry's date (no IEEPA deposit given)`);
  else if (apart(e.depositedCents!, e.computedCents)) parts.push(`deposited ${usd(e.depositedCents!)}, computed ${usd(e.computedCents)}: more than 1% apart; the refund is what was deposited`);
  else parts.push('refund as deposited');
  const hs = [...e.headings].filter(([, c]) => c).map(([h, c]) => `${h ? (names.get(h) ?? h) : 'IEEPA (no heading given)'} ${usd(c)}`);
  if (hs.length) parts.push(hs.join('; '));
  if (e.refused) parts.push(`not in the CAPE file: ${e.refused}`);
  return parts.join('; ');
}

/** A heading's name from the API's layers: `9903.01.24 China fentanyl 20%` (rates as the entries met them). */
export function headingNames(lines: readonly OrderLine[]): Map<string, string> {
  const parts = new Map<string, Set<string>>();
  const region = typeof Intl !== 'undefined' && 'DisplayNames' in Intl ? new Intl.DisplayNames(['en'], { type: 'region' }) : null;
  for (const l of lines) {
    if ('error' in l) continue;
    const country = l.origin_country ? (region?.of(l.origin_country) ?? l.origin_country) : '';
    for (const d of l.additional_duties) {
      if (!d.refundable || !d.heading) continue;
      const word = PROGRAM_WORDS[d.program] ?? d.program;
      let s = parts.get(d.heading);
      if (!s) parts.set(d.heading, (s = new Set()));
      s.add(`${country ? `${country} ` : ''}${word} ${d.rate}%`);
    }
  }
  return new Map([...parts].map(([h, s]) => [h, `${h} ${[...s].join(' / ')}`]));
}

const PROGRAM_WORDS: Readonly<Record<string, string>> = {
  ieepa_fentanyl: 'fentanyl',
  ieepa_reciprocal: 'reciprocal',
  ieepa_brazil: 'IEEPA (EO 14323)',
  ieepa_india: 'IEEPA (EO 14329)',
};

/** Each channel's totals (shared/refund-channel.ts), of the entries' figures. */
export const entryChannelTotals = (entries: readonly EntryFigures[]): ChannelTotal[] =>
  channelTotals(entries.map((e) => ({ channel: e.channel, refundCents: e.refundCents, interestCents: e.interest.cents })));

/** The refund of the entries by heading, in the schedule's order ('' for a deposit that named none). */
export function refundHeadings(entries: readonly EntryFigures[]): [string, number][] {
  const byHeading = new Map<string, number>();
  for (const e of entries) for (const [h, c] of e.headings) if (c) byHeading.set(h, (byHeading.get(h) ?? 0) + c);
  return [...byHeading].sort(([a], [b]) => a.localeCompare(b));
}

/** Deposited against computed, in words. */
export function basisWords(entries: readonly EntryFigures[]): string {
  const dep = entries.filter((e) => e.basis === 'deposited');
  const comp = entries.filter((e) => e.basis === 'computed' && e.refundCents);
  const differ = dep.filter((e) => apart(e.depositedCents!, e.computedCents));
  const n = (k: number) => `${k} entr${k === 1 ? 'y' : 'ies'}`;
  const parts: string[] = [];
  if (dep.length) parts.push(`${usd(dep.reduce((s, e) => s + e.refundCents, 0))} as deposited (${n(dep.length)})`);
  if (comp.length) parts.push(`${usd(comp.reduce((s, e) => s + e.refundCents, 0))} as computed by the service for the entry dates (${n(comp.length)} without the IEEPA duty deposited: check them against the entry summaries)`);
  if (differ.length) parts.push(`${n(differ.length)} where deposited and computed are more than 1% apart (see their notes)`);
  return parts.length ? `Refund ${parts.join('; ')}.` : 'No IEEPA refund.';
}

/** A bar of `width` blocks for a share of the largest. */
export const bar = (cents: number, largest: number, width = 10): string => {
  const n = largest > 0 ? Math.round((cents / largest) * width) : 0;
  return '█'.repeat(n) + '░'.repeat(width - n);
};
