/** TARIFF.SEARCH against the real API server (in process, real schedule and search index). */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../helpers/server.js';
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
  clientFor(server.url, server.key, rec.fetch);
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
