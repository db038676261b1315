/**
 * The batching client against a scripted server: it lets each test decide what a response is (a 429,
 * a per-line error, another revision) and count exactly what the client sent.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError, memoryStore } from '../../excel-addin/src/client/index.js';
import { LandedApi } from '../../excel-addin/src/client/api.js';
import { DutyBatcher, compactQuery } from '../../excel-addin/src/client/batcher.js';

interface Call {
  url: string;
  headers: Record<string, string>;
  queries: Record<string, unknown>[];
}

/** A /duty/batch that answers each query with its hts and value echoed (duty = value / 10), or as scripted. */
function scriptedServer(script: { statuses?: number[]; retryAfter?: string; revision?: () => string } = {}) {
  const calls: Call[] = [];
  const statuses = [...(script.statuses ?? [])];
  const fetchImpl: typeof fetch = async (input, init) => {
    const body = JSON.parse(String(init!.body));
    calls.push({ url: String(input), headers: init!.headers as Record<string, string>, queries: body.queries });
    const status = statuses.shift() ?? 200;
    if (status === 429)
      return new Response(JSON.stringify({ error: { code: 'rate_limited', message: 'Rate limit of 120 requests per minute reached', details: {} } }), {
        status,
        headers: { 'Retry-After': script.retryAfter ?? '7', 'Content-Type': 'application/json' },
      });
    if (status !== 200) return new Response(JSON.stringify({ error: { code: 'internal', message: 'An internal error occurred', details: {} } }), { status });
    const results = body.queries.map((q: Record<string, unknown>) =>
      q.hts === 'bad'
        ? { error: { code: 'invalid_parameter', message: 'hts must be a tariff code such as 6109.10.00', details: { parameter: 'hts' } } }
        : { hts: q.hts, duty: Number(q.value) / 10, hts_revision: script.revision?.() ?? 'rev A', notes: [] },
    );
    return new Response(JSON.stringify({ results }), { status: 200, headers: { 'Content-Type': 'application/json' } });
  };
  return { calls, fetch: fetchImpl };
}

function client(server: ReturnType<typeof scriptedServer>, opts: { key?: string | null; sleeps?: number[] } = {}) {
  const api = new LandedApi({
    store: memoryStore(opts.key === null ? {} : { 'landed.apiKey': opts.key ?? 'k_test' }),
    defaultBaseUrl: 'https://landed.test',
    fetch: server.fetch,
    sleep: async (ms) => void opts.sleeps?.push(ms),
    now: () => 1_000_000,
  });
  return { api, batcher: new DutyBatcher(api, { windowMs: 20, maxWaitMs: 500 }) };
}

describe('DutyBatcher', () => {
  it('gathers the calls of one recalculation into one POST /duty/batch with the key', async () => {
    const server = scriptedServer();
    const { batcher } = client(server);
    const results = await Promise.all(Array.from({ length: 300 }, (_, i) => batcher.duty({ hts: '6109.10.00', value: i, origin: 'china' })));
    expect(server.calls).toHaveLength(1);
    expect(server.calls[0].url).toBe('https://landed.test/api/v1/duty/batch');
    expect(server.calls[0].headers.Authorization).toBe('Bearer k_test');
    expect(server.calls[0].queries).toHaveLength(300);
    expect(server.calls[0].queries[7]).toEqual({ hts: '6109.10.00', value: 7, origin: 'china' });
    expect(results[250].duty).toBe(25);
  });

  it('sends identical calls once and gives each the same result', async () => {
    const server = scriptedServer();
    const { batcher } = client(server);
    const calls = Array.from({ length: 500 }, (_, i) => batcher.duty({ hts: '6109.10.00', value: i % 5 === 0 ? 100 : 200, origin: 'china', ocean: null }));
    const results = await Promise.all(calls);
    expect(server.calls).toHaveLength(1);
    expect(server.calls[0].queries).toEqual([
      { hts: '6109.10.00', value: 100, origin: 'china' },
      { hts: '6109.10.00', value: 200, origin: 'china' },
    ]);
    expect(results[0]).toBe(results[5]);
    expect(results[1].duty).toBe(20);
  });

  it('makes at most 2 requests for 2,000 distinct cells and splits at 1,000', async () => {
    const server = scriptedServer();
    const { batcher } = client(server);
    const results = await Promise.all(Array.from({ length: 2000 }, (_, i) => batcher.duty({ hts: '6109.10.00', value: i })));
    expect(server.calls.map((c) => c.queries.length)).toEqual([1000, 1000]);
    expect(results[1999].duty).toBe(199.9);
    const more = scriptedServer();
    const b2 = client(more).batcher;
    await Promise.all(Array.from({ length: 2500 }, (_, i) => b2.duty({ hts: '6109.10.00', value: i })));
    expect(more.calls.map((c) => c.queries.length)).toEqual([1000, 1000, 500]);
  });

  it('answers a recalculation from the session cache, keyed by every argument', async () => {
    const server = scriptedServer();
    const { batcher } = client(server);
    await Promise.all([batcher.duty({ hts: '6109.10.00', value: 10 }), batcher.duty({ hts: '6109.10.00', value: 10, s301: 25 })]);
    expect(server.calls[0].queries).toHaveLength(2);
    await Promise.all([batcher.duty({ hts: '6109.10.00', value: 10 }), batcher.duty({ hts: '6109.10.00', value: 10, s301: 25 })]);
    expect(server.calls).toHaveLength(1);
    await batcher.duty({ hts: '6109.10.00', value: 10, s301: 25, ocean: true });
    expect(server.calls).toHaveLength(2);
    expect(server.calls[1].queries).toEqual([{ hts: '6109.10.00', value: 10, s301: 25, ocean: true }]);
  });

  it('drops the cache when the data revision changes', async () => {
    let revision = 'rev A';
    const server = scriptedServer({ revision: () => revision });
    const { batcher } = client(server);
    await batcher.duty({ hts: '6109.10.00', value: 10 });
    expect(batcher.revision).toBe('rev A');
    revision = 'rev B';
    await batcher.duty({ hts: '6109.10.00', value: 20 });
    expect(batcher.revision).toBe('rev B');
    // Cached under rev A, so asked again under rev B.
    await batcher.duty({ hts: '6109.10.00', value: 10 });
    expect(server.calls.map((c) => c.queries[0].value)).toEqual([10, 20, 10]);
  });

  it('waits for Retry-After on 429 and retries; no call fails', async () => {
    const server = scriptedServer({ statuses: [429, 429], retryAfter: '7' });
    const sleeps: number[] = [];
    const { api, batcher } = client(server, { sleeps });
    const results = await Promise.all(Array.from({ length: 10 }, (_, i) => batcher.duty({ hts: '6109.10.00', value: i * 10 })));
    expect(results.map((r) => r.duty)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(server.calls).toHaveLength(3);
    expect(server.calls[2].queries).toEqual(server.calls[0].queries);
    expect(sleeps).toEqual([7000, 7000]);
    expect(api.retries).toBe(2);
  });

  it('backs off when a 429 carries no usable Retry-After', async () => {
    const server = scriptedServer({ statuses: [429, 429, 429], retryAfter: 'soon' });
    const sleeps: number[] = [];
    const { batcher } = client(server, { sleeps });
    expect((await batcher.duty({ hts: '6109.10.00', value: 10 })).duty).toBe(1);
    expect(sleeps).toEqual([1000, 2000, 4000]);
  });

  it('rejects only the bad line of a batch, with the API message, and caches it', async () => {
    const server = scriptedServer();
    const { batcher } = client(server);
    const [good, bad] = await Promise.allSettled([batcher.duty({ hts: '6109.10.00', value: 10 }), batcher.duty({ hts: 'bad', value: 10 })]);
    expect(good.status === 'fulfilled' && good.value.duty).toBe(1);
    expect(bad.status === 'rejected' && bad.reason).toBeInstanceOf(ApiError);
    expect(bad.status === 'rejected' && bad.reason.code).toBe('invalid_parameter');
    await expect(batcher.duty({ hts: 'bad', value: 10 })).rejects.toThrow('hts must be a tariff code');
    expect(server.calls).toHaveLength(1);
  });

  it('fails the whole batch on a server error, without caching it', async () => {
    const server = scriptedServer({ statuses: [500] });
    const { batcher } = client(server);
    await expect(batcher.duty({ hts: '6109.10.00', value: 10 })).rejects.toMatchObject({ code: 'internal', status: 500 });
    expect((await batcher.duty({ hts: '6109.10.00', value: 10 })).duty).toBe(1);
    expect(server.calls).toHaveLength(2);
  });

  it('sends nothing without a key, and says where to set it', async () => {
    const server = scriptedServer();
    const { batcher } = client(server, { key: null });
    await expect(batcher.duty({ hts: '6109.10.00', value: 10 })).rejects.toThrow(/No landed API key is set: open the landed task pane .*Settings/);
    expect(server.calls).toHaveLength(0);
  });

  it('names the server it cannot reach', async () => {
    const api = new LandedApi({
      store: memoryStore({ 'landed.apiKey': 'k' }),
      defaultBaseUrl: 'https://down.test',
      fetch: async () => {
        throw new TypeError('fetch failed');
      },
    });
    await expect(new DutyBatcher(api, { windowMs: 1 }).duty({ hts: '6109.10.00', value: 1 })).rejects.toMatchObject({
      code: 'network',
      message: expect.stringContaining('https://down.test'),
    });
  });
});

describe('the batch window', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('stays open while calls keep coming, up to maxWaitMs', async () => {
    const server = scriptedServer();
    const { batcher } = client(server);
    const pending: Promise<unknown>[] = [];
    // A call every 10 ms (inside the 20 ms quiet window) for 300 ms: one batch, not fifteen.
    for (let i = 0; i < 30; i++) {
      pending.push(batcher.duty({ hts: '6109.10.00', value: i }));
      await vi.advanceTimersByTimeAsync(10);
    }
    expect(server.calls).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(20);
    await Promise.all(pending);
    expect(server.calls.map((c) => c.queries.length)).toEqual([30]);
    // Calls that never pause are still sent once maxWaitMs (500 ms) has passed.
    for (let i = 0; i < 60; i++) {
      pending.push(batcher.duty({ hts: '6109.10.00', value: 1000 + i }));
      await vi.advanceTimersByTimeAsync(10);
    }
    expect(server.calls.length).toBe(2);
    expect(server.calls[1].queries.length).toBeLessThan(60);
  });
});

describe('compactQuery', () => {
  it('leaves out empty arguments (omitted or blank cells)', () => {
    expect(compactQuery({ hts: '6109.10.00', value: 0, origin: '', s301: null, ocean: false, qty: undefined })).toEqual({ hts: '6109.10.00', value: 0, ocean: false });
  });
});

describe('settings', () => {
  it('are kept normalised in the store the functions and the task pane share', async () => {
    const store = memoryStore();
    const api = new LandedApi({ store, defaultBaseUrl: 'https://addin.test' });
    expect(await api.settings()).toEqual({ baseUrl: 'https://addin.test', key: '', keyWorks: false });
    expect(await api.saveSettings({ baseUrl: ' https://api.test/ ', key: ' k_1 ' })).toEqual({ baseUrl: 'https://api.test', key: 'k_1', keyWorks: false });
    expect([await store.getItem('landed.baseUrl'), await store.getItem('landed.apiKey')]).toEqual(['https://api.test', 'k_1']);
    // A key that answered is remembered as working until another key is saved.
    await api.keyWorked();
    expect((await api.settings()).keyWorks).toBe(true);
    expect((await api.saveSettings({ baseUrl: 'https://api.test', key: 'k_2' })).keyWorks).toBe(false);
    // Not an http(s) address, and no key: back to the add-in's origin, and nothing stored.
    expect(await api.saveSettings({ baseUrl: 'ftp://api.test', key: '' })).toEqual({ baseUrl: 'https://addin.test', key: '', keyWorks: false });
    expect([await store.getItem('landed.baseUrl'), await store.getItem('landed.apiKey')]).toEqual([null, null]);
  });

  it('a storage failure is reported, then read again', async () => {
    let fail = true;
    const store = memoryStore({ 'landed.apiKey': 'k_2' });
    const flaky = { ...store, getItem: async (k: string) => (fail ? Promise.reject(new Error('storage unavailable')) : store.getItem(k)) };
    const api = new LandedApi({ store: flaky, defaultBaseUrl: 'https://addin.test' });
    await expect(api.settings()).rejects.toThrow('storage unavailable');
    fail = false;
    expect((await api.settings()).key).toBe('k_2');
  });
});
