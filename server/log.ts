/**
 * The service's log: pino's JSON lines. On standard output the lines are gathered and written in
 * one call per 64 KB or 50 ms instead of one call per line: at thousands of requests a second, the
 * write calls cost more than the lines. A stream given by the caller (tests) is written line by
 * line, so what was logged is there at once.
 */
import pino, { type Logger } from 'pino';
import { bytesOf, writeInteger } from './http/json-bytes.js';

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

/** Milliseconds to the microsecond, as few digits as needed (0.357, 12.4, 3): what writeMilliseconds writes. */
export function milliseconds(ms: number): string {
  const b = Buffer.allocUnsafe(40);
  return b.toString('latin1', 0, writeMilliseconds(b, 0, ms));
}

/**
 * Milliseconds written at `at` to the microsecond without trailing zeros, as JSON.stringify writes
 * the rounded value (not a double's 17 digits). Where they end.
 */
function writeMilliseconds(buf: Buffer, at: number, ms: number): number {
  const us = Math.round(ms * 1000);
  const whole = Math.floor(us / 1000);
  const frac = us - whole * 1000;
  at = whole < 2 ** 31 ? writeInteger(buf, at, whole) : at + buf.write(String(whole), at, 'latin1');
  if (frac === 0) return at;
  buf[at++] = 46; // .
  buf[at++] = 48 + ((frac / 100) | 0);
  const rest = frac % 100;
  if (rest === 0) return at;
  buf[at++] = 48 + ((rest / 10) | 0);
  if (rest % 10 !== 0) buf[at++] = 48 + (rest % 10);
  return at;
}

/**
 * `s` as a JSON string at `at`: copied a character at a time when each is printable ASCII but `"`
 * and `\` (methods, URLs as Node reads them, addresses), else as JSON.stringify writes it. Where it ends.
 */
function writeString(buf: Buffer, at: number, s: string): number {
  buf[at] = 34; // "
  const n = s.length;
  for (let i = 0; i < n; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x20 || c > 0x7e || c === 34 || c === 92) return at + buf.write(JSON.stringify(s), at);
    buf[at + 1 + i] = c;
  }
  buf[at + 1 + n] = 34;
  return at + 2 + n;
}

/** `src` copied to `at`; where it ends. */
function put(buf: Buffer, at: number, src: Uint8Array): number {
  buf.set(src, at);
  return at + src.length;
}
const URL_KEY = bytesOf(',"url":');
const STATUS_KEY = bytesOf(',"statusCode":');
const TIME_KEY = bytesOf(',"responseTime":');
const IP_KEY = bytesOf(',"ip":');
const END = bytesOf(',"msg":"request completed"}\n');

/**
 * The writer of the per-request line: the line pino's `log.info(fields, 'request completed')`
 * writes (level, time, pid and hostname, the fields, msg), to the same destination, written as
 * bytes. Measured in the service, building it as a string (a template, then encoded) cost about as
 * much as costing the query (README, Performance): here its head is encoded once a millisecond,
 * its strings are copied a character at a time and its numbers written from their digits, straight
 * into the gathered buffer of standard output; another stream (a caller's) gets the same bytes as
 * one string. Null when info lines are off.
 */
export function requestLogger(log: Logger): ((r: RequestDone) => void) | null {
  if (!log.isLevelEnabled('info')) return null;
  const l = log as unknown as Record<symbol, unknown>;
  const stream = l[pino.symbols.streamSym] as { write(line: string): void } | Gathered;
  const bindings = l[pino.symbols.chindingsSym] as string;
  const gatheredLines = stream instanceof Gathered ? stream : null;
  // For a caller's stream: the line's bytes, then decoded once.
  let scratch = Buffer.allocUnsafe(0);
  let at = 0;
  let head = bytesOf('');
  return (r) => {
    const now = Date.now();
    if (now !== at) {
      at = now;
      head = bytesOf(`{"level":30,"time":${now}${bindings},"method":`);
    }
    // The most the line can take: 6 bytes a UTF-16 unit of its strings (\u001f), and the rest.
    const most = head.length + 6 * (r.method.length + r.url.length + r.ip.length) + 128;
    const into = gatheredLines !== null && most <= GATHER_BYTES;
    if (!into && most > scratch.length) scratch = Buffer.allocUnsafe(most);
    let i = into ? gatheredLines.reserve(most) : 0;
    // After reserve: writing out what was gathered moves to the other buffer.
    const buf = into ? gatheredLines.buffer : scratch;
    i = put(buf, i, head);
    i = writeString(buf, i, r.method);
    i = put(buf, i, URL_KEY);
    i = writeString(buf, i, r.url);
    i = put(buf, i, STATUS_KEY);
    i = writeInteger(buf, i, r.statusCode);
    i = put(buf, i, TIME_KEY);
    i = writeMilliseconds(buf, i, r.responseTime);
    i = put(buf, i, IP_KEY);
    i = writeString(buf, i, r.ip);
    i = put(buf, i, END);
    if (into) gatheredLines.commit(i);
    else stream.write(buf.toString('utf8', 0, i));
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
 * exit); a SIGKILL loses up to 50 ms of info lines. The request's line is written into the buffer
 * directly (reserve, then commit). For standard output two buffers take turns, so what is written out
 * is not copied first.
 */
export class Gathered {
  /** Where lines are gathered; while it is written out, they go to the other one. */
  buffer: Buffer = Buffer.allocUnsafeSlow(GATHER_BYTES);
  /** The other buffer, once its bytes are written (null while they are, or before it is first needed). */
  private spare: Buffer | null = null;
  private used = 0;
  private timer: NodeJS.Timeout | null = null;

  /**
   * `sink`: the target is done with the bytes by the time it calls back (standard output: a file,
   * a pipe or a terminal, written synchronously on Linux), so they are handed to it as they are;
   * otherwise (a stream that passes chunks on) it gets a copy.
   */
  constructor(
    private readonly target: NodeJS.WritableStream,
    private readonly sink: boolean,
  ) {
    flushers.add(this.flush);
  }

  write(line: string): void {
    // At most 3 bytes a UTF-16 unit in UTF-8.
    if (this.used + 3 * line.length > GATHER_BYTES) {
      this.flush();
      if (3 * line.length > GATHER_BYTES) return void this.target.write(line);
    }
    this.used += this.buffer.write(line, this.used);
    // A warning or an error (pino's level 40 and up, `{"level":40`) goes out at once, with what came before it.
    if (line.charCodeAt(9) >= 52 && line.startsWith('{"level":')) this.flush();
    else this.later();
  }

  /** Where an info line of at most `n` bytes (n ≤ 64 KB) is to be written in `buffer`: room is made first. */
  reserve(n: number): number {
    if (this.used + n > GATHER_BYTES) this.flush();
    return this.used;
  }

  /** The line written after `reserve` ends at `end`. */
  commit(end: number): void {
    this.used = end;
    this.later();
  }

  private later(): void {
    if (this.timer === null) this.timer = setTimeout(this.flush, GATHER_MS);
  }

  private readonly flush = (): void => {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    if (this.used === 0) return;
    const full = this.buffer;
    if (!this.sink) this.target.write(Buffer.from(full.subarray(0, this.used)));
    else {
      // Not a copy: the sink holds the bytes until its callback, so lines go to the other buffer
      // meanwhile (a new one if that is still held).
      this.target.write(full.subarray(0, this.used), () => void (this.spare = full));
      this.buffer = this.spare ?? Buffer.allocUnsafeSlow(GATHER_BYTES);
      this.spare = null;
    }
    this.used = 0;
  };
}

export const gathered = (target: NodeJS.WritableStream, sink = target === process.stdout): Gathered => new Gathered(target, sink);
