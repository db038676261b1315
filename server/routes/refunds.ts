/**
 * POST /api/v1/refunds/cape: the CAPE declaration of a list of entries. Each entry's channel on the
 * filing date (shared/refund-channel.ts); the entries for CAPE now, checked and without duplicates, in
 * files of at most 9,999. One file and nothing refused: the file itself, text/csv, ready to upload.
 * Otherwise (several files, or entries refused, or `Accept: application/json`): JSON, the files,
 * the refused entry numbers with the reason, and each entry's channel, deadline and liquidation. An entry that cannot be read is refused with its
 * parameter named; it never sinks the others.
 */
import { InputError, invalid } from '../../shared/errors.js';
import { dollars } from '../../shared/money.js';
import { parseDate, parseValue } from '../../shared/params.js';
import { addDays, capeCsv, capeDeclaration, channelTotals, entryChannel, interestMethod, parseLiquidationStatus, refundInterest, type EntryChannel, type EntryFacts, type Refused } from '../../shared/refund-channel.js';
import { REFUND_AFTER_FILING_DAYS } from '../../shared/refund-rules.js';
import { ApiError } from '../errors.js';
import type { Exchange } from '../http/exchange.js';
import { POST, type Route } from './route.js';

/** Entries a request may list (two files and more; the body's 2 MB limit comes first for long entries). */
export const MAX_CAPE_ENTRIES = 20_000;

const ENTRY_FIELDS = ['entry_number', 'entry_date', 'summary_date', 'liquidation_date', 'liquidation_status', 'entry_type', 'reconciliation', 'drawback', 'open_protest', 'ieepa', 'ieepa_deposited'] as const;
const BODY_FIELDS = ['entries', 'filing_date', 'refund_date', 'corporate'];

const flag = (v: unknown, parameter: string): boolean | undefined => {
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'boolean') throw invalid(parameter, `${parameter} must be true or false`);
  return v;
};

/** An entry of the body as read: its facts, and the IEEPA duty it deposited (cents) and when, where given. */
interface ReadEntry {
  entryNumber: string;
  facts: EntryFacts;
  depositedCents: number | null;
  depositDate: string;
}

/** One entry of the body, read; its errors name it (`entries[3].entry_date`). */
function readEntry(raw: unknown, p: string, today: string): ReadEntry {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) throw invalid(p, `${p} must be an object with entry_number and entry_date`);
  const e = raw as Record<string, unknown>;
  const unknown = Object.keys(e).find((k) => !(ENTRY_FIELDS as readonly string[]).includes(k));
  if (unknown) throw invalid(`${p}.${unknown}`, `${p}.${unknown} is not a field of an entry (${ENTRY_FIELDS.join(', ')})`);
  if (typeof e.entry_number !== 'string' || !e.entry_number.trim()) throw invalid(`${p}.entry_number`, `${p}.entry_number must be the entry number, text such as ABC-1234567-6`);
  const given = (v: unknown) => v !== undefined && v !== null && v !== '';
  if (!given(e.entry_date)) throw invalid(`${p}.entry_date`, `${p}.entry_date is required (YYYY-MM-DD)`);
  const status = !given(e.liquidation_status) ? undefined : parseLiquidationStatus(e.liquidation_status);
  if (status === null) throw invalid(`${p}.liquidation_status`, `${p}.liquidation_status must be unliquidated, liquidated, extended, suspended or final`);
  if (given(e.entry_type) && !(typeof e.entry_type === 'string' && /^\d{1,2}$/.test(e.entry_type)))
    throw invalid(`${p}.entry_type`, `${p}.entry_type must be CBP's two-digit entry type as text, such as "01"`);
  const entryDate = parseDate(e.entry_date, today, `${p}.entry_date`);
  const depositedCents = given(e.ieepa_deposited) ? parseValue(e.ieepa_deposited, `${p}.ieepa_deposited`) : null;
  return {
    entryNumber: e.entry_number,
    depositedCents,
    // Interest runs from the deposit: the entry summary date where given, else the entry date (issue 39).
    depositDate: given(e.summary_date) ? parseDate(e.summary_date, today, `${p}.summary_date`) : entryDate,
    facts: {
      entryDate,
      ...(!given(e.liquidation_date) ? {} : { liquidationDate: parseDate(e.liquidation_date, today, `${p}.liquidation_date`) }),
      ...(status ? { liquidationStatus: status } : {}),
      ...(!given(e.entry_type) ? {} : { entryType: e.entry_type as string }),
      reconciliation: flag(e.reconciliation, `${p}.reconciliation`),
      drawback: flag(e.drawback, `${p}.drawback`),
      openProtest: flag(e.open_protest, `${p}.open_protest`),
      ieepa: depositedCents === 0 ? false : flag(e.ieepa, `${p}.ieepa`),
    },
  };
}

/** The CAPE declaration counts as one request against the key's limit, as an order does (routes/duty.ts). */
export const refundRoutes = (): Route[] => [
  {
    path: '/api/v1/refunds/cape',
    methods: POST,
    gate: 'key',
    params: [],
    body: { cost: () => 1 },
    run: (res) => {
      const a = capeAnswer(res, res.body, new Date().toISOString().slice(0, 10));
      return a.csv ? { csv: a.body } : a.body;
    },
  },
];

export interface CapeAnswer {
  csv: boolean;
  body: string;
}

/** The answer to a body already parsed as JSON; `today` (UTC) is the default filing date. */
export function capeAnswer(res: Exchange, raw: unknown, today: string): CapeAnswer {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) throw new ApiError('invalid_parameter', 'The body must be a JSON object', { parameter: 'body' });
  const body = raw as Record<string, unknown>;
  const extra = Object.keys(body).find((k) => !BODY_FIELDS.includes(k));
  if (extra) throw invalid(extra, `${extra} is not a field of the body (${BODY_FIELDS.join(', ')})`);
  const filingDate = parseDate(body.filing_date, today, 'filing_date');
  const refundDate = body.refund_date === undefined ? addDays(filingDate, REFUND_AFTER_FILING_DAYS) : parseDate(body.refund_date, today, 'refund_date');
  const corporate = body.corporate === undefined ? true : flag(body.corporate, 'corporate')!;
  if (!Array.isArray(body.entries) || !body.entries.length) throw invalid('entries', 'entries must be a non-empty array of entries');
  if (body.entries.length > MAX_CAPE_ENTRIES) throw new ApiError('too_many_lines', `entries has ${body.entries.length} entries; at most ${MAX_CAPE_ENTRIES} per request`, { parameter: 'entries', max: MAX_CAPE_ENTRIES, given: body.entries.length });
  const unread: Refused[] = [];
  const read: (ReadEntry & { channel: EntryChannel })[] = [];
  body.entries.forEach((raw, i) => {
    try {
      const entry = readEntry(raw, `entries[${i}]`, today);
      read.push({ ...entry, channel: entryChannel(entry.facts, filingDate) });
    } catch (e) {
      if (!(e instanceof InputError)) throw e;
      const n = (raw as { entry_number?: unknown } | null)?.entry_number;
      unread.push({ entry_number: typeof n === 'string' ? n : '', reason: e.message });
    }
  });
  const { files, refused } = capeDeclaration(read, filingDate);
  const all = [...unread, ...refused];
  const named = files.map((f, i) => ({ name: `CAPE declaration ${i + 1}.csv`, entries: f.length, csv: capeCsv(f, filingDate) }));
  if (named.length === 1 && !all.length && !/application\/json/.test(res.req.headers.accept ?? '')) {
    res.header('Content-Disposition', `attachment; filename="${named[0].name}"`);
    return { csv: true, body: named[0].csv };
  }
  // Each entry read, with its channel: where its refund goes and by when; with its deposit, the refund and its interest.
  const figures = read.map(({ entryNumber, channel: c, depositedCents, depositDate }) => {
    const interest = depositedCents === null ? null : refundInterest(depositedCents, depositDate, refundDate, corporate);
    const entry = {
      entry_number: entryNumber,
      channel: c.channel,
      label: c.label,
      deadline: c.deadline,
      liquidation: c.liquidation,
      rule: c.rule,
      ...(interest && { refund: dollars(depositedCents!), interest: { amount: dollars(interest.cents), days: interest.days, ...(interest.note && { note: interest.note }) } }),
    };
    return { entry, channel: c, refundCents: depositedCents ?? 0, interestCents: interest?.cents ?? 0 };
  });
  const entries = figures.map((f) => f.entry);
  // By channel in the add-ins' order (shared/refund-channel.ts); money rounded once per amount, in dollars.
  const byChannel = channelTotals(figures).map((t) => ({ channel: t.channel, entries: t.entries, refund: dollars(t.refundCents), interest: dollars(t.interestCents), earliest_deadline: t.earliestDeadline }));
  return { csv: false, body: JSON.stringify({ filing_date: filingDate, refund_date: refundDate, interest_method: interestMethod(corporate, body.refund_date === undefined ? null : refundDate), files: named, refused: all, entries, totals: byChannel }) };
}
