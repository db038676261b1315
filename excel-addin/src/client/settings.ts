/**
 * Where the add-in's settings live: OfficeRuntime.storage (shared by the task pane and the custom
 * functions in the shared runtime, kept per add-in on the user's machine). Outside Office (unit
 * tests, a plain browser) a memory store stands in.
 */
/// <reference types="office-runtime" />

export interface KeyValueStore {
  getItem(key: string): Promise<string | null>;
  setItem(key: string, value: string): Promise<void>;
  removeItem(key: string): Promise<void>;
}

export interface Settings {
  /** Origin of the landed API, without a trailing slash: `https://landed.example.com`. */
  baseUrl: string;
  key: string;
  /** Whether this key answered a connection test (the pane shows its settings first until one has). */
  keyWorks: boolean;
}

/** keyWorks holds the tail of the key that worked, so saving another key makes it false by itself. */
export const STORAGE_KEYS = { baseUrl: 'landed.baseUrl', key: 'landed.apiKey', keyWorks: 'landed.keyWorks' } as const;
const keyTail = (key: string) => key.slice(-8);

export function memoryStore(initial: Record<string, string> = {}): KeyValueStore {
  const m = new Map(Object.entries(initial));
  return {
    getItem: async (k) => m.get(k) ?? null,
    setItem: async (k, v) => void m.set(k, v),
    removeItem: async (k) => void m.delete(k),
  };
}

export function officeStore(): KeyValueStore {
  return typeof OfficeRuntime !== 'undefined' && OfficeRuntime.storage ? OfficeRuntime.storage : memoryStore();
}

/** `https://host/` → `https://host`; text that is not an http(s) URL → empty. */
export function normaliseBaseUrl(input: string): string {
  const s = input.trim().replace(/\/+$/, '');
  try {
    const u = new URL(s);
    return u.protocol === 'https:' || u.protocol === 'http:' ? s : '';
  } catch {
    return '';
  }
}

export async function readSettings(store: KeyValueStore, defaultBaseUrl: string): Promise<Settings> {
  const [baseUrl, stored, works] = await Promise.all([store.getItem(STORAGE_KEYS.baseUrl), store.getItem(STORAGE_KEYS.key), store.getItem(STORAGE_KEYS.keyWorks)]);
  const key = (stored ?? '').trim();
  return { baseUrl: normaliseBaseUrl(baseUrl || defaultBaseUrl), key, keyWorks: key !== '' && works === keyTail(key) };
}

/** Remembers that the saved key answered. */
export async function markKeyWorks(store: KeyValueStore, key: string): Promise<void> {
  await store.setItem(STORAGE_KEYS.keyWorks, keyTail(key));
}

export async function writeSettings(store: KeyValueStore, s: Pick<Settings, 'baseUrl' | 'key'>): Promise<void> {
  const baseUrl = normaliseBaseUrl(s.baseUrl);
  await (baseUrl ? store.setItem(STORAGE_KEYS.baseUrl, baseUrl) : store.removeItem(STORAGE_KEYS.baseUrl));
  const key = s.key.trim();
  await (key ? store.setItem(STORAGE_KEYS.key, key) : store.removeItem(STORAGE_KEYS.key));
}
