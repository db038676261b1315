/**
 * Run by startLimitedServerProcess: startServer (the real app, schedule and key store named by
 * KEYS_DB) with a per-key limit of KEY_LIMIT requests in any KEY_WINDOW_MS span, logging to stdout
 * as the built service does.
 */
import { MemoryRateLimiter } from '../../server/auth/rate-limit.js';
import { startServer } from './server.js';

const server = await startServer({
  keyLimiter: new MemoryRateLimiter(Number(process.env.KEY_LIMIT), Number(process.env.KEY_WINDOW_MS)),
  logger: { level: 'info', stream: process.stdout },
  env: { KEYS_DB: process.env.KEYS_DB },
});
process.once('SIGTERM', () => void server.close().then(() => process.exit(0)));
