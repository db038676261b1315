/**
 * Stand-ins for the Apps Script services the add-on uses, and the loading of the built Code.js
 * into a Node `vm` context with them, as Apps Script loads it: one global scope in which the
 * top-level functions are what Sheets, menus and google.script.run call.
 *
 * UrlFetchApp is real: every request goes over HTTP to the URL asked for (the test's real API
 * server), synchronously, by a child Node process (fetch-child.mjs) run with execFileSync, and
 * only to the origins the built appsscript.json whitelists.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import vm from 'node:vm';
import { FakeSheet, type FakeRange } from './fake-sheet.js';

const FETCH_CHILD = fileURLToPath(new URL('./fetch-child.mjs', import.meta.url));
const MAX_CACHE_KEY = 250;
const MAX_CACHE_VALUE = 100 * 1024;
/**
 * CacheService keeps about 1,000 items: when full it evicts the oldest ~10% by creation time,
 * whatever was read since (measured by J. Poehnelt, "Exploring Apps Script CacheService limits").
 */
const MAX_CACHE_ITEMS = 1000;
const EVICTED_WHEN_FULL = 100;

interface FetchParams {
  method?: string;
  headers?: Record<string, string>;
  contentType?: string;
  payload?: string;
  muteHttpExceptions?: boolean;
}

/** A request the add-on made, as the server received it. */
export interface HttpRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body: unknown;
}

interface ChildResponse {
  status?: number;
  headers?: Record<string, string>;
  body?: string;
  failure?: string;
}

class Properties {
  constructor(private readonly store: Map<string, string>) {}
  getProperty(k: string): string | null {
    return this.store.get(k) ?? null;
  }
  setProperty(k: string, v: string): this {
    this.store.set(k, String(v));
    return this;
  }
  deleteProperty(k: string): this {
    this.store.delete(k);
    return this;
  }
  getProperties(): Record<string, string> {
    return Object.fromEntries(this.store);
  }
  getKeys(): string[] {
    return [...this.store.keys()];
  }
}

class Cache {
  constructor(readonly store: Map<string, string>) {}
  private check(key: string, value?: string): void {
    if (key.length > MAX_CACHE_KEY) throw new Error(`Exception: Argument too large: key (${key.length} characters)`);
    if (value !== undefined && value.length > MAX_CACHE_VALUE) throw new Error('Exception: Argument too large: value');
  }
  get(key: string): string | null {
    this.check(key);
    return this.store.get(key) ?? null;
  }
  getAll(keys: string[]): Record<string, string> {
    const out: Record<string, string> = {};
    for (const k of keys) {
      this.check(k);
      if (this.store.has(k)) out[k] = this.store.get(k)!;
    }
    return out;
  }
  put(key: string, value: string, seconds?: number): void {
    this.check(key, value);
    if (seconds !== undefined && seconds > 21600) throw new Error('Exception: expirationInSeconds must be at most 21600');
    this.store.delete(key); // a new creation time: last to be evicted
    if (this.store.size >= MAX_CACHE_ITEMS) for (const old of [...this.store.keys()].slice(0, EVICTED_WHEN_FULL)) this.store.delete(old);
    this.store.set(key, value);
  }
  putAll(values: Record<string, string>, seconds?: number): void {
    for (const [k, v] of Object.entries(values)) this.put(k, v, seconds);
  }
  remove(key: string): void {
    this.store.delete(key);
  }
  removeAll(keys: string[]): void {
    keys.forEach((k) => this.store.delete(k));
  }
}

export class AddonWorld {
  readonly requests: HttpRequest[] = [];
  readonly documentProperties = new Map<string, string>();
  readonly userProperties = new Map<string, Map<string, string>>();
  readonly documentCache = new Map<string, string>();
  readonly sheets = new Map<string, FakeSheet>([['Sheet1', new FakeSheet('Sheet1')]]);
  readonly toasts: string[] = [];
  /** Each Utilities.sleep, in milliseconds. */
  readonly slept: number[] = [];
  readonly alerts: string[][] = [];
  /** Answers the next ui.alert calls give ('YES', 'NO', 'OK'); an unexpected question fails the test. */
  readonly alertAnswers: string[] = [];
  readonly menus: { name: string; items: [string, string][] }[] = [];
  sidebar: { title: string; content: string } | null = null;
  /** Who runs the script now: user properties are per user. */
  user = 'owner@example.com';
  private active: FakeRange;
  private readonly context: vm.Context;
  private readonly whitelist: string[];

  constructor(readonly dir: string) {
    const manifest = JSON.parse(readFileSync(join(dir, 'appsscript.json'), 'utf8')) as { urlFetchWhitelist?: string[] };
    this.whitelist = manifest.urlFetchWhitelist ?? [];
    this.active = this.sheet.getRange('A1');
    this.context = vm.createContext({ ...this.services(), console });
    vm.runInContext(readFileSync(join(dir, 'Code.js'), 'utf8'), this.context, { filename: 'Code.js' });
  }

  get sheet(): FakeSheet {
    return this.sheets.get('Sheet1')!;
  }

  select(a1: string): void {
    this.active = this.sheet.getRange(a1);
  }

  /** Calls a top-level function of Code.js, as Sheets, a menu or google.script.run would; answers as plain JSON. */
  call<T = unknown>(name: string, ...args: unknown[]): T {
    const fn = this.context[name] as unknown;
    if (typeof fn !== 'function') throw new Error(`Code.js has no top-level function ${name}`);
    let answer: unknown;
    try {
      answer = (fn as (...a: unknown[]) => unknown)(...args);
    } catch (e) {
      throw new Error((e as Error).message);
    }
    return answer === undefined ? (undefined as T) : (JSON.parse(JSON.stringify(answer)) as T);
  }

  /** Names of the top-level functions Code.js declares. */
  globals(): string[] {
    return Object.keys(this.context).filter((k) => typeof this.context[k] === 'function');
  }

  private fetch(list: { url: string; params: FetchParams }[]) {
    for (const { url } of list)
      if (!this.whitelist.some((prefix) => url.startsWith(prefix))) throw new Error(`Exception: Script does not have permission to fetch ${url}: not in urlFetchWhitelist`);
    const wire = list.map(({ url, params }) => {
      const headers: Record<string, string> = { ...(params.headers ?? {}) };
      if (params.contentType) headers['Content-Type'] = params.contentType;
      const method = (params.method ?? 'get').toUpperCase();
      this.requests.push({ method, url, headers, body: params.payload === undefined ? undefined : JSON.parse(params.payload) });
      return { url, method, headers, body: params.payload };
    });
    const out = execFileSync(process.execPath, [FETCH_CHILD], { input: JSON.stringify(wire), maxBuffer: 256 * 1024 * 1024 });
    return (JSON.parse(out.toString('utf8')) as ChildResponse[]).map((r, i) => {
      if (r.failure !== undefined) throw new Error(`Exception: Address unavailable: ${list[i].url} (${r.failure})`);
      if (!list[i].params.muteHttpExceptions && r.status! >= 400) throw new Error(`Exception: Request failed for ${list[i].url} returned code ${r.status}`);
      return {
        getResponseCode: () => r.status!,
        getContentText: () => r.body!,
        getHeaders: () => ({ ...r.headers }),
        getAllHeaders: () => ({ ...r.headers }),
      };
    });
  }

  private services() {
    const world = this;
    const properties = (store: Map<string, string>) => new Properties(store);
    const userStore = () => {
      if (!world.userProperties.has(world.user)) world.userProperties.set(world.user, new Map());
      return world.userProperties.get(world.user)!;
    };
    const menu = (name: string) => {
      const items: [string, string][] = [];
      const m = {
        addItem(caption: string, fn: string) {
          items.push([caption, fn]);
          return m;
        },
        addSeparator() {
          return m;
        },
        addToUi() {
          world.menus.push({ name, items });
        },
      };
      return m;
    };
    const ui = {
      ButtonSet: { OK: 'OK', OK_CANCEL: 'OK_CANCEL', YES_NO: 'YES_NO', YES_NO_CANCEL: 'YES_NO_CANCEL' },
      Button: { OK: 'OK', CANCEL: 'CANCEL', YES: 'YES', NO: 'NO', CLOSE: 'CLOSE' },
      createAddonMenu: () => menu('Extensions ▸ add-on'),
      createMenu: (name: string) => menu(name),
      alert(...args: string[]) {
        world.alerts.push(args);
        const answer = world.alertAnswers.shift();
        if (answer === undefined) throw new Error(`unexpected alert: ${args.join(' | ')}`);
        return answer;
      },
      showSidebar(html: { getTitle(): string; getContent(): string }) {
        world.sidebar = { title: html.getTitle(), content: html.getContent() };
      },
    };
    // One execution at a time runs here, so a lock is always free; the add-on must still take and release it.
    const lock = () => {
      let held = false;
      return {
        tryLock: () => (held = true),
        waitLock: () => void (held = true),
        hasLock: () => held,
        releaseLock: () => void (held = false),
      };
    };
    const book = {
      getSheetByName: (name: string) => world.sheets.get(name) ?? null,
      getActiveSheet: () => world.active.getSheet(),
      getActiveRange: () => world.active,
      toast: (message: string) => void world.toasts.push(message),
    };
    return {
      UrlFetchApp: {
        fetch: (url: string, params: FetchParams = {}) => world.fetch([{ url, params }])[0],
        fetchAll: (requests: (FetchParams & { url: string })[]) => world.fetch(requests.map((r) => ({ url: r.url, params: r }))),
      },
      LockService: { getDocumentLock: lock, getScriptLock: lock },
      Utilities: {
        sleep(ms: number) {
          world.slept.push(ms);
          Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
        },
      },
      CacheService: {
        getDocumentCache: () => new Cache(world.documentCache),
        getScriptCache: () => new Cache(world.documentCache),
      },
      PropertiesService: {
        getDocumentProperties: () => properties(world.documentProperties),
        getUserProperties: () => properties(userStore()),
      },
      SpreadsheetApp: {
        getActiveSpreadsheet: () => book,
        getActiveSheet: () => world.active.getSheet(),
        getActiveRange: () => world.active,
        getUi: () => ui,
      },
      HtmlService: {
        createHtmlOutputFromFile(name: string) {
          const content = readFileSync(join(world.dir, `${name}.html`), 'utf8');
          let title = '';
          const output = {
            setTitle(t: string) {
              title = t;
              return output;
            },
            getTitle: () => title,
            getContent: () => content,
          };
          return output;
        },
      },
    };
  }
}
