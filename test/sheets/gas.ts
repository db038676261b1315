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
import { MessageChannel, Worker } from 'node:worker_threads';
import { FakeSheet, type FakeRange } from './fake-sheet.js';

const FETCH_CHILD = fileURLToPath(new URL('./fetch-child.mjs', import.meta.url));
const EXECUTION = fileURLToPath(new URL('./gas-execution.mjs', import.meta.url));
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

/**
 * The document lock: one holder at a time across executions. Free, it is taken at once; held by
 * another execution (recalculateInParallel), tryLock answers when it is released or the wait is over.
 */
class DocumentLock {
  /** How many times an execution found the lock held and waited (executions that overlapped). */
  waited = 0;
  private holder: object | null = null;
  private readonly waiting: (() => void)[] = [];

  /** One execution's LockService.getDocumentLock(). */
  view() {
    const me = {};
    const take = (ms: number): boolean | Promise<boolean> => {
      if (this.holder === null || this.holder === me) return !!(this.holder = me);
      this.waited++;
      return new Promise((resolve) => {
        const wake = () => {
          if (this.holder !== null) return void this.waiting.push(wake);
          clearTimeout(timer);
          this.holder = me;
          resolve(true);
        };
        const timer = setTimeout(() => {
          this.waiting.splice(this.waiting.indexOf(wake), 1);
          resolve(false);
        }, ms);
        this.waiting.push(wake);
      });
    };
    return {
      tryLock: take,
      waitLock: async (ms: number) => {
        if (!(await take(ms))) throw new Error('Exception: Lock timeout: another process was holding the lock for too long.');
      },
      hasLock: () => this.holder === me,
      releaseLock: () => {
        if (this.holder !== me) return;
        this.holder = null;
        this.waiting.shift()?.();
      },
    };
  }
}

/** A custom function cell to recalculate: where it is, its function and the arguments Sheets passes it. */
export interface CellCall {
  a1: string;
  name: string;
  args: unknown[];
}

/** Whether a value is a service object (methods to call), not data to copy. */
const isService = (v: unknown): v is object =>
  typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof Date) && (Object.getPrototypeOf(v) !== Object.prototype || Object.values(v).some((x) => typeof x === 'function'));

export class AddonWorld {
  readonly requests: HttpRequest[] = [];
  /** The Content-Encoding of each answer as it came over the wire (UrlFetchApp decodes it, as this stand-in's fetch does). */
  readonly encodings: (string | null)[] = [];
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
  readonly documentLock = new DocumentLock();
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

  /**
   * Recalculates cells as Sheets does after a fill-down: each cell an execution of its own (a fresh
   * global scope, its cell the active range), `parallel` of them at the same time, in worker threads
   * (gas-execution.mjs) whose services are this world's: the sheet, caches, properties, the one
   * document lock and the real HTTP fetches. Each answer is the function's value, or its error's message.
   */
  async recalculateInParallel(cells: readonly CellCall[], parallel = 8): Promise<unknown[]> {
    const answers: unknown[] = new Array(cells.length);
    const objects = new Map<number, object>();
    let nextHandle = 0;
    const register = (o: object) => (objects.set(++nextHandle, o), nextHandle);
    const wrap = (v: unknown): object => (isService(v) ? { handle: register(v) } : Array.isArray(v) && v.some(isService) ? { items: v.map(wrap) } : { value: v });
    const base = this.services();
    const rootsFor = (a1: string): Record<string, number> => {
      const range = this.sheet.getRange(a1);
      const book = { ...base.SpreadsheetApp.getActiveSpreadsheet(), getActiveRange: () => range, getActiveSheet: () => this.sheet };
      const lock = this.documentLock.view();
      const services = {
        ...base,
        SpreadsheetApp: { ...base.SpreadsheetApp, getActiveSpreadsheet: () => book, getActiveSheet: () => this.sheet, getActiveRange: () => range },
        LockService: { getDocumentLock: () => lock, getScriptLock: () => lock },
      };
      return Object.fromEntries(Object.entries(services).filter(([k]) => k !== 'Utilities').map(([k, o]) => [k, register(o)]));
    };
    let next = 0;
    const workers = Array.from({ length: Math.min(parallel, cells.length) }, () => {
      const flag = new SharedArrayBuffer(4);
      const { port1, port2 } = new MessageChannel();
      const worker = new Worker(EXECUTION, { workerData: { code: join(this.dir, 'Code.js'), flag, port: port2 }, transferList: [port2] });
      const signal = new Int32Array(flag);
      port1.on('message', async ({ handle, method, args }: { handle: number; method: string; args: unknown[] }) => {
        let reply: object;
        try {
          const target = objects.get(handle) as Record<string, (...a: unknown[]) => unknown>;
          reply = wrap(await target[method](...args));
        } catch (e) {
          reply = { error: (e as Error).message };
        }
        port1.postMessage(reply);
        Atomics.store(signal, 0, 1);
        Atomics.notify(signal, 0);
      });
      return new Promise<void>((resolve, reject) => {
        const run = () => {
          if (next === cells.length) return void worker.terminate().then(() => (port1.close(), resolve()));
          const index = next++;
          const { a1, name, args } = cells[index];
          worker.postMessage({ index, name, args, roots: rootsFor(a1) });
        };
        worker.on('message', (m: { index: number; value?: unknown; error?: string }) => {
          answers[m.index] = 'error' in m ? m.error : m.value;
          run();
        });
        worker.on('error', reject);
        run();
      });
    });
    await Promise.all(workers);
    return answers;
  }

  /** Names of the top-level functions Code.js declares. */
  globals(): string[] {
    return Object.keys(this.context).filter((k) => typeof this.context[k] === 'function');
  }

  private fetch(list: { url: string; params: FetchParams }[]) {
    for (const { url } of list)
      if (!this.whitelist.some((prefix) => url.startsWith(prefix))) throw new Error(`Exception: Script does not have permission to fetch ${url}: not in urlFetchWhitelist`);
    const wire = list.map(({ url, params }) => {
      // UrlFetchApp asks for compressed answers and hands the script the decoded text.
      const headers: Record<string, string> = { 'Accept-Encoding': 'gzip, deflate, br', ...(params.headers ?? {}) };
      if (params.contentType) headers['Content-Type'] = params.contentType;
      const method = (params.method ?? 'get').toUpperCase();
      this.requests.push({ method, url, headers, body: params.payload === undefined ? undefined : JSON.parse(params.payload) });
      return { url, method, headers, body: params.payload };
    });
    const out = execFileSync(process.execPath, [FETCH_CHILD], { input: JSON.stringify(wire), maxBuffer: 256 * 1024 * 1024 });
    return (JSON.parse(out.toString('utf8')) as ChildResponse[]).map((r, i) => {
      if (r.failure !== undefined) throw new Error(`Exception: Address unavailable: ${list[i].url} (${r.failure})`);
      this.encodings.push(r.headers?.['content-encoding'] ?? null);
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
    // One lock for the document, shared by every execution (those of recalculateInParallel run at the same time).
    const lock = () => world.documentLock.view();
    const book = {
      getSheetByName: (name: string) => world.sheets.get(name) ?? null,
      insertSheet(name: string) {
        if (world.sheets.has(name)) throw new Error(`Exception: A sheet with the name "${name}" already exists.`);
        const sheet = new FakeSheet(name);
        world.sheets.set(name, sheet);
        return sheet;
      },
      deleteSheet(sheet: FakeSheet) {
        world.sheets.delete(sheet.getName());
      },
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
