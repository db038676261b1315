/**
 * An older revision is built between other requests (server/routes/revisions.ts): a query of 2025 whose
 * revision is not built yet does not hold up the requests that arrive while it builds. Checked by the
 * order of the answers, not by their times: a query for today sent just after a 2025 one is answered first.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../helpers/server.js';

let srv: RunningServer;
beforeAll(async () => {
  srv = await startServer();
});
afterAll(() => srv.close());

const ask = (path: string) => fetch(`${srv.url}${path}`, { headers: { authorization: `Bearer ${srv.key}` } }).then(async (r) => ({ status: r.status, body: await r.json(), at: performance.now() }));

describe('an older revision built between other requests', () => {
  it('a query for today sent while 2025 Revision 20 builds is answered first; each answer names its revision', async () => {
    const older = ask('/api/v1/duty?hts=8507.60.00.20&value=10000&origin=CN&date=2025-09-01');
    // Sent once the first is on its way: it arrives while the revision builds (about 35 steps).
    await new Promise((r) => setTimeout(r, 20));
    const today = await ask('/api/v1/duty?hts=6109.10.00&value=1000&origin=CN');
    const then = await older;
    expect(today.status).toBe(200);
    expect(today.body.hts_revision).toBe('2026 Revision 10');
    expect(then.status).toBe(200);
    // note 31(b) names only 8507.60.0010: List 4A's 7.5% of 10,000.
    expect(then.body).toMatchObject({ hts_revision: '2025 Revision 20', section_301_heading: '9903.88.15', section_301: 750 });
    expect(today.at).toBeLessThan(then.at);
  });
  it('a bulk order over three revisions builds each, and costs each line on its own', async () => {
    const r = await fetch(`${srv.url}/api/v1/duty/bulk`, {
      method: 'POST',
      headers: { authorization: `Bearer ${srv.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ origin: 'CN', items: ['2025-02-10', '2025-06-01', '2026-01-10'].map((date) => ({ hts: '8507.60.00.20', value: 10000, date })) }),
    });
    const body = await r.json();
    expect(r.status).toBe(200);
    expect(body.hts_revision).toBe('2025 Revision 2; 2025 Revision 13; 2026 Basic Edition');
    // 7.5% in 2025 (List 4A), 25% under 9903.91.06 from 2026-01-01 (note 31(g)).
    expect(body.lines.map((l: { section_301_heading: string }) => l.section_301_heading)).toEqual(['9903.88.15', '9903.88.15', '9903.91.06']);
  });
  it('an order with a line on every older revision, sent twice at once: every line on its own revision, the same answers', async () => {
    const { readRevisions, datedSchedulePath } = await import('../../server/data/dated-schedule.js');
    const older = readRevisions(datedSchedulePath()).slice(0, -1);
    const order = JSON.stringify({ origin: 'CN', items: older.map((r) => ({ hts: '6109.10.00.12', value: 1000, date: r.from })) });
    const post = () => fetch(`${srv.url}/api/v1/duty/bulk`, { method: 'POST', headers: { authorization: `Bearer ${srv.key}`, 'content-type': 'application/json' }, body: order }).then(async (r) => ({ status: r.status, body: await r.json() }));
    const [a, b] = await Promise.all([post(), post()]);
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(a.body.totals.errors).toBe(0);
    expect(a.body.hts_revision).toBe(older.map((r) => r.name).join('; '));
    expect(b.body).toEqual(a.body);
    // The general rate of 6109.10.00, 16.5%, on 1,000 in every revision.
    expect(a.body.lines.map((l: { duty: number }) => l.duty)).toEqual(older.map(() => 165));
  });
  it('GET /hts/{code}?date= of a revision not built yet', async () => {
    const r = await ask('/api/v1/hts/4015.12.10?date=2025-02-04');
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ hts_revision: '2025 Revision 1', footnotes: [] });
  });
});
