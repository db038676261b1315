/**
 * What the Excel add-in's tests share: the custom functions runtime's error class (office.js is not
 * loadable in Node), a fetch that counts what the add-in sends, and a client pointed at a server.
 */
import { memoryStore, useLanded, type Landed } from '../../excel-addin/src/client/index.js';
import type { BatchOptions } from '../../excel-addin/src/client/batcher.js';

/** CustomFunctions as office.js defines it: the error a function throws carries an Excel error code. */
export class CellError extends Error {
  constructor(
    readonly code: string,
    message?: string,
  ) {
    super(message);
  }
}

export function installCustomFunctions(): { associated: Map<string, unknown> } {
  const associated = new Map<string, unknown>();
  (globalThis as Record<string, unknown>).CustomFunctions = {
    Error: CellError,
    ErrorCode: { invalidValue: '#VALUE!', notAvailable: '#N/A', divisionByZero: '#DIV/0!', invalidNumber: '#NUM!', nullReference: '#NULL!', invalidName: '#NAME?', invalidReference: '#REF!' },
    associate: (id: string, f: unknown) => associated.set(id, f),
  };
  return { associated };
}

export interface Sent {
  method: string;
  url: string;
  body: any;
  status: number;
}

/** Wraps a fetch and records every request the add-in makes, with the status it got. */
export function recordingFetch(inner: typeof fetch = fetch): { fetch: typeof fetch; sent: Sent[] } {
  const sent: Sent[] = [];
  const wrapped: typeof fetch = async (input, init) => {
    const res = await inner(input, init);
    sent.push({ method: init?.method ?? 'GET', url: String(input), body: init?.body ? JSON.parse(String(init.body)) : null, status: res.status });
    return res;
  };
  return { fetch: wrapped, sent };
}

/** The runtime's client, configured for a server, a key and a fetch. */
export function clientFor(baseUrl: string, key: string | null, fetchImpl: typeof fetch, opts: { sleep?: (ms: number) => Promise<void>; batch?: BatchOptions } = {}): Landed {
  return useLanded(
    { store: memoryStore(key === null ? {} : { 'landed.apiKey': key }), defaultBaseUrl: baseUrl, fetch: fetchImpl, sleep: opts.sleep },
    opts.batch,
  );
}

/** Settles a promise into what a cell would show: its value, or the Excel error and message. */
export async function cell<T>(p: Promise<T>): Promise<T | { error: string; message: string }> {
  try {
    return await p;
  } catch (e) {
    if (e instanceof CellError) return { error: e.code, message: e.message };
    throw e;
  }
}
