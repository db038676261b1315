/**
 * The real service in a child process (for the Apps Script stand-in, whose synchronous fetches
 * block this process) with a small per-key rate limit over a short span, so a test meets the
 * limit with an order of a few requests and waits seconds, not the minute of the service's own span.
 */
import { fileURLToPath } from 'node:url';
import { startServerProcess } from './server.js';

const CHILD = fileURLToPath(new URL('./limited-server-child.ts', import.meta.url));

/** `limit` requests per key in any `windowMs` span. */
export function startLimitedServerProcess(limit: number, windowMs: number): ReturnType<typeof startServerProcess> {
  return startServerProcess({ KEY_LIMIT: String(limit), KEY_WINDOW_MS: String(windowMs) }, ['--import', 'tsx'], CHILD);
}
