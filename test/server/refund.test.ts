/**
 * POST /api/v1/duty/bulk's totals.refundable_by_heading over HTTP (issue 30 point 7): the IEEPA
 * duties refundable by 9903 heading, per entry when items carry entry_number, 0 with the reason
 * outside 2025-02-04…2026-02-23. Every answer is checked against the OpenAPI document (client).
 * Figures worked out by hand from the 2026 Revision 10 schedule and data/ch99/program_rates.csv.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client } from '../helpers/contract.js';
import { startServer, type RunningServer } from '../helpers/server.js';

let srv: RunningServer;
let api: ReturnType<typeof client>;
beforeAll(async () => {
  srv = await startServer();
  api = client(srv.url, srv.key);
});
afterAll(() => srv.close());

const bulk = async (body: unknown) => {
  const r = await api('POST', '/api/v1/duty/bulk', { body });
  expect(r.status).toBe(200);
  return r.body;
};

describe('totals.refundable_by_heading', () => {
  it('China entered 2025-05-20: fentanyl 9903.01.24 20% and reciprocal 9903.01.25 10%, Section 301 not refundable; grouped by entry number', async () => {
    const b = await bulk({
      date: '2025-05-20',
      items: [
        // 6109.10.00, 10,000: 301 List 4A 750 (kept), fentanyl 2,000, reciprocal 1,000.
        { hts: '6109.10.00', value: 10000, origin: 'China', entry_number: 'ABC-1234567-8', claim: 'none' },
        // 9403.60.80, 5,000: 301 List 3 1,250 (kept), fentanyl 1,000, reciprocal 500.
        { hts: '9403.60.80', value: 5000, origin: 'China', entry_number: 'ABC-1234567-8' },
        // Another entry of the same day: 6109.10.00, 2,000.55: fentanyl 400.11, reciprocal 200.06 (200.055 rounded half away from zero).
        { hts: '6109.10.00', value: 2000.55, origin: 'China', entry_number: ' ABC-7654321-0 ' },
        { hts: '9999.99.99', value: 5, origin: 'China', entry_number: 'ABC-7654321-0' },
      ],
    });
    expect(b.totals.errors).toBe(1);
    expect(b.totals.refundable_by_heading).toEqual({
      total: 5100.17,
      headings: { '9903.01.24': 3400.11, '9903.01.25': 1700.06 },
      entries: [
        { entry_number: 'ABC-1234567-8', date: '2025-05-20', total: 4500, headings: { '9903.01.24': 3000, '9903.01.25': 1500 } },
        { entry_number: 'ABC-7654321-0', date: '2025-05-20', total: 600.17, headings: { '9903.01.24': 400.11, '9903.01.25': 200.06 } },
      ],
    });
    // The older total agrees with it.
    expect(b.totals.refundable).toBe(5100.17);
  });

  it('Canada 2025-09-15: 35% under 9903.01.10 without a claim; with USMCA claimed, the exemption heading 9903.01.14 refunds nothing', async () => {
    const b = await bulk({
      date: '2025-09-15',
      claim: 'none',
      items: [
        { hts: '9401.61.40', value: 8000, origin: 'Canada' },
        { hts: '9401.61.40', value: 8000, origin: 'Canada', claim: 'usmca' },
      ],
    });
    expect(b.lines[1].additional_duties).toEqual([expect.objectContaining({ heading: '9903.01.14', rate_kind: 'exempt', refundable: false })]);
    // No entry numbers: no entries list.
    expect(b.totals.refundable_by_heading).toEqual({ total: 2800, headings: { '9903.01.10': 2800 } });
  });

  it('outside the IEEPA period: 0, with the reason, before and after', async () => {
    const after = await bulk({ date: '2026-03-10', items: [{ hts: '6109.10.00', value: 10000, origin: 'China', entry_number: 'ABC-3333333-5' }] });
    const reason = 'Entered 2026-03-10, after the IEEPA duties (entries 2025-02-04 to 2026-02-23): no IEEPA duty was assessed, nothing to refund.';
    expect(after.totals.refundable_by_heading).toEqual({ total: 0, headings: {}, reason, entries: [{ entry_number: 'ABC-3333333-5', date: '2026-03-10', total: 0, headings: {}, reason }] });
    // Section 122 (9903.03.01) took IEEPA's place then, and is not refundable.
    expect(after.lines[0].additional_duties.map((l: { heading: string }) => l.heading)).toEqual(['9903.88.15', '9903.03.01']);
    const before = await bulk({ date: '2025-02-03', items: [{ hts: '6109.10.00', value: 10000, origin: 'China' }] });
    expect(before.totals.refundable_by_heading.reason).toBe('Entered 2025-02-03, before the IEEPA duties (entries 2025-02-04 to 2026-02-23): no IEEPA duty was assessed, nothing to refund.');
    // The first and last days are inside: 2025-02-04 China 10% under 9903.01.20; 2026-02-23 10% under 9903.01.24 and the reciprocal 10%.
    const first = await bulk({ date: '2025-02-04', items: [{ hts: '6109.10.00', value: 10000, origin: 'China' }] });
    expect(first.totals.refundable_by_heading).toEqual({ total: 1000, headings: { '9903.01.20': 1000 } });
    const last = await bulk({ date: '2026-02-23', items: [{ hts: '6109.10.00', value: 10000, origin: 'China' }] });
    expect(last.totals.refundable_by_heading).toEqual({ total: 2000, headings: { '9903.01.24': 1000, '9903.01.25': 1000 } });
  });

  it('items of several entry dates in one request: each date an entry of its own for the fees, the refund per entry number and date', async () => {
    const b = await bulk({
      date: '2025-05-20',
      items: [
        // 1,000 on 2025-05-20: fentanyl 20% 200 (9903.01.24), reciprocal 10% 100 (9903.01.25); MPF FY2025: 0.3464% is 3.46, the minimum 32.71.
        { hts: '6109.10.00', value: 1000, origin: 'China', entry_number: 'E1' },
        // 1,000 on 2025-11-15: fentanyl 10% 100 (still 9903.01.24), reciprocal 10% 100; MPF FY2026 minimum 33.58.
        { hts: '6109.10.00', value: 1000, origin: 'China', entry_number: 'E2', date: '2025-11-15' },
        { hts: '6109.10.00', value: 1000, origin: 'China', entry_number: 'E3', date: '2025-13-01' },
      ],
    });
    expect(b.lines.slice(0, 2).map((l: { mpf: number }) => l.mpf)).toEqual([32.71, 33.58]);
    // One entry of 2,000 would owe the minimum once (32.71): two dates owe it twice.
    expect(b.totals).toMatchObject({ mpf: 66.29, mpf_basis: 2000, errors: 1 });
    expect(b.notes).toContain('The lines have 2 entry dates: each date is costed as an entry of its own (MPF minimum and maximum apply to each).');
    expect(b.lines[2].error).toMatchObject({ details: { parameter: 'items[2].date' } });
    expect(b.totals.refundable_by_heading).toEqual({
      total: 500,
      headings: { '9903.01.24': 300, '9903.01.25': 200 },
      entries: [
        { entry_number: 'E1', date: '2025-05-20', total: 300, headings: { '9903.01.24': 200, '9903.01.25': 100 } },
        { entry_number: 'E2', date: '2025-11-15', total: 200, headings: { '9903.01.24': 100, '9903.01.25': 100 } },
        // The line in error (its date unreadable) is in no entry: its error says why, and it refunds nothing.
      ],
    });
    // Every line outside the period: the order's reason says so.
    const outside = await bulk({ items: [{ hts: '6109.10.00', value: 1000, origin: 'China', date: '2025-01-15' }, { hts: '6109.10.00', value: 1000, origin: 'China', date: '2026-03-10' }] });
    expect(outside.totals.refundable_by_heading).toEqual({ total: 0, headings: {}, reason: 'No line was entered within the IEEPA duties (entries 2025-02-04 to 2026-02-23): nothing to refund.' });
  });

  it('one part of a larger entry (entry) is of the order\'s date: a line dated otherwise is that line\'s error, the rest costed', async () => {
    const r = await api('POST', '/api/v1/duty/bulk', {
      body: {
        date: '2025-05-20',
        items: [{ hts: '6109.10.00', value: 1000, date: '2025-05-20' }, { hts: '6109.10.00', value: 1000, date: '2025-11-15' }, { hts: '6109.10.00', value: 1000 }],
        entry: { mpf_basis: 4000, hmf_basis: 0, mpf_basis_before: 0, hmf_basis_before: 0 },
      },
    });
    expect(r.status).toBe(200);
    expect(r.body.lines[1].error).toMatchObject({ code: 'invalid_parameter', details: { parameter: 'items[1].date' } });
    expect(r.body.lines[1].error.message).toBe("items[1].date 2025-11-15 is not the order's date 2025-05-20: the parts of one entry (entry) share its entry date");
    // The two others: 2,000 of the entry's 4,000, so half its MPF (the FY2025 minimum 32.71, since 4,000 × 0.3464% = 13.86): 32.71 × 2,000 / 4,000 = 16.355, 16.36.
    expect(r.body.totals).toMatchObject({ lines: 3, errors: 1, customs_value: 2000, mpf: 16.36 });
  });

  it('a bad entry_number is its line\'s error, named; the rest is costed', async () => {
    const b = await bulk({
      date: '2025-05-20',
      items: [
        { hts: '6109.10.00', value: 1000, origin: 'China', entry_number: '' },
        { hts: '6109.10.00', value: 1000, origin: 'China', entry_number: 'E1' },
      ],
    });
    expect(b.lines[0].error).toMatchObject({ code: 'invalid_parameter', details: { parameter: 'items[0].entry_number' } });
    expect(b.lines[0].error.message).toBe('items[0].entry_number must be text of 1 to 40 characters (an entry number such as ABC-1234567-8)');
    expect(b.totals.refundable_by_heading.total).toBe(300); // 20% + 10% of 1,000
    // The line in error counts for nothing and is in no entry.
    expect(b.totals.refundable_by_heading.entries).toEqual([
      { entry_number: 'E1', date: '2025-05-20', total: 300, headings: { '9903.01.24': 200, '9903.01.25': 100 } },
    ]);
  });
});
