/**
 * The limit is exact: at most `limit` requests in any 60-second span, never 2 × limit across a
 * minute boundary, the same in this process and in a real Redis, and its headers count down
 * exactly under concurrency through the real server.
 */
import { DatabaseSync } from 'node:sqlite';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Redis } from 'ioredis';
import { MemoryRateLimiter, type RateLimiter } from '../../server/auth/rate-limit.js';
import { connectRedis, RedisRateLimiter } from '../../server/auth/redis-rate-limit.js';
import { startServer, type RunningServer } from '../helpers/server.js';
import { startRedis, type ServerProcess } from '../helpers/services.js';

let redis: ServerProcess;
let client: Redis;
beforeAll(async () => {
  redis = await startRedis();
  client = await connectRedis(redis.url, 1000);
});
afterAll(async () => {
  client.disconnect();
  await redis.stop();
});

/** Each implementation on the same tests; every test its own caller id, so Redis starts empty for it. */
const limiters: [string, (limit: number, windowMs?: number) => RateLimiter][] = [
  ['MemoryRateLimiter', (limit, windowMs) => new MemoryRateLimiter(limit, windowMs)],
  ['RedisRateLimiter', (limit, windowMs) => new RedisRateLimiter(client, limit, windowMs)],
];
let caller = 0;

describe.each(limiters)('%s: a sliding 60-second span', (_name, make) => {
  it('120 pass, the 121st waits until the first leaves the span', async () => {
    const l = make(120);
    const k = `k${++caller}`;
    const t0 = 1_000_000;
    for (let i = 0; i < 120; i++) expect(await l.hit(k, t0 + i * 100)).toMatchObject({ allowed: true, remaining: 119 - i });
    // The first request was at t0: it leaves the span at t0 + 60 s, 48.1 s after t0 + 11.9 s.
    expect(await l.hit(k, t0 + 11_900)).toEqual({ allowed: false, limit: 120, remaining: 0, reset: 49 });
    expect((await l.hit(k, t0 + 60_000)).allowed).toBe(true);
    expect((await l.hit(k, t0 + 60_050)).allowed).toBe(false);
    expect((await l.hit(k, t0 + 60_100)).allowed).toBe(true);
  });

  it('across a minute boundary: 120 just before it and none more just after (a fixed window passed 240)', async () => {
    const l = make(120);
    const k = `k${++caller}`;
    const boundary = 60_000 * 28_000_000;
    let passed = 0;
    for (let i = 0; i < 120; i++) passed += Number((await l.hit(k, boundary - 1000 + i)).allowed);
    for (let i = 0; i < 120; i++) passed += Number((await l.hit(k, boundary + 1000 + i)).allowed);
    expect(passed).toBe(120);
    // Retry-After: the oldest (boundary - 1 s) leaves at boundary + 59 s, 58 s after boundary + 1 s.
    expect((await l.hit(k, boundary + 1000)).reset).toBe(58);
  });

  it('for any arrival times: never more than the limit in a span, and a refusal only when the span is full', async () => {
    const limit = 5;
    const window = 60_000;
    const l = make(limit, window);
    await fc.assert(
      fc.asyncProperty(fc.array(fc.integer({ min: 0, max: 300_000 }), { minLength: 1, maxLength: 200 }), async (offsets) => {
        const k = `k${++caller}`;
        const times = [...offsets].sort((a, b) => a - b).map((t) => t + 1_000_000);
        const allowed: number[] = [];
        for (const t of times) {
          const d = await l.hit(k, t);
          const inSpan = allowed.filter((a) => a > t - window).length;
          // Brute force: allowed exactly when fewer than `limit` were allowed in the span before it.
          expect(d.allowed).toBe(inSpan < limit);
          if (d.allowed) allowed.push(t);
          expect(d.remaining).toBe(limit - Math.min(limit, inSpan + (d.allowed ? 1 : 0)));
        }
      }),
      { numRuns: 100 },
    );
  });
});

describe('MemoryRateLimiter', () => {
  it('forgets callers once their span is empty (memory bounded by recent callers)', () => {
    const l = new MemoryRateLimiter(3, 1000);
    for (let i = 0; i < 1000; i++) l.hit(`ip${i}`, 5000);
    l.hit('late', 7000);
    expect((l as unknown as { logs: Map<string, unknown> }).logs.size).toBe(1);
  });

  it('counts many requests in the same millisecond, past the ring it starts with and around it, exactly as the brute force does: allowed, remaining and reset', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(1, 3, 20, 1000),
        // Few distinct milliseconds in a short window: runs of several requests. Sparse first (every 8 ms), then
        // dense: the ring wraps before it fills, and grows with its oldest run past its start.
        fc
          .tuple(fc.array(fc.integer({ min: 0, max: 18 }), { maxLength: 40 }), fc.array(fc.integer({ min: 150, max: 300 }), { minLength: 50, maxLength: 600 }))
          .map(([sparse, dense]) => [...sparse.map((t) => t * 8), ...dense]),
        (limit, offsets) => {
          const window = 40;
          const l = new MemoryRateLimiter(limit, window);
          const allowed: number[] = [];
          for (const t of [...offsets].sort((a, b) => a - b)) {
            const d = l.hit('k', 10_000 + t);
            const counted = allowed.filter((a) => a > 10_000 + t - window);
            expect(d.allowed).toBe(counted.length < limit);
            if (d.allowed) {
              counted.push(10_000 + t);
              allowed.push(10_000 + t);
            }
            expect(d.remaining).toBe(limit - counted.length);
            expect(d.reset).toBe(Math.max(1, Math.ceil((counted[0] + window - (10_000 + t)) / 1000)));
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it('takes memory for the requests it counts, not for its limit: a billion a minute reserves no 8 GB', () => {
    const before = process.memoryUsage().arrayBuffers;
    const l = new MemoryRateLimiter(1_000_000_000);
    // 100,000 requests over 50 ms of one caller.
    for (let i = 0; i < 100_000; i++) expect(l.hit('k', 1_000_000 + Math.floor(i / 2000)).allowed).toBe(true);
    expect(l.hit('k', 1_000_050).remaining).toBe(1_000_000_000 - 100_001);
    expect(process.memoryUsage().arrayBuffers - before).toBeLessThan(1024 * 1024);
  });
});

describe('through the real server', () => {
  let srv: RunningServer;
  beforeAll(async () => {
    srv = await startServer();
  });
  afterAll(() => srv.close());

  it('200 concurrent requests on one key: exactly 120 pass, Remaining counts 119..0 once each, the rest 429 with Retry-After', async () => {
    const { key } = srv.keys.create('burst');
    const answers = await Promise.all(
      Array.from({ length: 200 }, () => fetch(`${srv.url}/api/v1/duty?hts=6109.10.00&value=1`, { headers: { authorization: `Bearer ${key}` } })),
    );
    const ok = answers.filter((r) => r.status === 200);
    const limited = answers.filter((r) => r.status === 429);
    expect([ok.length, limited.length]).toEqual([120, 80]);
    expect(ok.map((r) => Number(r.headers.get('x-ratelimit-remaining'))).sort((a, b) => a - b)).toEqual(Array.from({ length: 120 }, (_, i) => i));
    for (const r of limited) {
      const after = Number(r.headers.get('retry-after'));
      expect(after).toBeGreaterThanOrEqual(59);
      expect(after).toBeLessThanOrEqual(60);
      expect(r.headers.get('x-ratelimit-reset')).toBe(String(after));
      expect(r.headers.get('x-ratelimit-remaining')).toBe('0');
    }
  });

  it('a key of impossible format is refused without a lookup: 401 even while the store is unreadable', async () => {
    const operator = new DatabaseSync(srvDb(srv), { timeout: 5000 });
    operator.exec('ALTER TABLE api_keys RENAME TO moved');
    try {
      const ask = (key: string) => fetch(`${srv.url}/api/v1/hts/6109`, { headers: { authorization: `Bearer ${key}` } });
      // Shapes no key can have: answered without the store.
      for (const k of ['lk_short', `lk_${'A'.repeat(44)}`, `xx_${'A'.repeat(43)}`, `lk_${'A'.repeat(42)}!`]) expect((await ask(k)).status, k).toBe(401);
      // A well-formed key must be looked up: the store is unreadable, so 503.
      expect((await ask(`lk_${'B'.repeat(43)}`)).status).toBe(503);
    } finally {
      operator.exec('ALTER TABLE moved RENAME TO api_keys');
      operator.close();
    }
  });
  it('the public document is not limited by failed logins of the same address', async () => {
    let last = 0;
    for (let i = 0; i < 31; i++) last = (await fetch(`${srv.url}/api/v1/duty?hts=6109.10.00`, { headers: { authorization: `Bearer lk_${'x'.repeat(43)}` } })).status;
    expect(last).toBe(429);
    const doc = await fetch(`${srv.url}/api/v1/openapi.json`);
    expect(doc.status).toBe(200);
    expect((await doc.json()).openapi).toBe('3.0.3');
  });
  it('from an address over its limit of failed attempts, a key never used before still works; made-up and revoked keys are refused unread', async () => {
    const ask = (key: string) => fetch(`${srv.url}/api/v1/hts/6109`, { headers: { authorization: `Bearer ${key}` } });
    const { key: revoked, info } = srv.keys.create('revoked-before-use');
    for (let i = 0; i < 31; i++) await ask(`lk_${String(i).padStart(43, 'm')}`);
    expect((await ask(`lk_${'m'.repeat(43)}`)).status).toBe(429);
    // Created after the flood began (so after the register was first read), and never used: the register is read again.
    const fresh = srv.keys.create('first-used-from-a-noisy-office').key;
    await new Promise((r) => setTimeout(r, 5100));
    const r = await ask(fresh);
    expect(r.status).toBe(200);
    expect(r.headers.get('x-ratelimit-remaining')).toBe('119');
    expect((await ask(`lk_${'n'.repeat(43)}`)).status).toBe(429);
    srv.keys.revoke([info.id]);
    expect((await ask(revoked)).status).toBe(429);
  });

});

/** The key store file of a test server. */
function srvDb(srv: RunningServer): string {
  return (srv.keys as unknown as { path: string }).path;
}
