/**
 * Gathers the duty queries of one recalculation into `POST /api/v1/duty/batch` requests, after
 * Microsoft's custom-functions batching sample: a call joins the pending batch, and the batch is
 * sent once no new call has come for `windowMs` (or `maxWaitMs` after its first call, or at once
 * when it holds `maxBatch` distinct queries, the API's limit). Identical calls share one query and
 * one result; results are cached for the session, keyed by every argument and the data revision
 * (a response of another HTS revision empties the cache). Per-line input errors are cached too:
 * they depend only on the arguments and the schedule.
 */
import type { DutyResult } from '../../../shared/order.js';
import { ApiError, type LandedApi } from './api.js';

export const QUERY_FIELDS = ['hts', 'value', 'origin', 's301', 'ocean', 'date', 'qty', 'unit', 'claim'] as const;
export type DutyQuery = { hts: unknown } & Partial<Record<(typeof QUERY_FIELDS)[number], unknown>>;

type BatchAnswer = DutyResult | { error: { code: string; message: string; details?: Record<string, unknown> } };

export interface BatchOptions {
  windowMs?: number;
  maxWaitMs?: number;
  /** Distinct queries per request: the API's limit is 1,000. */
  maxBatch?: number;
  /** Cache entries kept before the oldest are dropped. */
  maxCache?: number;
}

interface Pending {
  query: Record<string, unknown>;
  promise: Promise<DutyResult>;
  resolve: (r: DutyResult) => void;
  reject: (e: unknown) => void;
}

type Outcome = { ok: true; result: DutyResult } | { ok: false; error: ApiError };

/** The query as sent: empty arguments (omitted, blank cells) are left out. */
export function compactQuery(q: DutyQuery): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const f of QUERY_FIELDS) {
    const v = q[f];
    if (v !== undefined && v !== null && v !== '') out[f] = v;
  }
  return out;
}

export class DutyBatcher {
  /** Batch requests sent (for the task pane's status line and the tests). */
  requests = 0;
  revision: string | null = null;
  private readonly api: LandedApi;
  private readonly windowMs: number;
  private readonly maxWaitMs: number;
  private readonly maxBatch: number;
  private readonly maxCache: number;
  private readonly cache = new Map<string, Outcome>();
  /** Queries asked and not yet answered, queued or in flight, by key. */
  private readonly inFlight = new Map<string, Pending>();
  private queue: string[] = [];
  private quietTimer: ReturnType<typeof setTimeout> | null = null;
  private maxTimer: ReturnType<typeof setTimeout> | null = null;

  constructor(api: LandedApi, opts: BatchOptions = {}) {
    this.api = api;
    this.windowMs = opts.windowMs ?? 100;
    this.maxWaitMs = opts.maxWaitMs ?? 2000;
    this.maxBatch = opts.maxBatch ?? 1000;
    this.maxCache = opts.maxCache ?? 100_000;
  }

  duty(q: DutyQuery): Promise<DutyResult> {
    const query = compactQuery(q);
    const key = JSON.stringify(QUERY_FIELDS.map((f) => query[f] ?? null));
    const hit = this.cache.get(key);
    if (hit) return hit.ok ? Promise.resolve(hit.result) : Promise.reject(hit.error);
    const pending = this.inFlight.get(key);
    if (pending) return pending.promise;
    let resolve!: (r: DutyResult) => void;
    let reject!: (e: unknown) => void;
    const promise = new Promise<DutyResult>((res, rej) => ((resolve = res), (reject = rej)));
    this.inFlight.set(key, { query, promise, resolve, reject });
    this.queue.push(key);
    this.schedule();
    return promise;
  }

  /** Forgets cached results (the task pane's settings change: another server or key). */
  clear(): void {
    this.cache.clear();
    this.revision = null;
  }

  private schedule(): void {
    if (this.queue.length >= this.maxBatch) {
      this.flush();
      return;
    }
    if (this.quietTimer) clearTimeout(this.quietTimer);
    this.quietTimer = setTimeout(() => this.flush(), this.windowMs);
    this.maxTimer ??= setTimeout(() => this.flush(), this.maxWaitMs);
  }

  private flush(): void {
    if (this.quietTimer) clearTimeout(this.quietTimer);
    if (this.maxTimer) clearTimeout(this.maxTimer);
    this.quietTimer = this.maxTimer = null;
    while (this.queue.length) void this.send(this.queue.splice(0, this.maxBatch));
  }

  private async send(keys: string[]): Promise<void> {
    const batch = keys.map((k) => this.inFlight.get(k)!);
    this.requests++;
    let answers: BatchAnswer[];
    try {
      const body = await this.api.post<{ results?: BatchAnswer[] }>('/duty/batch', { queries: batch.map((p) => p.query) });
      if (!Array.isArray(body.results) || body.results.length !== keys.length)
        throw new ApiError('bad_response', `The landed API answered ${keys.length} queries with ${body.results?.length ?? 'no'} results`);
      answers = body.results;
    } catch (e) {
      keys.forEach((k, i) => {
        this.inFlight.delete(k);
        batch[i].reject(e);
      });
      return;
    }
    const revision = answers.find((a): a is DutyResult => !('error' in a))?.hts_revision;
    if (revision && revision !== this.revision) {
      this.cache.clear();
      this.revision = revision;
    }
    keys.forEach((k, i) => {
      const a = answers[i];
      this.inFlight.delete(k);
      if ('error' in a) {
        const error = new ApiError(a.error.code, a.error.message, 0, a.error.details ?? {});
        if (a.error.code === 'invalid_parameter' || a.error.code === 'not_found') this.remember(k, { ok: false, error });
        batch[i].reject(error);
      } else {
        this.remember(k, { ok: true, result: a });
        batch[i].resolve(a);
      }
    });
  }

  private remember(key: string, outcome: Outcome): void {
    if (this.cache.size >= this.maxCache) this.cache.delete(this.cache.keys().next().value as string);
    this.cache.set(key, outcome);
  }
}
