/**
 * The service's log: pino's JSON lines on standard output (pino's own destination, sonic-boom), one
 * line per request as `log.info(fields, 'request completed')`.
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
  return stream ? pino({ level }, stream) : stdoutLog(level);
}

/** How long a line may wait before it is written. */
const FLUSH_MS = 50;
/** Characters gathered before they are written at once. */
const BATCH = 4096;

/**
 * Standard output written about 4 kB at a time, and at most 50 ms after a line, instead of with one
 * write(2) per line (pino's default): under load that write cost a request about a sixth of its CPU
 * (docs/performance.md). The lines are gathered here, in a list joined once per write, and written
 * by pino's own destination (sonic-boom: its handling of a full or closed pipe): sonic-boom's own
 * gathering (`minLength`) measures its whole buffer at every line, copying it each time, about
 * 2 kB a line. Synchronous as pino's default is, so a line never waits on a thread. What is left is
 * written when the process exits: after process.exit (SIGTERM, SIGINT) as after a crash.
 */
function stdoutLog(level: string): Logger {
  const out = pino.destination({ dest: 1, sync: true });
  let lines: string[] = [];
  let size = 0;
  const flush = () => {
    if (lines.length === 0) return;
    const text = lines.join('');
    lines = [];
    size = 0;
    out.write(text);
  };
  // An idle service makes no writes: flush() does nothing when no line waits.
  setInterval(flush, FLUSH_MS).unref();
  // end(), not flushSync(): a reader gone (EPIPE) ends it with pino's broken-pipe handling, where
  // flushSync would retry the write for ever and the process would never exit.
  process.once('exit', () => {
    flush();
    out.end();
  });
  const gathered = {
    write(line: string): void {
      lines.push(line);
      size += line.length;
      if (size >= BATCH) flush();
    },
    /** logger.flush(): what waits, written now. */
    flush(done: () => void): void {
      flush();
      done();
    },
  };
  return pino({ level }, gathered);
}

/** Anything shaped like a key, in any case, once percent-decoding is undone. */
const KEY_SHAPE = /lk_[A-Za-z0-9_-]{8,}/i;

/**
 * A URL as a log line may show it: the value of every parameter whose decoded name is `key` (in
 * any case: `?%6Bey=`, `k%65y=`, `KEY=`), and every part of the path or query (between `/ ? & = #`)
 * that, percent-decoded as often as it takes, holds anything shaped like a key, are replaced.
 */
export function redactKey(url: string): string {
  if (!/key|%|lk_/i.test(url)) return url;
  let keyValue = false;
  return url.replace(/[^/?&=#]+|[/?&=#]/g, (part) => {
    if (part.length === 1 && '/?&=#'.includes(part)) {
      if (part !== '=') keyValue = false;
      return part;
    }
    const decoded = fullyDecoded(part);
    const redact = keyValue || KEY_SHAPE.test(decoded);
    keyValue = decoded.toLowerCase() === 'key';
    return redact ? '[redacted]' : part;
  });
}

/** Percent-decoding undone, again and again (a key encoded twice is still a key), byte by byte so bad encoding cannot stop it. */
function fullyDecoded(text: string): string {
  for (let i = 0; i < 4 && text.includes('%'); i++) text = text.replace(/%([0-9a-f]{2})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  return text.replace(/\+/g, ' ');
}
