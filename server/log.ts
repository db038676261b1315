/**
 * The service's log: pino's JSON lines. On standard output the lines are gathered and written in
 * one call per 64 KB or 50 ms instead of one call per line: at thousands of requests a second, the
 * write calls cost more than the lines. A stream given by the caller (tests) is written line by
 * line, so what was logged is there at once.
 */
import pino, { type Logger } from 'pino';

export type { Logger };

/** What the line of a completed request says. */
export interface RequestDone {
  method: string;
  /** Already without keys (redactKey). */
  url: string;
  statusCode: number;
  /** Milliseconds from the request's arrival to its answer handed to the kernel. */
  responseTime: number;
  ip: string;
}

/** Text a JSON string holds as it is: printable ASCII but `"` and `\`. */
const PLAIN = /^[\x20\x21\x23-\x5b\x5d-\x7e]*$/;
const quoted = (s: string): string => (PLAIN.test(s) ? `"${s}"` : JSON.stringify(s));

/** Milliseconds to the microsecond, as few digits as needed (0.357, 12.4, 3). */
export function milliseconds(ms: number): string {
  const us = Math.round(ms * 1000);
  const whole = Math.floor(us / 1000);
  const frac = us - whole * 1000;
  if (frac === 0) return `${whole}`;
  // Without trailing zeros, as JSON.stringify would write the same value.
  const digits = frac % 100 === 0 ? `${frac / 100}` : frac % 10 === 0 ? `${frac < 100 ? '0' : ''}${frac / 10}` : `${frac < 10 ? '00' : frac < 100 ? '0' : ''}${frac}`;
  return `${whole}.${digits}`;
}

/**
 * The writer of the per-request line: the line pino's `log.info(fields, 'request completed')`
 * writes (level, time, pid and hostname, the fields, msg), to the same destination, put together
 * in one template. Measured in a bare node:http server under load, pino's generic walk and even a
 * template of JSON.stringify calls cost 2-3 µs a request (README, Performance), so: the line's
 * head is made once a millisecond, strings that need no escape are quoted without
 * JSON.stringify, and responseTime is written to the microsecond rather than as a double's
 * 17 digits. Null when info lines are off.
 */
export function requestLogger(log: Logger): ((r: RequestDone) => void) | null {
  if (!log.isLevelEnabled('info')) return null;
  const l = log as unknown as Record<symbol, unknown>;
  const stream = l[pino.symbols.streamSym] as { write(line: string): void };
  const bindings = l[pino.symbols.chindingsSym] as string;
  let at = 0;
  let head = '';
  return (r) => {
    const now = Date.now();
    if (now !== at) {
      at = now;
      head = `{"level":30,"time":${now}${bindings},"method":`;
    }
    stream.write(`${head}${quoted(r.method)},"url":${quoted(r.url)},"statusCode":${r.statusCode},"responseTime":${milliseconds(r.responseTime)},"ip":${quoted(r.ip)},"msg":"request completed"}\n`);
  };
}

export function createLog(level: string, stream?: NodeJS.WritableStream): Logger {
  return pino({ level }, stream ?? gathered(process.stdout));
}

const flushers = new Set<() => void>();
// Whatever is still gathered when the process exits is written then (standard output is
// synchronous for files and pipes on Linux).
process.once('exit', () => flushers.forEach((flush) => flush()));

/** Lines are written once this many bytes are gathered... */
const GATHER_BYTES = 64 * 1024;
/** ...or this many milliseconds after the first of them. */
const GATHER_MS = 50;

/**
 * Lines encoded as they come into one buffer outside the JavaScript heap, written in one call per
 * 64 KB or 50 ms: a line kept as a string until a later write outlives the young generation's
 * collections, and a write call per turn of the event loop (a few lines each) cost more than
 * the lines. Warnings and errors are written at once; a crash still writes what was gathered (on
 * exit); a SIGKILL loses up to 50 ms of info lines.
 */
export function gathered(target: NodeJS.WritableStream): { write(line: string): void } {
  const buffer = Buffer.allocUnsafeSlow(GATHER_BYTES);
  let used = 0;
  let timer: NodeJS.Timeout | null = null;
  const flush = () => {
    if (timer !== null) clearTimeout(timer);
    timer = null;
    if (used === 0) return;
    // A copy: a pipe or a terminal may still hold the bytes after write() returns.
    target.write(Buffer.from(buffer.subarray(0, used)));
    used = 0;
  };
  flushers.add(flush);
  return {
    write(line) {
      // At most 3 bytes a UTF-16 unit in UTF-8.
      if (used + 3 * line.length > GATHER_BYTES) {
        flush();
        if (3 * line.length > GATHER_BYTES) return void target.write(line);
      }
      used += buffer.write(line, used);
      // A warning or an error (pino's level 40 and up, `{"level":40`) goes out at once, with what came before it.
      if (line.charCodeAt(9) >= 52 && line.startsWith('{"level":')) flush();
      else if (timer === null) timer = setTimeout(flush, GATHER_MS);
    },
  };
}
