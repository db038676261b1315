/** HTS_SEARCH of the built Code.js, in the Apps Script stand-ins, against the real (built) API. */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startAddon, type Addon } from './harness.js';

let addon: Addon;
beforeAll(async () => {
  addon = await startAddon();
});
afterAll(async () => {
  await addon?.close();
});

describe('HTS_SEARCH spills code, description and general rate', () => {
  test('the best lines for words under a header row; the recalculation is answered by the cache', () => {
    const w = addon.fresh();
    const t = w.call<string[][]>('HTS_SEARCH', "men's cotton t-shirts", 3);
    expect(t).toHaveLength(4);
    expect(t[0]).toEqual(['Code', 'Description', 'General rate']);
    expect(t[1]).toEqual(['6109.10.00.12', "T-shirts, singlets, tank tops and similar garments, knitted or crocheted > Of cotton > Men's or boys' > Other T-shirts > Men's (338)", '16.5%']);
    expect(w.call('HTS_SEARCH', "men's cotton t-shirts", 3)).toEqual(t);
    expect(w.requests.map((r) => r.url.replace(addon.server.url, ''))).toEqual(["/api/v1/hts?q=men's%20cotton%20t-shirts&limit=3"]);
  });
  test('five lines by default; a code lists the lines under it with their rates', () => {
    const w = addon.fresh();
    expect(w.call<string[][]>('HTS_SEARCH', 'laptop')).toHaveLength(6);
    expect(w.call<string[][]>('HTS_SEARCH', '8471.30', 50).slice(1)).toEqual([['8471.30.01.00', expect.stringMatching(/^Automatic data processing machines.* > Portable automatic data processing machines/), 'Free']]);
  });
  test('nothing found is #N/A saying so; a one-letter query is #VALUE! naming q', () => {
    const w = addon.fresh();
    expect(() => w.call('HTS_SEARCH', 'qwzxv')).toThrow(/^#N\/A No line of the schedule matches "qwzxv"/);
    expect(() => w.call('HTS_SEARCH', 'a')).toThrow(/^#VALUE! q must be words or a code of 2 to 200 characters/);
  });
});
