/**
 * Where each entry's IEEPA refund goes, by the rules of shared/refund-rules.ts: CAPE now, a protest by
 * a date, court action by a date once the liquidation is final, or not CAPE (why); the interest a refund
 * earns; and the CAPE declaration files (at most the phase's limit of entry numbers each, checked and
 * without duplicates). Pure functions, shared by the API and the add-ins.
 */
import { checkEntryNumber } from './entry-number.js';
import { IEEPA_REFUND_PERIOD } from './policy.js';
import { CAPE_PHASES, INTEREST_SOURCE, LIQUIDATION_LIMITS, OVERPAYMENT_RATES, REFUND_AFTER_FILING_DAYS, type CapePhase } from './refund-rules.js';

export const LIQUIDATION_STATUSES = ['unliquidated', 'liquidated', 'extended', 'suspended', 'final'] as const;
export type LiquidationStatus = (typeof LIQUIDATION_STATUSES)[number];

const STATUS_WORDS: Readonly<Record<string, LiquidationStatus>> = {
  unliquidated: 'unliquidated', open: 'unliquidated', notliquidated: 'unliquidated', pending: 'unliquidated',
  liquidated: 'liquidated', liq: 'liquidated',
  extended: 'extended', extension: 'extended',
  suspended: 'suspended', suspension: 'suspended',
  final: 'final', finalliquidation: 'final', liquidatedfinal: 'final', finallyliquidated: 'final',
};

/** A liquidation status as ACE reports and brokers' sheets write it (`Liquidated`, `EXTENDED`, `Not liquidated`), or null when unknown. */
export function parseLiquidationStatus(input: unknown): LiquidationStatus | null {
  const key = typeof input === 'string' ? input.toLowerCase().replace(/[^a-z]/g, '') : '';
  return STATUS_WORDS[key] ?? null;
}

/** What is known of an entry; absent facts are taken as the common case (not flagged, not protested). */
export interface EntryFacts {
  entryDate: string;
  liquidationDate?: string;
  liquidationStatus?: LiquidationStatus;
  /** CBP's two-digit entry type (`01`, `11`, `08`…). */
  entryType?: string;
  reconciliation?: boolean;
  drawback?: boolean;
  openProtest?: boolean;
  /** False when the entry declared no IEEPA chapter 99 number (or deposited nothing under one). */
  ieepa?: boolean;
}

export type Channel = 'cape' | 'protest' | 'court' | 'not_cape';

export interface EntryChannel {
  channel: Channel;
  /** `CAPE now`, `Protest by 2026-09-01`, `Final: court action by 2027-06-01`, `Not for CAPE (type 08 …)`. */
  label: string;
  /** The last day to act (protest, court); null for CAPE and for entries not for CAPE. */
  deadline: string | null;
  /** The liquidation date read, or estimated (entry date + 314 days) when none was given. */
  liquidation: { date: string; estimated: boolean } | null;
  /** The rule applied, with its source. */
  rule: string;
}

const DAY = 86_400_000;
export const addDays = (iso: string, days: number): string => new Date(Date.parse(`${iso}T00:00:00Z`) + days * DAY).toISOString().slice(0, 10);
export const daysBetween = (from: string, to: string): number => Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY);
const addYears = (iso: string, years: number): string => `${Number(iso.slice(0, 4)) + years}${iso.slice(4)}`;

/** The CAPE phase in force on a filing date, or null before CAPE opened. */
export function capePhase(filingDate: string): CapePhase | null {
  let found: CapePhase | null = null;
  for (const p of CAPE_PHASES) if (p.from <= filingDate) found = p;
  return found;
}

/** Why an entry is not for CAPE whatever its liquidation, or null. */
function notForCape(e: EntryFacts, phase: CapePhase): string | null {
  const { from, through } = IEEPA_REFUND_PERIOD;
  if (e.entryDate < from || e.entryDate > through) return `entered ${e.entryDate}, outside the IEEPA duties (${from} to ${through})`;
  if (e.ieepa === false) return 'no IEEPA chapter 99 number declared';
  const type = e.entryType?.padStart(2, '0');
  if (type && phase.refusedTypes[type]) return phase.refusedTypes[type];
  if (e.reconciliation) return 'flagged for reconciliation';
  if (e.drawback) return 'on a drawback claim';
  if (e.openProtest) return 'has an open protest: the refund follows the protest';
  return null;
}

/** The entry's channel on the filing date (YYYY-MM-DD). */
export function entryChannel(e: EntryFacts, filingDate: string): EntryChannel {
  const phase = capePhase(filingDate) ?? CAPE_PHASES[0];
  const opened = phase.from <= filingDate;
  const L = LIQUIDATION_LIMITS;
  const liquidation = e.liquidationDate
    ? { date: e.liquidationDate, estimated: false }
    : e.liquidationStatus === 'liquidated' || e.liquidationStatus === 'final' || !e.liquidationStatus
      ? { date: addDays(e.entryDate, L.estimatedLiquidationDays), estimated: true }
      : null;
  const why = notForCape(e, phase);
  if (why) return { channel: 'not_cape', label: `Not for CAPE (${why})`, deadline: null, liquidation, rule: phase.source };
  const cape = (rule: string): EntryChannel => ({ channel: 'cape', label: opened ? 'CAPE now' : `CAPE from ${phase.from}`, deadline: null, liquidation, rule: `${rule}: ${phase.source}` });
  if (e.liquidationStatus === 'extended' || e.liquidationStatus === 'suspended') return cape(`liquidation ${e.liquidationStatus}`);
  if (e.liquidationStatus === 'unliquidated' && !e.liquidationDate) return cape('unliquidated');
  const liq = liquidation!;
  const days = daysBetween(liq.date, filingDate);
  const when = `${liq.estimated ? 'estimated to liquidate' : 'liquidated'} ${liq.date}`;
  if (e.liquidationStatus !== 'final') {
    if (days < 0) return cape(`unliquidated (${when})`);
    if (days <= phase.liquidatedWithinDays) return cape(`${when}, ${days} days before filing (at most ${phase.liquidatedWithinDays})`);
    if (days <= L.protestDays) {
      const deadline = addDays(liq.date, L.protestDays);
      return { channel: 'protest', label: `Protest by ${deadline}`, deadline, liquidation, rule: `${when}, ${days} days before filing: more than ${phase.liquidatedWithinDays} for CAPE; ${L.protestSource}` };
    }
  }
  const deadline = addYears(liq.date, L.courtYears);
  return { channel: 'court', label: `Final: court action by ${deadline}`, deadline, liquidation, rule: `${when}; past the ${L.protestDays} days of a protest, the liquidation is final; ${L.courtSource}` };
}

/** An entry as the totals by channel count it. */
export interface ChannelEntry {
  channel: EntryChannel;
  refundCents: number;
  interestCents: number;
}

export interface ChannelTotal {
  channel: Channel;
  /** `CAPE now` (or `CAPE from` a date), `Protest`, `Final: court action`, `Not for CAPE`. */
  label: string;
  entries: number;
  refundCents: number;
  interestCents: number;
  /** The earliest last day to act of its entries; null for CAPE and for entries not for CAPE. */
  earliestDeadline: string | null;
}

const CHANNELS: readonly Channel[] = ['cape', 'protest', 'court', 'not_cape'];
const GROUP_LABELS: Readonly<Record<Exclude<Channel, 'cape'>, string>> = { protest: 'Protest', court: 'Final: court action', not_cape: 'Not for CAPE' };

/**
 * Each channel that has entries, with their count, refund, interest and earliest deadline, in the
 * order a broker acts: CAPE (file now) first, then by the earliest deadline, entries not for CAPE
 * last. The one order of the API's totals, the task pane's and the sidebar's.
 */
export function channelTotals(entries: readonly ChannelEntry[]): ChannelTotal[] {
  const totals = new Map<Channel, ChannelTotal>();
  for (const { channel: c, refundCents, interestCents } of entries) {
    let t = totals.get(c.channel);
    if (t === undefined) totals.set(c.channel, (t = { channel: c.channel, label: c.channel === 'cape' ? c.label : GROUP_LABELS[c.channel], entries: 0, refundCents: 0, interestCents: 0, earliestDeadline: null }));
    t.entries++;
    t.refundCents += refundCents;
    t.interestCents += interestCents;
    if (c.deadline !== null && (t.earliestDeadline === null || c.deadline < t.earliestDeadline)) t.earliestDeadline = c.deadline;
  }
  // Sorted stably from the channels' own order, so that a protest and a court action due the same day stay in that order.
  const rank = (t: ChannelTotal) => (t.channel === 'cape' ? '' : (t.earliestDeadline ?? '\uffff'));
  return CHANNELS.flatMap((c) => totals.get(c) ?? []).sort((a, b) => (rank(a) < rank(b) ? -1 : rank(a) > rank(b) ? 1 : 0));
}

/** The overpayment rate row in force on a day, and whether it was carried past the last known quarter. */
function rateOn(day: string): { row: (typeof OVERPAYMENT_RATES)[number]; carried: boolean } {
  let row = OVERPAYMENT_RATES[0];
  for (const r of OVERPAYMENT_RATES) if (r.from <= day) row = r;
  const quarterStart = `${day.slice(0, 5)}${String(Math.floor((Number(day.slice(5, 7)) - 1) / 3) * 3 + 1).padStart(2, '0')}-01`;
  return { row, carried: row.from < quarterStart };
}

const daysInYear = (year: number): number => (year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 366 : 365);

export interface Interest {
  cents: number;
  days: number;
  /** What was assumed: a rate carried past the table, a refund date before the deposit. */
  note: string;
}

/**
 * Interest on a refund of `cents` deposited on `from` and refunded on `to`: each day at the quarter's
 * overpayment rate divided by the year's days, compounded daily; rounded once to the cent, half away
 * from zero.
 */
export function refundInterest(cents: number, from: string, to: string, corporate: boolean): Interest {
  const days = daysBetween(from, to);
  if (days <= 0 || cents <= 0) return { cents: 0, days: Math.max(days, 0), note: '' };
  let factor = 1;
  let carried: string | null = null;
  for (let i = 0; i < days; i++) {
    const day = addDays(from, i);
    const { row, carried: c } = rateOn(day);
    if (c) carried ??= row.from;
    factor *= 1 + Number(corporate ? row.corporate : row.noncorporate) / 100 / daysInYear(Number(day.slice(0, 4)));
  }
  const last = OVERPAYMENT_RATES[OVERPAYMENT_RATES.length - 1];
  return {
    cents: Math.round(cents * (factor - 1)),
    days,
    note: carried ? `rates after the quarter of ${last.from} not yet in the table: ${corporate ? last.corporate : last.noncorporate}% assumed` : '',
  };
}

/** How the interest is estimated, said beside the figures. */
export function interestMethod(corporate: boolean, refundDate: string | null): string {
  return `Interest: ${corporate ? 'corporate' : 'non-corporate'} overpayment rates of each quarter, compounded daily, from the deposit (entry summary date, else entry date) to ${refundDate ?? `the filing date + ${REFUND_AFTER_FILING_DAYS} days`}; ${INTEREST_SOURCE}.`;
}

/** An entry number refused for the CAPE file, and why. */
export interface Refused {
  entry_number: string;
  reason: string;
}

export interface CapeDeclaration {
  /** The entry numbers of each file, in CBP's form, at most the phase's limit a file. */
  files: string[][];
  refused: Refused[];
  /** Each entry's reason in the order given, null for those in a file. */
  reasons: (string | null)[];
}

/**
 * The CAPE declaration files of entries whose channel is `cape`: each entry number checked for form
 * and check digit, a repeated one refused once kept; the others refused with their channel.
 */
export function capeDeclaration(entries: readonly { entryNumber: string; channel: EntryChannel }[], filingDate: string): CapeDeclaration {
  const phase = capePhase(filingDate) ?? CAPE_PHASES[0];
  const kept: string[] = [];
  const seen = new Set<string>();
  const refused: Refused[] = [];
  const reasons = entries.map(({ entryNumber, channel }): string | null => {
    const checked = checkEntryNumber(entryNumber);
    const [number, reason] =
      'error' in checked ? [entryNumber, checked.error]
      : channel.channel !== 'cape' ? [checked.entryNumber, channel.label]
      : seen.has(checked.entryNumber) ? [checked.entryNumber, 'listed more than once: kept once']
      : [checked.entryNumber, null];
    if (reason === null) {
      seen.add(number);
      kept.push(number);
    } else refused.push({ entry_number: number, reason });
    return reason;
  });
  const files: string[][] = [];
  for (let i = 0; i < kept.length; i += phase.fileLimit) files.push(kept.slice(i, i + phase.fileLimit));
  return { files, refused, reasons };
}

/** A declaration file's text: the header, then one entry number a line, CRLF (RFC 4180), no blank line at the end. */
export function capeCsv(entryNumbers: readonly string[], filingDate: string): string {
  const phase = capePhase(filingDate) ?? CAPE_PHASES[0];
  return [phase.header, ...entryNumbers].join('\r\n');
}
