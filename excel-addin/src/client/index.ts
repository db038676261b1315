/**
 * The add-in's client of the landed API, one per runtime: the custom functions and the task pane
 * run in the same shared runtime and use the same instance (the same settings, batch queue, cache
 * and rate-limit pause), even though they are loaded as two scripts.
 */
import type { HtsRecord } from '../../../shared/record.js';
import type { SearchAnswer } from '../../../shared/search/search.js';
import { LandedApi, type ApiOptions } from './api.js';
import { DutyBatcher, type BatchOptions } from './batcher.js';
import { costOrder, type CostedOrder, type OrderOptions } from './bulk.js';
import { officeStore } from './settings.js';
import type { OrderRequest } from '../../../spreadsheet/order-requests.js';
import { answersByQuery, searchBatches, type BatchAnswer } from '../../../spreadsheet/code-check.js';

export interface ExporterRow {
  rank: number;
  iso3: string;
  country: string;
  value_usd: number;
  share: number;
}

export interface Exporters {
  chapter: string;
  chapter_description: string;
  year: number;
  source: string;
  exporters: ExporterRow[];
}

export class Landed {
  readonly api: LandedApi;
  readonly duties: DutyBatcher;
  private readonly lookups = new Map<string, Promise<unknown>>();

  constructor(api: LandedApi, batch: BatchOptions = {}) {
    this.api = api;
    this.duties = new DutyBatcher(api, batch);
  }

  /** GET /hts/{code}, once per code for the session. */
  record(code: string): Promise<HtsRecord> {
    return this.lookup(`hts ${code}`, () => this.api.get<HtsRecord>(`/hts/${encodeURIComponent(code)}`));
  }

  /** GET /exporters, once per (hts, limit) for the session. */
  exporters(hts: string, limit?: number): Promise<Exporters> {
    return this.lookup(`exporters ${hts} ${limit ?? ''}`, () => this.api.get<Exporters>('/exporters', { hts, limit }));
  }

  /** GET /hts?q=, once per (words, limit) for the session. */
  search(q: string, limit?: number): Promise<SearchAnswer> {
    return this.lookup(`search ${limit ?? ''} ${q}`, () => this.api.get<SearchAnswer>('/hts', { q, limit }));
  }

  /** POST /hts/batch, MAX_SEARCHES queries a request: the answers by query (a query refused has none). `onWait`: a 429's wait, before it is waited out. */
  async searchAll(queries: readonly string[], signal?: AbortSignal, onWait?: (ms: number) => void): Promise<Map<string, SearchAnswer>> {
    const answers: BatchAnswer[] = [];
    for (const body of searchBatches(queries)) answers.push(...(await this.api.post<{ answers: BatchAnswer[] }>('/hts/batch', body, signal, onWait)).answers);
    return answersByQuery(queries, answers);
  }

  costOrder(
    requests: readonly OrderRequest[],
    options: OrderOptions,
    onProgress?: (done: number, total: number) => void,
    signal?: AbortSignal,
    onWait?: (ms: number, done: number, total: number) => void,
  ): Promise<CostedOrder> {
    return costOrder(this.api, requests, options, onProgress, signal, onWait);
  }

  /** Drops every cached answer: after the settings change (another server or key). */
  forget(): void {
    this.duties.clear();
    this.lookups.clear();
  }

  private lookup<T>(key: string, load: () => Promise<T>): Promise<T> {
    let p = this.lookups.get(key) as Promise<T> | undefined;
    if (!p) {
      p = load();
      this.lookups.set(key, p);
      // Only answers are kept: a failed request (no key yet, network) is tried again next time.
      p.catch(() => this.lookups.delete(key));
    }
    return p;
  }
}

const GLOBAL_KEY = '__landedClient';

function defaultBaseUrl(): string {
  const loc = typeof location !== 'undefined' ? location : null;
  return loc && /^https?:$/.test(loc.protocol) ? loc.origin : 'https://localhost:8443';
}

/** The runtime's client, created on first use from OfficeRuntime.storage and the page's origin. */
export function landed(): Landed {
  const g = globalThis as { [GLOBAL_KEY]?: Landed };
  return (g[GLOBAL_KEY] ??= new Landed(new LandedApi({ store: officeStore(), defaultBaseUrl: defaultBaseUrl() })));
}

/** Replaces the runtime's client (tests; another configuration). */
export function useLanded(options: ApiOptions, batch?: BatchOptions): Landed {
  const client = new Landed(new LandedApi(options), batch);
  (globalThis as { [GLOBAL_KEY]?: Landed })[GLOBAL_KEY] = client;
  return client;
}

export { ApiError, isApiError, WHERE_TO_SET_KEY } from './api.js';
export { memoryStore, normaliseBaseUrl, type KeyValueStore, type Settings } from './settings.js';
export type { DutyQuery } from './batcher.js';
export type { CostedOrder, OrderOptions } from './bulk.js';
