/**
 * Every TARIFF.* function against the real API server (in process, real schedule): the figures are
 * worked out by hand from the schedule lines, and the error cells are what a user would see.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../helpers/server.js';
import type { RateLimiter } from '../../server/auth/rate-limit.js';
import { cell, clientFor, installCustomFunctions, recordingFetch, type Sent } from './helpers.js';

installCustomFunctions();
const F = await import('../../excel-addin/src/functions/functions.js');

let server: RunningServer;
let sent: Sent[];

beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server?.close());

beforeEach(() => {
  const rec = recordingFetch();
  sent = rec.sent;
  clientFor(server.url, server.key, rec.fetch, { batch: { windowMs: 10 } });
});

const batches = () => sent.filter((s) => s.url.endsWith('/api/v1/duty/batch'));

describe('money functions: 6109.10.00 (cotton T-shirts, general 16.5%), $10,000', () => {
  // China: 16.5% = 1,650; Section 301 List 4A (9903.88.15) 7.5% = 750; MPF 0.3464% = 34.64
  // (between the FY2026 minimum 33.58 and maximum 651.50); HMF 0.125% = 12.50 by vessel.
  it('DUTY, SECTION301, MPF, HMF, FEES and LANDED for goods of China', async () => {
    const args = ['6109.10.00', 10000, 'china'] as const;
    const [duty, s301, mpf, hmf, hmfOcean, fees, landed] = await Promise.all([
      F.duty(...args),
      F.section301(...args),
      F.mpf(...args),
      F.hmf(...args),
      F.hmf(...args, null, true),
      F.fees(...args),
      F.landedCost(...args),
    ]);
    // SECTION301 is every Section 301 action (issue 30): List 4A 750 and, since 2026-07-24, note 52 (China +12.5%) 1,250.
    expect([duty, s301, mpf, hmf, hmfOcean]).toEqual([1650, 2000, 34.64, 0, 12.5]);
    expect(fees).toBe(3684.64); // 1650 + 750 + 1250 + 34.64
    expect(landed).toBe(13684.64);
    expect(batches()).toHaveLength(1);
  });

  it('Korea: KORUS Free, exempt from MPF; Section 301 is note 52, 12.5% total over Free', async () => {
    const r = await Promise.all([F.duty('6109.10.00', 10000, 'kr'), F.section301('6109.10.00', 10000, 'kr'), F.mpf('6109.10.00', 10000, 'KR'), F.landedCost('6109.10.00', 10000, 'Korea')]);
    expect(r).toEqual([0, 1250, 0, 11250]); // 10,000 + 12.5% × 10,000
  });

  it('s301 overrides the derived rate; a number typed as the code works', async () => {
    // s301 sets China's lists; note 52's 1,250 stays in the Section 301 figure.
    expect(await F.section301(61091000, 10000, 'CN', 25)).toBe(3750);
    expect(await F.section301('6109.10.00', 10000, 'china', 'none')).toBe(1250);
  });
});

describe('S232, ADDITIONAL, and the date and claim arguments (last, so older formulas keep working)', () => {
  it('Section 232 of steel, IEEPA on a past entry date, no preference when none is claimed', async () => {
    // 7208.10.15 (flat-rolled steel, Free) from Vietnam today: Section 232 Annex I-A +50% (9903.82.02) of 12,000 = 6,000,
    // its only chapter 99 duty.
    expect(await F.s232('7208.10.15', 12000, 'VN')).toBe(6000);
    expect(await F.additional('7208.10.15', 12000, 'VN')).toBe(6000);
    // A T-shirt from Vietnam entered 2025-10-01 (a date cell arrives as its serial, 45931): IEEPA reciprocal 20% = 2,000.
    expect(await F.additional('6109.10.00', 10000, 'VN', null, null, null, null, 45931)).toBe(2000);
    expect(await F.s232('6109.10.00', 10000, 'VN', null, null, null, null, '2025-10-01')).toBe(0);
    // Korea without its KORUS claim: the general 16.5% of 10,000.
    expect(await F.duty('6109.10.00', 10000, 'kr', null, null, null, null, null, 'none')).toBe(1650);
    expect(batches().flatMap((b) => b.body.queries.map((q: { date?: string; claim?: string }) => [q.date, q.claim]))).toContainEqual(['2025-10-01', undefined]);
  });
});

describe('RATE and DESC', () => {
  it('RATE gives the rate that applies to the origin', async () => {
    expect(await Promise.all([F.rate('6109.10.00'), F.rate('6109.10.00', 'kr'), F.rate('6109.10.00', 'col2'), F.rate('0201.10.05')])).toEqual([
      '16.5%',
      'Free',
      '90%',
      '4.4¢/kg',
    ]);
  });

  it('DESC of a tariff line comes from the batch; of a heading, from its record', async () => {
    expect(await F.desc('6109.10.00')).toBe('Of cotton');
    expect(await F.desc('6109')).toMatch(/^T-shirts, singlets, tank tops and similar garments, knitted or crocheted/);
    expect(sent.map((s) => s.url.replace(server.url, ''))).toEqual(['/api/v1/duty/batch', '/api/v1/duty/batch', '/api/v1/hts/6109']);
  });
});

describe('RESULT and EXPORTERS spill', () => {
  it('RESULT is one row of the DutyResult, with the header row on request', async () => {
    const [row] = (await F.result('6109.10.00', 10000, 'china')) as unknown[][];
    const both = (await F.result('6109.10.00', 10000, 'china', null, null, true)) as unknown[][];
    expect(both).toHaveLength(2);
    expect(both[1]).toEqual(row);
    // The row is the API's own answer to the same query, field by field, in the header's order.
    const res = await fetch(`${server.url}/api/v1/duty?hts=6109.10.00&value=10000&origin=china`, { headers: { Authorization: `Bearer ${server.key}` } });
    const api = (await res.json()) as Record<string, unknown>;
    expect(both[0]).toEqual([...F.RESULT_COLUMNS]);
    expect(row).toEqual(F.RESULT_COLUMNS.map((c) => (Array.isArray(api[c]) ? (api[c] as string[]).join(' ') : (api[c] ?? ''))));
    const at = (name: string) => row[both[0].indexOf(name)];
    // 10,000 + 1,650 + 750 + 1,250 (note 52 China +12.5%) + 34.64
    expect([at('duty'), at('section_301'), at('section_301_heading'), at('landed_cost'), at('special_program')]).toEqual([1650, 2000, '9903.88.15', 13684.64, '']);
    expect(at('notes')).toContain('Antidumping and countervailing duties are not included.');
    expect(row.every((v) => ['string', 'number', 'boolean'].includes(typeof v))).toBe(true);
  });

  it('EXPORTERS is a ranked table under a header', async () => {
    const t = (await F.exporters('8471', 3)) as unknown[][];
    expect(t[0]).toEqual(['Rank', 'ISO3', 'Country', 'Value (USD)', 'Share']);
    expect(t).toHaveLength(4);
    expect(t.slice(1).map((r) => r[0])).toEqual([1, 2, 3]);
    const values = t.slice(1).map((r) => r[3] as number);
    expect(values[0]).toBeGreaterThanOrEqual(values[1]);
    expect(values[1]).toBeGreaterThanOrEqual(values[2]);
    expect(sent.map((s) => s.url.replace(server.url, ''))).toEqual(['/api/v1/exporters?hts=8471&limit=3']);
  });
});

describe('specific rates', () => {
  it('#N/A names the rate and asks for a quantity in the rate\'s unit, once (the words of Sheets\' =DUTY)', async () => {
    const r = await cell(F.duty('0201.10.05', 1000));
    expect(r).toEqual({
      error: '#N/A',
      message: '0201.10.05: The rate "4.4¢/kg" is specific: give qty and unit (per kg) to compute the duty. For example =TARIFF.DUTY(hts, value, origin, , , 100, "kg").',
    });
    // 18.7¢/m²: the example is in m2, not kg.
    expect(await cell(F.duty('7005.29.08', 1000))).toMatchObject({ error: '#N/A', message: expect.stringMatching(/\(per m2\) to compute the duty\. For example =TARIFF\.DUTY\(hts, value, origin, , , 100, "m2"\)\.$/) });
    // Counted in cartons (sent as articles): the message names CTN, as the formula does, not "each".
    expect(await cell(F.duty('0201.10.05', 1000, null, null, null, 10, 'CTN'))).toEqual({
      error: '#N/A',
      message: '0201.10.05: The rate "4.4¢/kg" is per kg; a quantity in CTN cannot be converted to it. For example =TARIFF.DUTY(hts, value, origin, , , 100, "kg").',
    });
    expect(await cell(F.landedCost('0201.10.05', 1000))).toMatchObject({ error: '#N/A' });
    // Section 301 and the fees do not depend on the quantity.
    expect(await F.mpf('0201.10.05', 1000)).toBe(33.58); // 0.3464% = 3.46, raised to the minimum
  });

  it('with qty and unit the duty is computed: 4.4¢/kg × 100 kg = 4.40; 6.3¢/liter × 100 liter = 6.30', async () => {
    expect(await F.duty('0201.10.05', 1000, null, null, null, 100, 'kg')).toBe(4.4);
    expect(await F.duty('2204.21.50', 1000, 'mfn', null, null, 100, 'liter')).toBe(6.3);
    expect(await F.landedCost('2204.21.50', 1000, 'mfn', null, null, 100, 'liter')).toBe(1039.88); // 1000 + 6.30 + 33.58
  });
});

describe('invoice units (the shared table): sent only where the rate needs a quantity', () => {
  it('an ad valorem line takes any unit: =TARIFF.DUTY("8708.30.5090",15000,"Mexico",,,2000,"SET") is a figure', async () => {
    // USMCA (claimed by default): Free. Without the claim, the general 2.5% of 15,000 = 375.
    expect(await F.duty('8708.30.5090', 15000, 'Mexico', null, null, 2000, 'SET')).toBe(0);
    expect(await F.duty('8708.30.5090', 15000, 'Mexico', null, null, 2000, 'SET', null, 'none')).toBe(375);
    // A unit no table knows does not matter to a 2.5% rate either.
    expect(await F.duty('8708.30.5090', 15000, 'Mexico', null, null, 2000, 'BNDL', null, 'none')).toBe(375);
  });

  it('a specific rate gets the quantity in its unit: KGM, and SQFT converted exactly to m²', async () => {
    expect(await F.duty('0201.10.05', 1000, null, null, null, 100, 'KGM')).toBe(4.4); // 4.4¢/kg × 100 kg
    // 18.7¢/m²: 1,000 sq ft = 92.90304 m² → $17.3728... = 17.37.
    expect(await F.duty('7005.29.08', 1000, null, null, null, 1000, 'SQFT')).toBe(17.37);
  });

  it('an unknown unit on a line whose rate needs a quantity is #VALUE! naming the unit', async () => {
    const r = await cell(F.duty('0201.10.05', 1000, null, null, null, 100, 'BNDL'));
    expect(r).toMatchObject({ error: '#VALUE!', message: expect.stringMatching(/^0201\.10\.05: Unit "BNDL" is not a unit of quantity this add-in knows .* the rate "4\.4¢\/kg" needs the quantity/) });
  });
});

describe('bad input is #VALUE! with the reason', () => {
  it('a blank value is an error, never a duty on 0 (it answered 0)', async () => {
    for (const blank of [null, undefined, '']) expect(await cell(F.duty('6109.10.00', blank, 'china'))).toEqual({ error: '#VALUE!', message: 'value is empty: give the customs value in U.S. dollars' });
    expect(sent).toHaveLength(0);
  });

  it.each([
    ['a code of 5 digits', ['12345', 100], /hts must have 4, 6, 8 or 10 digits/],
    ['a value that is not a number', ['6109.10.00', '12,000'], /value must be a number of U\.S\. dollars/],
    ['an unknown origin', ['6109.10.00', 100, 'Atlantis'], /origin "Atlantis" is not a known origin/],
    ['a bad s301', ['6109.10.00', 100, 'china', 30], /s301 must be 25, 7\.5, none or auto/],
    ['a heading where a tariff line is needed', ['6109', 100], /6109 is a heading; duty needs an 8- or 10-digit tariff line/],
  ])('%s', async (_, args, message) => {
    const r = await cell(F.duty(...(args as [unknown, unknown, unknown?, unknown?])));
    expect(r).toMatchObject({ error: '#VALUE!', message: expect.stringMatching(message) });
  });

  it('a code Excel turned into a number (6109.10 shows as 6109.1) is read as Sheets\' =DUTY() and both order panes read it: 6109.10', async () => {
    expect(await F.duty(6109.1, 100)).toBe(16.5); // 16.5% of 100, the one line of 6109.10 (it was #VALUE!)
  });

  it('a blank code says the code is blank, not that it must be a tariff code', async () => {
    for (const blank of [null, '', '  ']) expect(await cell(F.duty(blank, 100))).toEqual({ error: '#VALUE!', message: 'hts is blank: give a tariff code such as 6109.10.00' });
    expect(sent).toHaveLength(0);
  });

  it('a code not in the schedule is #N/A (not found)', async () => {
    expect(await cell(F.duty('9999.99.99', 100))).toMatchObject({ error: '#N/A', message: expect.stringMatching(/9999\.99\.99 is not in the schedule/) });
  });

  it('bad lines do not spoil the good ones of the same batch', async () => {
    const [good, bad] = await Promise.all([cell(F.duty('6109.10.00', 200, 'china')), cell(F.duty('61', 200))]);
    expect(good).toBe(33); // 16.5% of 200
    expect(bad).toMatchObject({ error: '#VALUE!' });
    expect(batches()).toHaveLength(1);
  });
});

describe('keys', () => {
  it('no key: #N/A saying where to set it, and no request', async () => {
    const rec = recordingFetch();
    clientFor(server.url, null, rec.fetch);
    const r = await cell(F.duty('6109.10.00', 100));
    expect(r).toMatchObject({ error: '#N/A', message: expect.stringMatching(/No landed API key is set: open the landed task pane \(Home tab › landed › Cost order\)/) });
    expect(await cell(F.exporters('8471'))).toMatchObject({ error: '#N/A', message: expect.stringMatching(/No landed API key/) });
    expect(rec.sent).toHaveLength(0);
  });

  it('a rejected key: #N/A saying so', async () => {
    clientFor(server.url, 'lk_not_a_real_key_000000', fetch);
    const r = await cell(F.duty('6109.10.00', 100));
    expect(r).toMatchObject({ error: '#N/A', message: expect.stringMatching(/rejected the key ending …0000 .*task pane/) });
  });
});

describe('a sheet of 2,000 DUTY cells', () => {
  it('recalculates with 2 requests and no error, then from the cache with none', async () => {
    const cells = () => Array.from({ length: 2000 }, (_, i) => cell(F.duty('6109.10.00', 1000 + i, 'china')));
    const values = await Promise.all(cells());
    expect(batches()).toHaveLength(2);
    expect(batches().map((b) => b.body.queries.length)).toEqual([1000, 1000]);
    expect(values.every((v) => typeof v === 'number')).toBe(true);
    expect(values[0]).toBe(165); // 16.5% of 1,000
    expect(values[1999]).toBe(494.84); // 16.5% of 2,999 = 494.835, half up
    await Promise.all(cells());
    expect(batches()).toHaveLength(2);
  });

  it('waits out the real server’s 429 and shows no error', async () => {
    // The server's limiter allows the first request and refuses the second (Retry-After: 1), as a
    // key at its 120th request of the minute would be; the batch is retried after the wait.
    const decisions = [true, false];
    const keyLimiter: RateLimiter = { hit: () => ({ allowed: decisions.shift() ?? true, limit: 120, remaining: 0, reset: 1 }), peek: () => ({ allowed: true, limit: 120, remaining: 120, reset: 1 }) };
    const tight = await startServer({ keyLimiter });
    try {
      const rec = recordingFetch();
      const client = clientFor(tight.url, tight.key, rec.fetch, { batch: { windowMs: 10 } });
      const first = await cell(F.duty('6109.10.00', 10000, 'china'));
      const second = await cell(F.mpf('6109.10.00', 10000, 'china', 25));
      expect([first, second]).toEqual([1650, 34.64]);
      expect(rec.sent.map((s) => s.status)).toEqual([200, 429, 200]);
      expect(rec.sent[2].body).toEqual(rec.sent[1].body);
      expect(client.api.retries).toBeGreaterThan(0);
    } finally {
      await tight.close();
    }
  });
});

describe('TARIFF.SEARCH spills code, description and general rate', () => {
  it('the best lines for words, under a header row, asked once', async () => {
    const t = await F.search("men's cotton t-shirts", 3);
    expect(t).toHaveLength(4);
    expect(t[0]).toEqual(['Code', 'Description', 'General rate']);
    expect(t[1]).toEqual(['6109.10.00.12', "T-shirts, singlets, tank tops and similar garments, knitted or crocheted > Of cotton > Men's or boys' > Other T-shirts > Men's (338)", '16.5%']);
    await F.search("men's cotton t-shirts", 3);
    expect(sent.map((s) => s.url.replace(server.url, ''))).toEqual(['/api/v1/hts?q=men%27s+cotton+t-shirts&limit=3']);
  });
  it('five lines by default; a code lists the lines under it with their rates', async () => {
    expect(await F.search('laptop')).toHaveLength(6);
    const t = await F.search('8471.30', 50);
    expect(t.slice(1)).toEqual([['8471.30.01.00', expect.stringMatching(/^Automatic data processing machines.* > Portable automatic data processing machines/), 'Free']]);
  });
  it('nothing found is #N/A saying so; a one-letter query is #VALUE! naming q', async () => {
    expect(await cell(F.search('qwzxv'))).toMatchObject({ error: '#N/A', message: expect.stringMatching(/No line of the schedule matches "qwzxv"/) });
    expect(await cell(F.search('a'))).toMatchObject({ error: '#VALUE!', message: expect.stringMatching(/^q must be words or a code of 2 to 200 characters/) });
  });
});
