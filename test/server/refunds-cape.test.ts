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

  it('a body that is not one: the parameter named, 400', async () => {
    const r = await cape({ filing_date: FILING, entries: [] });
    expect(r.status).toBe(400);
    expect(r.body.error).toMatchObject({ code: 'invalid_parameter', details: { parameter: 'entries' } });
    const f = await cape({ filing_date: '2026-02-30', entries: CAPE_ENTRIES });
    expect(f.body.error.message).toBe('filing_date must be a calendar date YYYY-MM-DD between 1989 and 2099; got "2026-02-30"');
  });
});
