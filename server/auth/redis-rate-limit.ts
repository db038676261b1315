/**
 * The rate limiter shared by every instance: each caller's log is a sorted set in Redis (request
 * ids scored by their time), and one Lua script trims, counts and adds atomically in one round
 * trip, so instances together allow exactly what one MemoryRateLimiter would (rate-limit.ts). The
 * time is Redis's own clock, so instances whose clocks disagree still share one span.
 */
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import type { Health } from '../errors.js';
import { decision, RateLimiterUnavailable, type RateDecision, type RateLimiter } from './rate-limit.js';

// KEYS[1]: the caller's log. ARGV: window (ms), limit, this request's unique id, now (ms; empty for
// Redis's clock), '1' to count the request or '0' only to ask, its weight (how many requests it
// counts as: one member each). Returns allowed (0/1), the count after it, the oldest time counted, now.
const SLIDING_HIT = `
local window = tonumber(ARGV[1])
local now = tonumber(ARGV[4])
if not now then
  local t = redis.call('TIME')
  now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
local count = redis.call('ZCARD', KEYS[1])
local weight = tonumber(ARGV[6])
local allowed = 0
if count + weight <= tonumber(ARGV[2]) then
  allowed = 1
  if ARGV[5] == '1' then
    for i = 1, weight do redis.call('ZADD', KEYS[1], now, ARGV[3] .. ':' .. i) end
    count = count + weight
  end
end
if count > 0 then redis.call('PEXPIRE', KEYS[1], window) end
local oldest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')[2] or now
return {allowed, count, oldest, now}
`;

type SlidingHit = (key: string, windowMs: number, limit: number, member: string, now: string, count: '0' | '1', weight: number) => Promise<[number, number, string, number]>;

/**
 * A connected client, or an error saying why not. Requests never wait for a connection: while
 * Redis is unreachable a command fails at once (a 503) and the client reconnects in the
 * background, at most a second apart; a command unanswered within `timeoutMs` fails too.
 */
export async function connectRedis(url: string, timeoutMs: number): Promise<Redis> {
  const redis = new Redis(url, {
    lazyConnect: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    commandTimeout: timeoutMs,
    connectTimeout: timeoutMs,
    retryStrategy: (times) => Math.min(times * 100, 1000),
  });
  // While serving, connection errors surface as failed commands (503s, /healthz); the last one
  // says why a start failed (connect() itself only says the connection closed).
  let lastError: Error | undefined;
  redis.on('error', (e: Error) => (lastError = e));
  redis.defineCommand('slidingHit', { numberOfKeys: 1, lua: SLIDING_HIT });
  try {
    await redis.connect();
    await redis.ping();
  } catch (e) {
    redis.disconnect();
    throw new Error(`REDIS_URL: cannot connect to Redis (${(lastError ?? (e as Error)).message})`);
  }
  return redis;
}

export class RedisRateLimiter implements RateLimiter {
  private readonly slidingHit: SlidingHit;
  /** Request ids are unique across instances: a random tag per limiter and a counter. */
  private readonly tag = randomBytes(9).toString('base64url');
  private seq = 0;

  constructor(
    private readonly redis: Redis,
    readonly limit: number,
    private readonly windowMs = 60_000,
    private readonly prefix = 'landed:rate:',
  ) {
    this.slidingHit = (redis as unknown as { slidingHit: SlidingHit }).slidingHit.bind(redis);
  }

  hit(id: string, now?: number, weight = 1): Promise<RateDecision> {
    return this.ask(id, now, '1', Math.min(weight, this.limit));
  }

  async release(id: string): Promise<void> {
    try {
      await this.redis.zpopmax(this.prefix + id);
    } catch (e) {
      throw new RateLimiterUnavailable((e as Error).message);
    }
  }

  peek(id: string, now?: number): Promise<RateDecision> {
    return this.ask(id, now, '0', 1);
  }

  private async ask(id: string, now: number | undefined, count: '0' | '1', weight: number): Promise<RateDecision> {
    let reply: [number, number, string, number];
    try {
      reply = await this.slidingHit(this.prefix + id, this.windowMs, this.limit, `${this.tag}:${this.seq++}`, now === undefined ? '' : String(now), count, weight);
    } catch (e) {
      throw new RateLimiterUnavailable((e as Error).message);
    }
    const [allowed, n, oldest, at] = reply;
    return decision(allowed === 1, this.limit, n, Number(oldest), at, this.windowMs);
  }

  async health(): Promise<Health> {
    try {
      await this.redis.ping();
      return { ok: true };
    } catch (e) {
      return { ok: false, reason: (e as Error).message };
    }
  }
}
