/**
 * The one HTTP client of the add-in, used by the custom functions and the task pane alike: reads the
 * API base URL and key from settings, sends `Authorization: Bearer`, turns the API's JSON errors
 * into ApiError, and waits out 429 responses (Retry-After) before retrying, so our own rate limit
 * never reaches a cell. All requests share one pause: when one gets 429, the others wait too.
 */
import { GET_A_KEY } from '../../../spreadsheet/addin-help.js';
import { retryAfterMs as askedWait } from '../../../spreadsheet/rate-limit.js';
import { type KeyValueStore, markKeyWorks, readSettings, type Settings, writeSettings } from './settings.js';

/** An error from the API (`{"error":{code,message,details}}`), a line of a batch, or the transport. */
export class ApiError extends Error {
  readonly code: string;
  /** HTTP status; 0 for a per-line error inside a 200 response or when there was no response. */
  readonly status: number;
  readonly details: Record<string, unknown>;

  constructor(code: string, message: string, status = 0, details: Record<string, unknown> = {}) {
    super(message);
    this.name = 'ApiError';
    this.code = code;
    this.status = status;
    this.details = details;
  }
}

/**
 * The task pane and the functions may be separate bundles sharing one client object, so errors are
 * recognised by shape, not by class identity.
 */
export function isApiError(e: unknown): e is ApiError {
  return e instanceof Error && e.name === 'ApiError' && typeof (e as ApiError).code === 'string';
}

export const WHERE_TO_SET_KEY = 'open the landed task pane (Home tab › landed › Cost order) and set it under Settings';

export interface RateLimit {
  limit: number | null;
  remaining: number | null;
  reset: number | null;
}

export interface ApiOptions {
  store: KeyValueStore;
  /** Used when no base URL was saved: the origin the add-in was loaded from. */
  defaultBaseUrl: string;
  fetch?: typeof fetch;
  sleep?: (ms: number) => Promise<void>;
  now?: () => number;
}

const FALLBACK_WAIT_MS = 1000;
const MAX_WAIT_MS = 120_000;
/** A Retry-After of 0 still waits a little, so a server answering 429 again is not hammered. */
const MIN_WAIT_MS = 100;

export class LandedApi {
  /** The rate-limit headers of the last response. */
  lastRateLimit: RateLimit = { limit: null, remaining: null, reset: null };
  /** How many requests got 429 and were retried (shown in the task pane). */
  retries = 0;
  private readonly store: KeyValueStore;
  private readonly defaultBaseUrl: string;
  private readonly fetchImpl: typeof fetch;
  private readonly sleep: (ms: number) => Promise<void>;
  private readonly now: () => number;
  private cached: Promise<Settings> | null = null;
  private pausedUntil = 0;

  constructor(opts: ApiOptions) {
    this.store = opts.store;
    this.defaultBaseUrl = opts.defaultBaseUrl;
    this.fetchImpl = opts.fetch ?? ((input, init) => fetch(input, init));
    this.sleep = opts.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
    this.now = opts.now ?? Date.now;
  }

  settings(): Promise<Settings> {
    // A storage failure is not remembered: the next call reads again.
    return (this.cached ??= readSettings(this.store, this.defaultBaseUrl).catch((e: unknown) => {
      this.cached = null;
      throw e;
    }));
  }

  async saveSettings(s: Pick<Settings, 'baseUrl' | 'key'>): Promise<Settings> {
    this.cached = null;
    await writeSettings(this.store, s);
    return this.settings();
  }

  /** Records that the saved key answered a request. */
  async keyWorked(): Promise<void> {
    const { key } = await this.settings();
    this.cached = null;
    await markKeyWorks(this.store, key);
  }

  get<T>(path: string, params: Record<string, unknown> = {}): Promise<T> {
    const qs = new URLSearchParams();
    for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== null && v !== '') qs.set(k, String(v));
    const q = qs.toString();
    return this.send<T>('GET', q ? `${path}?${q}` : path);
  }

  /**
   * A POST; `signal` cancels it, and any wait for the rate limit before it at once. `onWait` is told
   * of each such wait (its milliseconds) before it starts.
   */
  post<T>(path: string, body: unknown, signal?: AbortSignal, onWait?: (ms: number) => void): Promise<T> {
    return this.send<T>('POST', path, JSON.stringify(body), signal, onWait);
  }

  /** Sleeps `ms`, or until `signal` aborts (then rejects as cancelled). */
  private pause(ms: number, signal?: AbortSignal): Promise<void> {
    if (!signal) return this.sleep(ms);
    if (signal.aborted) return Promise.reject(cancelled());
    return new Promise((resolve, reject) => {
      const abort = () => reject(cancelled());
      signal.addEventListener('abort', abort, { once: true });
      void this.sleep(ms).then(() => {
        signal.removeEventListener('abort', abort);
        resolve();
      });
    });
  }

  private async send<T>(method: string, path: string, body?: string, signal?: AbortSignal, onWait?: (ms: number) => void): Promise<T> {
    const { baseUrl, key } = await this.settings();
    if (!key) throw new ApiError('no_key', `No landed API key is set: ${WHERE_TO_SET_KEY}. ${GET_A_KEY}`);
    if (!baseUrl) throw new ApiError('no_base_url', `No landed API address is set: ${WHERE_TO_SET_KEY}.`);
    const url = `${baseUrl}/api/v1${path}`;
    const headers: Record<string, string> = { Authorization: `Bearer ${key}`, Accept: 'application/json' };
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    for (let attempt = 1; ; attempt++) {
      const wait = this.pausedUntil - this.now();
      if (wait > 0) {
        onWait?.(wait);
        await this.pause(wait, signal);
      }
      if (signal?.aborted) throw cancelled();
      let res: Response;
      try {
        res = await this.fetchImpl(url, { method, headers, body, signal });
      } catch (e) {
        if (signal?.aborted) throw cancelled();
        throw new ApiError('network', `Cannot reach the landed API at ${baseUrl} (${(e as Error).message}); check the address under Settings in the landed task pane.`);
      }
      this.lastRateLimit = {
        limit: numberHeader(res, 'X-RateLimit-Limit'),
        remaining: numberHeader(res, 'X-RateLimit-Remaining'),
        reset: numberHeader(res, 'X-RateLimit-Reset'),
      };
      if (res.status === 429) {
        this.retries++;
        const ms = retryAfterMs(res, await jsonOf(res), this.now()) ?? Math.min(FALLBACK_WAIT_MS * 2 ** (attempt - 1), MAX_WAIT_MS);
        this.pausedUntil = Math.max(this.pausedUntil, this.now() + ms);
        continue;
      }
      return (await readBody(res, key)) as T;
    }
  }
}

async function readBody(res: Response, key: string): Promise<unknown> {
  const text = await res.text();
  let json: unknown;
  try {
    json = text ? JSON.parse(text) : null;
  } catch {
    json = undefined;
  }
  if (res.ok && json !== undefined) return json;
  const err = (json as { error?: { code?: unknown; message?: unknown; details?: unknown } } | undefined)?.error;
  if (err && typeof err.code === 'string' && typeof err.message === 'string') {
    const details = (err.details && typeof err.details === 'object' ? err.details : {}) as Record<string, unknown>;
    const message =
      err.code === 'unauthorized' ? `The landed API rejected the key ending …${key.slice(-4)} (${err.message}): ${WHERE_TO_SET_KEY}. ${GET_A_KEY}` : err.message;
    throw new ApiError(err.code, message, res.status, details);
  }
  throw new ApiError('bad_response', `The landed API answered HTTP ${res.status} without a JSON body${res.ok ? '' : `: ${text.slice(0, 120)}`}`, res.status);
}

function numberHeader(res: Response, name: string): number | null {
  const v = res.headers.get(name);
  if (v === null || v.trim() === '') return null;
  const n = Number(v);
  return Number.isFinite(n) ? n : null;
}

const cancelled = () => new ApiError('cancelled', 'Cancelled.');

/** A response's JSON body, or undefined. */
async function jsonOf(res: Response): Promise<unknown> {
  try {
    return JSON.parse(await res.text());
  } catch {
    return undefined;
  }
}

/**
 * A 429's wait (its Retry-After as seconds or an HTTP date, else its JSON error's retry_after) in
 * milliseconds, at least MIN_WAIT_MS and at most two minutes.
 */
export function retryAfterMs(res: Response, body: unknown, now: number): number | null {
  const ms = askedWait(res.headers.get('Retry-After'), body, now);
  return ms === null ? null : Math.min(Math.max(ms, MIN_WAIT_MS), MAX_WAIT_MS);
}
