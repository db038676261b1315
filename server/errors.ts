/** The API's one error shape: `{"error": {"code", "message", "details"}}`, with a stable code. */
export type ErrorCode =
  | 'unauthorized'
  | 'rate_limited'
  | 'not_found'
  | 'method_not_allowed'
  | 'uri_too_long'
  | 'invalid_parameter'
  | 'too_many_lines'
  | 'payload_too_large'
  | 'invalid_json'
  | 'duplicate_field'
  | 'body_too_complex'
  | 'unsupported_media_type'
  | 'request_timeout'
  | 'headers_too_large'
  | 'service_unavailable'
  | 'internal';

export const STATUS: Record<ErrorCode, number> = {
  unauthorized: 401,
  rate_limited: 429,
  not_found: 404,
  method_not_allowed: 405,
  uri_too_long: 414,
  invalid_parameter: 400,
  too_many_lines: 400,
  payload_too_large: 413,
  invalid_json: 400,
  duplicate_field: 400,
  body_too_complex: 400,
  unsupported_media_type: 415,
  request_timeout: 408,
  headers_too_large: 431,
  service_unavailable: 503,
  internal: 500,
};

export class ApiError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
  }
}

export function errorBody(code: ErrorCode, message: string, details?: Record<string, unknown>) {
  return { error: { code, message, ...(details ? { details } : {}) } };
}

/** Whether a store answers now (for /healthz): `ok`, or why not. */
export type Health = { ok: true } | { ok: false; reason: string };

/** A store the API needs could not answer (down, restarted, too slow, unreadable): the request is a 503. */
export class StoreUnavailable extends Error {
  constructor(
    /** Which store, as the 503's message names it. */
    readonly store: 'key store' | 'rate limiter',
    message: string,
  ) {
    super(message);
  }
}
