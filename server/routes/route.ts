/**
 * A route of the service, as a resource module declares it: its path, its methods, what stands
 * before its handler (the gate), and the handler, which returns its answer (or throws: the error
 * is answered in the API's shape, server/http/reply.ts).
 */
import { ApiError } from '../errors.js';
import type { Exchange } from '../http/exchange.js';
import type { StaticFile } from '../http/static.js';

export const GET = ['GET', 'HEAD'] as const;
export const POST = ['POST'] as const;

/**
 * What a handler answers: a JSON body (200), a JSON body with its status, a CSV file (200), or a
 * file of an add-in (null: no such file, a 404).
 */
export type Answer = string | Buffer | { status: number; json: string } | { csv: string } | { file: StaticFile | null };

export interface Route {
  /** The path as decoded; ending in `/*`, one segment after it (a path parameter) or, with `deep`, any rest. */
  path: string;
  /** A prefix route takes any number of segments after it (the add-ins' files). */
  deep?: boolean;
  methods: readonly string[];
  /**
   * `key`: the key, its limit and the query parameters `params` (server/gate.ts); `public`: the
   * per-address limit of the public document; `none`.
   */
  gate: 'key' | 'public' | 'none';
  params: readonly string[];
  /**
   * A JSON body, read by the gate before the key's limit is counted, and how many requests it
   * counts as against that limit (at least 1).
   */
  body?: { cost(body: unknown): number };
  run(res: Exchange): Answer | Promise<Answer>;
}

/** Most lines an order or a batch may hold. */
export const MAX_LINES = 1000;

export function jsonObject(body: unknown): Record<string, unknown> {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) throw new ApiError('invalid_parameter', 'The body must be a JSON object', { parameter: 'body' });
  return body as Record<string, unknown>;
}

export function lineArray(v: unknown, name: string, max = MAX_LINES): unknown[] {
  if (!Array.isArray(v)) throw new ApiError('invalid_parameter', `${name} must be an array`, { parameter: name });
  if (v.length > max) throw new ApiError('too_many_lines', `${name} has ${v.length} entries; at most ${max} per request`, { parameter: name, max, given: v.length });
  return v;
}

/** How many entries the body's `field` holds when it is a list (0 otherwise): a batch's size before it is checked. */
export function entries(body: unknown, field: string): number {
  const v = body !== null && typeof body === 'object' ? (body as Record<string, unknown>)[field] : undefined;
  return Array.isArray(v) ? v.length : 0;
}
