/**
 * The one way the add-on talks to the landed API: UrlFetchApp with the document's key. Several
 * requests go out together through UrlFetchApp.fetchAll (one round trip, run in parallel by Google).
 */
import { GET_A_KEY } from '../spreadsheet/addin-help.js';
import { retryAfterMs } from '../spreadsheet/rate-limit.js';
import { readSettings } from './settings.js';

/** The API's per-line (and per-request) error: `{"error": {"code", "message", "details"}}`. */
export interface LineError {
  code: string;
  message: string;
  details?: Record<string, unknown>;
}

/** A request to the API. `path` is relative to the API URL, e.g. `api/v1/duty/batch`. */
export interface Call {
  path: string;
  query?: Record<string, string | number | undefined>;
  /** A JSON body makes it a POST. */
  body?: unknown;
}

export interface Reply<T> {
  data: T;
  /** Response headers, names in lower case. */
  headers: Record<string, string>;
}

/** A request that failed as a whole: HTTP error from the API, or the API could not be reached. */
export class ApiError extends Error {
  /** The API's own error, as a cell shows it. */
  readonly error: LineError;
  readonly status: number;
  /** For a 429: how long the API asked to wait. */
  readonly retryAfterMs: number;

  constructor(error: LineError, message: string, status: number, retryAfterMs = 0) {
    super(message);
    this.name = 'ApiError';
    this.error = error;
    this.status = status;
    this.retryAfterMs = retryAfterMs;
  }

  get code(): string {
    return this.error.code;
  }
}

export const NO_KEY_MESSAGE = `No landed API key is set for this spreadsheet: open landed ▸ Open sidebar and save a key. ${GET_A_KEY}`;

/**
 * How long a call may wait out the rate limit before retrying. A custom function has 30 seconds in
 * all, so the waits stop well before that; a longer Retry-After is reported instead.
 */
const RETRY_BUDGET_MS = 20_000;

/**
 * Sends the calls (fetch for one, fetchAll for several); each reply is its data or its ApiError.
 * Calls answered 429 are sent again after Retry-After while the waits fit in `budgetMs` (0: a 429
 * is answered at once, for a caller that shows the wait: the order sidebar).
 */
export function send<T>(calls: readonly Call[], budgetMs = RETRY_BUDGET_MS): (Reply<T> | ApiError)[] {
  if (!calls.length) return [];
  const { apiUrl, apiKey } = readSettings();
  if (!apiKey) throw new Error(NO_KEY_MESSAGE);
  const deadline = Date.now() + budgetMs;
  const replies: (Reply<T> | ApiError)[] = new Array(calls.length);
  let pending = calls.map((_, i) => i);
  for (;;) {
    const requests = pending.map((i) => request(apiUrl, apiKey, calls[i]));
    let responses: GoogleAppsScript.URL_Fetch.HTTPResponse[];
    try {
      responses = requests.length === 1 ? [UrlFetchApp.fetch(requests[0].url, requests[0])] : UrlFetchApp.fetchAll(requests);
    } catch (e) {
      throw new Error(`Cannot reach the landed API at ${apiUrl}: ${e instanceof Error ? e.message : String(e)}`);
    }
    pending.forEach((i, k) => (replies[i] = reply<T>(responses[k])));
    const limited = pending.filter((i) => replies[i] instanceof ApiError && (replies[i] as ApiError).status === 429);
    const waitMs = Math.max(0, ...limited.map((i) => (replies[i] as ApiError).retryAfterMs));
    if (!limited.length || Date.now() + waitMs > deadline) return replies;
    Utilities.sleep(waitMs);
    pending = limited;
  }
}

/** Like send, but any failed request fails the whole operation. */
export function sendAll<T>(calls: readonly Call[], budgetMs = RETRY_BUDGET_MS): Reply<T>[] {
  return send<T>(calls, budgetMs).map((r) => {
    if (r instanceof ApiError) throw r;
    return r;
  });
}

function request(apiUrl: string, apiKey: string, call: Call): GoogleAppsScript.URL_Fetch.URLFetchRequest {
  const query = Object.entries(call.query ?? {})
    .filter(([, v]) => v !== undefined && v !== '')
    .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(String(v))}`)
    .join('&');
  const req: GoogleAppsScript.URL_Fetch.URLFetchRequest = {
    url: `${apiUrl}${call.path}${query ? `?${query}` : ''}`,
    method: call.body === undefined ? 'get' : 'post',
    headers: { Authorization: `Bearer ${apiKey}`, Accept: 'application/json' },
    muteHttpExceptions: true,
    followRedirects: false,
  };
  if (call.body !== undefined) {
    req.contentType = 'application/json';
    req.payload = JSON.stringify(call.body);
  }
  return req;
}

function reply<T>(response: GoogleAppsScript.URL_Fetch.HTTPResponse): Reply<T> | ApiError {
  const status = response.getResponseCode();
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(response.getHeaders() as Record<string, unknown>)) headers[k.toLowerCase()] = String(v);
  const text = response.getContentText();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  if (status >= 200 && status < 300 && body !== undefined) return { data: body as T, headers };
  const error = (body as { error?: LineError } | undefined)?.error;
  if (!error) {
    const message = `The landed API answered HTTP ${status} without a JSON body: ${text.slice(0, 120)}`;
    return new ApiError({ code: 'http_error', message }, message, status);
  }
  // A 429 is waited out for as long as it asks (at least 0.1 s, so a server answering 429 again is not hammered), else a second.
  return new ApiError(error, describe(error, status, headers), status, Math.max(retryAfterMs(headers['retry-after'], body, Date.now()) ?? 1000, 100));
}

function describe(error: LineError, status: number, headers: Record<string, string>): string {
  switch (error.code) {
    case 'unauthorized':
      return `The landed API refused the key (${error.message}): save a valid key in landed ▸ Open sidebar. ${GET_A_KEY}`;
    case 'rate_limited':
      return `The landed API rate limit is reached (${headers['x-ratelimit-limit'] ?? '?'} requests a minute for this spreadsheet's key): retry in ${headers['retry-after'] ?? error.details?.retry_after ?? 60} s.`;
    default:
      return `landed API error ${status} ${error.code}: ${error.message}`;
  }
}

/** The text a cell shows for a line the API could not cost: `#N/A` for unknown codes, `#VALUE!` for bad input. */
export function errorText(error: LineError): string {
  const tag = error.code === 'not_found' ? '#N/A' : error.code === 'invalid_parameter' ? '#VALUE!' : '#ERROR!';
  return `${tag} ${error.message}`;
}
