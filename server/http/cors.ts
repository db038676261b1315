/** CORS for configured origins (none by default: same origin only). */
import type { IncomingMessage } from 'node:http';
import type { Exchange } from './exchange.js';

const CORS_EXPOSED = 'X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset, Retry-After';

/** CORS headers for a configured origin (Vary: Origin on every answer, since they depend on it); whether the request is a preflight, to answer 204. */
export function cors(origins: ReadonlySet<string>, req: IncomingMessage, res: Exchange): boolean {
  res.header('Vary', 'Origin');
  const origin = req.headers.origin;
  const allowed = origin !== undefined && origins.has(origin);
  if (allowed) {
    res.header('Access-Control-Allow-Origin', origin);
    res.header('Access-Control-Expose-Headers', CORS_EXPOSED);
  }
  if (req.method !== 'OPTIONS' || origin === undefined || req.headers['access-control-request-method'] === undefined) return false;
  if (allowed) {
    res.header('Access-Control-Allow-Methods', 'GET, HEAD, POST');
    res.header('Access-Control-Allow-Headers', 'Authorization, Content-Type');
  }
  return true;
}
