/**
 * POST /api/v1/refunds/cape on a real server on a free port: the CAPE declaration of entries across
 * every channel, the CSV checked byte for byte, the refused entry numbers with their reasons. Every
 * answer is checked against the OpenAPI document. Filing date 2026-05-20 throughout.
 *
 * Check digits (CATAIR Appendix E, modulus 10 of the filer code's digits A1 B2 C3 and the 7 digits,
 * doubling from the right): ABC2222222: 4+2+4+2+4+2+4 + 3 + 4 + 1 = 30 → 0; ABC3333333: 6+3+6+3+6+3+6
 * + 8 = 41 → 9; ABC4444444: 8+4+8+4+8+4+8 + 8 = 52 → 8; ABC5555555: 1+5+1+5+1+5+1 + 8 = 27 → 3;
 * ABC6666666: 3+6+3+6+3+6+3 + 8 = 38 → 2; ABC1234567 → 6 (test/engine/refund-channel.test.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkContract } from '../helpers/contract.js';
import { openapi } from '../../server/openapi.js';
import { startServer, type RunningServer } from '../helpers/server.js';
import { entryCheckDigit } from '../../shared/entry-number.js';

let srv: RunningServer;
beforeAll(async () => {
  srv = await startServer();
});
afterAll(() => srv.close());

async function cape(body: unknown, accept?: string) {
  const r = await fetch(`${srv.url}/api/v1/refunds/cape`, {
    method: 'POST',
    headers: { authorization: `Bearer ${srv.key}`, 'content-type': 'application/json', ...(accept ? { accept } : {}) },
    body: JSON.stringify(body),
  });
  const text = await r.text();
  const json = r.headers.get('content-type')?.startsWith('application/json');
  const res = { status: r.status, headers: r.headers, body: json ? JSON.parse(text) : text };
  // The JSON answers against their schema; the CSV one against the type the document names.
  if (json || r.status !== 200) checkContract('POST', '/api/v1/refunds/cape', res);
  else expect(Object.keys(openapi.paths['/refunds/cape'].post.responses['200'].content)).toContain(r.headers.get('content-type')!.split(';')[0]);
  return { ...res, text };
}

const FILING = '2026-05-20';
/** The same entries as the add-ins' fixture (test/addins/refund-entries.ts), as the API takes them. */
export const CAPE_ENTRIES = [
  { entry_number: 'ABC-1234567-6', entry_date: '2025-09-10', liquidation_status: 'unliquidated' },
  // 2026-03-01 + 80 days = 2026-05-20: CAPE; 2026-02-28 is 81 days: protest by 2026-02-28 + 180 = 2026-08-27.
  { entry_number: 'ABC-2222222-0', entry_date: '2025-04-15', liquidation_date: '2026-03-01', liquidation_status: 'liquidated' },
  { entry_number: 'ABC-3333333-9', entry_date: '2025-04-14', liquidation_date: '2026-02-28', liquidation_status: 'liquidated' },
  // 2025-11-20 is 181 days before the filing date: final, court action within two years.
  { entry_number: 'ABC-4444444-8', entry_date: '2025-02-10', liquidation_date: '2025-11-20' },
  { entry_number: 'ABC-5555555-3', entry_date: '2025-09-10', entry_type: '08' },
  { entry_number: 'ABC-6666666-2', entry_date: '2025-09-10', entry_type: '09' },
  { entry_number: 'ABC-1234567-8', entry_date: '2025-09-10' },
  { entry_number: 'abc 1234567 6', entry_date: '2025-09-10' },
  { entry_number: 'ABC-7777777-1', entry_date: '2025-13-01' },
];

describe('POST /api/v1/refunds/cape', () => {
  it('entries across every channel: the CAPE file and the refused, with reasons', async () => {
    const r = await cape({ filing_date: FILING, entries: CAPE_ENTRIES });
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(r.body).toEqual({
      filing_date: FILING,
      files: [{ name: 'CAPE declaration 1.csv', entries: 2, csv: 'Entry Number\r\nABC-1234567-6\r\nABC-2222222-0' }],
      refused: [
        { entry_number: 'ABC-7777777-1', reason: 'entries[8].entry_date must be a calendar date YYYY-MM-DD between 1989 and 2099; got "2025-13-01"' },
        { entry_number: 'ABC-3333333-9', reason: 'Protest by 2026-08-27' },
        { entry_number: 'ABC-4444444-8', reason: 'Final: court action by 2027-11-20' },
        { entry_number: 'ABC-5555555-3', reason: 'Not for CAPE (type 08 (duty deferral) entries are outside CAPE)' },
        { entry_number: 'ABC-6666666-2', reason: 'Not for CAPE (type 09 (reconciliation) entries are outside CAPE)' },
        { entry_number: 'ABC-1234567-8', reason: 'ABC-1234567-8 has the check digit 8; CATAIR Appendix E gives 6 for ABC-1234567' },
        { entry_number: 'ABC-1234567-6', reason: 'listed more than once: kept once' },
      ],
      entries: expect.any(Array),
      refund_date: '2026-08-18', // the filing date + 90 days
      interest_method: expect.stringMatching(/^Interest: corporate overpayment rates of each quarter, compounded daily/),
      // By channel: CAPE first, then the earliest deadline first, not for CAPE last; no deposit given, so no refund or interest.
      totals: [
        { channel: 'cape', entries: 4, refund: 0, interest: 0, earliest_deadline: null },
        { channel: 'protest', entries: 1, refund: 0, interest: 0, earliest_deadline: '2026-08-27' },
        { channel: 'court', entries: 1, refund: 0, interest: 0, earliest_deadline: '2027-11-20' },
        { channel: 'not_cape', entries: 2, refund: 0, interest: 0, earliest_deadline: null },
      ],
    });
    // Each entry read (the unreadable one aside), with its channel, deadline and liquidation.
    expect(r.body.entries.map((e: { entry_number: string; channel: string; deadline: string | null; liquidation: object | null }) => [e.entry_number, e.channel, e.deadline, e.liquidation])).toEqual([
      ['ABC-1234567-6', 'cape', null, null],
      ['ABC-2222222-0', 'cape', null, { date: '2026-03-01', estimated: false }],
      ['ABC-3333333-9', 'protest', '2026-08-27', { date: '2026-02-28', estimated: false }],
      ['ABC-4444444-8', 'court', '2027-11-20', { date: '2025-11-20', estimated: false }],
      // 2025-09-10 + 314 days = 2026-07-21 (Sep 20, Oct 31, Nov 30, Dec 31, Jan 31, Feb 28, Mar 31, Apr 30, May 31, Jun 30, Jul 21).
      ['ABC-5555555-3', 'not_cape', null, { date: '2026-07-21', estimated: true }],
      ['ABC-6666666-2', 'not_cape', null, { date: '2026-07-21', estimated: true }],
      ['ABC-1234567-8', 'cape', null, { date: '2026-07-21', estimated: true }],
      ['abc 1234567 6', 'cape', null, { date: '2026-07-21', estimated: true }],
    ]);
    expect(r.body.entries[2].rule).toBe('liquidated 2026-02-28, 81 days before filing: more than 80 for CAPE; 19 U.S.C. 1514(c)(3): a protest within 180 days after the liquidation');
  });

  it('one file and nothing refused: the file itself, text/csv, byte for byte; JSON when asked', async () => {
    const body = { filing_date: FILING, entries: CAPE_ENTRIES.slice(0, 2) };
    const r = await cape(body);
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(r.headers.get('content-disposition')).toBe('attachment; filename="CAPE declaration 1.csv"');
    expect(Buffer.from(r.text)).toEqual(Buffer.from('Entry Number\r\nABC-1234567-6\r\nABC-2222222-0', 'latin1'));
    expect(r.headers.get('content-length')).toBe('42'); // 12 + 2 + 13 + 2 + 13
    const j = await cape(body, 'application/json');
    expect(j.body.files).toEqual([{ name: 'CAPE declaration 1.csv', entries: 2, csv: r.text }]);
    expect(j.body.entries.map((e: { label: string }) => e.label)).toEqual(['CAPE now', 'CAPE now']);
  });

  it('10,001 entries for CAPE: two files, 9,999 and 2', async () => {
    const entries = Array.from({ length: 10001 }, (_, i) => {
      const base = `XYZ${String(i).padStart(7, '0')}`;
      return { entry_number: `${base}${entryCheckDigit(base)}`, entry_date: '2025-09-10', liquidation_status: 'unliquidated' };
    });
    const r = await cape({ filing_date: FILING, entries });
    expect(r.body.files.map((f: { name: string; entries: number }) => [f.name, f.entries])).toEqual([['CAPE declaration 1.csv', 9999], ['CAPE declaration 2.csv', 2]]);
    // X Y Z are 7 8 9. XYZ0009999: 9 doubled (9), 9, 9 doubled (9), 9 = 36, then Z 9 kept, Y 8 doubled 16 (7), X 7: 59 → 1.
    // XYZ0010000: 1 doubled 2, + 9 + 7 + 7 = 25 → 5.
    expect(r.body.files[1].csv).toBe('Entry Number\r\nXYZ-0009999-1\r\nXYZ-0010000-5');
    expect(r.body.files[0].csv.split('\r\n')).toHaveLength(10000);
    expect(r.body.refused).toEqual([]);
  });

  it('with the IEEPA duty deposited: each entry its refund and interest, worked out by hand; totals by channel', async () => {
    // 3,000.00 deposited on 2025-09-20 (the entry summary date), refunded 2026-01-01: 103 days (11 + 31 + 30 + 31), all of
    // them in 2025's third and fourth quarters at 6% for corporations: 3,000 × ((1 + 0.06/365)^103 − 1) = 51.2227 → 51.22.
    // Non-corporate, 7%: 3,000 × ((1 + 0.07/365)^103 − 1) = 59.8436 → 59.84.
    const entries = [
      { entry_number: 'ABC-1234567-6', entry_date: '2025-09-10', summary_date: '2025-09-20', liquidation_status: 'unliquidated', ieepa_deposited: 3000 },
      { entry_number: 'ABC-3333333-9', entry_date: '2025-04-14', liquidation_date: '2026-02-28', liquidation_status: 'liquidated', ieepa_deposited: '1000.50' },
      // Nothing deposited: no IEEPA duty, so not for CAPE.
      { entry_number: 'ABC-2222222-0', entry_date: '2025-09-10', ieepa_deposited: 0 },
    ];
    const r = await cape({ filing_date: FILING, refund_date: '2026-01-01', entries }, 'application/json');
    expect(r.status).toBe(200);
    expect(r.body.entries[0]).toMatchObject({ channel: 'cape', refund: 3000, interest: { amount: 51.22, days: 103 } });
    // From 2025-04-14 to 2026-01-01: 262 days at 6% (Q2 to Q4 2025): 1,000.50 × ((1 + 0.06/365)^262 − 1) = 44.0277 → 44.03.
    expect(r.body.entries[1]).toMatchObject({ channel: 'protest', refund: 1000.5, interest: { amount: 44.03, days: 262 } });
    expect(r.body.entries[2]).toMatchObject({ channel: 'not_cape', refund: 0, interest: { amount: 0 } });
    expect(r.body.totals).toEqual([
      { channel: 'cape', entries: 1, refund: 3000, interest: 51.22, earliest_deadline: null },
      { channel: 'protest', entries: 1, refund: 1000.5, interest: 44.03, earliest_deadline: '2026-08-27' },
      { channel: 'not_cape', entries: 1, refund: 0, interest: 0, earliest_deadline: null },
    ]);
    const others = await cape({ filing_date: FILING, refund_date: '2026-01-01', corporate: false, entries: entries.slice(0, 1) }, 'application/json');
    expect(others.body.entries[0].interest).toEqual({ amount: 59.84, days: 103 });
    expect(others.body.interest_method).toMatch(/^Interest: non-corporate overpayment rates/);
    const bad = await cape({ filing_date: FILING, entries: [{ ...entries[0], ieepa_deposited: '3,000' }] }, 'application/json');
    expect(bad.body.refused[0].reason).toMatch(/^entries\[0\]\.ieepa_deposited must be a number of U\.S\. dollars/);
  });

  it('a body that is not one: the parameter named, 400', async () => {
    const r = await cape({ filing_date: FILING, entries: [] });
    expect(r.status).toBe(400);
    expect(r.body.error).toMatchObject({ code: 'invalid_parameter', details: { parameter: 'entries' } });
    const f = await cape({ filing_date: '2026-02-30', entries: CAPE_ENTRIES });
    expect(f.body.error.message).toBe('filing_date must be a calendar date YYYY-MM-DD between 1989 and 2099; got "2026-02-30"');
  });
});
