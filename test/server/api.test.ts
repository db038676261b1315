/** The real service over HTTP on a free port: every rule of the /api/v1 contract. */
import SwaggerParser from '@apidevtools/swagger-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemoryRateLimiter } from '../../server/auth/rate-limit.js';
import { openapi } from '../../server/openapi.js';
import { CAVEATS } from '../../shared/index.js';
import { linePools, mixedItems } from '../../bench/lib/lines.js';
import { client } from '../helpers/contract.js';
import { startServer, type RunningServer } from '../helpers/server.js';
import { realTariff } from '../helpers/tariff.js';

let srv: RunningServer;
const KEY_LIMIT = 100_000;
let api: ReturnType<typeof client>;
beforeAll(async () => {
  // The key's limit is tried apart (below): here a batch of 50 searches, which counts as 50, must not use it up.
  srv = await startServer({ keyLimiter: new MemoryRateLimiter(KEY_LIMIT) });
  api = client(srv.url, srv.key);
});
afterAll(() => srv.close());

const cents = (x: number) => Math.round(x * 100);

describe('GET /api/v1/duty', () => {
  it('answers the documented DutyResult', async () => {
    const r = await api('GET', '/api/v1/duty?hts=6109.10.00&value=10000&origin=china&date=2026-11-21');
    expect(r.status).toBe(200);
    // 10,000 + 1,650 + 750 (301 List 4A) + 1,250 (note 52 China +12.5%, 9903.05.31) + 34.64 = 13,684.64
    // section_301 is every Section 301 action (issue 30): 750 + 1,250; each stays a layer of its own below.
    expect(r.body).toMatchObject({ hts: '6109.10.00', duty: 1650, section_301: 2000, section_301_heading: '9903.88.15', mpf: 34.64, landed_cost: 13684.64, hts_revision: '2026 Revision 10' });
    expect(r.body.additional_duties).toEqual([
      { program: 's301_china', authority: 'Section 301', heading: '9903.88.15', rate: 7.5, rate_kind: 'add', basis: 'full_value', amount: 750, refundable: false },
      { program: 's301_forced_labor', authority: 'Section 301', heading: '9903.05.31', rate: 12.5, rate_kind: 'add', basis: 'full_value', amount: 1250, refundable: false },
    ]);
    expect(r.body).toMatchObject({ origin_country: 'CN', section_232: 0, additional_duty: 2000, assumptions: [] });
    expect(r.headers.get('content-type')).toMatch(/application\/json/);
    expect(r.headers.get('x-ratelimit-limit')).toBe(String(KEY_LIMIT));
    expect(r.headers.get('x-powered-by')).toBeNull();
  });
  it('defaults: value 0, origin mfn, ocean 0', async () => {
    const r = await api('GET', '/api/v1/duty?hts=6109100012');
    expect(r.body).toMatchObject({ origin: 'mfn', customs_value: 0, duty: 0, mpf: 0, hmf: 0, rate_basis: 'general' });
  });
  it('400 names the parameter', async () => {
    const r = await api('GET', '/api/v1/duty?hts=6109.10.00&value=abc');
    expect(r.status).toBe(400);
    expect(r.body.error).toMatchObject({ code: 'invalid_parameter', details: { parameter: 'value' } });
    expect(r.body.error.message).toMatch(/^value /);
  });
  it('a heading is a 400 that counts its 8-digit lines', async () => {
    const r = await api('GET', '/api/v1/duty?hts=6109&value=1');
    expect(r.status).toBe(400);
    expect(r.body.error.message).toMatch(/5 8-digit lines/);
    expect(r.body.error.details).toMatchObject({ parameter: 'hts', tariff_lines: 5 });
    // Issue 28: the candidate lines with their general rates.
    expect(r.body.error.details.candidates.map((c: { hts: string; general: string }) => `${c.hts} ${c.general}`)).toEqual(['6109.10.00 16.5%', '6109.90.10 32%', '6109.90.15 5.6%', '6109.90.40 2.6%', '6109.90.80 16%']);
  });
  it('an unknown statistical suffix is costed at its 8-digit line (issue 28): 3004.39.0099', async () => {
    const r = await api('GET', '/api/v1/duty?hts=3004.39.0099&value=1000&origin=CN&date=2026-06-10');
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ hts: '3004.39.00', hts_revision: '2026 Revision 10' });
    expect(r.body.assumptions[0]).toMatch(/^Code 3004\.39\.00\.99: the statistical suffix 99 is not in the schedule/);
  });
  it('a code of another revision (issue 38): 3004.39.0050, a line until 2026 Revision 2 split it', async () => {
    // On 2025-09-15 (2025 Revision 22 governs, from 2025-09-08) the code is its own line.
    const then = await api('GET', '/api/v1/duty?hts=3004.39.0050&value=1000&origin=CN&date=2025-09-15');
    expect(then.body).toMatchObject({ hts: '3004.39.00.50', hts_revision: '2025 Revision 22' });
    // On 2026-06-10 it is read as 3004.39.00, whose rates (Free) it carried, and the assumption says so.
    const now = await api('GET', '/api/v1/duty?hts=3004.39.0050&value=1000&origin=CN&date=2026-06-10');
    expect(now.body).toMatchObject({ hts: '3004.39.00', hts_revision: '2026 Revision 10', duty: 0 });
    expect(now.body.assumptions[0]).toMatch(/^Code 3004\.39\.00\.50 is not in 2026 Revision 10, the schedule in force on the entry date; it was a line of 2026 Revision 1 .*read as 3004\.39\.00\.$/);
  });
  it('an unknown code is a 404', async () => {
    const r = await api('GET', '/api/v1/duty?hts=0000.00.00&value=1');
    expect(r.status).toBe(404);
    expect(r.body.error.code).toBe('not_found');
  });
  it('unknown and repeated parameters are 400s', async () => {
    expect((await api('GET', '/api/v1/duty?hts=6109.10.00&orgin=china')).body.error).toMatchObject({ code: 'invalid_parameter', details: { parameter: 'orgin' } });
    expect((await api('GET', '/api/v1/duty?hts=6109.10.00&value=1&value=2')).body.error.message).toMatch(/value is given more than once/);
  });
});

describe('chapter 99 through the API', () => {
  it('claim and importer facts are accepted by GET /duty: a Mexican car without USMCA, 2.5% + 9903.94.01 25% of 40,000', async () => {
    const r = await api('GET', '/api/v1/duty?hts=8703.23.01&value=40000&origin=MX&claim=none&us_content=0&date=2026-11-22');
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ origin_country: 'MX', duty: 1000, section_232: 10000, additional_duty: 10000, total_duties_fees: 11138.56 });
  });
  it('a bad fact is a 400 naming it', async () => {
    const r = await api('GET', '/api/v1/duty?hts=8703.23.01&value=100&patented=maybe');
    expect(r.status).toBe(400);
    expect(r.body.error.details).toMatchObject({ parameter: 'patented' });
  });
  it('content_needed and the exemption layer (issue 28): a steel-frame seat from China on 2025-09-15 without contents', async () => {
    const r = await api('GET', '/api/v1/duty?hts=9401.79.0015&value=10000&origin=CN&date=2025-09-15');
    expect(r.status).toBe(200);
    // The whole value as steel content (50%: 5,000), not also as aluminum content; the reciprocal duty's exemption heading at 0.
    expect(r.body).toMatchObject({ section_232: 5000, content_needed: ['steel', 'aluminum'] });
    expect(r.body.additional_duties.at(-1)).toEqual({ program: 'ieepa_reciprocal', authority: 'IEEPA', heading: '9903.01.33', rate: 0, rate_kind: 'exempt', basis: 'full_value', amount: 0, refundable: false });
  });
  it('statistical_suffix_needed (issue 28): 6307.90.98.99 from China, a suffix the schedule lacks under a line whose ten-digit lines the Section 301 lists name', async () => {
    // Issue 38: dated 2026-06-10 (2026 Revision 10). Its ten-digit lines .42-.75 cite 9903.91.07 from 2026's basic edition
    // on; in 2025's revisions none cited a list of its own, so a 2025 entry needs no suffix.
    const r = await api('GET', '/api/v1/duty?hts=6307.90.98.99&value=10000&origin=CN&date=2026-06-10');
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ hts: '6307.90.98', duty: 700, section_301: 2500, statistical_suffix_needed: true });
    const other = await api('GET', '/api/v1/duty?hts=6109.10.00.99&value=1000&origin=CN&date=2025-09-15');
    expect(other.body).toMatchObject({ hts: '6109.10.00' });
    expect(other.body).not.toHaveProperty('statistical_suffix_needed');
  });
  it('metal contents above the value in all: a 400 naming them', async () => {
    const r = await api('GET', '/api/v1/duty?hts=8302.10.60.30&value=10000&origin=CN&date=2026-03-16&steel_content=6000&aluminum_content=5000');
    expect(r.status).toBe(400);
    expect(r.body.error).toMatchObject({ code: 'invalid_parameter', details: { parameter: 'steel_content, aluminum_content' } });
  });
  it('bulk: the order\'s claim is the items\' default; totals per program and refundable', async () => {
    const body = { date: '2025-10-01', claim: 'none', items: [{ hts: '6109.10.00', value: 10000, origin: 'MX' }, { hts: '6109.10.00', value: 10000, origin: 'VN', claim: 'auto' }] };
    const r = await api('POST', '/api/v1/duty/bulk', { body });
    expect(r.status).toBe(200);
    // Mexico without USMCA on 2025-10-01: fentanyl +25% = 2,500 (reciprocal 0 for MX); Vietnam: reciprocal +20% = 2,000.
    expect(r.body.totals).toMatchObject({ by_program: { ieepa_fentanyl: 2500, ieepa_reciprocal: 2000 }, refundable: 4500, additional_duty: 4500 });
  });
  it('batch queries take the facts too', async () => {
    const r = await api('POST', '/api/v1/duty/batch', { body: { queries: [{ hts: '2918.99.30.00', value: 10000, origin: 'IN', patented: 1, date: '2026-11-22' }] } });
    expect(r.body.results[0]).toMatchObject({ section_232: 9350 }); // 100% total − 6.5% base
  });
});

describe('GET /api/v1/hts/{code}', () => {
  it('lists the chapter 99 programs naming the code, and the column 2 rate of 9903.90.08', async () => {
    expect((await api('GET', '/api/v1/hts/7208.10.15')).body.chapter99_programs[0]).toMatchObject({ program: 's232_metals', heading: '9903.82.02', from: '2026-04-06', to: null });
    expect((await api('GET', '/api/v1/hts/9903.90.08')).body).toMatchObject({ general: null, column2: '35%' });
  });
  it('a tariff line with its parents, programs, chapter 99 citations and children', async () => {
    const r = await api('GET', '/api/v1/hts/6109.10.00');
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ hts: '6109.10.00', general: '16.5%', column2: '90%', rates_from: null });
    expect(r.body.full_description).toMatch(/T-shirts, singlets, tank tops.* > Of cotton$/);
    expect(r.body.special_programs).toContainEqual({ program: 'KR', rate: 'Free' });
    expect(r.body.chapter99).toContainEqual(expect.objectContaining({ heading: '9903.88.15', rate: 'The duty provided in the applicable subheading + 7.5%' }));
    expect(r.body.children.map((c: { hts: string }) => c.hts)).toContain('6109.10.00.12');
  });
  it('a 10-digit line inherits its rates and says from where', async () => {
    expect((await api('GET', '/api/v1/hts/6109100012')).body).toMatchObject({ general: '16.5%', rates_from: '6109.10.00', children: [] });
  });
  it('a heading lists its children', async () => {
    const r = await api('GET', '/api/v1/hts/6109');
    expect(r.body.children.map((c: { hts: string }) => c.hts)).toEqual(['6109.10.00', '6109.90']);
    expect(r.body.general).toBeNull();
  });
  it('404 for an unknown code, 400 for a malformed one', async () => {
    expect((await api('GET', '/api/v1/hts/0000')).status).toBe(404);
    expect((await api('GET', '/api/v1/hts/61x9')).status).toBe(400);
  });
});

describe('GET /api/v1/exporters', () => {
  it('ranks the chapter of the code by 2024 export value', async () => {
    const r = await api('GET', '/api/v1/exporters?hts=8471&limit=3');
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ chapter: '84', year: 2024 });
    expect(r.body.exporters.map((e: { iso3: string }) => e.iso3)).toEqual(['CHN', 'USA', 'DEU']);
    expect(r.body.exporters[0]).toMatchObject({ rank: 1, country: 'China' });
    // CHN 630.1 bn of 2,764 bn (SOURCE.md): about 22.8%.
    expect(r.body.exporters[0].share).toBeCloseTo(0.228, 2);
  });
  it('limit defaults to 10, maximum 50', async () => {
    expect((await api('GET', '/api/v1/exporters?hts=61')).body.exporters).toHaveLength(10);
    expect((await api('GET', '/api/v1/exporters?hts=61&limit=51')).body.error).toMatchObject({ code: 'invalid_parameter', details: { parameter: 'limit' } });
  });
  it('chapters 98 and 99 have no data: 404 with the reason', async () => {
    const r = await api('GET', '/api/v1/exporters?hts=9903.88.15');
    expect(r.status).toBe(404);
    expect(r.body.error.message).toMatch(/chapters 98 and 99/);
  });
});

describe('POST /api/v1/duty/bulk and /duty/batch', () => {
  const items = [
    { hts: '6109.10.00', value: 1000, origin: 'china' },
    { hts: '6109.10.00.12', value: 3000, origin: 'kr' },
    { hts: '8471.30.01.00', value: 2000 },
    { hts: 'bogus', value: 10 },
  ];
  it('costs the order with fees once per entry; a bad line does not sink it', async () => {
    const r = await api('POST', '/api/v1/duty/bulk', { body: { items, ocean: 1, date: '2026-11-21' } });
    expect(r.status).toBe(200);
    expect(r.body.lines[3]).toMatchObject({ line: 4, error: { code: 'invalid_parameter' } });
    // Section 301, every action (issue 30): China 75 (List 4A) + 125 (note 52), Korea note 52 12.5% total over Free × 3,000 = 375.
    expect(r.body.totals).toMatchObject({ lines: 4, errors: 1, customs_value: 6000, mpf: 33.58, hmf: 7.5, duty: 165, section_301: 575 });
    const good = r.body.lines.filter((l: object) => !('error' in l));
    expect(good.reduce((s: number, l: { mpf: number }) => s + cents(l.mpf), 0)).toBe(3358);
  });
  it('the answer, written a line at a time, is the text JSON.stringify writes, in UTF-8, a line past U+00FF (Frogsʼ legs) included', async () => {
    const res = await fetch(`${srv.url}/api/v1/duty/bulk`, {
      method: 'POST',
      // As written, not compressed (compression: test/server/compression.test.ts).
      headers: { authorization: `Bearer ${srv.key}`, 'content-type': 'application/json', 'accept-encoding': 'identity' },
      body: JSON.stringify({ items: [...items, { hts: '0208.90.25.00', value: 100, origin: 'FR' }], date: '2026-11-21' }),
    });
    const bytes = Buffer.from(await res.arrayBuffer());
    const text = bytes.toString('utf8');
    expect(Number(res.headers.get('content-length'))).toBe(bytes.length);
    const parsed = JSON.parse(text);
    expect(parsed.lines[4].description).toBe('Frogsʼ legs');
    expect(text).toBe(JSON.stringify(parsed));
  });
  it('bulk totals against single calls: duty and 301 equal, fees entered once instead of per line', async () => {
    const singles = await Promise.all(items.slice(0, 3).map((i) => api('GET', `/api/v1/duty?hts=${i.hts}&value=${i.value}&origin=${i.origin ?? 'mfn'}&date=2026-11-21`)));
    const bulk = (await api('POST', '/api/v1/duty/bulk', { body: { items: items.slice(0, 3), date: '2026-11-21' } })).body;
    expect(cents(bulk.totals.duty)).toBe(singles.reduce((s, r) => s + cents(r.body.duty), 0));
    expect(cents(bulk.totals.section_301)).toBe(singles.reduce((s, r) => s + cents(r.body.section_301), 0));
    // Alone, the China and mfn lines each pay the 33.58 minimum; together, one minimum.
    expect(singles.reduce((s, r) => s + cents(r.body.mpf), 0)).toBe(2 * 3358);
    expect(bulk.totals.mpf).toBe(33.58);
  });
  it('bulk states the caveats once, in the order\'s notes; each line keeps only its own notes', async () => {
    const bulk = (await api('POST', '/api/v1/duty/bulk', { body: { items: items.slice(0, 3), date: '2026-11-21' } })).body;
    for (const c of CAVEATS) expect(bulk.notes.filter((n: string) => n === c)).toHaveLength(1);
    for (const [i, item] of items.slice(0, 3).entries()) {
      const single = (await api('GET', `/api/v1/duty?hts=${item.hts}&value=${item.value}&origin=${item.origin ?? 'mfn'}&date=2026-11-21`)).body;
      // A GET is a response of its own: it keeps the caveats (and the fee year's note, here after the table's last year).
      for (const c of CAVEATS) expect(single.notes).toContain(c);
      expect(bulk.lines[i].notes).toEqual(single.notes.filter((n: string) => !bulk.notes.includes(n)));
    }
    // The KR line's own MPF exemption stays on it.
    expect(bulk.lines[1].notes.join(' ')).toMatch(/No MPF/);
  });
  it('batch answers each query exactly as the GET would', async () => {
    const queries = [...items, { hts: '2009.11.00', value: 5000, qty: 1200, unit: 'gal' }, 'not an object'].map((q) => (typeof q === 'object' ? { ...q, date: '2026-11-21' } : q));
    const r = await api('POST', '/api/v1/duty/batch', { body: { queries } });
    expect(r.status).toBe(200);
    expect(r.body.results).toHaveLength(6);
    for (const [i, q] of queries.entries()) {
      if (typeof q !== 'object') continue;
      const qs = new URLSearchParams(Object.entries(q).map(([k, v]) => [k, String(v)])).toString();
      const single = await api('GET', `/api/v1/duty?${qs}`);
      expect(r.body.results[i]).toEqual(single.status === 200 ? single.body : { error: single.body.error });
    }
    expect(r.body.results[4].duty).toBe(356.59);
    expect(r.body.results[5].error).toMatchObject({ code: 'invalid_parameter', details: { parameter: 'queries[5]' } });
  });
  it('an order of 2,500 lines in three requests is one entry: MPF once, the lines adding up to it', async () => {
    const items = Array.from({ length: 2500 }, () => ({ hts: '6109.10.00', value: 1000, origin: 'china' }));
    const parts = [0, 1, 2].map((i) => items.slice(i * 1000, (i + 1) * 1000));
    // Pass 1: each part's value liable to MPF.
    const bases = await Promise.all(parts.map(async (p) => (await api('POST', '/api/v1/duty/bulk', { body: { items: p, date: '2026-11-21' } })).body.totals.mpf_basis as number));
    expect(bases).toEqual([1_000_000, 1_000_000, 500_000]);
    // Pass 2: each part as its share of the entry: 0.3464% × 2,500,000 = 8,660 > the 651.50 maximum, once.
    let before = 0;
    let sum = 0;
    for (const [i, p] of parts.entries()) {
      const r = await api('POST', '/api/v1/duty/bulk', { body: { items: p, date: '2026-11-21', entry: { mpf_basis: 2_500_000, hmf_basis: 0, mpf_basis_before: before, hmf_basis_before: 0 } } });
      expect(r.status).toBe(200);
      expect(r.body.totals.entry_mpf).toBe(651.5);
      sum += r.body.lines.reduce((s: number, l: { mpf: number }) => s + cents(l.mpf), 0);
      before += bases[i];
    }
    expect(sum).toBe(65_150);
  });
  it('orders answered at once each get their own answer', async () => {
    const t = realTariff();
    const orders = [1, 2, 3, 4].map((seed) => ({ items: mixedItems(linePools(t), 1000, seed), ocean: true, date: '2026-11-21' }));
    const answers = await Promise.all(orders.map((body) => api('POST', '/api/v1/duty/bulk', { body })));
    answers.forEach((r, i) => {
      expect(r.status).toBe(200);
      expect(r.body).toEqual(JSON.parse(JSON.stringify(t.order(orders[i]))));
    });
  });
  it('a body larger than one read of the socket (64 kB) is read whole', async () => {
    // 40-character values: about 90 kB, which the server receives in more than one piece.
    const items = Array.from({ length: 1000 }, () => ({ hts: '6109.10.00.12', value: '1234.56'.padEnd(40, '0'), origin: 'china' }));
    const body = JSON.stringify({ items });
    expect(body.length).toBeGreaterThan(80 * 1024);
    const r = await api('POST', '/api/v1/duty/bulk', { raw: body, headers: { 'content-type': 'application/json' } });
    expect(r.status).toBe(200);
    expect(r.body.totals).toMatchObject({ lines: 1000, errors: 0, customs_value: 1_234_560 });
  });
  it('more than 1,000 items: 400 too_many_lines', async () => {
    const many = Array.from({ length: 1001 }, () => ({ hts: '6109.10.00', value: 1 }));
    const r = await api('POST', '/api/v1/duty/bulk', { body: { items: many } });
    expect(r.status).toBe(400);
    expect(r.body.error.code).toBe('too_many_lines');
    expect((await api('POST', '/api/v1/duty/batch', { body: { queries: many } })).body.error.code).toBe('too_many_lines');
    expect((await api('POST', '/api/v1/duty/bulk', { body: { items: many.slice(0, 1000) } })).body.totals.lines).toBe(1000);
  });
  it('malformed JSON, wrong shape, wrong content type, oversized body', async () => {
    const bad = await api('POST', '/api/v1/duty/bulk', { raw: '{"items": [', headers: { 'content-type': 'application/json' } });
    expect([bad.status, bad.body.error.code]).toEqual([400, 'invalid_json']);
    const arr = await api('POST', '/api/v1/duty/bulk', { body: [1, 2] });
    expect([arr.status, arr.body.error.code, arr.body.error.details.parameter]).toEqual([400, 'invalid_parameter', 'body']);
    const notArray = await api('POST', '/api/v1/duty/bulk', { body: { items: 'x' } });
    expect(notArray.body.error.details.parameter).toBe('items');
    const text = await api('POST', '/api/v1/duty/bulk', { raw: '{"items": []}', headers: { 'content-type': 'text/plain' } });
    expect([text.status, text.body.error.code]).toEqual([415, 'unsupported_media_type']);
    const huge = await api('POST', '/api/v1/duty/bulk', { raw: JSON.stringify({ items: [], pad: 'x'.repeat(2 * 1024 * 1024 + 10) }), headers: { 'content-type': 'application/json' } });
    expect([huge.status, huge.body.error.code]).toEqual([413, 'payload_too_large']);
    // The details name the limit that applies (2 MB).
    expect(huge.body.error.details).toEqual({ parameter: 'body', max_bytes: 2 * 1024 * 1024 });
  });
});

describe('GET /api/v1/hts?q=', () => {
  it('by words: ranked lines with code, path, general rate, units and score, under the key\'s limit', async () => {
    const r = await api('GET', '/api/v1/hts?q=laptop%20computer&limit=3');
    expect(r.status).toBe(200);
    expect(r.headers.get('x-ratelimit-limit')).toBe(String(KEY_LIMIT));
    expect(r.body).toMatchObject({ q: 'laptop computer', kind: 'words', hts_revision: '2026 Revision 10' });
    expect(r.body.results).toHaveLength(3);
    expect(r.body.results[0]).toMatchObject({ general: 'Free', units: ['No.'] });
    expect(r.body.results[0].hts).toMatch(/^8471\./);
    expect(r.body.results[0].path[0]).toMatch(/^Automatic data processing machines/);
  });
  it('limit defaults to 10', async () => {
    expect((await api('GET', '/api/v1/hts?q=frozen%20shrimp')).body.results).toHaveLength(10);
  });
  it('by code, dotted or not: the lines under it with their rates', async () => {
    const r = await api('GET', '/api/v1/hts?q=6109.10&limit=50');
    expect(r.body).toMatchObject({ kind: 'code', same_rates: true });
    expect(r.body.results.map((h: { hts: string }) => h.hts)).toEqual(expect.arrayContaining(['6109.10.00', '6109.10.00.12']));
    expect(r.body.results.every((h: { general: string | null; score: null }) => h.score === null && (h.general === '16.5%' || h.general === null))).toBe(true);
    expect((await api('GET', '/api/v1/hts?q=610910')).body.results[0].hts).toBe('6109.10.00');
  });
  it('chapters 98 and 99 only when asked', async () => {
    const q = 'products%20of%20China%20subject%20to%20additional%20duties&limit=50';
    expect((await api('GET', `/api/v1/hts?q=${q}`)).body.results.some((h: { hts: string }) => /^9[89]/.test(h.hts))).toBe(false);
    expect((await api('GET', `/api/v1/hts?q=${q}&chapters98_99=1`)).body.results.some((h: { hts: string }) => /^99/.test(h.hts))).toBe(true);
  });
  it('400s name the parameter: q missing, too short or too long, a bad limit, an unknown or repeated parameter', async () => {
    for (const [query, parameter] of [
      ['', 'q'],
      ['q=a', 'q'],
      [`q=${'x'.repeat(201)}`, 'q'],
      ['q=61091', 'q'],
      ['q=shirts&limit=0', 'limit'],
      ['q=shirts&limit=51', 'limit'],
      ['q=shirts&limit=ten', 'limit'],
      ['q=shirts&chapters98_99=maybe', 'chapters98_99'],
      ['q=shirts&query=shirts', 'query'],
      ['q=shirts&q=shoes', 'q'],
    ]) {
      const r = await api('GET', `/api/v1/hts?${query}`);
      expect(r.status, query).toBe(400);
      expect(r.body.error, query).toMatchObject({ code: 'invalid_parameter', details: { parameter } });
    }
  });
  it('a code with no line under it is a 404; no key is a 401', async () => {
    expect((await api('GET', '/api/v1/hts?q=0000')).body.error).toMatchObject({ code: 'not_found', details: { parameter: 'q' } });
    expect((await api('GET', '/api/v1/hts?q=laptop', { key: null })).status).toBe(401);
  });
});

describe('POST /api/v1/hts/batch', () => {
  it('answers each query as GET /hts?q= does, in order, with a refused query\'s error in its place', async () => {
    const r = await api('POST', '/api/v1/hts/batch', { body: { queries: ['laptop computer', '6109.10', 'a', '0000'], limit: 3 } });
    expect(r.status).toBe(200);
    expect(r.headers.get('x-ratelimit-limit')).toBe(String(KEY_LIMIT));
    const [words, code, short, none] = r.body.answers;
    expect(words).toEqual((await api('GET', '/api/v1/hts?q=laptop%20computer&limit=3')).body);
    expect(code).toMatchObject({ kind: 'code', same_rates: true });
    expect(code.results[0].hts).toBe('6109.10.00');
    expect(short.error).toMatchObject({ code: 'invalid_parameter', details: { parameter: 'queries[2]' } });
    expect(none.error).toMatchObject({ code: 'not_found', details: { parameter: 'queries[3]' } });
    // A query that is not text is refused as such, not read as the text "5".
    const odd = (await api('POST', '/api/v1/hts/batch', { body: { queries: ['shirts', 5, null] } })).body.answers;
    expect(odd[1].error.message).toMatch(/^queries\[1\] must be words or a code of 2 to 200 characters, .*; got a number$/);
    expect(odd[2].error.message).toMatch(/; got null$/);
  });
  it('at most 50 queries; a bad limit or an unknown field is a 400 naming it; no key is a 401', async () => {
    const many = await api('POST', '/api/v1/hts/batch', { body: { queries: Array(51).fill('shirts') } });
    expect([many.status, many.body.error.code, many.body.error.details]).toEqual([400, 'too_many_lines', { parameter: 'queries', max: 50, given: 51 }]);
    // Past 1,000 too, the message names the batch's own limit (50), not an order's.
    const thousands = await api('POST', '/api/v1/hts/batch', { body: { queries: Array(1001).fill('shirts') } });
    expect([thousands.status, thousands.body.error.message, thousands.body.error.details]).toEqual([400, 'queries has 1001 entries; at most 50 per request', { parameter: 'queries', max: 50, given: 1001 }]);
    expect((await api('POST', '/api/v1/hts/batch', { body: { queries: 'shirts' } })).body.error.details.parameter).toBe('queries');
    const badLimit = await api('POST', '/api/v1/hts/batch', { body: { queries: ['shirts'], limit: 500 } });
    expect([badLimit.status, badLimit.body.error.details.parameter]).toEqual([400, 'limit']);
    // 2,000 characters of query text at most: 11 queries of 190 are 2,090.
    const long = await api('POST', '/api/v1/hts/batch', { body: { queries: Array(11).fill(`cotton t-shirts ${'x'.repeat(174)}`) } });
    expect([long.status, long.body.error.code, long.body.error.details]).toEqual([400, 'too_many_lines', { parameter: 'queries', max_characters: 2000, given_characters: 2090 }]);
    expect((await api('POST', '/api/v1/hts/batch', { body: { queries: ['shirts'], q: 'x' } })).body.error.details.parameter).toBe('q');
    expect((await api('POST', '/api/v1/hts/batch', { body: { queries: ['shirts'] }, key: null })).status).toBe(401);
  });
});

describe('authentication', () => {
  it('no key: 401 with WWW-Authenticate and the JSON error', async () => {
    const r = await api('GET', '/api/v1/duty?hts=6109.10.00', { key: null });
    expect(r.status).toBe(401);
    expect(r.headers.get('www-authenticate')).toMatch(/^Bearer/);
    expect(r.body.error.code).toBe('unauthorized');
  });
  it('a wrong or revoked key: 401', async () => {
    expect((await api('GET', '/api/v1/duty?hts=6109.10.00', { key: 'lk_wrong' })).status).toBe(401);
    const { key, info } = srv.keys.create('to revoke');
    expect((await api('GET', '/api/v1/hts/6109', { key })).status).toBe(200);
    srv.keys.revoke([info.id]);
    expect((await api('GET', '/api/v1/hts/6109', { key })).status).toBe(401);
  });
  it('?key= is accepted (discouraged) and never logged', async () => {
    const r = await api('GET', `/api/v1/hts/6109?key=${srv.key}`, { key: null });
    expect(r.status).toBe(200);
    const logs = srv.logs.join('\n');
    expect(logs).toContain('key=[redacted]');
    expect(logs).not.toContain(srv.key);
  });
  it('the OpenAPI document is public and valid OpenAPI 3.0.3', async () => {
    const r = await api('GET', '/api/v1/openapi.json', { key: null });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ openapi: '3.0.3', info: { version: '1.0.0' } });
    await expect(SwaggerParser.validate(JSON.parse(JSON.stringify(openapi)))).resolves.toBeTruthy();
  });
  it('unknown endpoints: JSON 404', async () => {
    const r = await fetch(`${srv.url}/nope`);
    expect(r.status).toBe(404);
    expect((await r.json()).error.code).toBe('not_found');
  });
  it('/healthz needs no key', async () => {
    const r = await fetch(`${srv.url}/healthz`);
    expect(await r.json()).toEqual({ status: 'ok', hts_revision: '2026 Revision 10', key_store: 'ok', rate_limiter: 'ok' });
  });
});

describe('rate limit: 120 requests per minute per key', () => {
  let limited: RunningServer;
  beforeAll(async () => {
    limited = await startServer();
  });
  afterAll(() => limited.close());

  it('counts down, then answers 429 with Retry-After; other keys are unaffected', async () => {
    const { key } = limited.keys.create('limit');
    const own = client(limited.url, key);
    const api = client(limited.url, limited.key);
    let last = await own('GET', '/api/v1/hts/6109');
    expect(last.headers.get('x-ratelimit-remaining')).toBe('119');
    for (let i = 2; i <= 120; i++) last = await own('GET', i % 2 ? '/api/v1/hts/6109' : '/api/v1/duty?hts=bad');
    expect(last.headers.get('x-ratelimit-remaining')).toBe('0');
    const over = await own('POST', '/api/v1/duty/bulk', { body: { items: [] } });
    expect(over.status).toBe(429);
    expect(over.body.error.code).toBe('rate_limited');
    expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(Number(over.headers.get('x-ratelimit-reset'))).toBeLessThanOrEqual(60);
    expect((await api('GET', '/api/v1/hts/6109')).status).toBe(200);
  });
  it('a search batch counts as its queries; a duty batch or an order as one request, whatever its lines', async () => {
    const { key } = limited.keys.create('batches');
    const own = client(limited.url, key);
    // 50 queries: 120 - 50 = 70 left, in the headers of the answer.
    const searches = await own('POST', '/api/v1/hts/batch', { body: { queries: Array.from({ length: 50 }, (_, i) => `cotton ${i}`) } });
    expect(searches.status).toBe(200);
    expect(searches.headers.get('x-ratelimit-remaining')).toBe('70');
    // 250 lines, then 101 queries: one request each, 69 then 68 left.
    const line = { hts: '6109.10.00', value: 100 };
    expect((await own('POST', '/api/v1/duty/bulk', { body: { items: Array(250).fill(line) } })).headers.get('x-ratelimit-remaining')).toBe('69');
    expect((await own('POST', '/api/v1/duty/batch', { body: { queries: Array(101).fill(line) } })).headers.get('x-ratelimit-remaining')).toBe('68');
    // A second search batch of 50 fits (68 - 50 = 18); a third does not, and nothing of it is counted: 429 naming the limit and the weight.
    expect((await own('POST', '/api/v1/hts/batch', { body: { queries: Array(50).fill('wool') } })).headers.get('x-ratelimit-remaining')).toBe('18');
    const over = await own('POST', '/api/v1/hts/batch', { body: { queries: Array(50).fill('wool') } });
    expect(over.status).toBe(429);
    expect(over.body.error.message).toMatch(/Rate limit of 120 requests per 60 seconds reached for this request, which counts as 50 \(18 left\)/);
    expect(over.body.error.details).toMatchObject({ limit: 120, window_seconds: 60 });
    expect(over.headers.get('x-ratelimit-remaining')).toBe('18');
    // A batch of 18 queries still passes, leaving none.
    expect((await own('POST', '/api/v1/hts/batch', { body: { queries: Array(18).fill('wool') } })).headers.get('x-ratelimit-remaining')).toBe('0');
  });
  it('unauthenticated requests are limited per address', async () => {
    let r;
    for (let i = 0; i < 40; i++) r = await client(limited.url, limited.key)('GET', '/api/v1/hts/6109', { key: 'lk_guess' + i });
    expect(r!.status).toBe(429);
    // The details name the address's limit (UNAUTH_RATE_LIMIT, 30 by default) and its span.
    expect(r!.body.error.details).toMatchObject({ limit: 30, window_seconds: 60 });
    expect(r!.body.error.message).toMatch(/^Too many requests without a valid key from this address \(at most 30 per 60 seconds\); retry in \d+ s$/);
  });
});
