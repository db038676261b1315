/**
 * Requests per key (and, for requests without a valid key, per client address) in any 60-second
 * span: a sliding log, exact. A fixed per-minute window would let 2 × limit through across a
 * minute boundary. The semantics, for every implementation: requests at or before `now - window`
 * no longer count; a request is allowed, and counted, when fewer than `limit` count; a refused one
 * is not counted. `decision` turns what an implementation counted into the answer and headers.
 * In this process (MemoryRateLimiter) by default; in Redis (RedisRateLimiter) when several
 * instances must share one limit.
 */
import { StoreUnavailable, type Health } from '../errors.js';
import type { MaybePromise } from '../maybe.js';

export interface RateDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /**
   * Seconds until one more request is allowed: when the oldest request counted leaves the span
   * (so `Retry-After` when refused). At least 1.
   */
  reset: number;
}

export interface RateLimiter {
  /** Counts a request of `id` at `now` (the limiter's clock when omitted); rejects with RateLimiterUnavailable. */
  hit(id: string, now?: number): MaybePromise<RateDecision>;
  /** Whether its shared store answers (for /healthz); a limiter in this process has none. */
  health?(): MaybePromise<Health>;
}

/** The limiter's shared store could not be asked (down, restarted, too slow): the request is a 503. */
export class RateLimiterUnavailable extends StoreUnavailable {
  constructor(message: string) {
    super('rate limiter', message);
  }
}

/** The answer when `count` requests count after this one was (or was not) added, the oldest at `oldest`. */
export function decision(allowed: boolean, limit: number, count: number, oldest: number, now: number, windowMs: number): RateDecision {
  return { allowed, limit, remaining: limit - count, reset: Math.max(1, Math.ceil((oldest + windowMs - now) / 1000)) };
}

/**
 * The times of the last `limit` requests of one caller, in a ring: `at[head]` is the oldest of
 * the `count` held.
 */
interface Log {
  at: Float64Array;
  head: number;
  count: number;
  last: number;
}

export class MemoryRateLimiter implements RateLimiter {
  private readonly logs = new Map<string, Log>();
  private nextSweep = 0;

  constructor(
    readonly limit: number,
    private readonly windowMs = 60_000,
  ) {}

  hit(id: string, now = Date.now()): RateDecision {
    if (now >= this.nextSweep) this.sweep(now);
    let log = this.logs.get(id);
    if (!log) this.logs.set(id, (log = { at: new Float64Array(this.limit), head: 0, count: 0, last: 0 }));
    const since = now - this.windowMs;
    // Requests older than the span no longer count.
    while (log.count > 0 && log.at[log.head] <= since) {
      log.head = (log.head + 1) % this.limit;
      log.count--;
    }
    const allowed = log.count < this.limit;
    if (allowed) {
      log.at[(log.head + log.count) % this.limit] = now;
      log.count++;
      log.last = now;
    }
    return decision(allowed, this.limit, log.count, log.at[log.head], now, this.windowMs);
  }

  /** Forgets callers with nothing in the span, once per span: memory stays bounded by recent callers. */
  private sweep(now: number): void {
    this.nextSweep = now + this.windowMs;
    for (const [id, log] of this.logs) if (log.last <= now - this.windowMs) this.logs.delete(id);
  }
}
