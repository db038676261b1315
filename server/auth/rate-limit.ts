/**
 * Requests per key (and, for requests without a valid key, per client address) in any 60-second
 * span: a sliding log, exact. A fixed per-minute window would let 2 × limit through across a
 * minute boundary. The limiter is an interface so a shared store (Redis) can replace the
 * in-process one when the service runs as several instances.
 */
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
  hit(id: string, now?: number): RateDecision;
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
    if (log.count >= this.limit) return { allowed: false, limit: this.limit, remaining: 0, reset: this.secondsUntilFree(log, now) };
    log.at[(log.head + log.count) % this.limit] = now;
    log.count++;
    log.last = now;
    return { allowed: true, limit: this.limit, remaining: this.limit - log.count, reset: this.secondsUntilFree(log, now) };
  }

  private secondsUntilFree(log: Log, now: number): number {
    return Math.max(1, Math.ceil((log.at[log.head] + this.windowMs - now) / 1000));
  }

  /** Forgets callers with nothing in the span, once per span: memory stays bounded by recent callers. */
  private sweep(now: number): void {
    this.nextSweep = now + this.windowMs;
    for (const [id, log] of this.logs) if (log.last <= now - this.windowMs) this.logs.delete(id);
  }
}
