/**
 * Requests per minute per key (and, for requests without a valid key, per client address). The
 * limiter is an interface so a shared store (Redis: INCR + EXPIRE on `key:window`) can replace the
 * in-process one when the service runs on several machines.
 */
export interface RateDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until the window resets. */
  reset: number;
}

export interface RateLimiter {
  hit(id: string, now?: number): RateDecision;
}

/** Fixed one-minute windows held in memory: exact counts, no key ever gets more than `limit` per window. */
export class MemoryRateLimiter implements RateLimiter {
  private readonly windows = new Map<string, { start: number; count: number }>();
  private lastSweep = 0;

  constructor(
    readonly limit: number,
    private readonly windowMs = 60_000,
  ) {}

  hit(id: string, now = Date.now()): RateDecision {
    const start = now - (now % this.windowMs);
    if (start !== this.lastSweep) this.sweep(start);
    let w = this.windows.get(id);
    if (!w || w.start !== start) this.windows.set(id, (w = { start, count: 0 }));
    const reset = Math.max(1, Math.ceil((start + this.windowMs - now) / 1000));
    if (w.count >= this.limit) return { allowed: false, limit: this.limit, remaining: 0, reset };
    w.count++;
    return { allowed: true, limit: this.limit, remaining: this.limit - w.count, reset };
  }

  /** Drops finished windows once per window, so memory stays bounded by recent callers. */
  private sweep(start: number): void {
    this.lastSweep = start;
    for (const [id, w] of this.windows) if (w.start < start) this.windows.delete(id);
  }
}
