/**
 * The service's log: pino's JSON lines on standard output (pino's own destination), one line per
 * request as `log.info(fields, 'request completed')`.
 */
import pino, { type Logger } from 'pino';

export type { Logger };

/** What the line of a completed request says. */
export interface RequestDone {
  method: string;
  /** Already without keys (redactKey). */
  url: string;
  statusCode: number;
  /** Milliseconds from the request's arrival to its answer's last byte handed to the kernel. */
  responseTime: number;
  ip: string;
}

/** The writer of the per-request line (responseTime to the microsecond); null when info lines are off. */
export function requestLogger(log: Logger): ((r: RequestDone) => void) | null {
  if (!log.isLevelEnabled('info')) return null;
  return (r) => log.info({ ...r, responseTime: Math.round(r.responseTime * 1000) / 1000 }, 'request completed');
}

/** The log at `level`, on standard output, or on `stream` (tests). */
export function createLog(level: string, stream?: NodeJS.WritableStream): Logger {
  return stream ? pino({ level }, stream) : pino({ level });
}
