/**
 * Requests per key (and, for requests without a valid key, per client address) in any 60-second
 * span: a sliding log, exact. A fixed per-minute window would let 2 × limit through across a
 * minute boundary. The semantics, for every implementation: requests at or before `now - window`
 * no longer count; a request of weight w (1, or a batch's size) is allowed, and counted w times,
 * when at most `limit - w` count; a refused one is not counted. `decision` turns what an implementation counted into the answer and headers.
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
  /**
   * Counts a request of `id` at `now` (the limiter's clock when omitted) as `weight` requests (a
   * batch; at most the limit, so that one is always possible in an empty span); rejects with RateLimiterUnavailable.
   */
  hit(id: string, now?: number, weight?: number): MaybePromise<RateDecision>;
  /**
   * Gives back the latest request counted for `id` (a lookup of a key reserved against its address
   * that found the key valid); the newest, not necessarily the one given back, which can only make
   * the others leave the span sooner.
   */
  release?(id: string): MaybePromise<void>;
  /** The decision a request of `id` would get at `now`, without counting it. */
  peek(id: string, now?: number): MaybePromise<RateDecision>;
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
 * The times of one caller's requests that count, oldest first, as runs in a ring: `n[i]` requests
 * at millisecond `at[i]`, from `head` on for `runs` runs, `count` requests in all. Runs, not a slot
 * per request: a limit raised high (an operator's RATE_LIMIT, the benchmark's billion) once took a
 * Float64Array of `limit` slots per caller (8 GB reserved for a billion), and each request touched
 * 8 bytes more of it, which stayed resident: the service's memory grew with every request it
 * answered. Runs take at most one slot per millisecond of the window (under 1 MB a caller), and the
 * ring grows only as they are needed.
 */
interface Log {
  at: Float64Array;
  n: Uint32Array;
  head: number;
  runs: number;
  count: number;
  last: number;
}

/** Slots a caller's ring starts with (at most `limit`); it doubles when full. */
const FIRST_RUNS = 16;

export class MemoryRateLimiter implements RateLimiter {
  private readonly logs = new Map<string, Log>();
  private nextSweep = 0;

  constructor(
    readonly limit: number,
    private readonly windowMs = 60_000,
  ) {}

  hit(id: string, now = Date.now(), weight = 1): RateDecision {
    weight = Math.min(weight, this.limit);
    if (now >= this.nextSweep) this.sweep(now);
    let log = this.logs.get(id);
    if (!log) {
      const slots = Math.max(1, Math.min(this.limit, FIRST_RUNS));
      this.logs.set(id, (log = { at: new Float64Array(slots), n: new Uint32Array(slots), head: 0, runs: 0, count: 0, last: 0 }));
    }
    this.trim(log, now);
    const allowed = log.count + weight <= this.limit;
    if (allowed) {
      const tail = (log.head + log.runs - 1) % log.at.length;
      if (log.runs > 0 && log.at[tail] === now) log.n[tail] += weight;
      else {
        if (log.runs === log.at.length) grow(log);
        const slot = (log.head + log.runs) % log.at.length;
        log.at[slot] = now;
        log.n[slot] = weight;
        log.runs++;
      }
      log.count += weight;
      log.last = now;
    }
    return decision(allowed, this.limit, log.count, log.runs > 0 ? log.at[log.head] : now, now, this.windowMs);
  }

  release(id: string): void {
    const log = this.logs.get(id);
    if (!log || log.runs === 0) return;
    const tail = (log.head + log.runs - 1) % log.at.length;
    log.count--;
    if (--log.n[tail] === 0) log.runs--;
  }

  peek(id: string, now = Date.now()): RateDecision {
    const log = this.logs.get(id);
    if (!log) return decision(true, this.limit, 0, now, now, this.windowMs);
    this.trim(log, now);
    return decision(log.count < this.limit, this.limit, log.count, log.runs > 0 ? log.at[log.head] : now, now, this.windowMs);
  }

  /** Requests older than the span no longer count. */
  private trim(log: Log, now: number): void {
    const since = now - this.windowMs;
    while (log.runs > 0 && log.at[log.head] <= since) {
      log.count -= log.n[log.head];
      log.head = (log.head + 1) % log.at.length;
      log.runs--;
    }
  }

  /** Forgets callers with nothing in the span, once per span: memory stays bounded by recent callers. */
  private sweep(now: number): void {
    this.nextSweep = now + this.windowMs;
    for (const [id, log] of this.logs) if (log.last <= now - this.windowMs) this.logs.delete(id);
  }
}

/** Twice the ring, its runs moved to the start in order. */
function grow(log: Log): void {
  const size = log.at.length;
  const at = new Float64Array(size * 2);
  const n = new Uint32Array(size * 2);
  for (let i = 0; i < log.runs; i++) {
    const from = (log.head + i) % size;
    at[i] = log.at[from];
    n[i] = log.n[from];
  }
  log.at = at;
  log.n = n;
  log.head = 0;
}
