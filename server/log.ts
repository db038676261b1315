/**
 * The service's log: pino's JSON lines. On standard output the lines are gathered and written once
 * per turn of the event loop instead of one write call per line: at thousands of requests a
 * second, the write calls cost more than the lines. A stream given by the caller (tests) is
 * written line by line, so what was logged is there at once.
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

/**
 * The writer of the per-request line: the line pino's `log.info(fields, 'request completed')`
 * writes, byte for byte (level, time, pid and hostname, the fields, msg), to the same destination,
 * but put together in one template: at thousands of requests a second pino's generic walk over the
 * fields was a measurable share of the request. Null when info lines are off.
 */
export function requestLogger(log: Logger): ((r: RequestDone) => void) | null {
  if (!log.isLevelEnabled('info')) return null;
  const l = log as unknown as Record<symbol, unknown>;
  const stream = l[pino.symbols.streamSym] as { write(line: string): void };
  const bindings = l[pino.symbols.chindingsSym] as string;
  return (r) =>
    stream.write(
      `{"level":30,"time":${Date.now()}${bindings},"method":${JSON.stringify(r.method)},"url":${JSON.stringify(r.url)},"statusCode":${r.statusCode},"responseTime":${r.responseTime},"ip":${JSON.stringify(r.ip)},"msg":"request completed"}\n`,
    );
}

export function createLog(level: string, stream?: NodeJS.WritableStream): Logger {
  return pino({ level }, stream ?? linesOncePerTurn(process.stdout));
}

const flushers = new Set<() => void>();
// Whatever is still gathered when the process exits is written then (standard output is
// synchronous for files and pipes on Linux).
process.once('exit', () => flushers.forEach((flush) => flush()));

function linesOncePerTurn(target: NodeJS.WritableStream): { write(line: string): void } {
  let pending: string[] = [];
  let scheduled = false;
  const flush = () => {
    scheduled = false;
    if (pending.length === 0) return;
    const chunk = pending.join('');
    pending = [];
    target.write(chunk);
  };
  flushers.add(flush);
  return {
    write(line) {
      pending.push(line);
      if (!scheduled) {
        scheduled = true;
        setImmediate(flush);
      }
    },
  };
}
