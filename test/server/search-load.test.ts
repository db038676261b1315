/** The built server reads the search index just after `ready`, not on the first search (issue 40: a search soon after a start answers at once). */
import { describe, expect, it } from 'vitest';
import { loadTariff } from '../../server/config.js';
import { prepareSearch } from '../../server/data/search-index.js';
import { startServerProcess } from '../helpers/server.js';

describe('the search index at start', () => {
  it('is loaded after ready, without a search asking for it, and then answers', async () => {
    const srv = await startServerProcess();
    try {
      const at = (msg: string) => srv.logs.findIndex((l) => l.includes(`"msg":"${msg}"`));
      // No request has been made: the load is the server's own, after its start.
      for (let waited = 0; at('search index loaded') < 0 && waited < 30_000; waited += 50) await new Promise((r) => setTimeout(r, 50));
      expect(at('ready')).toBeGreaterThanOrEqual(0);
      expect(at('search index loaded')).toBeGreaterThan(at('ready'));
      const res = await fetch(`${srv.url}/api/v1/hts?q=cotton%20t-shirts&limit=1`, { headers: { authorization: `Bearer ${srv.key}` } });
      expect(res.status).toBe(200);
      // 6109.10.00 "T-shirts, singlets, tank tops and similar garments, knitted or crocheted: Of cotton".
      expect((await res.json()).results[0].hts).toMatch(/^6109\.10/);
    } finally {
      await srv.close();
    }
  });

  it('is not read again when a search came first (the read waits 250 ms after ready)', async () => {
    const tariff = loadTariff();
    expect(tariff.searchIndexReady).toBe(false);
    expect(tariff.search({ q: 'cotton t-shirts', limit: 1 }).results[0].hts).toMatch(/^6109\.10/);
    expect(tariff.searchIndexReady).toBe(true);
    let loaded = 0;
    await prepareSearch(tariff, () => loaded++);
    expect(loaded).toBe(0);
  });
});
