/**
 * The API's 429 as both add-ins read it: how long it asks to wait, and what they show meanwhile. An
 * order that meets the rate limit waits it out and goes on; it is never left half costed.
 */
import { count } from './order-output.js';

/**
 * How long a 429 asks to wait, in milliseconds: its Retry-After header (seconds, or an HTTP date),
 * else its JSON error's `details.retry_after` (seconds); null when it says neither.
 */
export function retryAfterMs(header: string | null | undefined, body: unknown, now: number): number | null {
  const v = header?.trim();
  if (v) {
    const seconds = Number(v);
    const ms = Number.isFinite(seconds) ? seconds * 1000 : Date.parse(v) - now;
    if (Number.isFinite(ms)) return Math.max(ms, 0);
  }
  const details = (body as { error?: { details?: { retry_after?: unknown } } } | null | undefined)?.error?.details;
  const seconds = typeof details?.retry_after === 'number' ? details.retry_after : NaN;
  return Number.isFinite(seconds) ? Math.max(seconds * 1000, 0) : null;
}

/** What both add-ins show while an order waits for the rate limit: whole seconds left, counted down, and the progress so far. */
export function waitingText(ms: number, done: number, total: number): string {
  return `Waiting for the rate limit: resumes in ${count(Math.max(1, Math.ceil(ms / 1000)))} s (${count(done)} of ${count(total)} done).`;
}
